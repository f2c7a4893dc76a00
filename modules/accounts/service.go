package accounts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Session lifetimes: a session idles out after 14 days and ends after 90 whatever happens.
const (
	sessionIdle     = 14 * 24 * time.Hour
	sessionAbsolute = 90 * 24 * time.Hour
	touchEvery      = 5 * time.Minute
	resetTTL        = time.Hour
	validationTTL   = 7 * 24 * time.Hour
)

// Login limits: failures per account and per IP in a 15-minute window.
const (
	loginWindow          = 15 * time.Minute
	maxFailuresAccount   = 5
	maxFailuresIP        = 30
	maxMailsPerHour      = 5
	maxEmailLength       = 254
	validationMailWindow = time.Hour
)

// A name and a username are one line of at most these many characters (the profile module
// holds its edits to the same).
const (
	MaxNameLength     = 100
	MaxUsernameLength = 40
)

// Service is the accounts logic: no Fiber, no templ, only the store, the limiter and mail.
type Service struct {
	store   *Store
	limiter *ratelimit.Limiter
	tasks   Tasks // nil: background tasks run at once, in the request
	mail    mailer.Sender
	mails   *Mails
	log     *slog.Logger
	now     func() time.Time
	social  *social.Client
	// onboarding, when plugged in, takes new identities of panels with onboarding campaigns.
	onboarding Onboarding
	// panels finds a forgot-password task's panel by its key (SetPanels).
	panels Panels
	// joinHooks, when plugged in, follows sign-ups through invitations and partner codes.
	joinHooks JoinHooks
	// logins, when set, hears each login's outcome (metrics.go).
	logins LoginObserver
}

// RegisterInput is the sign-up payload.
type RegisterInput struct {
	Email          string `json:"email"`
	Password       string `json:"password"`
	Username       string `json:"username"`
	FirstName      string `json:"firstName"`
	LastName       string `json:"lastName"`
	LanguageCode   string `json:"languageCode"`
	AcceptTerms    bool   `json:"acceptedTermsConditions"`
	InviteID       string `json:"inviteId"`
	Affiliate      string `json:"affiliate"` // a partner's code (join_hooks.go)
	ParentFrameURL string `json:"parentFrameUrl"`
	CaptchaToken   string `json:"captchaToken"`
}

// Client is where a request came from, kept on its session: the app that asked (X-App-Name)
// and, from a widget, the page that framed it (parentFrameUrl; checkParentFrameURL).
type Client struct {
	IP             string
	UserAgent      string
	AppName        string
	ParentFrameURL string
	// Device, Invite and Affiliate are the browser's DeviceCookie and the invitation and
	// partner code its join page was opened with (join_hooks.go), for the join hooks.
	Device, Invite, Affiliate string
}

// Issued is a new session: the raw pp-token (shown once) and the member it signs in.
type Issued struct {
	Token  string
	Member *web.Member
}

var emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

// NormalizeEmail trims and lower-cases an email for uniqueness.
func NormalizeEmail(e string) string { return strings.ToLower(strings.TrimSpace(e)) }

func validEmail(e string) bool {
	if e == "" || len(e) > maxEmailLength || !emailRE.MatchString(e) {
		return false
	}
	a, err := mail.ParseAddress(e)
	return err == nil && a.Address == e
}

func checkPassword(field, pw string) *web.Error {
	n := utf8.RuneCountInString(pw)
	switch {
	case pw == "":
		return web.Invalid(field, "error.required", nil)
	case n < MinPasswordLength:
		return web.Invalid(field, "error.password_too_short", map[string]any{"Min": MinPasswordLength})
	case n > MaxPasswordLength:
		return web.Invalid(field, "error.password_too_long", map[string]any{"Max": MaxPasswordLength})
	}
	return nil
}

