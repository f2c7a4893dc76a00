// Package wallet owns members' money: the append-only ledger and the balance it sums to,
// the transactions calls and page, the balance in every private page's header and the
// payment notification. Other modules move money only through Credit and Debit (and an
// offers provider's reversals through ReverseTx: see offers.go).
package wallet

import (
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Guard is what the wallet needs from accounts: the private access class for pages and
// the signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB    *gorm.DB
	Kit   *web.Kit
	Log   *slog.Logger
	Guard Guard
	// PanelOf tells a participant's panel, on the given transaction (accounts owns that
	// table). The wallet asks once, when it opens a member's wallet.
	PanelOf func(db *gorm.DB, participantID string) (string, error)
}

type Module struct {
	db    *gorm.DB
	kit   *web.Kit
	log   *slog.Logger
	guard Guard
	now   func() time.Time

	panelOf func(db *gorm.DB, participantID string) (string, error)
}

// New builds the module; with a kit it adds the transactions section to the navigation and
// the balance and payment notification to every private page.
func New(d Deps) *Module {
	m := &Module{db: d.DB, kit: d.Kit, log: d.Log, guard: d.Guard, now: time.Now, panelOf: d.PanelOf}
	if m.panelOf == nil {
		panic("wallet: Deps.PanelOf is required")
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if d.Kit != nil {
		d.Kit.AddNav(web.NavEntry{Href: "/transactions", Icon: "transactions", LabelID: "nav.transactions", Order: 40})
		d.Kit.OnPage(m.pageHeader)
	}
	return m
}

// Routes lists the wallet's calls and pages.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	r.Get(balancePath, api, m.apiBalance)
	r.Get("/api/v3/transactions/paged", api, m.apiPaged)
	r.Get("/api/v3/transactions/full", api, m.apiFull)
	r.Get("/api/v3/transactions/fixed-balance-transfers", api, m.apiTransfers)
	r.Post("/api/v3/transactions/:id/report-broken", api, m.apiReportBroken)

	r.Get("/transactions", private, m.transactionsPage)
	r.Get("/transactions/months/:year<int>/:month<int>", private, m.monthPartial)
	r.Post("/transactions/payment-notification/dismiss", private, m.dismissPayment)
}
