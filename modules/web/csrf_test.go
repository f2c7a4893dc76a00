package web_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessionHeader stands in for the session middleware: its value becomes the member's SessionID.
const sessionHeader = "X-Test-Session"

func csrfApp(t *testing.T) *fiber.App {
	t.Helper()
	kit := newKit(t, "development")
	app := newApp(kit)
	app.Use(func(c fiber.Ctx) error {
		if s := c.Get(sessionHeader); s != "" {
			web.SetMember(c, &web.Member{SessionID: s, ParticipantID: "p-" + s})
		}
		return c.Next()
	})
	app.Use(kit.CSRF())
	ok := func(c fiber.Ctx) error { return c.SendString("done") }
	app.Get("/settings", ok)
	app.Post("/settings", ok)
	// /token answers what a page would render; /guarded checks the header the way a module's
	// own guard does.
	app.Get("/token", func(c fiber.Ctx) error { return c.SendString(web.CSRFToken(c)) })
	app.Get("/guarded", func(c fiber.Ctx) error {
		if !web.CSRFMatches(c, c.Get(web.CSRFHeader)) {
			return c.SendStatus(http.StatusForbidden)
		}
		return c.SendString("done")
	})
	return app
}

// renderedToken returns the token a page renders for the holder of cookie (in session, or as
// a visitor when session is "").
func renderedToken(t *testing.T, app *fiber.App, session, cookie string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost/token", nil)
	req.AddCookie(&http.Cookie{Name: web.CSRFCookie, Value: cookie})
	if session != "" {
		req.Header.Set(sessionHeader, session)
	}
	res, body := send(t, app, req)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Nil(t, cookieOf(res, web.CSRFCookie), "the cookie's token is kept")
	return body
}

// csrfCookie does a GET (as a member of session, or a visitor when session is "") and returns
// the XSRF-TOKEN cookie it was given.
func csrfCookie(t *testing.T, app *fiber.App, session string) *http.Cookie {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost/settings", nil)
	if session != "" {
		req.Header.Set(sessionHeader, session)
	}
	res, _ := send(t, app, req)
	require.Equal(t, http.StatusOK, res.StatusCode)
	ck := cookieOf(res, web.CSRFCookie)
	require.NotNil(t, ck, "a GET sets the %s cookie", web.CSRFCookie)
	require.NotEmpty(t, ck.Value)
	return ck
}

func TestAGetSetsAReadableXSRFTokenCookie(t *testing.T) {
	t.Parallel()
	app := csrfApp(t)
	ck := csrfCookie(t, app, "")
	assert.False(t, ck.HttpOnly, "scripts read the token to send it back as a header")
	assert.Equal(t, "/", ck.Path)
	assert.Equal(t, http.SameSiteLaxMode, ck.SameSite)

	req := httptest.NewRequest(http.MethodGet, "http://localhost/settings", nil)
	req.AddCookie(&http.Cookie{Name: web.CSRFCookie, Value: ck.Value})
	res, _ := send(t, app, req)
	assert.Nil(t, cookieOf(res, web.CSRFCookie), "a valid token is not reissued on every request")
}

func TestUnsafeRequestsNeedTheSignedTokenOfTheirSession(t *testing.T) {
	t.Parallel()
	app := csrfApp(t)
	visitor := csrfCookie(t, app, "").Value
	otherVisitor := csrfCookie(t, app, "").Value
	sessionA := csrfCookie(t, app, "session-a").Value

	cases := []struct {
		name        string
		session     string
		cookie      string
		field       string
		header      map[string]string
		contentType string
		want        int
	}{
		{name: "a form post without a token is refused", want: http.StatusForbidden},
		{name: "a form post with the cookie but no field is refused", cookie: visitor, want: http.StatusForbidden},
		{name: "a form post with the cookie's token in _csrf passes", cookie: visitor, field: visitor, want: http.StatusOK},
		{name: "the cookie's token in the X-XSRF-TOKEN header passes", cookie: visitor, header: map[string]string{web.CSRFHeader: visitor}, want: http.StatusOK},
		{name: "a field that differs from the cookie is refused", cookie: visitor, field: otherVisitor, want: http.StatusForbidden},
		{name: "a field without the cookie is refused", field: visitor, want: http.StatusForbidden},
		{name: "a forged token matching a forged cookie is refused", cookie: "bm9uY2U.c2lnbmF0dXJl", field: "bm9uY2U.c2lnbmF0dXJl", want: http.StatusForbidden},
		{name: "a member's own session token passes", session: "session-a", cookie: sessionA, field: sessionA, want: http.StatusOK},
		{name: "a token signed for another session is refused", session: "session-b", cookie: sessionA, field: sessionA, want: http.StatusForbidden},
		{name: "a visitor's token is refused once signed in", session: "session-a", cookie: visitor, field: visitor, want: http.StatusForbidden},
		{name: "a JSON request is exempt", contentType: "application/json", want: http.StatusOK},
		{name: "a JSON request with a charset is exempt", contentType: "Application/JSON; charset=utf-8", want: http.StatusOK},
		{name: "a JSON request of a member is exempt", session: "session-a", contentType: "application/json", want: http.StatusOK},
		{name: "a request carrying the pp-token header is exempt", session: "session-a", header: map[string]string{"pp-token": "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11"}, want: http.StatusOK},
		{name: "a text/plain post a form could forge is refused", contentType: "text/plain", want: http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"name": {"Ann"}}
			if tc.field != "" {
				form.Set(web.CSRFField, tc.field)
			}
			body := form.Encode()
			contentType := "application/x-www-form-urlencoded"
			if tc.contentType != "" {
				contentType = tc.contentType
				body = `{"name":"Ann"}`
			}
			req := httptest.NewRequest(http.MethodPost, "http://localhost/settings", strings.NewReader(body))
			req.Header.Set("Content-Type", contentType)
			if tc.session != "" {
				req.Header.Set(sessionHeader, tc.session)
			}
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: web.CSRFCookie, Value: tc.cookie})
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			res, got := send(t, app, req)
			assert.Equal(t, tc.want, res.StatusCode, got)
			if tc.want == http.StatusOK {
				assert.Equal(t, "done", got)
			}
		})
	}
}