// CheckText refuses a one-line text that holds a line break or a NUL, or is longer than max,
// adding the refusal to e (nil: a new error).
func CheckText(e *web.Error, field, v string, max int) *web.Error {
	var id string
	var data map[string]any
	switch {
	case strings.ContainsRune(v, 0):
		id = "error.bad_characters"
	case strings.ContainsAny(v, "\r\n"):
		id = "error.single_line"
	case utf8.RuneCountInString(v) > max:
		id, data = "error.too_long", map[string]any{"Max": max}
	default:
		return e
	}
	if e == nil {
		return web.Invalid(field, id, data)
	}
	return e.Also(field, id, data)
}

// Register creates the account holder and participant and signs them in.
func (s *Service) Register(ctx context.Context, panel *web.Panel, in RegisterInput, lang string, client Client) (*Issued, error) {
	email := NormalizeEmail(in.Email)
	var verr *web.Error
	if !validEmail(email) {
		verr = web.Invalid("email", "error.invalid_email", nil)
	}
	if perr := checkPassword("password", in.Password); perr != nil {
		if verr == nil {
			verr = perr
		} else {
			verr.Details = append(verr.Details, perr.Details...)
		}
	}
	in.Username, in.FirstName, in.LastName = strings.TrimSpace(in.Username), strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)
	verr = CheckText(verr, "username", in.Username, MaxUsernameLength)
	verr = CheckText(verr, "firstName", in.FirstName, MaxNameLength)
	verr = CheckText(verr, "lastName", in.LastName, MaxNameLength)
	client.ParentFrameURL = in.ParentFrameURL // kept on the account holder and its first session
	verr = checkParentFrameURL(verr, client.ParentFrameURL)
	if verr != nil {
		return nil, verr
	}
	langCode := in.LanguageCode
	if langCode == "" || !panel.Offers(langCode) {
		langCode = lang
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	ah := &AccountHolder{
		ID: uuid.NewString(), PanelID: panel.ID, Email: strings.TrimSpace(in.Email), EmailNormalized: email,
		PasswordHash: hash, Username: in.Username, FirstName: in.FirstName, LastName: in.LastName,
		LanguageCode: langCode, Status: StatusActive, CreatedAt: now, UpdatedAt: now,
		JoinAppName: client.AppName, JoinParentFrameURL: client.ParentFrameURL,
	}
	if in.AcceptTerms {
		ah.AcceptedTermsAt = &now
	}
	md := Metadata{"siteId": panel.Key}
	if in.InviteID != "" && len(in.InviteID) <= 64 {
		md["inviteId"] = in.InviteID
	}
	p := &Participant{ID: uuid.NewString(), AccountHolderID: ah.ID, PanelID: panel.ID, Metadata: md, CreatedAt: now}
	if err := s.checkJoin(ctx, panel, joinOf(ah, nil, client, in.InviteID, in.Affiliate)); err != nil {
		return nil, err
	}
	if err := s.store.CreateMember(ctx, ah, p); err != nil {
		if errors.Is(err, ErrEmailTaken) {
			return nil, web.Invalid("email", "error.email_taken", nil).WithCode("email_already_used")
		}
		return nil, err
	}
	s.joined(ctx, panel, joinOf(ah, p, client, in.InviteID, in.Affiliate))
	return s.issue(ctx, ah, p, client)
}

func (s *Service) issue(ctx context.Context, ah *AccountHolder, p *Participant, client Client) (*Issued, error) {
	issued, sess := s.newSession(ah, p, client)
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return nil, err
	}
	return issued, nil
}

// newSession is a new session of the participant, not stored yet, with its raw pp-token.
func (s *Service) newSession(ah *AccountHolder, p *Participant, client Client) (*Issued, *Session) {
	token := uuid.NewString()
	now := s.now().UTC()
	sess := &Session{
		ID: uuid.NewString(), TokenHash: hashToken(token), ParticipantID: p.ID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(sessionIdle), UserAgent: truncate(client.UserAgent, 300), IP: truncate(client.IP, 64),
		AppName: client.AppName, ParentFrameURL: client.ParentFrameURL,
	}
	m := member(sess, p, ah)
	m.Token = token
	return &Issued{Token: token, Member: m}, sess
}

