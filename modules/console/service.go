package console

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/google/uuid"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/hotp"
	"github.com/pquerna/otp/totp"
	"gorm.io/gorm"
)

// PanelRef is what the console knows of a panel.
type PanelRef struct {
	ID   string
	Key  string
	Name string
}

// Panels lists every panel (the consumer's interface: app wiring reads them from tenancy).
type Panels func(ctx context.Context) ([]PanelRef, error)

// Session lengths: an idle console session ends after IdleTimeout, any after AbsoluteTimeout.
const (
	IdleTimeout     = 30 * time.Minute
	AbsoluteTimeout = 12 * time.Hour
	// RecoveryCodes is how many single-use codes an enrolment gives.
	RecoveryCodes = 10
	totpIssuer    = "Canvass console"
)

var (
	// ErrBadEmail and ErrBadRole refuse an operator's details before anything is written.
	ErrBadEmail    = errors.New("not an email address")
	ErrBadRole     = errors.New("role must be one of owner, editor, finance, support")
	ErrBadPassword = fmt.Errorf("password must be %d to %d characters", accounts.MinPasswordLength, accounts.MaxPasswordLength)
	ErrBadCode     = errors.New("the code is not valid")
	ErrLastOwner   = errors.New("a panel keeps at least one owner")
)

// Service holds the console's rules over its store.
type Service struct {
	store      *Store
	panels     Panels
	production bool
	now        func() time.Time
}

func NewService(store *Store, panels Panels, production bool) *Service {
	return &Service{store: store, panels: panels, production: production, now: time.Now}
}

// TOTPRequired: production operators must enrol before they may act.
func (s *Service) TOTPRequired() bool { return s.production }

// Actor is who writes an audit entry: a signed-in operator, or the command line.
type Actor struct {
	OperatorID string
	Email      string
}

// CLI is the actor of `canvass operators add`.
var CLI = Actor{Email: "cli"}

// ActorOf is an operator as an audit actor.
func ActorOf(op *Operator) Actor { return Actor{OperatorID: op.ID, Email: op.Email} }

// Audit appends one entry; before and after are marshalled to JSON (nil: none).
func (s *Service) Audit(ctx context.Context, who Actor, panelID, action, target string, before, after any) error {
	return s.auditTx(ctx, nil, who, panelID, action, target, before, after)
}

// auditTx appends the entry through tx (nil: on its own): inside a write's transaction, the entry and the write
// land together or not at all.
func (s *Service) auditTx(ctx context.Context, tx *gorm.DB, who Actor, panelID, action, target string, before, after any) error {
	enc := func(v any) (string, error) {
		if v == nil {
			return "", nil
		}
		b, err := json.Marshal(v)
		return string(b), err
	}
	b, err := enc(before)
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	a, err := enc(after)
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	e := &AuditEntry{
		ID: id.String(), At: s.now().UTC(), OperatorID: who.OperatorID, OperatorEmail: who.Email,
		PanelID: panelID, Action: action, Target: target, BeforeJSON: b, AfterJSON: a,
	}
	return s.store.AppendAudit(ctx, tx, e)
}

// NormalizeEmail lower-cases and trims an address; "" when it is not one.
func NormalizeEmail(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return ""
	}
	return s
}

// NewPassword is a generated password: 20 base32 characters (100 bits).
func NewPassword() string { return strings.ToLower(randomBase32(20)) }

func randomBase32(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)[:n]
}

// AddResult says what AddOperator did.
type AddResult struct {
	Operator *Operator
	Created  bool // a new operator; Password is theirs when the caller gave none
	Password string
	Granted  bool // false when they already held the role there
}

