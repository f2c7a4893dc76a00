package web

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// PanelLoginURL is where a visitor who must sign in goes when the panel has a login address
// of its own (login_page_url; spec section 2, "Login and logout redirect rules"), or "" when
// it has none, or none usable, and the web app's own /login serves. The panel's login is the
// central account login: the spec's redirect (this page's full address, unless the path is
// /login, /logout or /error) and referrer (the web app's origin the visitor is on, so that
// login knows which panel sent them) are added to it, its own query kept. Only an https
// address (http on this machine, for local development), or a path on this site, is taken: the
// setting is the tenant's, and a javascript:, protocol-relative or userinfo address is dropped.
// A login address that is this very page gives "" too: no redirect to where the visitor is.
func PanelLoginURL(c fiber.Ctx) string {
	p := PanelOf(c)
	if p == nil {
		return ""
	}
	raw := strings.TrimSpace(p.LoginPageURL)
	if raw == "" || len(raw) > 2048 || strings.ContainsAny(raw, "\r\n\t\\ \"'<>") {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return ""
	}
	base := c.BaseURL()
	local := u.Scheme == "" && u.Host == ""
	switch {
	case local:
		if !strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "//") {
			return ""
		}
		if u.Path == "/login" {
			return "" // the web app's own login: the caller's /login?redirect=
		}
	case u.Host == "" || !EndpointURL(raw):
		return ""
	}
	here, _ := url.Parse(base + string(c.Request().URI().RequestURI()))
	if here != nil && (local && u.Path == here.Path || !local && strings.EqualFold(u.Host, here.Host) && u.Path == here.Path) {
		return ""
	}
	q := u.Query()
	switch c.Path() {
	case "/login", "/logout", "/error":
	default:
		q.Set("redirect", base+string(c.Request().URI().RequestURI()))
	}
	q.Set("referrer", base)
	u.RawQuery = q.Encode()
	return u.String()
}
