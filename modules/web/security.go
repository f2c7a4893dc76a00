package web

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/views"
	"github.com/gofiber/fiber/v3"
)

type nonceKey struct{}
type framingKey struct{}
type sourcesKey struct{}
type tagSourcesKey struct{}

// CSPSources are origins a page adds to its Content-Security-Policy directives: a captcha
// provider's script and frames, only on the pages that show its widget; a panel's tracking
// pixel served over plain http on this machine (img-src allows any https image already).
type CSPSources struct {
	Script, Frame, Connect, Style, Img []string
}

// AllowSources adds a third party's origins to this response's CSP, to those added before.
func AllowSources(c fiber.Ctx, s CSPSources) {
	if had, ok := c.Locals(sourcesKey{}).(CSPSources); ok {
		s = CSPSources{Script: slices.Concat(had.Script, s.Script), Frame: slices.Concat(had.Frame, s.Frame),
			Connect: slices.Concat(had.Connect, s.Connect), Style: slices.Concat(had.Style, s.Style), Img: slices.Concat(had.Img, s.Img)}
	}
	c.Locals(sourcesKey{}, s)
}

// allowTag adds the hosts a page's tag analytics needs to this response's CSP.
func allowTag(c fiber.Ctx, t *views.Tag) { c.Locals(tagSourcesKey{}, TagSources(t)) }

// TagSources are the origins Google's tags need, after Google's guide "Use Tag Manager with a
// Content Security Policy" (developers.google.com/tag-platform/security/guides/csp): gtag.js
// and gtm.js from googletagmanager.com, GA4's hits to google-analytics.com,
// analytics.google.com and www.google.com; Universal Analytics' analytics.js; Google Ads' and
// Floodlight's scripts, frames and beacons only for AW- and DC- ids. img-src already allows any
// https image, so the pixels need nothing more.
func TagSources(t *views.Tag) CSPSources {
	var s CSPSources
	if t == nil || (len(t.GtagIDs) == 0 && t.ContainerID == "") {
		return s
	}
	s.Script = []string{"https://www.googletagmanager.com", "https://*.googletagmanager.com"}
	s.Connect = []string{"https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.google.com"}
	kinds := map[string]bool{}
	for _, id := range t.GtagIDs {
		prefix, _, _ := strings.Cut(id, "-")
		kinds[prefix] = true
	}
	if kinds["UA"] {
		s.Script = append(s.Script, "https://www.google-analytics.com", "https://ssl.google-analytics.com")
	}
	if kinds["AW"] {
		s.Script = append(s.Script, "https://www.googleadservices.com", "https://www.google.com", "https://googleads.g.doubleclick.net", "https://pagead2.googlesyndication.com")
		s.Connect = append(s.Connect, "https://google.com", "https://www.googleadservices.com", "https://googleads.g.doubleclick.net", "https://pagead2.googlesyndication.com")
		s.Frame = append(s.Frame, "https://bid.g.doubleclick.net", "https://td.doubleclick.net", "https://www.googletagmanager.com")
	}
	if kinds["DC"] {
		s.Connect = append(s.Connect, "https://ad.doubleclick.net", "https://*.fls.doubleclick.net")
		s.Frame = append(s.Frame, "https://*.fls.doubleclick.net", "https://td.doubleclick.net")
	}
	for _, list := range []*[]string{&s.Script, &s.Connect, &s.Frame} {
		slices.Sort(*list)
		*list = slices.Compact(*list)
	}
	return s
}

func withSources(directive string, extra []string) string {
	if len(extra) == 0 {
		return directive
	}
	return directive + " " + strings.Join(extra, " ")
}

// Nonce is the per-request CSP nonce for inline <style> and <script> elements.
func Nonce(c fiber.Ctx) string {
	n, _ := c.Locals(nonceKey{}).(string)
	return n
}

// AllowFraming lets the listed origins embed this response (widgets, embed iframes);
// by default only our own origin may frame a page.
func AllowFraming(c fiber.Ctx, origins ...string) { c.Locals(framingKey{}, origins) }

// originRE is scheme://host[:port] with nothing after it: what CSP frame-ancestors takes.
var originRE = regexp.MustCompile(`^https?://[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?$`)