// login checks the password; it never tells whether the email exists, and refuses with 429
// once an account or an IP has failed too often. gate is asked, with the failures before
// this attempt, whether it may go on (the captcha; nil: always): see beginLogin.
func (s *Service) login(ctx context.Context, panel *web.Panel, email, password string, client Client, gate LoginGate) (*Issued, error) {
	if err := checkParentFrameURL(nil, client.ParentFrameURL); err != nil {
		return nil, err // before anything is counted: not a failed login
	}
	email = NormalizeEmail(email)
	if email == "" || password == "" {
		e := web.Fail(fiber.StatusBadRequest, "error.login_required", nil)
		if email == "" {
			e.Details = append(e.Details, web.Detail{Field: "email"})
		}
		return nil, e
	}
	if len(email) > maxEmailLength || len(password) > 4*MaxPasswordLength {
		return nil, web.Fail(fiber.StatusUnauthorized, "error.login_failed", nil)
	}
	attempt, err := s.beginLogin(ctx, panel, email, client.IP)
	if err != nil {
		return nil, err
	}
	if gate != nil {
		if err := gate(func() (int, error) { return attempt.prior(ctx, s.limiter) }); err != nil {
			return nil, attempt.undo(ctx, s.limiter, err)
		}
	}
	ah, err := s.store.HolderByEmail(ctx, panel.ID, email)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, attempt.undo(ctx, s.limiter, err)
	}
	hash := TimingDummyHash()
	if ah != nil {
		hash = ah.PasswordHash
	}
	ok, err := CheckPassword(hash, password)
	if err != nil {
		return nil, attempt.undo(ctx, s.limiter, err)
	}
	if ah == nil || !ok || ah.Status == StatusClosed {
		return nil, web.Fail(fiber.StatusUnauthorized, "error.login_failed", nil) // the attempt stays counted
	}
	if err := attempt.succeeded(ctx, s.limiter); err != nil {
		return nil, err
	}
	p, err := s.store.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return nil, err
	}
	return s.issue(ctx, ah, p, client)
}

// Authenticate turns a pp-token into the member it belongs to on this panel, with the other
// modules' rows the joins mask asks for (Store.JoinsWanted).
func (s *Service) Authenticate(ctx context.Context, panel *web.Panel, token string, joins uint) (*web.Member, []func(fiber.Ctx), error) {
	now := s.now().UTC()
	sess, p, ah, keeps, err := s.store.SessionByHash(ctx, hashToken(token), now, joins)
	if err != nil {
		return nil, nil, err
	}
	if p.PanelID != panel.ID || ah.Status == StatusClosed || now.Sub(sess.CreatedAt) > sessionAbsolute {
		return nil, nil, ErrNotFound
	}
	if now.Sub(sess.LastSeenAt) > touchEvery {
		expires := now.Add(sessionIdle)
		if abs := sess.CreatedAt.Add(sessionAbsolute); expires.After(abs) {
			expires = abs
		}
		if err := s.store.TouchSession(ctx, sess.ID, now, expires); err != nil {
			return nil, nil, err
		}
	}
	m := member(sess, p, ah)
	m.Token = token
	return m, keeps, nil
}

// Logout ends one session.
func (s *Service) Logout(ctx context.Context, m *web.Member) error {
	return s.store.DeleteSession(ctx, m.SessionID)
}

func member(sess *Session, p *Participant, ah *AccountHolder) *web.Member {
	return &web.Member{
		ParticipantID: p.ID, AccountHolderID: ah.ID, SessionID: sess.ID, Email: ah.Email, Username: ah.Username,
		LanguageCode: ah.LanguageCode, AcceptedTerms: ah.AcceptedTermsAt != nil, EmailValidated: ah.EmailValidatedAt != nil,
		Status: ah.Status, Metadata: p.Metadata, IsEligibleToRefer: p.IsEligibleToRefer,
	}
}

// Link is where a mailed link points: an origin (scheme://host[:port]) and a path.
type Link struct {
	Origin string
	Path   string
}

