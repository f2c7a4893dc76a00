// Package campaigns owns the campaign catalogue (authored definitions, import), the member
// feed (eligibility, paging, hide, report, seen), participations and campaign reports.
package campaigns

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Guard is what campaigns needs from accounts: the private access classes for pages (in the
// app and framed by other sites) and the signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
	// Framed is the private access class of pages other sites frame (/embed/).
	Framed() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB    *gorm.DB
	Kit   *web.Kit
	Log   *slog.Logger
	Guard Guard
	// Pay credits a completion in the engine's transaction (the wallet); WelcomeDone marks
	// the welcome campaign completed in the member's profile (accounts).
	Pay         Payer
	WelcomeDone WelcomeDone
}

type Module struct {
	kit   *web.Kit
	db    *gorm.DB
	store *Store
	log   *slog.Logger
	guard Guard
	now   func() time.Time

	reportSources []ReportSource
	payer         Payer
	welcomeDone   WelcomeDone
	competitions  CompetitionEntries // nil until the competitions module is plugged in
}

// ReportSource lists reports another module keeps for a member (the wallet's transaction
// reports), for user/reports.
type ReportSource func(ctx context.Context, participantID string) ([]web.ReportJSON, error)

// AddReports adds a source of reports to user/reports.
func (m *Module) AddReports(s ReportSource) { m.reportSources = append(m.reportSources, s) }

func New(d Deps) *Module {
	return &Module{kit: d.Kit, db: d.DB, store: &Store{db: d.DB}, log: d.Log, guard: d.Guard, now: time.Now, payer: d.Pay, welcomeDone: d.WelcomeDone}
}

// Store owns every GORM call of the module.
type Store struct {
	db *gorm.DB

	cacheMu sync.RWMutex
	cache   map[string]*Campaign // decoded campaigns by id (see Campaign)
}

// Routes lists the campaign APIs and the feed's page actions; the feed page itself is
// served through FeedPage, which the home module mounts at /feed.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	// Survey themes are public: GET /api/v1/survey-themes/{id}.
	r.Get("/api/v1/survey-themes/:id", m.apiSurveyThemeByID)

	// Panel-instance API, v3 (no instance code).
	r.Post("/api/v3/campaigns/paged", api, m.apiPaged)
	r.Get("/api/v3/participations/paged", api, m.apiParticipations)
	r.Get("/api/v3/user/reports", api, m.apiReports)
	// Panel-instance API, campaign calls: v1 and v2 under the instance code.
	inst := r.Group("/api/:version<regex(v[12])>/:instanceCode/campaigns", web.InstanceGuard, api)
	inst.Get("/welcome", m.apiWelcome)
	inst.Get("/:id", m.apiCampaign)
	inst.Post("/:id/seen", m.apiSeen)
	inst.Post("/:id/skip", m.apiSkip)
	inst.Post("/:id/report-broken", m.apiReportBroken)
	// The survey engine.
	inst.Get("/:id/go", m.apiGo)
	inst.Post("/:id/question/:qid", m.apiAnswer)
	inst.Get("/:id/rating", m.apiRating)
	inst.Get("/:id/survey-theme", m.apiSurveyTheme)
	inst.Get("/:id/follow", m.apiFollow)
	inst.Get("/:id/question/:qid/iframe", m.apiQuestionIframe)
	inst.Post("/:id/rating", m.apiRate)

	// The survey screen (the survey engine adds the survey box to it).
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

	// Feed page actions (forms without JavaScript, htmx swaps with it).
	r.Post("/feed/:id/hide", private, m.hideSubmit)
	r.Post("/feed/:id/report", private, m.reportSubmit)
}