func TestPagesRenderTheTokenMaskedDifferentlyEachTime(t *testing.T) {
	t.Parallel()
	app := csrfApp(t)
	raw := csrfCookie(t, app, "").Value
	first, second := renderedToken(t, app, "", raw), renderedToken(t, app, "", raw)
	assert.NotEqual(t, first, second, "each response carries its own mask")
	for _, rendered := range []string{first, second} {
		assert.NotEqual(t, raw, rendered)
		assert.NotContains(t, rendered, raw)
		assert.Regexp(t, `^[A-Za-z0-9_-]+$`, rendered, "safe in an attribute, a header and a form field as it is")
	}
}

func TestMaskedTokensPassWhereTheirTokenWould(t *testing.T) {
	t.Parallel()
	app := csrfApp(t)
	visitor := csrfCookie(t, app, "").Value
	otherVisitor := csrfCookie(t, app, "").Value
	sessionA := csrfCookie(t, app, "session-a").Value
	first, second := renderedToken(t, app, "", visitor), renderedToken(t, app, "", visitor)
	otherMasked := renderedToken(t, app, "", otherVisitor)
	sessionAMasked := renderedToken(t, app, "session-a", sessionA)
	// One bit of the masked token changed, past the pad: still well-formed base64url.
	b, err := base64.RawURLEncoding.DecodeString(first)
	require.NoError(t, err)
	b[len(b)-1] ^= 1
	tampered := base64.RawURLEncoding.EncodeToString(b)

	cases := []struct {
		name    string
		session string
		cookie  string
		field   string
		header  string
		want    int
	}{
		{name: "the first render's token in _csrf passes", cookie: visitor, field: first, want: http.StatusOK},
		{name: "the second render's token in _csrf passes", cookie: visitor, field: second, want: http.StatusOK},
		{name: "a rendered token in the X-XSRF-TOKEN header passes", cookie: visitor, header: second, want: http.StatusOK},
		{name: "the cookie's raw token still passes, as scripts send it", cookie: visitor, header: visitor, want: http.StatusOK},
		{name: "a tampered rendered token is refused", cookie: visitor, field: tampered, want: http.StatusForbidden},
		{name: "another visitor's rendered token is refused", cookie: visitor, field: otherMasked, want: http.StatusForbidden},
		{name: "a rendered token without the cookie is refused", field: first, want: http.StatusForbidden},
		{name: "a member's own rendered token passes", session: "session-a", cookie: sessionA, field: sessionAMasked, want: http.StatusOK},
		{name: "a rendered token of another session is refused", session: "session-b", cookie: sessionA, field: sessionAMasked, want: http.StatusForbidden},
		{name: "a visitor's rendered token is refused once signed in", session: "session-a", cookie: visitor, field: first, want: http.StatusForbidden},
		{name: "base64 that is no token is refused", cookie: visitor, field: "QUJD", want: http.StatusForbidden},
		{name: "text that is not base64 is refused", cookie: visitor, field: "not base64!", want: http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			form := url.Values{"name": {"Ann"}}
			if tc.field != "" {
				form.Set(web.CSRFField, tc.field)
			}
			req := httptest.NewRequest(http.MethodPost, "http://localhost/settings", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.session != "" {
				req.Header.Set(sessionHeader, tc.session)
			}
			if tc.cookie != "" {
				req.AddCookie(&http.Cookie{Name: web.CSRFCookie, Value: tc.cookie})
			}
			if tc.header != "" {
				req.Header.Set(web.CSRFHeader, tc.header)
			}
			res, got := send(t, app, req)
			assert.Equal(t, tc.want, res.StatusCode, got)
		})
	}
}

func TestCSRFMatchesTakesTheTokenMaskedOrRaw(t *testing.T) {
	t.Parallel()
	app := csrfApp(t)
	visitor := csrfCookie(t, app, "").Value
	other := csrfCookie(t, app, "").Value
	cases := []struct {
		name   string
		header string
		want   int
	}{
		{name: "a rendered token matches", header: renderedToken(t, app, "", visitor), want: http.StatusOK},
		{name: "the raw cookie token matches", header: visitor, want: http.StatusOK},
		{name: "another visitor's rendered token does not", header: renderedToken(t, app, "", other), want: http.StatusForbidden},
		{name: "another visitor's raw token does not", header: other, want: http.StatusForbidden},
		{name: "no header does not", want: http.StatusForbidden},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "http://localhost/guarded", nil)
			req.AddCookie(&http.Cookie{Name: web.CSRFCookie, Value: visitor})
			if tc.header != "" {
				req.Header.Set(web.CSRFHeader, tc.header)
			}
			res, _ := send(t, app, req)
			assert.Equal(t, tc.want, res.StatusCode)
		})
	}
}
