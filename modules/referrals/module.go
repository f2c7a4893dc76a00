// Package referrals is how members come to a panel through others: members invite friends by
// email (the /referrals page and the referrals calls) and are rewarded through the ledger when
// a friend joins and completes the welcome campaign, by each panel's rules; partners' codes
// (affiliates) attribute the members they bring and pay them a sign-up bonus; and the feed's
// dismissible cards (blades) say what is new or waiting. Invitations and codes reach sign-ups
// through accounts' join hooks (accounts.JoinHooks).
package referrals

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/ratelimit"
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

// Mobile says the signed-in member's eligibleToRedeem value (modules/mobile), for the "verify
// your mobile" card; it reads the row the session read when there is one.
type Mobile interface {
	Eligibility(c fiber.Ctx) (string, error)
}

// Addresses tells whether the signed-in member has a postal address (profile, which reads it
// with the session where the cards show: ShowsBlades), for the "complete your address" card.
type Addresses interface {
	MemberHasAddress(c fiber.Ctx) (bool, error)
}

// Deps are what the module needs from the app.
type Deps struct {
	DB      *gorm.DB
	Kit     *web.Kit
	Log     *slog.Logger
	Guard   Guard // needed by Routes only
	Members Members
	Ledger  Ledger
	Mail    mailer.Sender
	// Outbox queues the invitations and thank-yous with the change that causes them (the job
	// queue); nil sends them at once through Mail.
	Outbox  mailer.Outbox
	Limiter *ratelimit.Limiter
	// PanelOf resolves a member's panel by id (a welcome campaign completed is heard without one).
	PanelOf func(ctx context.Context, id string) (*web.Panel, error)
	// BaseURL, when set, is the origin of mailed links; otherwise the request's origin.
	BaseURL string
	// Mobile and Addresses feed their cards; nil leaves a card off.
	Mobile    Mobile
	Addresses Addresses
	// AddressURL is where the address card leads (default /settings).
	AddressURL string
	// CacheTTL bounds how long a panel's rules are kept per process (the panel cache's TTL).
	CacheTTL time.Duration
	Now      func() time.Time // nil: time.Now
}

type Module struct {
	kit        *web.Kit
	svc        *Service
	guard      Guard
	baseURL    string
	mobile     Mobile
	addresses  Addresses
	addressURL string
}

// PagePath is the member's referrals page.
const PagePath = "/referrals"

// New builds the module and adds the referrals section to the navigation, shown to members
// eligible to refer on panels with referrals on.
func New(d Deps) *Module {
	if d.DB == nil || d.Kit == nil || d.Members == nil || d.Ledger == nil || d.Mail == nil || d.Limiter == nil || d.PanelOf == nil {
		panic("referrals: Deps.DB, Kit, Members, Ledger, Mail, Limiter and PanelOf are required")
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	now := d.Now
	if now == nil {
		now = time.Now
	}
	ttl := cmp.Or(d.CacheTTL, time.Minute)
	outbox := d.Outbox
	if outbox == nil {
		outbox = mailer.SendNow{Sender: d.Mail}
	}
	svc := &Service{
		db: d.DB, store: NewStore(d.DB), members: d.Members, ledger: d.Ledger, limiter: d.Limiter, panelOf: d.PanelOf,
		mails:    &Mails{outbox: outbox, locales: d.Kit.Locales},
		settings: &settingsCache{ttl: ttl, byID: map[string]cachedSettings{}},
		locales:  d.Kit.Locales, log: log, now: now,
	}
	m := &Module{
		kit: d.Kit, svc: svc, guard: d.Guard, baseURL: d.BaseURL, mobile: d.Mobile, addresses: d.Addresses,
		addressURL: cmp.Or(d.AddressURL, "/settings"),
	}
	d.Kit.AddNav(web.NavEntry{Href: PagePath, Icon: "referrals", LabelID: "nav.referrals", Order: 50, Show: m.showNav})
	return m
}

// Service exposes the logic to app wiring (the join hooks, the welcome hook, demo data, CLI).
func (m *Module) Service() *Service { return m.svc }

// Routes lists the module's pages and calls.
func (m *Module) Routes(r fiber.Router) {
	private := m.guard.Private()
	api := m.guard.RequireMember()

	// The member's referrals page and its forms (plain forms; they work without JavaScript).
	r.Get(PagePath, private, m.page)
	r.Post(PagePath, private, m.sendSubmit)
	r.Post(PagePath+"/:id/resend", private, m.resendSubmit)
	r.Post(PagePath+"/:id/archive", private, m.archiveSubmit)
	// The feed's cards: dismiss and thank (htmx swaps them out; without JavaScript, back to the feed).
	r.Post("/blades/:id/dismiss", private, m.dismissSubmit)
	r.Post("/blades/:id/thank", private, m.thankSubmit)
	// A partner's code: what it brings, to visitors (join with it) and members (accept it).
	r.Get("/affiliates/:code", m.affiliatePage)
	r.Post("/affiliates/:code/accept", private, m.affiliateAccept)

	// Account host API (spec section 7).
	ah := "/ah/api/v1/"
	r.Post(ah+"referrals/send", api, m.apiSend)
	r.Post(ah+"referrals/resend/:id", api, m.apiResend)
	r.Get(ah+"referrals/stats", api, m.apiStats)
	r.Get(ah+"referrals/pending-invites", api, m.apiInvites(StatePending))
	r.Get(ah+"referrals/accepted-invites", api, m.apiInvites(StateAccepted))
	r.Get(ah+"referrals/archived-invites", api, m.apiInvites(StateArchived))
	r.Get(bladesPath, api, m.apiBlades)
	r.Post(ah+"blades/:id/dismiss", api, m.apiDismiss)
	r.Post(ah+"blades/:id/thank-referrer", api, m.apiThank)
	r.Get(ah+"affiliates/invite/:code", api, m.apiAffiliate)
	r.Post(ah+"affiliates/invite/:code/accept", api, m.apiAffiliateAccept)
}

// showNav: the referrals section shows to a member eligible to refer, on a panel with
// referrals on (the panel's rules are cached: no query).
func (m *Module) showNav(c fiber.Ctx) bool {
	member, panel := web.MemberOf(c), web.PanelOf(c)
	if member == nil || panel == nil || !member.IsEligibleToRefer {
		return false
	}
	st, err := m.svc.Settings(c.Context(), panel)
	return err == nil && st.Enabled
}

// Eligibility applies the panel's eligibility rule to a signed-in member on the pages they
// open (GET), recording it the first time it holds: a member whose email was validated since,
// say, then finds the referrals section without anything else telling this module.
func (m *Module) Eligibility() fiber.Handler {
	return func(c fiber.Ctx) error {
		member, panel := web.MemberOf(c), web.PanelOf(c)
		if member != nil && panel != nil && !member.IsEligibleToRefer && c.Method() == fiber.MethodGet && !web.IsAPI(c) {
			if _, err := m.svc.MarkEligible(c.Context(), panel, member); err != nil {
				// The page is served either way; the next one tries again.
				m.kit.Log.Error("referrals: eligibility", "request_id", c.RequestID(), "err", err)
			}
		}
		return c.Next()
	}
}

// origin is where mailed links point: the configured base URL, else this request's origin.
func (m *Module) origin(c fiber.Ctx) string {
	if m.baseURL != "" {
		return m.baseURL
	}
	return c.Scheme() + "://" + c.Host()
}
