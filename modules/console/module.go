package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	consoleviews "github.com/canvass/canvass/views/console"
	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
	"gorm.io/gorm"
)

// Cookies of the console: host-only (no Domain), HttpOnly, SameSite=Strict, Secure outside
// development. Host-only keeps them to the console host, which serves nothing else.
const (
	SessionCookie = "console_session"
	CSRFCookie    = "console_csrf"
	CSRFField     = "_csrf"
)

// Rate limits: sign-in attempts per client address and per email, second-factor attempts
// per operator, each over a window.
const (
	loginWindow    = 15 * time.Minute
	loginPerIP     = 30
	loginPerEmail  = 10
	factorPerOp    = 10
	languagesOffer = "en"
)

// Deps are what the console needs from the app.
type Deps struct {
	DB      *gorm.DB
	Kit     *web.Kit
	Log     *slog.Logger
	Limiter *ratelimit.Limiter
	Panels  Panels
	// Host is the console's host name (CANVASS_CONSOLE_HOST), compared without its port.
	Host string
	// Development drops the cookies' Secure flag (plain http on localhost).
	Development bool
	// Production requires TOTP before an operator may act.
	Production bool

	// Parts are the console's sections over the other modules (panels, campaigns, money,
	// members): each a package under modules/console/ that mounts its pages and API here.
	Parts []Part
}

// Part is a section of the console: its pages (r) and its JSON API (api, under APIPrefix),
// added through the module's PanelPage and PanelAPI so every route has its action.
type Part interface {
	Mount(m *Module, r, api fiber.Router)
}

// Module serves the console: its own Fiber app, reached only through Gate on the console host.
type Module struct {
	svc     *Service
	kit     *web.Kit
	log     *slog.Logger
	limiter *ratelimit.Limiter
	host    string
	secure  bool
	csrfKey []byte
	app     *fiber.App
	handler fasthttp.RequestHandler
	deps    Deps
	// actions is every panel route's action, by "METHOD path" (pages and API alike), for the
	// authorisation matrix test and the API tokens' scopes.
	actions map[string]Action
}

func New(d Deps) *Module {
	m := &Module{
		svc: NewService(NewStore(d.DB), d.Panels, d.Production), kit: d.Kit, log: d.Log, limiter: d.Limiter,
		host: normalizeHost(d.Host), secure: !d.Development, csrfKey: d.Kit.Secret("console-csrf"),
		deps: d, actions: map[string]Action{},
	}
	m.app = fiber.New(fiber.Config{AppName: "canvass-console", ErrorHandler: m.errorHandler, BodyLimit: 1 << 20})
	m.routes(m.app)
	// Built once here: Fiber adds its HEAD routes at start-up, which must not race a request.
	m.handler = m.app.Handler()
	return m
}

// Service is the console's rules (the CLI and the demo add operators through it).
func (m *Module) Service() *Service { return m.svc }

// Routes are the console's routes, for the accessibility walk's list of pages.
func (m *Module) Routes() []fiber.Route { return m.app.GetRoutes(true) }

// Host is the console's host name.
func (m *Module) Host() string { return m.host }

// Gate answers every request to the console host from the console's own app, before panel
// tenancy sees it; any other host goes on to the panels (where /console/ is no route: 404).
func (m *Module) Gate() fiber.Handler {
	return func(c fiber.Ctx) error {
		if normalizeHost(c.Hostname()) != m.host {
			return c.Next()
		}
		m.handler(c.RequestCtx())
		return nil
	}
}

func normalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(h, ".")
}

type ctxKey int

const (
	sessionKey ctxKey = iota
	operatorKey
	tokenKey
	apiTokenKey
)

func sessionOf(c fiber.Ctx) *Session {
	s, _ := c.Locals(sessionKey).(*Session)
	return s
}

// Full guards a console page that is not a panel's (such as creating a panel): a signed-in
// operator only; the handler decides the rest.
func (m *Module) Full(h fiber.Handler) fiber.Handler { return m.full(h) }

