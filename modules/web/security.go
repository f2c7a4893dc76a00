package web

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
)

type nonceKey struct{}
type framingKey struct{}
type sourcesKey struct{}

// CSPSources are origins a page adds to its Content-Security-Policy directives: a captcha
// provider's script and frames, only on the pages that show its widget.
type CSPSources struct {
	Script, Frame, Connect, Style []string
}

// AllowSources adds a third party's origins to this response's CSP.
func AllowSources(c fiber.Ctx, s CSPSources) { c.Locals(sourcesKey{}, s) }

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

// IsEmbed tells whether the request is for a page other sites frame: /embed/ and /widgets/.
func IsEmbed(c fiber.Ctx) bool {
	p := c.Path()
	return strings.HasPrefix(p, "/embed/") || strings.HasPrefix(p, "/widgets/")
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
		// frame-src: video questions embed YouTube's privacy-enhanced player.
		h.Set("Content-Security-Policy", "default-src 'self'; "+withSources("script-src 'self' 'nonce-"+nonce+"'", extra.Script)+
			"; "+withSources("style-src "+styleSrc, extra.Style)+
			"; img-src 'self' https: data:; font-src 'self' https: data:; "+withSources("connect-src 'self'", extra.Connect)+
			"; "+withSources("frame-src 'self' https://www.youtube-nocookie.com", extra.Frame)+"; form-action 'self'; frame-ancestors "+frame+
			"; object-src 'none'; base-uri 'none'")
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
		k.Log.Log(c.Context(), level, "request", "request_id", c.RequestID(), "method", c.Method(),
			"host", c.Hostname(), "path", c.Path(), "status", status, "took", time.Since(start).Round(time.Microsecond))
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