// ValidOrigin tells whether s is an http(s) origin without path, user or wildcard.
func ValidOrigin(s string) bool { return originRE.MatchString(s) }

// WidgetContinuePath is the widgets' top-level hand-off (accounts): the one /widgets/ address
// that is never framed, so its session cookie is the panel's own first-party one.
const WidgetContinuePath = "/widgets/continue"

// IsEmbed tells whether the request is for a page other sites frame (/embed/, and /widgets/
// but its top-level hand-off) or is a call a widget's script makes (X-App-Name: widget, a
// header other origins cannot send without our CORS consent): its cookies must reach the frame.
func IsEmbed(c fiber.Ctx) bool {
	p := c.Path()
	if strings.HasPrefix(p, "/widgets/") {
		return p != WidgetContinuePath
	}
	return strings.HasPrefix(p, "/embed/") || c.Get(AppNameHeader) == AppWidget
}

// AppNameHeader is the spec's X-App-Name (section 7): the main app's value, or the widget's on
// /widgets/ pages (islands/lib/api.ts sends it on every call).
const (
	AppNameHeader = "X-App-Name"
	AppWeb        = "web"
	AppWidget     = "widget"
)

var appNameRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,40}$`)

// AppName is the app a request comes from, as sessions and account holders record it: the
// widget on /widgets/ pages, else X-App-Name when it is a plain name, else the web app for the
// app's own pages and "" for an API caller that did not say.
func AppName(c fiber.Ctx) string {
	if strings.HasPrefix(c.Path(), "/widgets/") {
		return AppWidget
	}
	if v := c.Get(AppNameHeader); appNameRE.MatchString(v) {
		return v
	}
	if IsAPI(c) {
		return ""
	}
	return AppWeb
}

// AllowEmbedding lets the panel's own domains (https; any port and http outside production)
// and its embed_origins frame this response.
func (k *Kit) AllowEmbedding(c fiber.Ctx) {
	p := PanelOf(c)
	if p == nil {
		return
	}
	var origins []string
	for _, h := range p.Hosts {
		origins = append(origins, "https://"+h)
		if k.Env != "production" {
			origins = append(origins, "https://"+h+":*", "http://"+h+":*")
		}
	}
	AllowFraming(c, append(origins, p.EmbedOrigins...)...)
}

// EmbedderOrigin is the origin (scheme://host[:port], default port dropped) of an absolute
// http(s) address when AllowEmbedding lets that origin frame the panel, else "": the one
// allow-list for frame-ancestors and for the widgets' postMessage targets, so a message never
// goes to a page that could not have framed the widget.
func (k *Kit) EmbedderOrigin(c fiber.Ctx, address string) string {
	p := PanelOf(c)
	u, err := url.Parse(address)
	if p == nil || err != nil || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	origin := u.Scheme + "://" + host
	if port != "" {
		origin += ":" + port
	}
	if !ValidOrigin(origin) {
		return ""
	}
	if slices.Contains(p.EmbedOrigins, origin) {
		return origin
	}
	if !slices.Contains(p.Hosts, host) {
		return ""
	}
	if k.Env != "production" || (u.Scheme == "https" && port == "") {
		return origin
	}
	return ""
}

type mailKey struct{}

// AsMail marks the response as a mail's HTML shown in the browser (the development gallery):
// it gets a policy of its own that lets its inline styles apply and runs nothing.
func AsMail(c fiber.Ctx) { c.Locals(mailKey{}, true) }

// SecurityHeaders sets CSP (object-src 'none', base-uri 'none', frame-ancestors 'self' unless
// a handler allowed framing), nosniff, a Referrer-Policy and, in production, HSTS.
func (k *Kit) SecurityHeaders() fiber.Handler {
	return func(c fiber.Ctx) error {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		nonce := base64.RawStdEncoding.EncodeToString(b)
		c.Locals(nonceKey{}, nonce)
		err := c.Next()
		h := &c.Response().Header
		styleSrc := "'self' 'nonce-" + nonce + "'"
		if p := PanelOf(c); p != nil && p.FontURL != "" {
			if u, perr := url.Parse(p.FontURL); perr == nil && u.Scheme == "https" && u.Host != "" {
				styleSrc += " https://" + u.Host
			}
		}
		frame := "'self'"
		if origins, ok := c.Locals(framingKey{}).([]string); ok {
			frame = strings.Join(append([]string{"'self'"}, origins...), " ")
		} else {
			h.Set("X-Frame-Options", "SAMEORIGIN")
		}
		extra, _ := c.Locals(sourcesKey{}).(CSPSources)
		if tag, ok := c.Locals(tagSourcesKey{}).(CSPSources); ok {
			extra = CSPSources{Script: slices.Concat(extra.Script, tag.Script), Frame: slices.Concat(extra.Frame, tag.Frame),
				Connect: slices.Concat(extra.Connect, tag.Connect), Style: extra.Style, Img: extra.Img}
		}
		csp := "default-src 'self'; " + withSources("script-src 'self' 'nonce-"+nonce+"'", extra.Script) +
			"; " + withSources("style-src "+styleSrc, extra.Style) +
			"; " + withSources("img-src 'self' https: data:", extra.Img) + "; font-src 'self' https: data:; " + withSources("connect-src 'self'", extra.Connect) +
			// frame-src: video questions embed YouTube's privacy-enhanced player.
			"; " + withSources("frame-src 'self' https://www.youtube-nocookie.com", extra.Frame) + "; form-action 'self'; frame-ancestors " + frame +
			"; object-src 'none'; base-uri 'none'"
		if mail, _ := c.Locals(mailKey{}).(bool); mail {
			// A mail's inline styles apply, as in a mail client (a nonce would void
			// 'unsafe-inline'); nothing runs, nothing is fetched but images.
			csp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors " + frame + "; form-action 'none'; base-uri 'none'"
		}
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		if k.Env == "production" {
			h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
		}
		return err
	}
}

// AccessLog writes one line per request with its request id, status and duration.
func (k *Kit) AccessLog() fiber.Handler {
	return func(c fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			status = AsError(err).Status
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		attrs := []any{"request_id", c.RequestID(), "method", c.Method(), "host", c.Hostname(), "path", c.Path(),
			"status", status, "took", time.Since(start).Round(time.Microsecond)}
		// Which app called (spec section 7's X-App-Name), when it said: widgets apart from the app.
		if app := c.Get(AppNameHeader); appNameRE.MatchString(app) {
			attrs = append(attrs, "app", app)
		}
		k.Log.Log(c.Context(), level, "request", attrs...)
		return err
	}
}

// SetCookie sets a first-party cookie: HttpOnly unless it is the CSRF cookie that scripts read,
// Secure over HTTPS and in production, SameSite=Lax unless the caller chose otherwise.
func (k *Kit) SetCookie(c fiber.Ctx, ck *fiber.Cookie) {
	if ck.Path == "" {
		ck.Path = "/"
	}
	if ck.SameSite == "" {
		ck.SameSite = fiber.CookieSameSiteLaxMode
	}
	// Inside another site's iframe only SameSite=None cookies are sent; Partitioned (CHIPS)
	// keeps them to that embedding site, and browsers that block third-party cookies allow it.
	if IsEmbed(c) {
		ck.SameSite, ck.Partitioned = fiber.CookieSameSiteNoneMode, true
	}
	ck.HTTPOnly = ck.Name != CSRFCookie
	ck.Secure = ck.Secure || k.Env == "production" || c.Protocol() == "https"
	if ck.SameSite == fiber.CookieSameSiteNoneMode {
		ck.Secure = true
	}
	c.Cookie(ck)
}

// ClearCookie expires a cookie set by SetCookie.
func (k *Kit) ClearCookie(c fiber.Ctx, name string) {
	k.SetCookie(c, &fiber.Cookie{Name: name, Value: "", Path: "/", Expires: time.Unix(0, 0), MaxAge: -1})
}

// Recover turns a panic in a handler into the "Unexpected Application Error!" page (or a 500
// JSON error for APIs) instead of a dropped connection.
func (k *Kit) Recover() fiber.Handler {
	return func(c fiber.Ctx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &Error{Status: fiber.StatusInternalServerError, Err: fmt.Errorf("panic: %v", r), unexpected: true}
			}
		}()
		return c.Next()
	}
}
