// Package surveys is the survey engine and the survey box: a respondent's run of a campaign
// (go, answers validated per control, routing, quotas, payment once), the survey screen in the
// app, in other sites' iframes and as the widget, signed previews, survey themes and the
// thank-you (with a competition's invitation and the star rating). It keeps each member's
// participations and answers; the catalogue and the audience rule are modules/campaigns'.
package surveys

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Catalogue is what the engine needs of the campaign catalogue: a campaign to preview (or
// only whether it exists), campaigns as lists show them, and the count of a complete
// towards its quotas in the engine's transaction.
type Catalogue interface {
	Campaign(ctx context.Context, panel *web.Panel, id string) (*campaigns.Campaign, error)
	Exists(ctx context.Context, panel *web.Panel, id string) error
	Listings(ctx context.Context, panel *web.Panel, ids []string) (map[string]campaigns.Listing, error)
	CountComplete(tx *gorm.DB, campaignID string, fields, answers map[string]any) (quotaID string, full bool, err error)
}

// Audience is the audience rule the engine asks before a respondent takes a campaign.
type Audience interface {
	CanTake(ctx context.Context, panel *web.Panel, p campaigns.Person, id string) (*campaigns.Taking, error)
}

// Feed is what the thank-you needs of the member feed: after the welcome campaign it opens
// the first other campaign of the member's feed ("" when there is none).
type Feed interface {
	FirstAfter(ctx context.Context, panel *web.Panel, p campaigns.Person, campaignID string) (string, error)
}

// Guard is what the module needs from accounts: the private access classes for pages (in the
// app and framed by other sites) and the signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
	// Framed is the private access class of pages other sites frame (/embed/).
	Framed() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB        *gorm.DB
	Kit       *web.Kit
	Log       *slog.Logger
	Guard     Guard // needed by Routes only
	Catalogue Catalogue
	Audience  Audience
	// Pay credits a member's completion in the engine's transaction (the wallet); nil pays
	// nothing. WelcomeDone marks the welcome campaign completed in the member's profile.
	Pay         Payer
	WelcomeDone WelcomeDone
}

type Module struct {
	kit         *web.Kit
	db          *gorm.DB
	store       *store
	log         *slog.Logger
	guard       Guard
	catalogue   Catalogue
	audience    Audience
	feed        Feed // nil until the feed is plugged in (SetFeed)
	payer       Payer
	welcomeDone WelcomeDone
	now         func() time.Time

	competitions CompetitionEntries // nil until the competitions module is plugged in
	onFinish     []FinishHook       // registered while wiring (OnFinish), before serving
}

func New(d Deps) *Module {
	if d.DB == nil || d.Catalogue == nil || d.Audience == nil {
		panic("surveys: Deps.DB, Catalogue and Audience are required")
	}
	if d.Kit != nil {
		d.Kit.OnPage(continueToCampaign) // 'Continue to my campaign' in the tag analytics
	}
	return &Module{
		kit: d.Kit, db: d.DB, store: &store{db: d.DB}, log: d.Log, guard: d.Guard, catalogue: d.Catalogue,
		audience: d.Audience, payer: d.Pay, welcomeDone: d.WelcomeDone, now: time.Now,
	}
}

// Routes lists the engine's calls and the survey screens.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	// Survey themes are public: GET /api/v1/survey-themes/{id}.
	r.Get("/api/v1/survey-themes/:id", m.apiSurveyThemeByID)
	// Panel-instance API, v3 (no instance code).
	r.Get("/api/v3/participations/paged", api, m.apiParticipations)
	// Panel-instance API, v1 and v2 under the instance code. The guards are given per route:
	// the feed and competitions add calls under the same prefix, and a group's guards would
	// run once for each module's group.
	inst := r.Group("/api/:version<regex(v[12])>/:instanceCode/campaigns")
	inst.Get("/:id/go", web.InstanceGuard, api, m.apiGo)
	inst.Post("/:id/question/:qid", web.InstanceGuard, api, m.apiAnswer)
	inst.Get("/:id/rating", web.InstanceGuard, api, m.apiRating)
	inst.Post("/:id/rating", web.InstanceGuard, api, m.apiRate)
	inst.Get("/:id/survey-theme", web.InstanceGuard, api, m.apiSurveyTheme)
	inst.Get("/:id/follow", web.InstanceGuard, api, m.apiFollow)
	inst.Get("/:id/question/:qid/iframe", web.InstanceGuard, api, m.apiQuestionIframe)

	// Signed preview links for authors: no sign-in, nothing recorded.
	preview := r.Group("/survey/:campaignUuid/preview/:lang/:exp/:sig")
	preview.Get("/", m.previewPage)
	preview.Get("/go", m.previewGo)
	preview.Post("/question/:qid", m.previewAnswer)
	// The survey screen in the app, embedded in another site's iframe, and as the widget.
	framed := m.guard.Framed()
	for _, s := range screens {
		access := private
		if s.embed {
			access = framed
		}
		r.Get(s.prefix+"/:campaignUuid/leave", access, m.leave)
		r.Get(s.prefix+"/:campaignUuid/*", access, m.surveyPage)
		r.Post(s.prefix+"/:campaignUuid/start", access, m.startSubmit)
		r.Post(s.prefix+"/:campaignUuid/answer", access, m.answerSubmit)
		r.Post(s.prefix+"/:campaignUuid/rating", access, m.ratingSubmit)
		r.Post(s.prefix+"/:campaignUuid/competition", access, m.competitionSubmit)
	}
}

// Finished is a member's run that has just ended in an outcome other modules act on
// (completed, screened, quota full), as finish hooks see it.
type Finished struct {
	Panel           *web.Panel
	CampaignID      string
	ParticipationID string
	ParticipantID   string
	Status          string
	StartedAt       time.Time
	FinishedAt      time.Time
}

// FinishHook acts on a run that ended, inside the engine's transaction that ends it: what it
// writes (a webhook's delivery job, a count) commits with the outcome or not at all, and its
// error undoes the answer (the member may send it again).
type FinishHook func(tx *gorm.DB, f Finished) error

// OnFinish registers a hook for the runs that end completed, screened or quota full; call it
// while wiring the app, before serving.
func (m *Module) OnFinish(h FinishHook) { m.onFinish = append(m.onFinish, h) }

// ended runs the finish hooks for a run that ended in status (its status written) for the
// outcomes they act on, in the engine's transaction.
func (m *Module) ended(tx *gorm.DB, panel *web.Panel, p *Participation, status string, at time.Time) error {
	if status != campaigns.StatusCompleted && status != campaigns.StatusScreened && status != campaigns.StatusQuotaFull {
		return nil
	}
	f := Finished{Panel: panel, CampaignID: p.CampaignID, ParticipationID: p.ID, ParticipantID: p.ParticipantID, Status: status, FinishedAt: at}
	if p.StartedAt != nil {
		f.StartedAt = *p.StartedAt
	}
	for _, h := range m.onFinish {
		if err := h(tx, f); err != nil {
			return fmt.Errorf("after run %s ended %s: %w", p.ID, status, err)
		}
	}
	return nil
}

// SetFeed plugs in the member feed (it depends on this module's standing).
func (m *Module) SetFeed(f Feed) { m.feed = f }
