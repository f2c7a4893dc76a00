package accounts

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testPassword = "correct horse battery staple"

// A hash at the server's cost (OWASP's) takes ~50 ms, so the tests share one: this binary's
// own hashes are light (seed lowers the cost for every test binary that imports it).
var testHash = sync.OnceValues(func() (string, error) { return hashPassword(testPassword, owaspCost) })

func sharedHash(t *testing.T) string {
	t.Helper()
	h, err := testHash()
	require.NoError(t, err)
	return h
}

// checkSafely runs CheckPassword and turns a panic into a test failure instead of a crash.
func checkSafely(t *testing.T, hash, password string) (ok bool, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("CheckPassword(%q) panicked: %v", hash, r)
			ok, err = false, fmt.Errorf("panic: %v", r)
		}
	}()
	return CheckPassword(hash, password)
}

func TestAPasswordHashChecksAgainstTheSamePasswordOnly(t *testing.T) {
	t.Parallel()
	hash := sharedHash(t)
	cases := []struct {
		name, password string
		want           bool
	}{
		{"the same password matches", testPassword, true},
		{"a wrong password does not", "correct horse battery stapler", false},
		{"a different case does not", strings.ToUpper(testPassword), false},
		{"an empty password does not", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := CheckPassword(hash, tc.password)
			require.NoError(t, err)
			assert.Equal(t, tc.want, ok)
		})
	}
}

func TestAPasswordHashIsPHCArgon2idWithTheOWASPParameters(t *testing.T) {
	t.Parallel()
	hash := sharedHash(t)
	assert.True(t, strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$"), hash)
	assert.Regexp(t, regexp.MustCompile(`^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`), hash,
		"a 16-byte salt and a 32-byte key, unpadded base64")
	assert.NotContains(t, hash, testPassword)
}

func TestATestBinarysLightHashRecordsItsCostAndIsCheckedAtIt(t *testing.T) {
	t.Parallel()
	require.NotEqual(t, owaspCost, *hashCost.Load(), "seed's init lowered this test binary's cost")
	light, err := HashPassword(testPassword)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(light, "$argon2id$v=19$m=64,t=1,p=1$"), light)
	for _, hash := range []string{light, sharedHash(t)} {
		ok, err := CheckPassword(hash, testPassword)
		require.NoError(t, err)
		assert.True(t, ok, "the right password against %s", hash)
		ok, err = CheckPassword(hash, testPassword+"!")
		require.NoError(t, err)
		assert.False(t, ok, "a wrong password against %s", hash)
	}
}

func TestTheTimingDummyIsAHashAtTheCurrentCostThatNoPasswordMatches(t *testing.T) {
	t.Parallel()
	dummy := TimingDummyHash()
	assert.Equal(t, dummy, TimingDummyHash(), "made once per cost")
	assert.True(t, strings.HasPrefix(dummy, fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$", hashCost.Load().memory, hashCost.Load().time, hashCost.Load().threads)), dummy)
	ok, err := CheckPassword(dummy, testPassword)
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestHashingTheSamePasswordTwiceGivesDifferentSalts(t *testing.T) {
	t.Parallel()
	other, err := HashPassword(testPassword)
	require.NoError(t, err)
	assert.NotEqual(t, sharedHash(t), other)
}

func TestAHashThatIsNotArgon2idIsAnError(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, hash string }{
		{"empty", ""},
		{"plain text", testPassword},
		{"bcrypt", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"},
		{"argon2i instead of argon2id", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"too few parts", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA"},
		{"a version that is not a number", "$argon2id$v=x$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"parameters that are not numbers", "$argon2id$v=19$m=lots,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"a salt that is not base64", "$argon2id$v=19$m=19456,t=2,p=1$!!!not-base64!!!$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"a key that is not base64", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$!!!"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := checkSafely(t, tc.hash, testPassword)
			assert.Error(t, err)
			assert.False(t, ok)
		})
	}
}

func TestACorruptArgon2idHashIsAnErrorNotAPanic(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, hash string }{
		{"zero iterations", "$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"zero parallelism", "$argon2id$v=19$m=19456,t=2,p=0$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"},
		{"an empty key", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := checkSafely(t, tc.hash, "any password at all")
			assert.Error(t, err)
			assert.False(t, ok, "no password may match a corrupt hash")
		})
	}
}
