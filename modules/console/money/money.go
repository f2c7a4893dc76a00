// Package consolemoney is the operator console's money part (issue 21, part 4): the redemption
// queue (filter, approve, reject with a refund, mark paid, one by one or in bulk; payout
// details revealed only on an explicit, audited action), ledger adjustments with a reason,
// competitions drawn and verified, the daily payouts and credits summary with its CSV, and offer
// credits held above the panel's ceiling, approved (paid once) or refused (issue 31, item 10).
// Every page has its JSON API twin under console.APIPrefix. Money moves only through the
// redemptions, wallet and competitions modules, each action idempotent and audited.
package consolemoney

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	consoleviews "github.com/canvass/canvass/views/console"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
)

// Redemptions is what the part needs of the redemptions module.
type Redemptions interface {
	Queue(ctx context.Context, f redemptions.QueueFilter) ([]redemptions.Redemption, bool, error)
	PanelRedemption(ctx context.Context, panelID, id string) (*redemptions.Redemption, []redemptions.Event, error)
	PanelOptions(ctx context.Context, panelID string) ([]redemptions.Option, error)
	Act(ctx context.Context, panelID, id string, to redemptions.Status, operator, reason string) (redemptions.Outcome, error)
	RevealDestination(ctx context.Context, panelID, id string) (*redemptions.Redemption, redemptions.Destination, error)
	Payouts(ctx context.Context, panelID string, from, to time.Time) ([]redemptions.Payout, error)
}

// Wallet is what the part needs of the wallet.
type Wallet interface {
	Adjust(ctx context.Context, panel *web.Panel, participantID, amount, reason, operator, key string) (*wallet.Entry, bool, error)
	Balance(ctx context.Context, panel *web.Panel, participantID string) (wallet.Balance, error)
	Transactions(ctx context.Context, participantID string, q wallet.Query) ([]wallet.Entry, bool, error)
	PanelMember(ctx context.Context, panel *web.Panel, participantID string) (bool, error)
	CreditsByDay(ctx context.Context, panelID string, from, to time.Time) ([]wallet.CreditDay, error)
}

// Competitions is what the part needs of the competitions module.
type Competitions interface {
	List(ctx context.Context, panel *web.Panel) ([]competitions.Summary, error)
	Show(ctx context.Context, panel *web.Panel, competitionID string) (*competitions.Details, error)
	Draw(ctx context.Context, panel *web.Panel, competitionID, operator, reason string, early bool) (*competitions.Draw, error)
	VerifyOn(ctx context.Context, panel *web.Panel, competitionID string) (*competitions.Verification, error)
}

// Deps are the modules the part acts through.
type Deps struct {
	Redemptions  Redemptions
	Wallet       Wallet
	Competitions Competitions
	// Offers is the offers module's credits held above a panel's ceiling.
	Offers OfferHolds
	// Panel resolves a panel by key: its currency and languages (tenancy).
	Panel func(ctx context.Context, key string) (*web.Panel, error)
	// MemberByEmail is the participant id of the panel's member with the email, "" when
	// there is none (accounts).
	MemberByEmail func(ctx context.Context, panel *web.Panel, email string) (string, error)
	Now           func() time.Time
}

// Part is the money part of the console.
type Part struct {
	d Deps
	m *console.Module
}

