// Package onboarding lets a visitor answer a panel's onboarding campaigns before they become a
// member (spec section 4, Onboarding): a new identity back from a third-party sign-in, a
// visitor of a panel with direct onboarding, or a member of such a panel whose email is not
// validated. It keeps each onboarding on the server under a cookie (the answers, the campaigns
// completed), shows the campaigns in the survey box as a walk, and at the end makes the visitor
// a member through accounts and records their answers as the member's own participations.
// It serves the /onboarding pages, the panel host's onboarding API and the web app's
// onboarding API.
package onboarding

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	viewaccounts "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Accounts is what onboarding needs of accounts: the provider identity waiting in this
// browser, making it a member, and the member's profile flags and mail.
type Accounts interface {
	WaitingIdentity(c fiber.Ctx, provider, userID string) (*accounts.WaitingIdentity, error)
	JoinFromOnboarding(c fiber.Ctx, provider, userID, email string) (*accounts.Issued, error)
	ForgetWaiting(c fiber.Ctx, provider, userID string) error
	MarkOnboardingCompleted(ctx context.Context, participantID string) error
	RequestValidationFor(c fiber.Ctx, member *web.Member) error
	ProviderButtons(c fiber.Ctx, redirect string) ([]viewaccounts.ProviderButton, error)
}

// Audience lists the onboarding campaigns a person may see (the audience rule).
type Audience interface {
	Visible(ctx context.Context, panel *web.Panel, p campaigns.Person, q campaigns.ListQuery, n, offset int) ([]campaigns.Listing, error)
}

// Surveys is the survey engine's walk: where kept answers lead, a step of it, its survey box,
// and recording it as a member's run.
type Surveys interface {
	Resume(ctx context.Context, panel *web.Panel, r surveys.Respondent, id string, answers map[string]json.RawMessage) (*surveys.GoResult, error)
	Step(ctx context.Context, panel *web.Panel, r surveys.Respondent, id, questionID string, raw json.RawMessage, answers map[string]json.RawMessage) (*surveys.GoResult, map[string]json.RawMessage, error)
	Adopt(ctx context.Context, panel *web.Panel, r surveys.Respondent, id string, answers map[string]json.RawMessage) (string, error)
	RenderWalk(c fiber.Ctx, r *surveys.GoResult, status int, w surveys.WalkBox) error
}

// Deps are what the module needs from the app.
type Deps struct {
	DB       *gorm.DB
	Kit      *web.Kit
	Log      *slog.Logger
	Accounts Accounts
	Audience Audience
	Surveys  Surveys
}

type Module struct {
	kit      *web.Kit
	log      *slog.Logger
	store    *store
	accounts Accounts
	audience Audience
	surveys  Surveys
	now      func() time.Time
}

func New(d Deps) *Module {
	if d.DB == nil || d.Accounts == nil || d.Audience == nil || d.Surveys == nil {
		panic("onboarding: Deps.DB, Accounts, Audience and Surveys are required")
	}
	return &Module{kit: d.Kit, log: d.Log, store: &store{db: d.DB}, accounts: d.Accounts, audience: d.Audience, surveys: d.Surveys, now: time.Now}
}

// Routes lists the onboarding pages and APIs.
func (m *Module) Routes(r fiber.Router) {
	// Pages: where onboarding stands (the next campaign, or its last step), each campaign in
	// the survey box with its plain form, and the last step's email form.
	r.Get("/onboarding", m.onboardingPage)
	r.Get("/onboarding/campaigns/:campaignUuid", m.campaignPage)
	r.Post("/onboarding/campaigns/:campaignUuid/answer", m.answerSubmit)
	r.Post("/onboarding/complete", m.completeSubmit)

	// Panel host (spec section 7): the onboarding campaigns, each one's go and answers.
	ph := r.Group("/panel/:panelUuid/onboarding/campaigns")
	ph.Get("/", m.apiCampaigns)
	ph.Get("/:campaignUuid", m.apiCampaign)
	ph.Get("/:campaignUuid/go", m.apiGo)
	ph.Post("/:campaignUuid/:questionUuid", m.apiAnswer)

	// Web app API (spec section 7): the onboarding data, its completion, and the mail again.
	r.Get("/api/v1/onboarding", m.apiOnboarding)
	r.Post("/api/v1/onboarding/completed", m.apiCompleted)
	r.Post("/api/v1/onboarding/resend", m.apiResend)
}