// Render renders a console page (its neutral theme, the console's language, CSRF token).
func (m *Module) Render(c fiber.Ctx, status int, page templ.Component) error {
	return m.kit.RenderPage(c, m.page(c), status, page)
}

// T translates a message into the request's console language.
func (m *Module) T(c fiber.Ctx, id string, data map[string]any) string {
	return m.kit.Locales.Translate(m.lang(c), id, data, nil)
}

// When is a time as the console's pages show it (UTC, like its audit log); "—" for none.
func When(t *time.Time) string {
	if t == nil || t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// TIn translates a message into a language of a panel: what the console writes for the panel's
// own readers (an export's codebook in the panel's default language).
func (m *Module) TIn(lang, id string, data map[string]any) string {
	return m.kit.Locales.Translate(lang, id, data, nil)
}

// Audit appends an entry by whoever acts in the request (operator or API token) to the log.
func (m *Module) Audit(c fiber.Ctx, panelID, action, target string, before, after any) error {
	return m.svc.Audit(c.Context(), actor(c), panelID, action, target, before, after)
}

// Redirect sends a 303 to another console page (after a form post).
func (m *Module) Redirect(c fiber.Ctx, to string) error { return m.redirect(c, to) }

// Shell is what the console's layout shows around a page for this request.
func (m *Module) Shell(c fiber.Ctx) consoleviews.Shell {
	if op := operatorOf(c); op != nil {
		return consoleviews.Shell{Email: op.Email}
	}
	return consoleviews.Shell{}
}

// IsAPI tells whether the request is a console API call (JSON in and out).
func IsAPI(c fiber.Ctx) bool { return isAPI(c) }

// OperatorOf is the request's operator (signed in, or the API token's), nil when none.
func OperatorOf(c fiber.Ctx) *Operator { return operatorOf(c) }

// actor is who acts in a request, for the audit log: the signed-in operator, or the operator
// whose API token the call carries.
func actor(c fiber.Ctx) Actor {
	a := ActorOf(operatorOf(c))
	if t := apiTokenOf(c); t != nil {
		a.Email += " (API token " + t.Name + ")"
	}
	return a
}

func operatorOf(c fiber.Ctx) *Operator {
	o, _ := c.Locals(operatorKey).(*Operator)
	return o
}

func (m *Module) routes(r fiber.Router) {
	// The members' rule for every field (web/input.go): no NUL, invalid UTF-8 or control
	// characters, bounded lengths; after the CSRF check, so a forged post is refused as such.
	r.Use(m.session, m.csrf, m.kit.InputFields())
	r.Get("/", func(c fiber.Ctx) error { return c.Redirect().Status(fiber.StatusFound).To("/console/") })
	r.Get("/console/login", m.loginPage)
	r.Post("/console/login", m.login)
	r.Get("/console/login/totp", m.totpPage)
	r.Post("/console/login/totp", m.totp)
	r.Get("/console/totp/enrol", m.enrolPage)
	r.Post("/console/totp/enrol", m.enrol)
	r.Post("/console/logout", m.logout)
	r.Get("/console/", m.full(m.home))
	m.PanelPage(r, fiber.MethodGet, "/console/panels/:panel/operators", ActionManageOperators, m.operatorsPage)
	m.PanelPage(r, fiber.MethodPost, "/console/panels/:panel/operators", ActionManageOperators, m.addOperator)
	m.PanelPage(r, fiber.MethodPost, "/console/panels/:panel/operators/remove", ActionManageOperators, m.removeOperator)
	r.Get("/console/audit", m.full(m.auditPage))
	r.Get("/console/audit.csv", m.full(m.auditCSV))
	m.PanelPage(r, fiber.MethodGet, "/console/panels/:panel/audit", ActionReadAudit, func(c fiber.Ctx, a PanelAccess) error {
		return c.Redirect().Status(fiber.StatusFound).To("/console/audit?panel=" + url.QueryEscape(a.Panel.Key))
	})
	// The JSON API: operator API tokens only (no cookies, so no CSRF), the same actions.
	api := r.Group(APIPrefix, m.apiAuth)
	m.tokenRoutes(r, api)
	for _, p := range m.deps.Parts {
		if p != nil {
			p.Mount(m, r, api)
		}
	}
}

// APIPrefix is where the console's JSON API lives (on the console host, like its pages).
const APIPrefix = "/console/api"

func isAPI(c fiber.Ctx) bool {
	p := c.Path()
	return p == APIPrefix || strings.HasPrefix(p, APIPrefix+"/")
}

// PanelPage adds a page route on a panel (its path has :panel) for a signed-in operator
// whose roles there allow action; every panel page is registered through it, so the
// authorisation matrix test knows its action.
func (m *Module) PanelPage(r fiber.Router, method, path string, action Action, h func(c fiber.Ctx, a PanelAccess) error) {
	m.actions[method+" "+path] = action
	r.Add([]string{method}, path, m.full(m.panel(action, h)))
}

// PanelAPI adds an API route on a panel under APIPrefix (path relative to it, with :panel),
// for a token whose operator's roles there allow action and whose scopes include it.
func (m *Module) PanelAPI(api fiber.Router, method, path string, action Action, h func(c fiber.Ctx, a PanelAccess) error) {
	m.actions[method+" "+APIPrefix+path] = action
	api.Add([]string{method}, path, m.panel(action, h))
}

// RouteActions is every panel route's action, by "METHOD path".
func (m *Module) RouteActions() map[string]Action { return maps.Clone(m.actions) }

// session reads the console's session cookie; an ended or unknown one is cleared.
func (m *Module) session(c fiber.Ctx) error {
	if isAPI(c) {
		return c.Next() // the API reads its bearer token, never the cookies
	}
	if token := c.Cookies(SessionCookie); token != "" {
		sess, op, err := m.svc.Resume(c.Context(), token)
		switch {
		case err == nil:
			c.Locals(sessionKey, sess)
			c.Locals(operatorKey, op)
			c.Locals(tokenKey, token)
		case errors.Is(err, ErrNotFound):
			m.clearCookie(c, SessionCookie)
		default:
			return err
		}
	}
	return c.Next()
}

func (m *Module) setCookie(c fiber.Ctx, name, value string, maxAge int) {
	c.Cookie(&fiber.Cookie{
		Name: name, Value: value, Path: "/", HTTPOnly: true, Secure: m.secure,
		SameSite: fiber.CookieSameSiteStrictMode, MaxAge: maxAge, SessionOnly: maxAge == 0,
	})
}

func (m *Module) clearCookie(c fiber.Ctx, name string) {
	c.Cookie(&fiber.Cookie{
		Name: name, Value: "", Path: "/", HTTPOnly: true, Secure: m.secure,
		SameSite: fiber.CookieSameSiteStrictMode, Expires: time.Unix(0, 0), MaxAge: -1,
	})
}

// csrf is a synchronizer token: an HMAC of the browser's random CSRF cookie and the session,
// sent in every form; a post without it (or with another's) is refused. With SameSite=Strict
// cookies on top, it is at least as strict as the member app's double-submit token.
func (m *Module) csrf(c fiber.Ctx) error {
	if isAPI(c) {
		return c.Next() // no cookies are read there: nothing for another site to ride on
	}
	if c.Cookies(CSRFCookie) == "" {
		b := make([]byte, 24)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		v := hex.EncodeToString(b)
		m.setCookie(c, CSRFCookie, v, 0)
		c.Request().Header.SetCookie(CSRFCookie, v) // this request's forms carry it already
	}
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead:
		return c.Next()
	}
	sent := c.FormValue(CSRFField)
	if sent == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(m.csrfToken(c))) != 1 {
		return fiber.NewError(fiber.StatusForbidden, "csrf")
	}
	return c.Next()
}