// ForgotPassword mails a single-use reset link valid for an hour. Whether the email exists is
// never told: the caller answers the same either way, and in the same time, since the request
// only queues the task that looks the address up (TaskPasswordReset); without a job queue the
// task runs at once.
func (s *Service) ForgotPassword(ctx context.Context, panel *web.Panel, email, lang string, link Link, client Client) error {
	email = NormalizeEmail(email)
	if !validEmail(email) {
		return web.Invalid("email", "error.invalid_email", nil)
	}
	for _, key := range []string{"forgot:acct:" + panel.ID + ":" + email, "forgot:ip:" + client.IP} {
		n, err := s.limiter.Hit(ctx, key, time.Hour)
		if err != nil {
			return err
		}
		if n > maxMailsPerHour*4 || (strings.HasPrefix(key, "forgot:acct:") && n > maxMailsPerHour) {
			return web.Fail(fiber.StatusTooManyRequests, "error.mail_rate_limited", nil)
		}
	}
	req := passwordResetRequest{Panel: panel.Key, Email: email, Lang: lang, Origin: link.Origin, Path: link.Path}
	if s.tasks == nil {
		return s.passwordReset(ctx, panel, req)
	}
	payload, err := json.Marshal(req)
	if err != nil {
		return err
	}
	return migrations.InTx(ctx, s.store.db, func(tx *gorm.DB) error { return s.tasks.QueueTask(tx, TaskPasswordReset, payload) })
}

// Panels finds a panel by its key (tenancy, wired in app/server.go); found is false for none.
type Panels interface {
	Panel(ctx context.Context, key string) (p *web.Panel, found bool, err error)
}

// SetPanels plugs in the panels a forgot-password task finds its panel in; call it while wiring
// the app.
func (m *Module) SetPanels(p Panels) { m.svc.panels = p }

// TaskPasswordReset names the background task of a forgot-password request (RunPasswordReset).
const TaskPasswordReset = "accounts.password_reset"

// passwordResetRequest is a forgot-password request as its task receives it.
type passwordResetRequest struct {
	Panel  string `json:"panel"`
	Email  string `json:"email"`
	Lang   string `json:"lang"`
	Origin string `json:"origin"`
	Path   string `json:"path"`
}

// RunPasswordReset is the task a forgot-password request queued (register it with the job
// queue): the address's account, if it has one, gets a reset link. Run twice (a retry after a
// crash), it mails a second link; either works, until one is used (endMailedLinks).
func (s *Service) RunPasswordReset(ctx context.Context, payload []byte) error {
	var req passwordResetRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		return fmt.Errorf("read password reset task: %w", err)
	}
	if s.panels == nil {
		return errors.New("password reset task: no panels to find it in (SetPanels)")
	}
	panel, found, err := s.panels.Panel(ctx, req.Panel)
	if err != nil || !found {
		return errors.Join(fmt.Errorf("password reset task: panel %q not found", req.Panel), err)
	}
	return s.passwordReset(ctx, panel, req)
}

func (s *Service) passwordReset(ctx context.Context, panel *web.Panel, req passwordResetRequest) error {
	ah, err := s.store.HolderByEmail(ctx, panel.ID, req.Email)
	if errors.Is(err, ErrNotFound) {
		s.log.Info("password reset asked for an unknown email", "panel", panel.Key)
		return nil
	}
	if err != nil {
		return err
	}
	if ah.Status == StatusClosed {
		return nil
	}
	return s.newTokenMailed(ctx, ah.ID, PurposePasswordReset, resetTTL, func(tx *gorm.DB, event, token string) error {
		return s.mails.PasswordReset(tx, event, panel, ah, memberLanguage(ah, panel, req.Lang), req.Origin+req.Path+"?token="+token)
	})
}

