// Package redemptions turns members' balances into payouts: each panel's redemption options,
// members' payout details (PayPal email, bank account; sealed at rest), the redeem call that
// records a redemption and debits the ledger in one transaction, the operators' lifecycle
// (approve, reject with refund, mark paid) and the /redemptions page.
package redemptions

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Guard is what the module needs from accounts: the private access class for pages and the
// signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
}

// Ledger is what the module needs from the wallet: a debit and a refund inside the module's
// own transaction, and the balance.
type Ledger interface {
	DebitTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
	CreditTx(tx *gorm.DB, mv wallet.Movement) (*wallet.Entry, bool, error)
	Balance(ctx context.Context, panel *web.Panel, participantID string) (wallet.Balance, error)
}

// Eligibility values of the spec's eligibleToRedeem (modules/mobile decides them); only Yes
// and Skip let a member redeem.
const (
	EligibleYes  = "yes"
	EligibleSkip = "skip"
)

// CanRedeem tells whether an eligibleToRedeem value lets the member redeem.
func CanRedeem(value string) bool { return value == EligibleYes || value == EligibleSkip }

// Deps are what the module needs from the app.
type Deps struct {
	DB     *gorm.DB
	Kit    *web.Kit
	Log    *slog.Logger
	Guard  Guard
	Ledger Ledger
	// EligibleToRedeem is the member's eligibleToRedeem value: yes, not-verified,
	// not-verified-mobile, verified-too-recently, reverify or skip (modules/mobile).
	EligibleToRedeem func(ctx context.Context, panel *web.Panel, participantID string) (string, error)
	// PanelByID resolves a redemption's panel for operators' commands (a refund moves money
	// in the panel's currency).
	PanelByID func(ctx context.Context, id string) (*web.Panel, error)
	// PayoutKey is the 32-byte AES-256 key that seals payout details at rest, derived from
	// the app secret (Kit.Secret).
	PayoutKey []byte
}

type Module struct {
	store     *Store
	kit       *web.Kit
	log       *slog.Logger
	guard     Guard
	ledger    Ledger
	eligible  func(ctx context.Context, panel *web.Panel, participantID string) (string, error)
	panelByID func(ctx context.Context, id string) (*web.Panel, error)
	sealer    *web.Sealer
	now       func() time.Time
}

// New builds the module; with a kit it adds the redemptions section to the navigation.
func New(d Deps) *Module {
	if d.DB == nil || d.Kit == nil || d.Ledger == nil || d.EligibleToRedeem == nil || d.PanelByID == nil {
		panic("redemptions: Deps.DB, Kit, Ledger, EligibleToRedeem and PanelByID are required")
	}
	s, err := web.NewSealer(d.PayoutKey)
	if err != nil {
		panic("redemptions: " + err.Error())
	}
	m := &Module{
		store: NewStore(d.DB), kit: d.Kit, log: d.Log, guard: d.Guard, ledger: d.Ledger,
		eligible: d.EligibleToRedeem, panelByID: d.PanelByID, sealer: s, now: time.Now,
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	d.Kit.AddNav(web.NavEntry{Href: "/redemptions", Icon: "rewards", LabelID: "nav.redemptions", Order: 30})
	return m
}

// Routes lists the module's calls and pages.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	// Panel-instance API, v1 and v2 under the instance code (the spec names v2).
	inst := r.Group("/api/:version<regex(v[12])>/:instanceCode/redemptions", web.InstanceGuard, api)
	inst.Get("/settings", m.apiSettings)
	inst.Get("/:id/availability", m.apiAvailability)
	// Panel-instance API, v3: redeem (ARCHITECTURE.md section 4) and the member's redemptions.
	r.Post("/api/v3/redemptions/redeem", api, m.apiRedeem)
	r.Get("/api/v3/redemptions", api, m.apiList)
	r.Get("/api/v3/redemptions/:id", api, m.apiRedemption)
	// Account host: the member's payout details.
	r.Get("/ah/api/v1/paypal-data", api, m.apiPayPal)
	r.Post("/ah/api/v1/paypal-data", api, m.apiSavePayPal)
	r.Get("/ah/api/v1/bank-data", api, m.apiBank)
	r.Post("/ah/api/v1/bank-data", api, m.apiSaveBank)

	// The member's page: plain forms, so it works without JavaScript.
	r.Get("/redemptions", private, m.page)
	// The form posts to the page's own address (a refusal stays on /redemptions); the old
	// address answers too, for a page loaded before it moved.
	r.Post("/redemptions", private, m.pageRedeem)
	r.Post("/redemptions/redeem", private, m.pageRedeem)
	r.Post("/redemptions/paypal-data", private, m.pagePayPal)
	r.Post("/redemptions/bank-data", private, m.pageBank)
}