func (m *Module) csrfToken(c fiber.Ctx) string {
	binding := ""
	if s := sessionOf(c); s != nil {
		binding = s.TokenHash
	}
	mac := hmac.New(sha256.New, m.csrfKey)
	mac.Write([]byte(c.Cookies(CSRFCookie) + "\x00" + binding))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// full lets through a fully signed-in operator; anyone else goes to the step they are at.
func (m *Module) full(next fiber.Handler) fiber.Handler {
	return func(c fiber.Ctx) error {
		sess := sessionOf(c)
		switch {
		case sess == nil:
			return m.redirect(c, "/console/login")
		case sess.Stage == StageTOTP:
			return m.redirect(c, "/console/login/totp")
		case sess.Stage == StageEnrol:
			return m.redirect(c, "/console/totp/enrol")
		}
		return next(c)
	}
}

// panel authorises an action on the panel the path names: 404 for a panel the operator holds
// no role on (or none at all), 403 for one whose roles do not allow it.
func (m *Module) panel(action Action, next func(c fiber.Ctx, a PanelAccess) error) fiber.Handler {
	return func(c fiber.Ctx) error {
		d, access, err := m.svc.Can(c.Context(), operatorOf(c), c.Params("panel"), action)
		if err != nil {
			return err
		}
		if d == Allowed && !tokenAllows(c, access, action) {
			d = Forbidden
			if !tokenCovers(c, access) {
				d = Hidden
			}
		}
		switch d {
		case Hidden:
			return fiber.ErrNotFound
		case Forbidden:
			return fiber.ErrForbidden
		}
		return next(c, access)
	}
}

func (m *Module) redirect(c fiber.Ctx, to string) error {
	return c.Redirect().Status(fiber.StatusSeeOther).To(to)
}

// lang is the console's language: the browser's choice among the app's languages.
func (m *Module) lang(c fiber.Ctx) string {
	if l := c.AcceptsLanguages("en", "es", "ru", "zh"); l != "" {
		return l[:2]
	}
	return languagesOffer
}

// page is what the console's templates read: the app's neutral theme (no panel's), the
// console's language and CSRF token.
func (m *Module) page(c fiber.Ctx) *views.Page {
	p := m.kit.Page(c)
	p.Lang = m.lang(c)
	p.Translate = m.kit.Locales.Tr(p.Lang)
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
	p.CSRFToken = m.csrfToken(c)
	return p
}

// errorHandler renders the console's own error page: never the panel's, which needs a panel.
func (m *Module) errorHandler(c fiber.Ctx, err error) error {
	if isAPI(c) {
		return m.apiError(c, err)
	}
	var fe *fiber.Error
	errors.As(err, &fe)
	e := web.AsError(err) // fiber's errors and the modules' *web.Error alike
	status := e.Status
	var key, detail string
	switch {
	case status == fiber.StatusNotFound || status == fiber.StatusMethodNotAllowed:
		status, key = fiber.StatusNotFound, "console.error.not_found"
	case status == fiber.StatusForbidden:
		key = "console.error.forbidden"
		if fe != nil && fe.Message == "csrf" {
			key = "console.error.csrf"
		}
	case status == fiber.StatusTooManyRequests:
		key = "console.error.too_many"
		c.Set(fiber.HeaderRetryAfter, "60")
	case status >= 400 && status < 500:
		// The request itself is wrong (a bad value, too large, a conflict): say what, when the
		// module said it; never a 500 for it.
		key = "console.error.bad_request"
		if _, isFiber := err.(*fiber.Error); !isFiber {
			detail = e.ToAPI(m.kit.Locales.Tr(m.lang(c))).Message
		}
	default:
		status, key = fiber.StatusInternalServerError, "console.error.unexpected"
		m.log.Error("console request failed", "method", c.Method(), "path", c.Path(), "err", err)
	}
	message := m.kit.Locales.Translate(m.lang(c), key, nil, nil)
	if detail != "" {
		message = detail
	}
	return m.kit.RenderPage(c, m.page(c), status, consoleviews.ErrorPage(m.kit.Locales.Translate(m.lang(c), key+"_title", nil, nil), message, operatorOf(c) != nil))
}
