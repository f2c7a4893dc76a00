// Package feed is the member feed: the campaigns a member may take, a page at a time, with
// the welcome campaign first, filters, load more, hide and report; and the spec's campaign
// calls that go with it (campaigns/paged, welcome, one campaign, seen, skip, report-broken,
// user/reports). Which campaigns a member may see is the audience rule's (modules/campaigns);
// a member's marks (seen, hidden) are kept with their participations (modules/surveys).
package feed

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/feed"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Audience is the audience rule the feed lists by.
type Audience interface {
	Visible(ctx context.Context, panel *web.Panel, p campaigns.Person, q campaigns.ListQuery, n, offset int) ([]campaigns.Listing, error)
	CanTake(ctx context.Context, panel *web.Panel, p campaigns.Person, id string) (*campaigns.Taking, error)
}

// Catalogue is what the feed needs of the campaign catalogue besides the audience rule.
type Catalogue interface {
	Exists(ctx context.Context, panel *web.Panel, id string) error
}

// Marks keeps what a member did with a campaign in the feed: seen and hidden, kept with their
// participation by the survey engine. HideTx hides inside the caller's transaction.
type Marks interface {
	MarkSeen(ctx context.Context, panel *web.Panel, participantID, campaignID string) error
	Hide(ctx context.Context, panel *web.Panel, participantID, campaignID string) error
	HideTx(tx *gorm.DB, panel *web.Panel, participantID, campaignID string, at time.Time) error
}

// Guard is what the feed needs from accounts: the private access class for pages and the
// signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB        *gorm.DB
	Kit       *web.Kit
	Log       *slog.Logger
	Guard     Guard // needed by Routes only
	Audience  Audience
	Catalogue Catalogue
	Marks     Marks
}

type Module struct {
	kit       *web.Kit
	store     *store
	log       *slog.Logger
	guard     Guard
	audience  Audience
	catalogue Catalogue
	marks     Marks
	now       func() time.Time

	reportSources []ReportSource
	// blades are the cards another module puts above the feed (SetBlades).
	blades func(c fiber.Ctx) ([]view.Blade, error)
}

// SetBlades sets where the feed page's dismissible cards come from (the referrals module).
// It should read what it needs with the session (web.MemberJoin): the feed page's round trips
// are budgeted (app/roundtrips_test.go).
func (m *Module) SetBlades(fn func(c fiber.Ctx) ([]view.Blade, error)) { m.blades = fn }

func New(d Deps) *Module {
	if d.DB == nil || d.Audience == nil || d.Catalogue == nil || d.Marks == nil {
		panic("feed: Deps.DB, Audience, Catalogue and Marks are required")
	}
	return &Module{
		kit: d.Kit, store: &store{db: d.DB}, log: d.Log, guard: d.Guard, audience: d.Audience,
		catalogue: d.Catalogue, marks: d.Marks, now: time.Now,
	}
}

// ReportSource lists reports another module keeps for a member (the wallet's transaction
// reports), for user/reports.
type ReportSource func(ctx context.Context, participantID string) ([]web.ReportJSON, error)

// AddReports adds a source of reports to user/reports.
func (m *Module) AddReports(s ReportSource) { m.reportSources = append(m.reportSources, s) }

// Routes lists the feed's calls and page actions; the feed page itself is served through
// Page, which the home module mounts at /feed.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	// Panel-instance API, v3 (no instance code).
	r.Post("/api/v3/campaigns/paged", api, m.apiPaged)
	r.Get("/api/v3/user/reports", api, m.apiReports)
	// Panel-instance API, v1 and v2 under the instance code; guards per route (the survey
	// engine and competitions add calls under the same prefix).
	inst := r.Group("/api/:version<regex(v[12])>/:instanceCode/campaigns")
	inst.Get("/welcome", web.InstanceGuard, api, m.apiWelcome)
	inst.Get("/:id", web.InstanceGuard, api, m.apiCampaign)
	inst.Post("/:id/seen", web.InstanceGuard, api, m.apiSeen)
	inst.Post("/:id/skip", web.InstanceGuard, api, m.apiSkip)
	inst.Post("/:id/report-broken", web.InstanceGuard, api, m.apiReportBroken)

	// Feed page actions (forms without JavaScript, htmx swaps with it).
	r.Post("/feed/:id/hide", private, m.hideSubmit)
	r.Post("/feed/:id/report", private, m.reportSubmit)
}
