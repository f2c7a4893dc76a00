// Package accounts owns account holders, participants, sessions and single-use tokens: sign-up,
// login, logout, password recovery, email validation, terms acceptance, the profile, and the
// route access classes (private, public-only) with their gates.
package accounts

import (
	"cmp"
	"fmt"
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
	// SignInCacheTTL bounds how long a panel's providers and captcha are kept per process
	// (how long another process's `tenant apply` takes to show).
	SignInCacheTTL time.Duration
	// Storage keeps profile pictures (CANVASS_UPLOADS_DIR on the local disk by default).
	Storage Storage
	// UnsubscribeMailto, when set, is the mailbox bulk mails' List-Unsubscribe also names.
	UnsubscribeMailto string
}

type Module struct {
	kit     *web.Kit
	svc     *Service
	baseURL string
	sealer  *web.Sealer
	signIn  signInCache
	captcha *captcha.Verifier
	// localCaptcha mints the local development captcha's checkbox tokens (nil outside the demo).
	localCaptcha interface{ CheckboxToken(hostname string) string }
}

// Tasks queues background work in the caller's transaction (jobs.Queue).
type Tasks interface {
	QueueTask(tx *gorm.DB, name string, payload []byte) error
}

// signInKeyPurpose derives the key that seals panels' provider and captcha secrets at rest.
const signInKeyPurpose = "accounts-sign-in-secrets"