// AddOperator gives email the role on the panel, creating the operator first when there is
// none (with password, or a generated one returned once). Audited as operator.add.
func (s *Service) AddOperator(ctx context.Context, who Actor, email string, role Role, panelID, password string) (AddResult, error) {
	var res AddResult
	email = NormalizeEmail(email)
	if email == "" {
		return res, ErrBadEmail
	}
	if _, ok := ParseRole(string(role)); !ok {
		return res, ErrBadRole
	}
	op, err := s.store.OperatorByEmail(ctx, email)
	switch {
	case errors.Is(err, ErrNotFound):
		if password == "" {
			password = NewPassword()
			res.Password = password
		}
		if n := len([]rune(password)); n < accounts.MinPasswordLength || n > accounts.MaxPasswordLength {
			return res, ErrBadPassword
		}
		hash, err := accounts.HashPassword(password)
		if err != nil {
			return res, err
		}
		op = &Operator{ID: uuid.NewString(), Email: email, PasswordHash: hash, CreatedAt: s.now().UTC()}
		if err := s.store.CreateOperator(ctx, op); err != nil {
			return res, err
		}
		res.Created = true
	case err != nil:
		return res, err
	}
	res.Operator = op
	res.Granted, err = s.store.AddGrant(ctx, Grant{OperatorID: op.ID, PanelID: panelID, Role: role, CreatedAt: s.now().UTC()})
	if err != nil {
		return res, err
	}
	if res.Granted {
		err = s.Audit(ctx, who, panelID, "operator.add", email, nil, map[string]any{"email": email, "role": role, "created": res.Created})
	}
	return res, err
}

// RemoveGrant takes a role on a panel away from an operator; the last owner stays.
func (s *Service) RemoveGrant(ctx context.Context, who Actor, panelID, operatorID string, role Role) error {
	op, err := s.store.OperatorByID(ctx, operatorID)
	if err != nil {
		return err
	}
	if role == RoleOwner {
		n, err := s.store.CountRole(ctx, panelID, RoleOwner)
		if err != nil {
			return err
		}
		if n <= 1 {
			return ErrLastOwner
		}
	}
	removed, err := s.store.RemoveGrant(ctx, Grant{OperatorID: operatorID, PanelID: panelID, Role: role})
	if err != nil {
		return err
	}
	if !removed {
		return ErrNotFound
	}
	return s.Audit(ctx, who, panelID, "operator.remove", op.Email, map[string]any{"email": op.Email, "role": role}, nil)
}

// Authenticate checks an email and password; nil without an error when they do not match.
// An unknown email costs the same argon2id work as a wrong password.
func (s *Service) Authenticate(ctx context.Context, email, password string) (*Operator, error) {
	op, err := s.store.OperatorByEmail(ctx, NormalizeEmail(email))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	hash := accounts.TimingDummyHash() // an unknown email takes as long as a known one
	if op != nil {
		hash = op.PasswordHash
	}
	ok, err := accounts.CheckPassword(hash, password)
	if err != nil {
		return nil, fmt.Errorf("operator login: %w", err)
	}
	if op == nil || !ok {
		return nil, nil
	}
	return op, nil
}

// HashToken is how a session token is kept: its SHA-256.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// StartSession opens a session at a stage and returns its token (the cookie's value).
func (s *Service) StartSession(ctx context.Context, op *Operator, stage string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("session token: %w", err)
	}
	token := hex.EncodeToString(b)
	now := s.now().UTC()
	err := s.store.CreateSession(ctx, &Session{
		TokenHash: HashToken(token), OperatorID: op.ID, Stage: stage, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(AbsoluteTimeout),
	})
	return token, err
}

// StageAfterPassword is where a correct password leads.
func (s *Service) StageAfterPassword(op *Operator) string {
	switch {
	case op.TOTPSecret != "":
		return StageTOTP
	case s.production:
		return StageEnrol
	default:
		return StageFull
	}
}

// SweepSessions deletes the sessions that ended (idle, or past their absolute end) and never
// came back to be ended on use; the periodic clean-up job runs it.
func (s *Service) SweepSessions(ctx context.Context, now time.Time) (int64, error) {
	return s.store.DeleteExpiredSessions(ctx, now, now.Add(-IdleTimeout))
}

