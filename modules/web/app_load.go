package web

import (
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// EntersApp tells whether this page request is where a visit enters the app: the spec's "app
// load" (section 7), which the single-page app it describes did once per visit and then moved
// between screens without loading again. Here every screen is a page of its own, so a page
// loads the app when the browser came from elsewhere: no Referer, or one of another origin (a
// mail, a bookmark, another site). A page reached from one of this origin's own pages (a link,
// a form's redirect) is a move inside the app; htmx swaps, unsafe methods and the pages other
// sites frame never are.
func EntersApp(c fiber.Ctx) bool {
	if c.Method() != fiber.MethodGet || IsHTMX(c) || IsAPI(c) || IsEmbed(c) {
		return false
	}
	ref := c.Get(fiber.HeaderReferer)
	if ref == "" {
		return true
	}
	base := c.BaseURL()
	return ref != base && !strings.HasPrefix(ref, base+"/")
}

// AppLoadReferrer is the referrer the app-load event carries (the page the visitor came from,
// as the browser said: only its origin when it was another site), clipped so the event's data
// stays small; "" when none.
func AppLoadReferrer(c fiber.Ctx) string {
	ref := strings.TrimSpace(c.Get(fiber.HeaderReferer))
	u, err := url.Parse(ref)
	if ref == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.ContainsFunc(ref, isControl) {
		return ""
	}
	if len(ref) > 512 {
		return u.Scheme + "://" + u.Host + "/"
	}
	return ref
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// TrackingPixelURL checks a panel's tracking_pixel (app_settings), which the tenant writes:
// only an absolute http(s) image address without user info is used, as an <img> source (never
// as markup). http is rewritten to https (spec section 5's URL helper), except on this machine
// (local development and tests), where the plain-http origin is returned as cspOrigin for the
// page's img-src. Anything else gives "".
func TrackingPixelURL(raw string) (src, cspOrigin string) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 2048 || strings.ContainsFunc(raw, isControl) || strings.ContainsAny(raw, " \\\"'<>`") {
		return "", ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Host == "" || u.Opaque != "" {
		return "", ""
	}
	switch u.Scheme {
	case "https":
		return u.String(), ""
	case "http":
		if LoopbackHost(u.Hostname()) {
			return u.String(), "http://" + u.Host
		}
		u.Scheme = "https"
		return u.String(), ""
	}
	return "", ""
}