// ResetPassword spends a reset token, sets the new password and ends every session of the
// account and every other link mailed to it.
func (s *Service) ResetPassword(ctx context.Context, panel *web.Panel, token, password string) (*AccountHolder, error) {
	if perr := checkPassword("password", password); perr != nil {
		return nil, perr
	}
	t, ah, err := s.liveToken(ctx, panel, PurposePasswordReset, token)
	if err != nil {
		return nil, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return nil, err
	}
	err = s.store.SpendToken(ctx, t, s.now().UTC(), func(tx *gorm.DB) error {
		now := s.now().UTC()
		if err := tx.Model(&AccountHolder{}).Where("id = ?", ah.ID).Updates(map[string]any{"password_hash": hash, "updated_at": now}).Error; err != nil {
			return fmt.Errorf("set password: %w", err)
		}
		if err := tx.Where("participant_id IN (?)", tx.Model(&Participant{}).Select("id").Where("account_holder_id = ?", ah.ID)).Delete(&Session{}).Error; err != nil {
			return fmt.Errorf("end sessions of %s: %w", ah.ID, err)
		}
		return endMailedLinks(tx, ah.ID, now)
	})
	if errors.Is(err, ErrTokenSpent) {
		return nil, web.Fail(fiber.StatusBadRequest, "error.reset_link_invalid", nil).WithCode("token_invalid")
	}
	if err != nil {
		return nil, err
	}
	return ah, s.limiter.Reset(ctx, "login:acct:"+panel.ID+":"+ah.EmailNormalized)
}

// CheckResetToken tells whether a reset link can still be used, before showing its form.
func (s *Service) CheckResetToken(ctx context.Context, panel *web.Panel, token string) error {
	_, _, err := s.liveToken(ctx, panel, PurposePasswordReset, token)
	return err
}

func (s *Service) liveToken(ctx context.Context, panel *web.Panel, purpose, token string) (*AccountToken, *AccountHolder, error) {
	invalid := web.Fail(fiber.StatusBadRequest, "error.reset_link_invalid", nil).WithCode("token_invalid")
	switch purpose {
	case PurposeEmailValidation:
		invalid = web.Fail(fiber.StatusBadRequest, "error.validation_link_invalid", nil).WithCode("token_invalid")
	case PurposeWidgetHandoff:
		invalid = web.Fail(fiber.StatusBadRequest, "error.handoff_invalid", nil).WithCode("token_invalid")
	case PurposeCloseAccount:
		invalid = web.Fail(fiber.StatusBadRequest, "error.close_link_invalid", nil).WithCode("token_invalid")
	}
	if token == "" || len(token) > 100 {
		return nil, nil, invalid
	}
	t, err := s.store.TokenByHash(ctx, purpose, hashToken(token))
	if errors.Is(err, ErrNotFound) {
		return nil, nil, invalid
	}
	if err != nil {
		return nil, nil, err
	}
	if t.UsedAt != nil || !s.now().UTC().Before(t.ExpiresAt) {
		return nil, nil, invalid
	}
	ah, err := s.store.Holder(ctx, t.AccountHolderID)
	if err != nil {
		return nil, nil, err
	}
	if ah.PanelID != panel.ID {
		return nil, nil, invalid
	}
	return t, ah, nil
}

func (s *Service) newToken(ctx context.Context, holderID, purpose string, ttl time.Duration) (string, error) {
	raw := uuid.NewString() + uuid.NewString()
	raw = strings.ReplaceAll(raw, "-", "")
	now := s.now().UTC()
	t := &AccountToken{ID: uuid.NewString(), TokenHash: hashToken(raw), AccountHolderID: holderID, Purpose: purpose, ExpiresAt: now.Add(ttl), CreatedAt: now}
	if err := s.store.CreateToken(ctx, t); err != nil {
		return "", err
	}
	return raw, nil
}

// RequestValidationEmail mails the member a link that validates their email address.
func (s *Service) RequestValidationEmail(ctx context.Context, panel *web.Panel, m *web.Member, lang string, link Link) error {
	if m.EmailValidated {
		return nil
	}
	if err := s.mailAllowed(ctx, "validate:"+m.AccountHolderID, validationMailWindow); err != nil {
		return err
	}
	ah, err := s.store.Holder(ctx, m.AccountHolderID)
	if err != nil {
		return err
	}
	return s.newTokenMailed(ctx, ah.ID, PurposeEmailValidation, validationTTL, func(tx *gorm.DB, event, token string) error {
		return s.mails.ValidateEmail(tx, event, panel, ah, memberLanguage(ah, panel, lang), link.Origin+link.Path+"?token="+token)
	})
}