// Resume finds a live session by its token, ends it when idle or past its absolute end,
// and moves its idle clock on.
func (s *Service) Resume(ctx context.Context, token string) (*Session, *Operator, error) {
	if token == "" {
		return nil, nil, ErrNotFound
	}
	hash := HashToken(token)
	sess, err := s.store.SessionByHash(ctx, hash)
	if err != nil {
		return nil, nil, err
	}
	now := s.now().UTC()
	if !now.Before(sess.ExpiresAt) || !now.Before(sess.LastSeenAt.Add(IdleTimeout)) {
		if err := s.store.DeleteSession(ctx, hash); err != nil {
			return nil, nil, err
		}
		return nil, nil, ErrNotFound
	}
	op, err := s.store.OperatorByID(ctx, sess.OperatorID)
	if err != nil {
		return nil, nil, err
	}
	if now.Sub(sess.LastSeenAt) > time.Minute {
		if err := s.store.TouchSession(ctx, hash, now); err != nil {
			return nil, nil, err
		}
	}
	return sess, op, nil
}

// EndSession deletes the session of a token.
func (s *Service) EndSession(ctx context.Context, token string) error {
	return s.store.DeleteSession(ctx, HashToken(token))
}

// CheckSecondFactor accepts a current TOTP code or an unused recovery code (spent here).
func (s *Service) CheckSecondFactor(ctx context.Context, op *Operator, code string) (bool, error) {
	code = strings.ReplaceAll(strings.TrimSpace(code), " ", "")
	if op.TOTPSecret == "" || code == "" {
		return false, nil
	}
	if len(code) == 6 {
		step, ok := s.totpStep(op.TOTPSecret, code)
		if !ok {
			return false, nil
		}
		return s.store.SpendTOTPStep(ctx, op.ID, step)
	}
	return s.store.UseRecoveryCode(ctx, op.ID, hashRecoveryCode(code), s.now().UTC())
}

// totpPeriod and totpSkew: a code is 30 seconds' (RFC 6238's default), and the one before and
// after it are accepted too, for clocks that drift and codes typed slowly.
const (
	totpPeriod = 30
	totpSkew   = 1
)

// totpStep is the time step (RFC 6238's counter) code is the code of, within the skew of now.
// The caller spends it (Store.SpendTOTPStep): a code, like the step it belongs to, signs in
// once, and no earlier step is accepted after it (RFC 6238 §5.2).
func (s *Service) totpStep(secret, code string) (int64, bool) {
	now := s.now().UTC().Unix() / totpPeriod
	for step := now - totpSkew; step <= now+totpSkew; step++ {
		ok, err := hotp.ValidateCustom(code, uint64(step), secret, hotp.ValidateOpts{Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
		if err == nil && ok {
			return step, true
		}
	}
	return 0, false
}

// Enrolment is the TOTP secret shown to enrol: as text and as an otpauth URI.
type Enrolment struct {
	Secret string
	URI    string
}

// BeginEnrol gives the session's pending secret, making one when it has none, so a reload
// shows the same secret the authenticator may already hold.
func (s *Service) BeginEnrol(ctx context.Context, sess *Session, op *Operator) (Enrolment, error) {
	opts := totp.GenerateOpts{Issuer: totpIssuer, AccountName: op.Email}
	if sess.PendingTOTPSecret != "" {
		raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(sess.PendingTOTPSecret)
		if err != nil {
			return Enrolment{}, fmt.Errorf("pending totp secret: %w", err)
		}
		opts.Secret = raw
	}
	key, err := totp.Generate(opts)
	if err != nil {
		return Enrolment{}, fmt.Errorf("totp secret: %w", err)
	}
	if sess.PendingTOTPSecret == "" {
		if err := s.store.SetPendingTOTP(ctx, sess.TokenHash, key.Secret()); err != nil {
			return Enrolment{}, err
		}
		sess.PendingTOTPSecret = key.Secret()
	}
	return Enrolment{Secret: key.Secret(), URI: key.URL()}, nil
}

// FinishEnrol confirms the session's pending secret with a code from the authenticator, and
// returns the recovery codes, shown once.
func (s *Service) FinishEnrol(ctx context.Context, sess *Session, op *Operator, code string) ([]string, error) {
	if sess.PendingTOTPSecret == "" {
		return nil, ErrBadCode
	}
	step, ok := s.totpStep(sess.PendingTOTPSecret, strings.TrimSpace(code))
	if !ok {
		return nil, ErrBadCode
	}
	codes := make([]string, RecoveryCodes)
	hashes := make([]string, RecoveryCodes)
	for i := range codes {
		c := strings.ToLower(randomBase32(10))
		codes[i] = c[:5] + "-" + c[5:]
		hashes[i] = hashRecoveryCode(codes[i])
	}
	if err := s.store.EnrolTOTP(ctx, op.ID, sess.PendingTOTPSecret, step, hashes); err != nil {
		return nil, err
	}
	if err := s.store.SetPendingTOTP(ctx, sess.TokenHash, ""); err != nil {
		return nil, err
	}
	op.TOTPSecret = sess.PendingTOTPSecret
	return codes, s.Audit(ctx, ActorOf(op), "", "operator.totp_enrol", op.Email, map[string]any{"totp": false}, map[string]any{"totp": true, "recoveryCodes": RecoveryCodes})
}

// hashRecoveryCode keeps a code as SHA-256 of its normalised form (any case, dash or not).
func hashRecoveryCode(code string) string {
	code = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(code), "-", ""))
	sum := sha256.Sum256([]byte("recovery\x00" + code))
	return hex.EncodeToString(sum[:])
}

