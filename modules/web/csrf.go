package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// CSRF follows ARCHITECTURE.md section 6: a signed double-submit token bound to the session,
// sent as the XSRF-TOKEN cookie and accepted as the X-XSRF-TOKEN header or the _csrf form field,
// raw (the cookie's value) or masked (what pages render, see maskCSRF).
const (
	CSRFCookie = "XSRF-TOKEN"
	CSRFHeader = "X-XSRF-TOKEN"
	CSRFField  = "_csrf"
)

func csrfBinding(c fiber.Ctx) string {
	if m := MemberOf(c); m != nil {
		return "session:" + m.SessionID
	}
	return "visitor"
}

func (k *Kit) signCSRF(binding, nonce string) string {
	mac := hmac.New(sha256.New, k.secret)
	mac.Write([]byte("csrf\x00" + binding + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

func (k *Kit) newCSRF(binding string) string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	nonce := base64.RawURLEncoding.EncodeToString(b)
	return nonce + "." + k.signCSRF(binding, nonce)
}

func (k *Kit) validCSRF(token, binding string) bool {
	nonce, sig, ok := strings.Cut(token, ".")
	if !ok || nonce == "" {
		return false
	}
	return hmac.Equal([]byte(sig), []byte(k.signCSRF(binding, nonce)))
}

// CSRFToken returns the request's token (set by the CSRF middleware) for forms and meta tags,
// masked afresh at each call (maskCSRF): pages render it this way. "" before the middleware ran.
func CSRFToken(c fiber.Ctx) string {
	t, _ := c.Locals(csrfKey).(string)
	if t == "" {
		return ""
	}
	return maskCSRF(t)
}

// CSRFMatches tells whether sent, as a page or script sends it back (masked from a page, or the
// XSRF-TOKEN cookie's raw value), is the request's token: for checks outside the middleware,
// such as the guarded GETs of the mobile module.
func CSRFMatches(c fiber.Ctx, sent string) bool {
	t, _ := c.Locals(csrfKey).(string)
	raw := unmaskCSRF(sent)
	return t != "" && raw != "" && subtle.ConstantTimeCompare([]byte(raw), []byte(t)) == 1
}

// maskCSRF hides token behind a fresh one-time pad, base64url(pad || token XOR pad), so that
// the token's bytes differ in every response. Every page carries the token and reflects text a
// request chose (the current URL in links, /error?title=, a form sent back); compressed, such a
// page would otherwise let another site guess the token byte by byte from response lengths
// (BREACH). The cookie keeps the raw token: headers are never compressed into the body.
func maskCSRF(token string) string {
	n := len(token)
	b := make([]byte, 2*n)
	if _, err := rand.Read(b[:n]); err != nil {
		panic(err)
	}
	for i := range n {
		b[n+i] = token[i] ^ b[i]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// unmaskCSRF returns the token a sent value stands for: a raw token (nonce.signature, which
// the masked form never contains since base64url has no dot) as it is, a masked one unmasked,
// and "" for anything else.
func unmaskCSRF(sent string) string {
	if strings.Contains(sent, ".") {
		return sent
	}
	b, err := base64.RawURLEncoding.DecodeString(sent)
	if err != nil || len(b) == 0 || len(b)%2 != 0 {
		return ""
	}
	n := len(b) / 2
	out := make([]byte, n)
	for i := range n {
		out[i] = b[i] ^ b[n+i]
	}
	return string(out)
}

// CSRF issues the token cookie and checks every unsafe request that relies on cookies.
// JSON requests (which browsers preflight) and requests carrying the pp-token header are exempt:
// no other origin can send them without our CORS consent, and CORS stays closed.
func (k *Kit) CSRF() fiber.Handler {
	return func(c fiber.Ctx) error {
		binding := csrfBinding(c)
		token := c.Cookies(CSRFCookie)
		if !k.validCSRF(token, binding) {
			token = k.newCSRF(binding)
			k.SetCookie(c, &fiber.Cookie{Name: CSRFCookie, Value: token, Path: "/", SameSite: fiber.CookieSameSiteLaxMode})
		}
		c.Locals(csrfKey, token)
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		// An API call without a signed-in cookie carries no authority a forged request could borrow.
		if c.Get("pp-token") != "" || IsJSONRequest(c) || (IsAPI(c) && MemberOf(c) == nil) {
			return c.Next()
		}
		sent := c.Get(CSRFHeader)
		if sent == "" {
			sent = c.FormValue(CSRFField)
		}
		// Pages send the token masked, scripts may send the cookie's raw value: both unmask to it.
		sent = unmaskCSRF(sent)
		if sent == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(c.Cookies(CSRFCookie))) != 1 || !k.validCSRF(sent, binding) {
			return Fail(fiber.StatusForbidden, "error.csrf", nil)
		}
		return c.Next()
	}
}

// IsJSONRequest tells whether the request body is declared as application/json.
func IsJSONRequest(c fiber.Ctx) bool {
	mt := strings.ToLower(strings.TrimSpace(strings.Split(string(c.Request().Header.ContentType()), ";")[0]))
	return mt == fiber.MIMEApplicationJSON
}

// FromAnotherSite tells whether the browser says this request began on another site: a link
// or a script there (Sec-Fetch-Site cross-site or same-site, as a sibling domain is another
// origin too; without that header, a Referer of another origin). A request the member typed or
// bookmarked, or one from our own pages, is not.
func FromAnotherSite(c fiber.Ctx) bool {
	switch c.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
		return true
	case "":
		ref := c.Get(fiber.HeaderReferer)
		return ref != "" && !strings.HasPrefix(ref, c.BaseURL()+"/") && ref != c.BaseURL()
	}
	return false
}

// SameSiteGET guards GETs that change something (the spec's mobile/validate, an offer's start
// link). The session cookie is SameSite=Lax, so a link on another site would carry it, and the
// CSRF middleware lets GETs through. A request passes when it cannot have come from another
// site: it names the member by a pp-token (header or query, which another site cannot know), it
// carries the XSRF header, or the browser says it came from our own origin or from the member
// (Sec-Fetch-Site same-origin or none; without that header, a Referer of this origin).
func SameSiteGET(c fiber.Ctx) error {
	site := c.Get("Sec-Fetch-Site")
	switch {
	case c.Get("pp-token") != "", c.Query("pp-token") != "", c.Query("token") != "":
	case CSRFMatches(c, c.Get(CSRFHeader)):
	case site == "same-origin", site == "none":
	case site == "" && strings.HasPrefix(c.Get(fiber.HeaderReferer), c.BaseURL()+"/"):
	default:
		return Fail(fiber.StatusForbidden, "error.csrf", nil)
	}
	return c.Next()
}
