package referrals

import (
	"context"
	"log/slog"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Members is what the module needs of accounts: who a member is (to write to them and apply the
// panel's rules), whether an address has an account, and the profile's isEligibleToRefer.
type Members interface {
	Contact(ctx context.Context, participantID string) (*accounts.Contact, error)
	IsMember(ctx context.Context, panel *web.Panel, email string) (bool, error)
	SetEligibleToRefer(ctx context.Context, participantID string) error
}

// Ledger is what the module needs of the wallet: a credit inside the module's own transaction
// (a reward or a bonus is paid in the transaction that records it).
type Ledger interface {
	CreditTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
}

// Service is the module's logic: no Fiber, no templ.
type Service struct {
	db       *gorm.DB
	store    *Store
	members  Members
	ledger   Ledger
	mails    *Mails
	limiter  *ratelimit.Limiter
	panelOf  func(ctx context.Context, id string) (*web.Panel, error)
	settings *settingsCache
	// locales word the ledger titles, in the member's language.
	locales *web.Locales
	log     *slog.Logger
	now     func() time.Time
}

// Limits of what members write.
const (
	maxEmailLength   = 254
	maxMessageLength = 500
	// resendWindow: an invitation is sent again at most once in it (modules/ratelimit).
	resendWindow = 24 * time.Hour
	// sendWindow is the daily limit's window.
	sendWindow = 24 * time.Hour
)

var emailRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)

func validEmail(e string) bool {
	if e == "" || len(e) > maxEmailLength || !emailRE.MatchString(e) {
		return false
	}
	a, err := mail.ParseAddress(e)
	return err == nil && a.Address == e
}

// Sender is the member who sends an invitation, and from where.
type Sender struct {
	Member *web.Member
	Lang   string // the member's language: the mail's
	Device string // the browser's device cookie ("" for none)
	Origin string // scheme://host of the mailed link
}

// inTx runs fn in a transaction, again when it lost a race (migrations.InTx).
func (s *Service) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, s.db, fn)
}

// eligible is the panel's rule: referrals on, and every condition it sets met.
func eligible(st Settings, welcomeCompleted, emailValidated bool) bool {
	return st.Enabled && (!st.RequireWelcome || welcomeCompleted) && (!st.RequireValidatedEmail || emailValidated)
}

// welcomeDone reads the profile's welcomeCampaignCompleted of a signed-in member.
func welcomeDone(m *web.Member) bool {
	done, _ := m.Metadata["welcomeCampaignCompleted"].(bool)
	return done
}

// CanRefer tells whether a signed-in member may refer now: their flag, or the panel's rule
// (which the next referral action records).
func (s *Service) CanRefer(ctx context.Context, panel *web.Panel, m *web.Member) (bool, Settings, error) {
	st, err := s.Settings(ctx, panel)
	if err != nil {
		return false, st, err
	}
	if !st.Enabled {
		return false, st, nil
	}
	return m.IsEligibleToRefer || eligible(st, welcomeDone(m), m.EmailValidated), st, nil
}

// MarkEligible records the panel's rule for a signed-in member whose flag is not set yet:
// "a referral action marks the user as eligible to refer" (spec section 4). It reports
// whether the member is eligible now.
func (s *Service) MarkEligible(ctx context.Context, panel *web.Panel, m *web.Member) (bool, error) {
	if m.IsEligibleToRefer {
		return true, nil
	}
	ok, _, err := s.CanRefer(ctx, panel, m)
	if err != nil || !ok {
		return false, err
	}
	if err := s.members.SetEligibleToRefer(ctx, m.ParticipantID); err != nil {
		return false, err
	}
	m.IsEligibleToRefer = true
	return true, nil
}

// evaluate applies the panel's rule to a member read from accounts (after a join or a welcome
// campaign completed), setting their flag when it holds.
func (s *Service) evaluate(ctx context.Context, st Settings, c *accounts.Contact) error {
	if c.IsEligibleToRefer || !eligible(st, c.WelcomeCompleted, c.EmailValidated) {
		return nil
	}
	return s.members.SetEligibleToRefer(ctx, c.ParticipantID)
}

// refusal is a 4xx with a message id and a code clients can tell apart.
func refusal(status int, id, code string, data map[string]any) *web.Error {
	return web.Fail(status, id, data).WithCode(code)
}

func errNotEligible() *web.Error {
	return refusal(fiber.StatusForbidden, "error.referral_not_eligible", "not_eligible_to_refer", nil)
}

// checkMessage trims a personal message and checks its length.
func checkMessage(msg string) (string, *web.Error) {
	msg = strings.TrimSpace(msg)
	if utf8.RuneCountInString(msg) > maxMessageLength {
		return "", web.Invalid("message", "error.too_long", map[string]any{"Max": maxMessageLength})
	}
	return msg, nil
}

// translate renders a message in a language (a ledger title is written once, in the member's).
func (s *Service) translate(lang, id string, data map[string]any) string {
	return s.locales.Translate(lang, id, data, nil)
}
