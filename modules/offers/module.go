// Package offers is the panel's offers and games from a third-party offers provider (an
// offerwall): the /offers page and the v3 offers_and_games calls, the provider adapter
// (provider.go: the protocol, httpprovider.go: its HTTP client), the lists kept 5000 ms per
// panel, country, language and device (spec section 9), click tracking, issue reports, and
// the signed server-to-server postbacks that credit members through the ledger, or reverse a
// credit, exactly once.
package offers

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

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

// Deps are what the module needs from the app.
type Deps struct {
	DB      *gorm.DB
	Kit     *web.Kit
	Log     *slog.Logger
	Guard   Guard // needed by Routes only
	Ledger  Ledger
	Limiter *ratelimit.Limiter
	// Country is the signed-in member's country (ISO 3166 alpha-2), "" when unknown; the
	// provider lists offers for it. nil: always unknown.
	Country func(c fiber.Ctx) string
	// NewProvider makes a panel's provider from its configuration (default: the HTTP client of
	// the protocol, NewHTTPProvider, with a 10 s timeout).
	NewProvider func(ProviderConfig) Provider
	// CacheTTL bounds how long a panel's provider configuration is kept per process.
	CacheTTL time.Duration
	Now      func() time.Time // nil: time.Now
}

type Module struct {
	kit     *web.Kit
	svc     *Service
	guard   Guard
	country func(c fiber.Ctx) string
}

// PagePath is the member's offers and games page.
const PagePath = "/offers"

// sealPurpose derives the key that seals providers' secrets.
const sealPurpose = "offers-provider-secrets"

// New builds the module and adds the offers section to the navigation of panels with a
// provider.
func New(d Deps) *Module {
	if d.DB == nil || d.Kit == nil || d.Ledger == nil || d.Limiter == nil {
		panic("offers: Deps.DB, Kit, Ledger and Limiter are required")
	}
	sealer, err := web.NewSealer(d.Kit.Secret(sealPurpose))
	if err != nil {
		panic(fmt.Errorf("offers: %w", err)) // Kit.Secret is always 32 bytes
	}
	log := cmp.Or(d.Log, slog.Default())
	now := d.Now
	if now == nil {
		now = time.Now
	}
	newProvider := d.NewProvider
	if newProvider == nil {
		client := &http.Client{Timeout: 10 * time.Second}
		newProvider = func(cfg ProviderConfig) Provider { return NewHTTPProvider(cfg, client) }
	}
	svc := &Service{
		db: d.DB, store: NewStore(d.DB), ledger: d.Ledger, sealer: sealer, limiter: d.Limiter, newProvider: newProvider,
		configs: &configCache{ttl: cmp.Or(d.CacheTTL, time.Minute), byID: map[string]configEntry{}},
		cache:   &listCache{entries: map[string]listEntry{}}, log: log, now: now,
	}
	country := d.Country
	if country == nil {
		country = func(fiber.Ctx) string { return "" }
	}
	m := &Module{kit: d.Kit, svc: svc, guard: d.Guard, country: country}
	d.Kit.AddNav(web.NavEntry{Href: PagePath, Icon: "offers", LabelID: "nav.offers", Order: 25, Show: m.showNav})
	return m
}

// Service exposes the logic to app wiring (demo data, tests, the CLI).
func (m *Module) Service() *Service { return m.svc }

// EraseMember erases what the module keeps of a member whose account closes (profile's
// Eraser), in the closing transaction; their credits still held for review are refused (their
// balance goes with the account).
func (m *Module) EraseMember(_ context.Context, tx *gorm.DB, participantID string) error {
	if err := m.svc.store.refuseHoldsOf(tx, participantID, m.svc.now().UTC()); err != nil {
		return err
	}
	return m.svc.store.Erase(tx, participantID)
}

// showNav shows the offers section on panels with a provider.
func (m *Module) showNav(c fiber.Ctx) bool {
	p := web.PanelOf(c)
	if p == nil {
		return false
	}
	ok, err := m.svc.Enabled(c.Context(), p.ID)
	if err != nil {
		m.svc.log.Warn("offers: provider not loaded for the navigation", "panel", p.Key, "err", err)
		return false
	}
	return ok
}

// Routes lists the module's pages and calls.
func (m *Module) Routes(r fiber.Router) {
	private := m.guard.Private()
	api := m.guard.RequireMember()

	// The member's page: offers and games as cards, one offer's page (view-offer), the link
	// that starts it (start-offer, then off to the provider) and the issue report form.
	r.Get(PagePath, private, m.page)
	r.Get(PagePath+"/view/:id", private, m.viewPage)
	r.Get(PagePath+"/start/:id", private, web.SameSiteGET, m.startLink)
	r.Post(PagePath+"/rows/:id/report", private, m.reportSubmit)

	// Panel-instance API, v3 (spec section 7): the member's rows, and the provider's games,
	// offers, view-offer, start-offer and report-issue, which Canvass calls for the member.
	v3 := "/api/v3/offers_and_games/"
	r.Get(v3+"paged", api, m.apiPaged)
	r.Get(v3+"offers", api, m.apiList(KindOffer))
	r.Get(v3+"games", api, m.apiList(KindGame))
	r.Post(v3+"view-offer", api, m.apiView)
	r.Post(v3+"start-offer", api, m.apiStart)
	r.Post(v3+"report-issue", api, m.apiReport)

	// The provider's server-to-server postback, signed with the panel's postback secret.
	r.Get("/api/v1/:instanceCode/offers/postback", web.InstanceGuard, m.postback)
}

// TrackingIDs is the profile's trackingIds (profile.Tracking): hasOffersId, the member's
// sub-id at the panel's provider, on panels with one.
func (m *Module) TrackingIDs(ctx context.Context, panel *web.Panel, participantID string) (map[string]string, error) {
	ok, err := m.svc.Enabled(ctx, panel.ID)
	if err != nil || !ok {
		return map[string]string{}, err
	}
	sub, err := m.svc.SubID(ctx, panel.ID, participantID)
	if err != nil {
		return nil, err
	}
	return map[string]string{"hasOffersId": sub}, nil
}
