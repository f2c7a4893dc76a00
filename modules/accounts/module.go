// Package accounts owns account holders, participants, sessions and single-use tokens: sign-up,
// login, logout, password recovery, email validation, terms acceptance, social sign-in, captcha,
// widgets, and the route access classes (private, public-only) with their gates. The member's
// profile and settings are the profile module's, which reads and writes the account through
// this one (members.go).
package accounts

import (
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Deps are what the module needs from the app.
type Deps struct {
	DB      *gorm.DB
	Kit     *web.Kit
	Limiter *ratelimit.Limiter
	Mail    mailer.Sender
	// Outbox queues the account mails with the change that causes them (the job queue);
	// nil sends them at once through Mail (mailer.SendNow).
	Outbox mailer.Outbox
	// Tasks queues the module's own background work (the job queue, whose worker runs it by
	// the handler the app registers: RunPasswordReset); nil does it at once, in the request.
	Tasks Tasks
	Log   *slog.Logger
	// BaseURL, when set, is the origin of mailed links; otherwise the request's origin.
	BaseURL string
	// Social speaks the identity providers' protocols; Captcha checks captcha tokens.
	Social  *social.Client
	Captcha *captcha.Verifier
	// LocalCaptcha mints the development checkbox's tokens when a panel uses the local captcha.
	LocalCaptcha interface{ CheckboxToken(hostname string) string }
	// SignIns is each panel's sign-in providers and captcha (signinconfig); nil: none.
	SignIns SignIns
}

type Module struct {
	kit     *web.Kit
	svc     *Service
	baseURL string
	signIns SignIns
	captcha *captcha.Verifier
	// localCaptcha mints the local development captcha's checkbox tokens (nil outside the demo).
	localCaptcha interface{ CheckboxToken(hostname string) string }
	// profiles builds the profile a login or a sign-up answers with (nil: none; SetProfiles).
	profiles Profiles
}

// Tasks queues background work in the caller's transaction (jobs.Queue).
type Tasks interface {
	QueueTask(tx *gorm.DB, name string, payload []byte) error
}

func New(d Deps) *Module {
	store := NewStore(d.DB)
	if d.Social == nil {
		d.Social = social.New(nil)
	}
	if d.Captcha == nil {
		d.Captcha = captcha.New(nil)
	}
	outbox := d.Outbox
	if outbox == nil {
		outbox = mailer.SendNow{Sender: d.Mail}
	}
	svc := &Service{store: store, limiter: d.Limiter, tasks: d.Tasks, mail: d.Mail, mails: &Mails{outbox: outbox, locales: d.Kit.Locales}, log: d.Log, now: time.Now, social: d.Social}
	m := &Module{
		kit: d.Kit, svc: svc, baseURL: d.BaseURL, signIns: d.SignIns, captcha: d.Captcha, localCaptcha: d.LocalCaptcha,
	}
	d.Kit.OnLanguageSwitch(func(c fiber.Ctx, code string) error {
		return svc.SetLanguage(c.Context(), web.MemberOf(c), code)
	})
	return m
}

// Service exposes the accounts logic to app wiring (demo data, CLI).
func (m *Module) Service() *Service { return m.svc }

// Routes lists every accounts route, grouped by access class.
func (m *Module) Routes(r fiber.Router) {
	public := m.PublicOnly()
	private := m.Private()

	// Public-only pages: a signed-in member is sent to /feed.
	r.Get("/login", public, m.loginPage)
	r.Post("/login", public, m.loginSubmit)
	r.Get("/join", public, m.joinPage)
	r.Post("/join", public, m.joinSubmit)
	r.Get("/join/invite/:inviteId", public, m.joinPage)
	r.Post("/join/invite/:inviteId", public, m.joinSubmit)
	for _, path := range []string{"/forgot-password", "/password-recovery"} {
		r.Get(path, public, m.forgotPage)
		r.Post(path, public, m.forgotSubmit)
	}
	r.Get("/reset-password", public, m.resetPage)
	r.Post("/reset-password", public, m.resetSubmit)
	r.Get("/suspended", m.suspendedPage)

	// Social sign-in: off to the provider, its return (sign in, join or connect), and an
	// identity waiting for a password (link) or an email (join).
	r.Get("/sign-in/link", public, m.linkPage)
	r.Post("/sign-in/link", public, m.linkSubmit)
	r.Post("/sign-in/link/cancel", public, m.linkCancel)
	r.Get("/sign-in/complete", public, m.completePage)
	r.Post("/sign-in/complete", public, m.completeSubmit)
	r.Get("/sign-in/:provider", public, m.signInStart)
	r.Get("/sign-in/:provider/return", m.signInReturn)

	// Widgets: compact login and join screens other sites frame (widgets_pages.go), open to
	// all; and their top-level hand-off to the panel itself.
	r.Get("/widgets/login", m.widgetPage(views.WidgetLogin))
	r.Post("/widgets/login", m.widgetSubmit(views.WidgetLogin))
	r.Get("/widgets/join", m.widgetPage(views.WidgetJoin))
	r.Post("/widgets/join", m.widgetSubmit(views.WidgetJoin))
	r.Post("/widgets/logout", m.widgetLogout)
	r.Get(web.WidgetContinuePath, m.widgetContinue)

	// Open to all.
	r.Get("/logout", m.logoutPage)
	r.Get("/email-validation-done", m.emailValidatedPage)
	r.Get("/validate-email/confirm", m.validateConfirm)

	// Private gate pages (exempt from the gates they are).
	for _, path := range []string{"/accept-terms-and-conditions", "/terms"} {
		r.Get(path, private, m.termsPage)
		r.Post(path, private, m.termsAccept)
	}
	// Connecting a network from the settings page (the page itself is the profile module's).
	r.Get("/settings/connections/:provider", private, m.connectStart)
	r.Post("/settings/connections/:provider/disconnect", private, m.disconnectSubmit)
	r.Get("/validate-email", private, m.validatePage)
	r.Post("/validate-email", private, m.validateResend)

	// Account host API (spec section 7).
	api := m.RequireMember()
	r.Post("/ah/api/v2/user/register", m.apiRegister)
	r.Post("/ah/api/v2/user/login", m.apiLogin)
	r.Post("/ah/api/v1/user/reset-password", m.apiResetPassword)
	r.Post("/ah/api/v2/user/forgot-password", m.apiForgotPassword)
	r.Get("/ah/api/v1/user/logout", m.apiLogout)
	r.Get("/ah/api/v1/user/:id/recaptcha-required", m.apiRecaptchaRequired)
	r.Get("/ah/api/v1/request-validation-email", api, m.apiRequestValidationEmail)
	r.Post("/ah/api/v1/change-password", api, m.apiChangePassword)
	r.Post(handoffAPI, api, m.apiWidgetHandoff)
	// Without a member token these answer the spec's "No token detected".
	r.Post("/ah/api/v1/oauth/:provider/id-token/connect", m.apiConnect)
	r.Post("/ah/api/v1/oauth/disconnect", m.apiDisconnect)
}