func New(d Deps) *Part {
	if d.Redemptions == nil || d.Wallet == nil || d.Competitions == nil || d.Offers == nil || d.Panel == nil || d.MemberByEmail == nil {
		panic("consolemoney: every dependency is required")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Part{d: d}
}

// Mount adds the money pages and their API; each route names its action, so the console's
// wrappers sign in, refuse another panel (404) and a role that may not (403).
func (p *Part) Mount(m *console.Module, r, api fiber.Router) {
	p.m = m
	get, post := fiber.MethodGet, fiber.MethodPost

	// Redemptions: the queue, one redemption, actions, the reveal of payout details.
	m.PanelPage(r, get, "/console/panels/:panel/redemptions", console.ActionRedemptions, p.queuePage)
	m.PanelPage(r, post, "/console/panels/:panel/redemptions/bulk", console.ActionRedemptions, p.bulkPage)
	m.PanelPage(r, get, "/console/panels/:panel/redemptions/:id", console.ActionRedemptions, p.redemptionPage)
	m.PanelPage(r, post, "/console/panels/:panel/redemptions/:id/act", console.ActionRedemptions, p.actPage)
	m.PanelPage(r, post, "/console/panels/:panel/redemptions/:id/payout-details", console.ActionRevealPayout, p.revealPage)
	m.PanelAPI(api, get, "/panels/:panel/redemptions", console.ActionRedemptions, p.apiQueue)
	m.PanelAPI(api, post, "/panels/:panel/redemptions/bulk", console.ActionRedemptions, p.apiBulk)
	m.PanelAPI(api, get, "/panels/:panel/redemptions/:id", console.ActionRedemptions, p.apiRedemption)
	for _, a := range []string{"approve", "reject", "mark-paid"} {
		m.PanelAPI(api, post, "/panels/:panel/redemptions/:id/"+a, console.ActionRedemptions, p.apiAct(a))
	}
	m.PanelAPI(api, post, "/panels/:panel/redemptions/:id/payout-details", console.ActionRevealPayout, p.apiReveal)

	// Ledger: a member's balance and entries; an adjustment with a reason.
	m.PanelPage(r, get, "/console/panels/:panel/ledger", console.ActionLedger, p.ledgerPage)
	m.PanelPage(r, post, "/console/panels/:panel/ledger", console.ActionLedger, p.adjustPage)
	m.PanelAPI(api, get, "/panels/:panel/ledger", console.ActionLedger, p.apiLedger)
	m.PanelAPI(api, post, "/panels/:panel/ledger/adjustments", console.ActionLedger, p.apiAdjust)

	// Competitions: the list, one with its draw's proof and verification, the draw.
	m.PanelPage(r, get, "/console/panels/:panel/competitions", console.ActionCompetitions, p.competitionsPage)
	m.PanelPage(r, get, "/console/panels/:panel/competitions/:id", console.ActionCompetitions, p.competitionPage)
	m.PanelPage(r, post, "/console/panels/:panel/competitions/:id/draw", console.ActionCompetitions, p.drawPage)
	m.PanelAPI(api, get, "/panels/:panel/competitions", console.ActionCompetitions, p.apiCompetitions)
	m.PanelAPI(api, post, "/panels/:panel/competitions/:id/draw", console.ActionCompetitions, p.apiDraw)
	m.PanelAPI(api, get, "/panels/:panel/competitions/:id/verification", console.ActionCompetitions, p.apiVerification)

	// The daily summary of payouts and credits, and its CSV.
	m.PanelPage(r, get, "/console/panels/:panel/summary", console.ActionLedger, p.summaryPage)
	m.PanelPage(r, get, "/console/panels/:panel/summary.csv", console.ActionLedger, p.summaryCSV)
	m.PanelAPI(api, get, "/panels/:panel/summary", console.ActionLedger, p.apiSummary)

	// Offer credits held above the panel's ceiling: the list; approve (pays) or refuse one.
	m.PanelPage(r, get, "/console/panels/:panel/offer-holds", console.ActionLedger, p.holdsPage)
	m.PanelPage(r, post, "/console/panels/:panel/offer-holds/:id/approve", console.ActionLedger, p.holdActPage("approve"))
	m.PanelPage(r, post, "/console/panels/:panel/offer-holds/:id/refuse", console.ActionLedger, p.holdActPage("refuse"))
	m.PanelAPI(api, get, "/panels/:panel/offer-holds", console.ActionLedger, p.apiHolds)
	m.PanelAPI(api, post, "/panels/:panel/offer-holds/:id/approve", console.ActionLedger, p.apiHoldAct("approve"))
	m.PanelAPI(api, post, "/panels/:panel/offer-holds/:id/refuse", console.ActionLedger, p.apiHoldAct("refuse"))
}

// panel is the request's panel with its currency and languages.
func (p *Part) panel(c fiber.Ctx, a console.PanelAccess) (*web.Panel, error) {
	panel, err := p.d.Panel(c.Context(), a.Panel.Key)
	if err != nil {
		return nil, fmt.Errorf("panel %s: %w", a.Panel.Key, err)
	}
	return panel, nil
}

func (p *Part) nav(a console.PanelAccess, current string) moneyviews.Nav {
	return moneyviews.Nav{PanelKey: a.Panel.Key, PanelName: a.Panel.Name, Current: current}
}

func (p *Part) shell(c fiber.Ctx) consoleviews.Shell { return p.m.Shell(c) }

func (p *Part) t(c fiber.Ctx, id string, data map[string]any) string { return p.m.T(c, id, data) }

// operator is who acts, as the modules record it: the operator's email.
func operator(c fiber.Ctx) string {
	if op := console.OperatorOf(c); op != nil {
		return op.Email
	}
	return "console"
}

// notFound is a 404 in the request's kind: the console's page, or the API's error JSON.
func notFound(c fiber.Ctx) error {
	if console.IsAPI(c) {
		return web.NotFound()
	}
	return fiber.ErrNotFound
}

// money is an amount as the console shows it: the panel's currency, its decimals, its code.
func money(minor int64, currency string) string {
	return web.MoneyString(minor, currency) + " " + strings.ToUpper(currency)
}

// stamp is a time as the console shows it.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// short is the first part of an id, for reading; the whole id is in the link and the row.
func short(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}

const dayLayout = "2006-01-02"

// parseDay reads a date field (YYYY-MM-DD, UTC); "" is no date.
func parseDay(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(dayLayout, s)
	if err != nil || t.Year() < 2000 || t.Year() > 9999 {
		return time.Time{}, false
	}
	return t, true
}