func New(d Deps) *Module {
	store := NewStore(d.DB)
	sealer, err := web.NewSealer(d.Kit.Secret(signInKeyPurpose))
	if err != nil {
		panic(fmt.Errorf("accounts: %w", err)) // Kit.Secret is always 32 bytes
	}
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
	svc.memberSettings = memberSettings{storage: d.Storage, unsubscribeKey: d.Kit.Secret(unsubscribePurpose), unsubscribeMailto: d.UnsubscribeMailto}
	m := &Module{
		kit: d.Kit, svc: svc, baseURL: d.BaseURL, sealer: sealer, captcha: d.Captcha, localCaptcha: d.LocalCaptcha,
		signIn: signInCache{ttl: cmp.Or(d.SignInCacheTTL, time.Minute), byID: map[string]signInEntry{}},
	}
	d.Kit.AddNav(web.NavEntry{Href: "/settings", Icon: "settings", LabelID: "nav.settings", Order: 90})
	m.JoinMember(pictureJoin()) // the top bar's picture comes with the session
	d.Kit.OnPage(topBarPicture)
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
	// A bulk mail's unsubscribe link (spec section 2: open to all; the hash is the proof), and
	// the mailed link a member without a password closes their account with.
	r.Get("/unsubscribe/:panelUuid/:accountHolderUuid/:hash", m.unsubscribePage)
	r.Post("/unsubscribe/:panelUuid/:accountHolderUuid/:hash", m.unsubscribeSubmit)
	r.Get("/close-account", m.closeLinkPage)
	r.Post("/close-account", m.closeLinkSubmit)

	// Private gate pages (exempt from the gates they are).
	for _, path := range []string{"/accept-terms-and-conditions", "/terms"} {
		r.Get(path, private, m.termsPage)
		r.Post(path, private, m.termsAccept)
	}
	r.Get("/settings", private, m.settingsPage)
	r.Post("/settings", private, m.settingsSave)
	r.Post("/settings/password", private, m.settingsPassword)
	r.Post("/settings/password/mail", private, m.settingsPasswordMail)
	r.Get("/settings/connections/:provider", private, m.connectStart)
	r.Post("/settings/connections/:provider/disconnect", private, m.disconnectSubmit)
	// The rest of the member's settings (sections of the settings page).
	r.Post("/settings/username", private, m.settingsUsername)
	r.Post("/settings/address", private, m.settingsAddress)
	r.Post("/settings/address/lookup", private, m.settingsAddressLookup)
	r.Post("/settings/pictures", private, m.settingsUploadPicture)
	r.Post("/settings/pictures/:key/select", private, m.settingsSelectPicture)
	r.Post("/settings/pictures/:key/delete", private, m.settingsDeletePicture)
	r.Post("/settings/subscriptions", private, m.settingsSubscriptions)
	r.Post("/settings/about", private, m.settingsAbout)
	r.Post("/settings/location", private, m.settingsLocation)
	r.Post("/settings/change-instance", private, m.settingsChangeInstance)
	r.Post("/settings/close-account", private, m.settingsCloseAccount)
	r.Post("/settings/close-account/mail", private, m.settingsCloseLink)
	// A member's own pictures (their owner only; cached for good: the name is the content's hash).
	r.Get(PicturePath+":key", m.servePicture)
	r.Get("/validate-email", private, m.validatePage)
	r.Post("/validate-email", private, m.validateResend)

	// Account host API (spec section 7).
	api := m.RequireMember()
	r.Post("/ah/api/v2/user/register", m.apiRegister)
	r.Post("/ah/api/v2/user/login", m.apiLogin)
	r.Post("/ah/api/v1/user/reset-password", m.apiResetPassword)
	r.Post("/ah/api/v2/user/forgot-password", m.apiForgotPassword)
	r.Get("/ah/api/v1/user/logout", m.apiLogout)
	r.Get("/ah/api/v1/user/profile", api, m.apiProfile)
	r.Post("/ah/api/v1/user/profile", api, m.apiSaveProfile)
	r.Get("/ah/api/v1/user/profile/jwt", api, m.apiProfileJWT)
	r.Get("/ah/api/v1/user/:id/recaptcha-required", m.apiRecaptchaRequired)
	r.Get("/ah/api/v1/request-validation-email", api, m.apiRequestValidationEmail)
	r.Post("/ah/api/v1/change-password", api, m.apiChangePassword)
	r.Post("/ah/api/v1/change-username", api, m.apiChangeUsername)
	r.Get("/ah/api/v1/profile/postal-address", api, m.apiPostalAddress)
	r.Post("/ah/api/v1/profile/postal-address", api, m.apiSavePostalAddress)
	r.Post("/ah/api/v1/user/profile/location", api, m.apiSaveLocation)
	r.Post("/ah/api/v1/user/profile/metadata", api, m.apiSaveMetadata)
	r.Post("/ah/api/v1/user/profile/pic", api, m.apiUploadPicture)
	r.Post("/ah/api/v1/user/profile/pic/:key", api, m.apiSelectPicture)
	r.Delete("/ah/api/v1/user/profile/pic/:key", api, m.apiDeletePicture)
	r.Get("/ah/api/v1/subscriptions", api, m.apiSubscriptions)
	r.Post("/ah/api/v1/subscriptions", api, m.apiSaveSubscriptions)
	r.Get("/ah/api/v1/can-change-instance", api, m.apiCanChangeInstance)
	r.Post("/ah/api/v1/change-instance", api, m.apiChangeInstance)
	r.Post("/ah/api/v1/close-account", api, m.apiCloseAccount)
	// Unsubscribing without signing in: the hash travels as ?hash= (the link's third part).
	r.Get("/ah/api/v1/public/unsubscribe/panel/:panel/ah/:id", m.apiUnsubscribeState)
	r.Post("/ah/api/v1/public/unsubscribe/panel/:panel/ah/:id", m.apiUnsubscribe)
	r.Post(handoffAPI, api, m.apiWidgetHandoff)
	// Without a member token these answer the spec's "No token detected".
	r.Post("/ah/api/v1/oauth/:provider/id-token/connect", m.apiConnect)
	r.Post("/ah/api/v1/oauth/disconnect", m.apiDisconnect)
	// Panel-instance API.
	r.Get("/api/v3/user/profile", api, m.apiProfile)
	r.Get("/api/:version<regex(v[12])>/:instanceCode/subscriptions", web.InstanceGuard, api, m.apiSubscriptions)
	r.Post("/api/:version<regex(v[12])>/:instanceCode/subscriptions", web.InstanceGuard, api, m.apiSaveSubscriptions)
}
