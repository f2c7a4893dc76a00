package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"golang.org/x/crypto/argon2"
)

// Password limits: at least 8 characters, at most 128 (comfortably "up to at least 64").
const (
	MinPasswordLength = 8
	MaxPasswordLength = 128
)

// argonCost is the work argon2id puts into a new hash. A hash records its own cost, so a
// hash made at any cost is checked at that cost.
type argonCost struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
}

// owaspCost is OWASP's recommendation (m=19 MiB, t=2, p=1): every hash a server makes.
var owaspCost = argonCost{memory: 19 * 1024, time: 2, threads: 1}

// argonKeyLen is the length of the derived key, at every cost.
const argonKeyLen = 32

// hashCost is the cost of new hashes: owaspCost unless a test binary lowered it.
var hashCost atomic.Pointer[argonCost]

func init() { hashCost.Store(&owaspCost) }

// UseLightPasswordHashing makes this test binary's new hashes cheap (m=64 KiB, t=1): its
// tests sign in and up thousands of times, and at OWASP's cost the hashing was a third of the
// app tests' CPU. The passwords of a test are worth nothing; what the tests check (a hash is
// argon2id, carries its cost, verifies, is refused when wrong) holds at any cost, and the
// format test checks owaspCost itself. Outside a test binary it panics: a server always
// hashes at owaspCost.
func UseLightPasswordHashing() {
	if !testing.Testing() {
		panic("accounts: UseLightPasswordHashing is for test binaries only")
	}
	hashCost.Store(&argonCost{memory: 64, time: 1, threads: 1})
}

// HashPassword returns a PHC-formatted argon2id hash at the current cost.
func HashPassword(password string) (string, error) {
	return hashPassword(password, *hashCost.Load())
}

func hashPassword(password string, cost argonCost) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, cost.time, cost.memory, cost.threads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.memory, cost.time, cost.threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key)), nil
}

// CheckPassword compares a password with a PHC argon2id hash in constant time.
func CheckPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("check password: not an argon2id hash")
	}
	var version int
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil {
		return false, fmt.Errorf("check password: %w", err)
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, fmt.Errorf("check password: %w", err)
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return false, fmt.Errorf("check password: %w", err)
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil {
		return false, fmt.Errorf("check password: %w", err)
	}
	// A corrupt stored hash must be an error, never a panic or a huge allocation.
	if t < 1 || p < 1 || m < 8*uint32(p) || m > 1<<20 || len(salt) < 8 || len(want) < 16 {
		return false, errors.New("check password: argon2id parameters out of range")
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// timingDummies are the hashes checked when an email is unknown, one per cost, so a login
// takes as long either way and never tells whether the email exists.
var timingDummies sync.Map // *argonCost → string

// TimingDummyHash is a hash at the current cost for a sign-in whose account is unknown to
// check instead, so that it takes as long as one whose account exists.
func TimingDummyHash() string {
	cost := hashCost.Load()
	if h, ok := timingDummies.Load(cost); ok {
		return h.(string)
	}
	h, err := hashPassword("canvass-timing-equaliser", *cost)
	if err != nil {
		panic(fmt.Sprintf("accounts: the timing dummy hash: %v", err)) // crypto/rand does not fail
	}
	timingDummies.Store(cost, h)
	return h
}

// ChangePassword checks the current password, sets the new one and ends the member's other sessions.
func (s *Service) ChangePassword(ctx context.Context, m *web.Member, oldPassword, newPassword string) error {
	if perr := checkPassword("newPassword", newPassword); perr != nil {
		return perr
	}
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	ok, err := CheckPassword(ah.PasswordHash, oldPassword)
	if err != nil {
		return err
	}
	if !ok {
		return web.Invalid("oldPassword", "error.old_password_wrong", nil)
	}
	hash, err := HashPassword(newPassword)
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, ah.ID, m.ParticipantID, m.SessionID, hash)
}
