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
// sent as the XSRF-TOKEN cookie and accepted as the X-XSRF-TOKEN header or the _csrf form field.
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

// CSRFToken returns the request's token (set by the CSRF middleware) for forms and meta tags.
func CSRFToken(c fiber.Ctx) string {
	t, _ := c.Locals(csrfKey).(string)
	return t
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