// UnusedRecoveryCodes counts an operator's codes left.
func (s *Service) UnusedRecoveryCodes(ctx context.Context, operatorID string) (int64, error) {
	return s.store.UnusedRecoveryCodes(ctx, operatorID)
}

// PanelAccess is a panel an operator may act on, with their roles there.
type PanelAccess struct {
	Panel PanelRef
	Roles []Role
}

// Can reports whether the operator may do action on the panel.
func (a PanelAccess) Can(action Action) bool { return RolesAllow(a.Roles, action) }

// Access lists the panels an operator holds any role on, in the panels' order.
func (s *Service) Access(ctx context.Context, operatorID string) ([]PanelAccess, error) {
	grants, err := s.store.GrantsOf(ctx, operatorID)
	if err != nil {
		return nil, err
	}
	panels, err := s.panels(ctx)
	if err != nil {
		return nil, err
	}
	var out []PanelAccess
	for _, p := range panels {
		var roles []Role
		for _, g := range grants {
			if g.PanelID == p.ID {
				roles = append(roles, g.Role)
			}
		}
		if len(roles) > 0 {
			slices.SortFunc(roles, func(a, b Role) int { return slices.Index(Roles, a) - slices.Index(Roles, b) })
			out = append(out, PanelAccess{Panel: p, Roles: roles})
		}
	}
	return out, nil
}

// Decision is what a console route answers an operator.
type Decision int

const (
	// Hidden: no such panel, or one the operator holds no role on (404: never tell which).
	Hidden Decision = iota
	// Forbidden: a panel of theirs, an action their roles there do not allow (403).
	Forbidden
	Allowed
)

// Can decides whether an operator may do action on the panel of that key, and returns the
// panel's access when they hold any role there.
func (s *Service) Can(ctx context.Context, op *Operator, panelKey string, action Action) (Decision, PanelAccess, error) {
	access, err := s.Access(ctx, op.ID)
	if err != nil {
		return Hidden, PanelAccess{}, err
	}
	for _, a := range access {
		if a.Panel.Key == panelKey {
			if a.Can(action) {
				return Allowed, a, nil
			}
			return Forbidden, a, nil
		}
	}
	return Hidden, PanelAccess{}, nil
}

// GrantsOn lists a panel's operators and roles.
func (s *Service) GrantsOn(ctx context.Context, panelID string) ([]PanelGrant, error) {
	return s.store.GrantsOn(ctx, panelID)
}

// AuditLog reads entries (newest first).
func (s *Service) AuditLog(ctx context.Context, f AuditFilter) ([]AuditEntry, error) {
	return s.store.Audit(ctx, f)
}
