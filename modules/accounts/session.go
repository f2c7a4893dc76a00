package accounts

import (
	"cmp"
	"errors"
	"net/url"
	"regexp"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views/layouts"
	"github.com/gofiber/fiber/v3"
)

// TokenCookie holds the pp-token in the browser.
const TokenCookie = "pp-token"

// tokenRE is the spec's pp-token rule: hexadecimal digits and dashes only, at most 36 characters.
var tokenRE = regexp.MustCompile(`^[0-9a-fA-F-]{1,36}$`)

// ValidToken tells whether a pp-token follows the spec's rule; any other value counts as absent.
func ValidToken(t string) bool { return tokenRE.MatchString(t) }

// Session reads the pp-token from the pp-token header, a token or pp-token query parameter
// (saved to the cookie and stripped from the address by a redirect on pages), or the cookie,
// and puts the member on the request.
func (m *Module) Session() fiber.Handler {
	return func(c fiber.Ctx) error {
		panel := web.PanelOf(c)
		if panel == nil {
			return c.Next()
		}
		token, source := c.Get("pp-token"), "header"
		if token == "" {
			if q := cmp.Or(c.Query("pp-token"), c.Query("token")); q != "" && !tokenQueryIsPayload(c) {
				token, source = q, "query"
			}
		}
		if token == "" {
			token, source = c.Cookies(TokenCookie), "cookie"
		}
		var member *web.Member
		var keeps []func(fiber.Ctx)
		if token != "" && ValidToken(token) {
			mem, kept, err := m.svc.Authenticate(c.Context(), panel, token, m.svc.store.JoinsWanted(c))
			switch {
			case err == nil:
				member, keeps = mem, kept
			case errors.Is(err, ErrNotFound):
			case web.WorksWithoutDatabase(c.Path()):
				return c.Next()
			default:
				return err
			}
		}
		if source == "cookie" && token != "" && member == nil {
			m.kit.ClearCookie(c, TokenCookie)
		}
		if source == "query" && !web.IsAPI(c) && c.Method() == fiber.MethodGet {
			if member != nil && !m.replacesAnotherSession(c, member) {
				m.setTokenCookie(c, token)
			}
			return c.Redirect().Status(fiber.StatusSeeOther).To(web.WithoutQuery(c, "token", "pp-token", "refresh"))
		}
		if member != nil {
			web.SetMember(c, member)
			// Only a request that changes nothing (GET, HEAD) read joined rows (MemberJoin.Wanted):
			// they are what the database held when the request began.
			for _, keep := range keeps {
				keep(c)
			}
		}
		return c.Next()
	}
}

// replacesAnotherSession tells whether a pp-token brought by a link from another site would
// replace the live session of another member in this browser. The spec's ?pp-token entry stays
// open to links from a tenant's own site, but a link from anywhere must not swap the member a
// browser is signed in as for someone else (login CSRF): the session there is kept.
func (m *Module) replacesAnotherSession(c fiber.Ctx, member *web.Member) bool {
	if !web.FromAnotherSite(c) {
		return false
	}
	before := c.Cookies(TokenCookie)
	if before == "" || !ValidToken(before) {
		return false
	}
	current, _, err := m.svc.Authenticate(c.Context(), web.PanelOf(c), before, 0)
	return err == nil && current.ParticipantID != member.ParticipantID
}

// JoinMember reads another module's row of the member with the session of the requests that
// want it (web.MemberJoin). Call it while wiring the app, before the first request.
func (m *Module) JoinMember(j web.MemberJoin) {
	m.svc.store.joins = append(m.svc.store.joins, j)
	m.svc.store.sessionSQL = sessionQueries(m.svc.store.joins)
}

// tokenQueryIsPayload: on these pages ?token= is a mailed single-use token, not a pp-token.
func tokenQueryIsPayload(c fiber.Ctx) bool {
	p := c.Path()
	return p == "/reset-password" || p == "/validate-email/confirm" || p == "/close-account"
}

func (m *Module) setTokenCookie(c fiber.Ctx, token string) {
	m.kit.SetCookie(c, &fiber.Cookie{Name: TokenCookie, Value: token, Expires: time.Now().Add(sessionAbsolute)})
}

