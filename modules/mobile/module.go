// Package mobile owns members' mobile numbers and their verification by SMS code: the spec's
// mobile/validate, verification/sms, mobile/reverify and user/mobile calls, the
// /settings/mobile page, each panel's rules, and the eligibleToRedeem value that
// redemptions ask for (EligibleToRedeem; only Yes and Skip allow redeeming).
package mobile

import (
	"context"
	"log/slog"
	"time"

	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Guard is what the module needs from accounts: the private access class for pages and
// the signed-in requirement for APIs.
type Guard interface {
	Private() fiber.Handler
	RequireMember() fiber.Handler
}

// Deps are what the module needs from the app.
type Deps struct {
	DB      *gorm.DB
	Kit     *web.Kit
	Log     *slog.Logger
	Guard   Guard
	Limiter *ratelimit.Limiter
	// Outbox queues each code's text in the transaction that stores the code (the job
	// queue, which sends it through the SMS provider and reports back through SMSSent and
	// SMSFailed). Nil: Sender sends it at once, inside that transaction (the module's tests,
	// tools without a queue).
	Outbox Outbox
	// Sender delivers the codes when there is no Outbox (NewSender builds one from
	// CANVASS_SMS_URL).
	Sender Sender
}

type Module struct {
	kit   *web.Kit
	guard Guard
	svc   *Service
}

// New builds the module. The codes' HMAC key is derived from the app secret by the kit.
func New(d Deps) *Module {
	if d.Kit == nil || (d.Sender == nil && d.Outbox == nil) || d.Limiter == nil || d.DB == nil {
		panic("mobile: Deps.DB, Kit, Limiter and Outbox or Sender are required")
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	store := NewStore(d.DB)
	outbox := d.Outbox
	if outbox == nil {
		outbox = sendNow{sender: d.Sender, store: store}
	}
	svc := &Service{
		store: store, limiter: d.Limiter, outbox: outbox, key: d.Kit.Secret("mobile-sms-code"),
		limits: DefaultLimits, log: log, now: time.Now,
		message: func(lang, app, code string) string {
			return d.Kit.Locales.Translate(lang, "mobile.sms_body", map[string]any{"App": app, "Code": code}, nil)
		},
	}
	return &Module{kit: d.Kit, guard: d.Guard, svc: svc}
}

// SenderFromURL is the Sender for CANVASS_SMS_URL; an empty URL logs the codes instead,
// with a warning in production, where members would never get them.
func SenderFromURL(rawURL string, production bool, log *slog.Logger) (Sender, error) {
	if rawURL == "" && production && log != nil {
		log.Warn("CANVASS_SMS_URL is empty: SMS codes are written to the log, not sent")
	}
	return NewSender(rawURL, log)
}

// Service exposes the logic to app wiring (demo data, tests).
func (m *Module) Service() *Service { return m.svc }

// EligibleToRedeem is the member's eligibleToRedeem value: Yes, NotVerified,
// NotVerifiedMobile, VerifiedTooRecently, Reverify or Skip. Redeeming is allowed for Yes
// and Skip only (CanRedeem).
func (m *Module) EligibleToRedeem(ctx context.Context, panel *web.Panel, participantID string) (string, error) {
	return m.svc.Eligibility(ctx, panel, participantID)
}

// Routes lists the module's calls and pages.
func (m *Module) Routes(r fiber.Router) {
	api := m.guard.RequireMember()
	private := m.guard.Private()

	// Account host API (spec section 7). The spec makes three of them GETs that change
	// state, so those also refuse requests another site could have made (web.SameSiteGET).
	r.Get("/ah/api/v1/mobile/validate", api, web.SameSiteGET, m.apiValidate)
	r.Post("/ah/api/v1/verification/sms", api, m.apiSend)
	r.Get("/ah/api/v1/verification/sms", api, web.SameSiteGET, m.apiCheck)
	r.Get("/ah/api/v1/mobile/reverify", api, web.SameSiteGET, m.apiReverify)
	r.Get("/ah/api/v1/user/mobile", api, m.apiMobile)

	// The member's page; plain forms, so it works without JavaScript.
	r.Get("/settings/mobile", private, m.page)
	r.Post("/settings/mobile/number", private, m.pageNumber)
	r.Post("/settings/mobile/code", private, m.pageCode)
	r.Post("/settings/mobile/resend", private, m.pageResend)
	r.Post("/settings/mobile/reverify", private, m.pageReverify)
}