// ValidateEmail spends a validation token and marks the email validated.
func (s *Service) ValidateEmail(ctx context.Context, panel *web.Panel, token string) error {
	t, ah, err := s.liveToken(ctx, panel, PurposeEmailValidation, token)
	if err != nil {
		return err
	}
	err = s.store.SpendToken(ctx, t, s.now().UTC(), func(tx *gorm.DB) error {
		now := s.now().UTC()
		return tx.Model(&AccountHolder{}).Where("id = ? AND email_validated_at IS NULL", ah.ID).Updates(map[string]any{"email_validated_at": now, "updated_at": now}).Error
	})
	if errors.Is(err, ErrTokenSpent) {
		return web.Fail(fiber.StatusBadRequest, "error.validation_link_invalid", nil).WithCode("token_invalid")
	}
	return err
}

// AcceptTerms records that the member accepted the panel's terms and conditions.
func (s *Service) AcceptTerms(ctx context.Context, m *web.Member) error {
	if m.AcceptedTerms {
		return nil
	}
	return s.store.UpdateHolder(ctx, m.AccountHolderID, map[string]any{"accepted_terms_at": s.now().UTC()})
}

// SetLanguage stores the member's language (the ?lang= switch of a signed-in member).
func (s *Service) SetLanguage(ctx context.Context, m *web.Member, code string) error {
	if m.LanguageCode == code {
		return nil
	}
	return s.store.UpdateHolder(ctx, m.AccountHolderID, map[string]any{"language_code": code})
}

func memberLanguage(ah *AccountHolder, panel *web.Panel, fallback string) string {
	return web.ResolveLanguage(panel, fallback, ah.LanguageCode)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// EnsureMember creates a validated member with accepted terms unless the email already has an
// account on the panel (demo data, operator tooling). Existing members are left as they are.
func (s *Service) EnsureMember(ctx context.Context, panel *web.Panel, in RegisterInput, md Metadata) error {
	email := NormalizeEmail(in.Email)
	if _, err := s.store.HolderByEmail(ctx, panel.ID, email); err == nil {
		return nil
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	ah := &AccountHolder{
		ID: uuid.NewString(), PanelID: panel.ID, Email: in.Email, EmailNormalized: email, PasswordHash: hash,
		FirstName: in.FirstName, LanguageCode: in.LanguageCode, Status: StatusActive,
		AcceptedTermsAt: &now, EmailValidatedAt: &now, CreatedAt: now, UpdatedAt: now,
	}
	meta := Metadata{"siteId": panel.Key}
	for k, v := range md {
		meta[k] = v
	}
	p := &Participant{ID: uuid.NewString(), AccountHolderID: ah.ID, PanelID: panel.ID, Metadata: meta, CreatedAt: now}
	if err := s.store.CreateMember(ctx, ah, p); err != nil && !errors.Is(err, ErrEmailTaken) {
		return err
	}
	return nil
}

// ParticipantByEmail finds the participant id of a panel's member by email (operator tooling).
func (s *Service) ParticipantByEmail(ctx context.Context, panel *web.Panel, email string) (string, error) {
	ah, err := s.store.HolderByEmail(ctx, panel.ID, NormalizeEmail(email))
	if err != nil {
		return "", fmt.Errorf("member %s of panel %s: %w", email, panel.Key, err)
	}
	p, err := s.store.ParticipantOf(ctx, ah.ID)
	if err != nil {
		return "", err
	}
	return p.ID, nil
}

// mailAllowed counts one mail to a member under key and refuses it (429) past maxMailsPerHour
// in the window.
func (s *Service) mailAllowed(ctx context.Context, key string, window time.Duration) error {
	n, err := s.limiter.Hit(ctx, key, window)
	if err != nil {
		return err
	}
	if n > maxMailsPerHour {
		return web.Fail(fiber.StatusTooManyRequests, "error.mail_rate_limited", nil)
	}
	return nil
}