// RequireMember guards APIs: no valid pp-token is a 401.
func (m *Module) RequireMember() fiber.Handler {
	return func(c fiber.Ctx) error {
		if web.MemberOf(c) == nil {
			return web.Unauthorized()
		}
		return c.Next()
	}
}

// gatePaths are the private pages that are themselves gates, and so not gated.
var gatePaths = map[string]bool{"/accept-terms-and-conditions": true, "/terms": true, "/validate-email": true}

// Private guards member pages: a visitor goes to the panel's login_page_url (with redirect and
// referrer, web.PanelLoginURL) or else to /login?redirect=<current address>; a suspended
// member to /suspended; then the terms gate and the email-validation gate of the panel.
func (m *Module) Private() fiber.Handler {
	return func(c fiber.Ctx) error {
		member := web.MemberOf(c)
		if member == nil {
			if web.IsAPI(c) {
				return web.Unauthorized()
			}
			// The panel's own login address (login_page_url) when it has one, else /login.
			return c.Redirect().Status(fiber.StatusSeeOther).To(cmp.Or(web.PanelLoginURL(c), LoginURL(c)))
		}
		if member.Status == StatusSuspended {
			return c.Redirect().Status(fiber.StatusSeeOther).To("/suspended")
		}
		if gatePaths[c.Path()] {
			return c.Next()
		}
		if target := GateFor(c); target != "" {
			return c.Redirect().Status(fiber.StatusSeeOther).To(target)
		}
		return c.Next()
	}
}

// Framed is the private access class of pages other sites frame (/embed/): the panel's
// domains and embed origins may frame them. A visitor, or a member a gate holds, sees a notice
// whose link opens the login or gate page in a new tab, because those refuse to be framed.
func (m *Module) Framed() fiber.Handler {
	return func(c fiber.Ctx) error {
		m.kit.AllowEmbedding(c)
		member := web.MemberOf(c)
		status, key, href := fiber.StatusOK, "", ""
		switch {
		case member == nil:
			status, key, href = fiber.StatusUnauthorized, "embed.signin", LoginURL(c)
		case member.Status == StatusSuspended:
			status, key, href = fiber.StatusForbidden, "embed.gate", "/suspended"
		case !gatePaths[c.Path()] && GateFor(c) != "":
			status, key, href = fiber.StatusForbidden, "embed.gate", GateFor(c)
		default:
			return c.Next()
		}
		t := func(id string) string { return m.kit.T(c, id, nil) }
		return m.kit.Render(c, status, layouts.EmbedNotice(t(key+"_title"), t(key+"_message"), t(key+"_button"), href))
	}
}

// GateFor is where a signed-in member must go first, or "": the accept-terms page when the
// panel requires terms; then, on a panel with direct onboarding, /onboarding while their email
// is not validated and they have not finished it (spec section 2's exception); then
// validate-email when the panel reminds of email validation.
func GateFor(c fiber.Ctx) string {
	panel, member := web.PanelOf(c), web.MemberOf(c)
	if panel == nil || member == nil {
		return ""
	}
	q := url.Values{"token": {member.Token}, "lang": {web.LocaleOf(c)}}.Encode()
	switch {
	case panel.TermsRequired && !member.AcceptedTerms:
		return "/accept-terms-and-conditions?" + q
	case NeedsOnboarding(panel, member):
		return "/onboarding"
	case panel.EmailValidation && !member.EmailValidated:
		return "/validate-email?" + q
	}
	return ""
}

// PublicOnly sends a signed-in member to /feed.
func (m *Module) PublicOnly() fiber.Handler {
	return func(c fiber.Ctx) error {
		if web.MemberOf(c) != nil {
			return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
		}
		return c.Next()
	}
}

// LoginURL is /login with the current address as redirect, unless the current page is
// /login, /logout or /error (spec: login and logout redirect rules).
func LoginURL(c fiber.Ctx) string {
	switch c.Path() {
	case "/login", "/logout", "/error":
		return "/login"
	}
	return "/login?redirect=" + url.QueryEscape(string(c.Request().URI().RequestURI()))
}
