// Package web is the shared kit every module may import: the request's panel, member and
// locale, rendering, the error catalogue, CSRF and redirect rules. It imports no other module.
package web

import (
	"github.com/gofiber/fiber/v3"
)

// Panel is the tenant a request belongs to, as resolved from its Host header by the tenancy module.
type Panel struct {
	ID              string // the panel uuid (guid)
	Key             string
	Name            string
	InstanceID      string
	InstanceCode    string
	InstanceKey     string
	CurrencyCode    string
	DefaultLanguage string
	Languages       []Language // in the panel's order
	WebAppName      string
	TermsRequired   bool
	// TermsURL and TermsText are the panel's terms and conditions: a link to its own page of
	// them, and the text by language code (app_settings.terms_url, terms_text).
	TermsURL        string
	TermsText       map[string]string
	EmailValidation bool // app_settings.email_validation_reminder
	// DirectOnboarding: visitors at the root and members with an unvalidated email go to
	// /onboarding (app_settings.direct_onboarding).
	DirectOnboarding bool
	AnalyticsID      string // app_settings.google_analytics_id, as stored (Kit checks it)
	TagManagerID     string // app_settings.google_tag_mngr_id, as stored
	TrackingPixel    string // app_settings.tracking_pixel, as stored (TrackingPixelURL checks it)
	ThemeCSS         string // CSS custom properties for :root
	FontURL          string
	FontFamily       string
	LogoURL          string
	FaviconURL       string
	LoginPageURL     string
	LogoutPageURL    string
	// CTAColor is the panel's call-to-action colour (its theme's, else the default) and CTAText
	// the text that reads on it (WCAG AA), for what cannot use the theme's CSS (mail).
	CTAColor     string
	CTAText      string
	Hosts        []string // the panel's domains, for redirect allow-listing
	EmbedOrigins []string // other origins that may frame /embed/ and /widgets/ (and hear the widgets)
	// WidgetAfter is what the login and join widgets do once the member is in: WidgetAfterFrame
	// (stay in the frame) or WidgetAfterPanel (open the panel itself).
	WidgetAfter string
	// ChangeInstanceTo are the keys of the panels of the same instance its members may move to
	// (app_settings.change_instance_to; spec: can-change-instance, change-instance).
	ChangeInstanceTo []string
	// SignUpsPerIPPerHour bounds the accounts one address opens in an hour
	// (app_settings.sign_ups_per_ip_per_hour).
	SignUpsPerIPPerHour int
	// Layout names the panel's layout (app_settings.layout; "" is the standard one).
	Layout string
}

// DefaultSignUpsPerIPPerHour is the sign-up limit of a panel that sets none: more than a
// household joins in an hour, fewer than a script opening accounts for their bonuses.
const DefaultSignUpsPerIPPerHour = 10

// The panel's choices for app_settings.widget_after; "" is WidgetAfterFrame.
const (
	WidgetAfterFrame = "frame"
	WidgetAfterPanel = "panel"
)

// Language is one language a panel offers.
type Language struct {
	Code      string
	Name      string
	IsDefault bool
}

// Offers tells whether the panel offers a language code.
func (p *Panel) Offers(code string) bool {
	for _, l := range p.Languages {
		if l.Code == code {
			return true
		}
	}
	return false
}

// Member is the signed-in participant of a request.
type Member struct {
	ParticipantID   string // ppUuid
	AccountHolderID string // guid
	SessionID       string
	Email           string
	Username        string
	LanguageCode    string
	AcceptedTerms   bool
	EmailValidated  bool
	Status          string
	Token           string         // the raw pp-token of this request
	Metadata        map[string]any // the profile's metadata (welcomeCampaignCompleted, siteId, ...)
	// IsEligibleToRefer is the profile's isEligibleToRefer (read with the session): the
	// referrals module shows its page and navigation entry to these members.
	IsEligibleToRefer bool
}

// MemberJoin lets a module read its own row of a member in the session query that runs on
// every signed-in request, without the accounts module knowing its table: Columns (SQL over
// alias p, the participant) from the From clause (a LEFT JOIN, so a member without such a row
// still signs in). Scan gives where each column goes and keep, which puts the value read on
// the request. The wallet reads the balance for the top bar this way (docs/contributing.md, Server cost).
//
// A join is read only on requests that change nothing (GET, HEAD: only they may show rows read
// before they began) and, when When is set, only where When holds: the pages that show the row.
// Every other request's session query leaves it out, so no request pays for what it does not
// show. A module must read its row itself where the join was not read.
type MemberJoin struct {
	Columns []string
	From    string
	Scan    func() (dest []any, keep func(c fiber.Ctx))
	When    func(c fiber.Ctx) bool
}

// Wanted tells whether the join is read with this request's session.
func (j *MemberJoin) Wanted(c fiber.Ctx) bool {
	if m := c.Method(); m != fiber.MethodGet && m != fiber.MethodHead {
		return false
	}
	return j.When == nil || j.When(c)
}

type localKey int

const (
	panelKey localKey = iota
	memberKey
	localeKey
	csrfKey
	flashKey
)

// SetPanel is called by the tenancy middleware.
func SetPanel(c fiber.Ctx, p *Panel) { c.Locals(panelKey, p) }

// PanelOf returns the request's panel, or nil before tenancy resolved one.
func PanelOf(c fiber.Ctx) *Panel {
	p, _ := c.Locals(panelKey).(*Panel)
	return p
}

// SetMember is called by the session middleware of the accounts module.
func SetMember(c fiber.Ctx, m *Member) { c.Locals(memberKey, m) }

// MemberOf returns the signed-in member, or nil for a visitor.
func MemberOf(c fiber.Ctx) *Member {
	m, _ := c.Locals(memberKey).(*Member)
	return m
}

// LocaleOf returns the language code chosen for the request ("en" before the locale middleware).
func LocaleOf(c fiber.Ctx) string {
	if l, ok := c.Locals(localeKey).(string); ok && l != "" {
		return l
	}
	return "en"
}

func setLocale(c fiber.Ctx, lang string) { c.Locals(localeKey, lang) }

// AddFlash queues a toast for the page rendered by this request.
func AddFlash(c fiber.Ctx, kind, message string) {
	f, _ := c.Locals(flashKey).([][2]string)
	c.Locals(flashKey, append(f, [2]string{kind, message}))
}

func flashes(c fiber.Ctx) [][2]string {
	f, _ := c.Locals(flashKey).([][2]string)
	return f
}

// InstanceGuard protects /api/v1|v2/:instanceCode routes: another instance's code is a 404,
// so one tenant's API never answers for another's.
func InstanceGuard(c fiber.Ctx) error {
	if err := CheckInstance(c); err != nil {
		return err
	}
	return c.Next()
}

// CheckInstance is InstanceGuard's test: the :instanceCode of the path is the panel's own.
func CheckInstance(c fiber.Ctx) error {
	if p := PanelOf(c); p == nil || c.Params("instanceCode") != p.InstanceCode {
		return NotFound()
	}
	return nil
}
