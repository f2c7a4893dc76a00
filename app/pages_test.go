package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheErrorPageFollowsItsQueryRules(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		cases := []struct {
			name, query         string
			title, desc, button string
		}{
			{"defaults", "", "Oops! An unknown error occurred!", "Please try again. If the issue persists please contact support.", "Take me back to my feed"},
			{"title, desc and btn", "?title=Broken&desc=It+broke&btn=Home", "Broken", "It broke", "Home"},
			{"description and btnText", "?description=Long+form&btnText=Go", "Oops! An unknown error occurred!", "Long form", "Go"},
			{"markup is shown as text", "?title=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "&lt;script&gt;alert(1)&lt;/script&gt;", "", ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := e.client("localhost").get("/error" + tc.query)
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.Contains(t, res.Body, "<h1>"+tc.title+"</h1>")
				if tc.desc != "" {
					assert.Contains(t, res.Body, `<p class="error-desc">`+tc.desc+`</p>`)
				}
				if tc.button != "" {
					assert.Contains(t, res.Body, `<a class="button" href="/">`+tc.button+`</a>`)
				}
				assert.Contains(t, res.Body, `class="sad-face"`)
				assert.NotContains(t, res.Body, "<script>alert")
			})
		}
	})
}

func TestAnUnknownPageIsA404ErrorPageAndAnUnknownAPIIsJSON(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		page := e.client("localhost").get("/no-such-page")
		assert.Equal(t, http.StatusNotFound, page.StatusCode)
		assert.Contains(t, page.Body, "We couldn&#39;t find that page")

		api := e.client("localhost").get("/api/v3/no-such-call")
		assert.Equal(t, http.StatusNotFound, api.StatusCode)
		name, _, status := apiError(t, api)
		assert.Equal(t, "ClientError", name)
		assert.Equal(t, 404, status)
	})
}

func TestEveryResponseCarriesTheSecurityHeaders(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		for _, path := range []string{"/login", "/ah/api/v1/ping", "/static/css/app.css", "/no-such-page"} {
			res := e.client("localhost").get(path)
			csp := res.Header.Get("Content-Security-Policy")
			assert.Contains(t, csp, "object-src 'none'", path)
			assert.Contains(t, csp, "base-uri 'none'", path)
			assert.Contains(t, csp, "frame-ancestors 'self'", path)
			assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), path)
			assert.Equal(t, "strict-origin-when-cross-origin", res.Header.Get("Referrer-Policy"), path)
			assert.NotEmpty(t, res.Header.Get("X-Request-Id"), path)
			assert.Empty(t, res.Header.Get("Strict-Transport-Security"), "no HSTS outside production")
		}
	})
}

func TestAFormPostWithoutTheCSRFTokenIsRefused(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.get("/login")
		res := c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "_csrf": {"forged.token"}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
		assert.Contains(t, res.Body, "Reload the page and try again")

		member := e.client("localhost")
		member.login(DemoEmail, DemoPassword)
		noToken := member.do(http.MethodPost, "/ah/api/v1/user/profile", strings.NewReader("username=x"), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Equal(t, http.StatusForbidden, noToken.StatusCode, "a cookie-authenticated form post to an API needs the token too")
		withHeader := member.do(http.MethodPost, "/ah/api/v1/user/profile", strings.NewReader(`{"username":"csrf-ok"}`),
			http.Header{"Content-Type": {"text/plain"}, "X-XSRF-TOKEN": {member.cookie("XSRF-TOKEN")}})
		assert.Equal(t, http.StatusUnsupportedMediaType, withHeader.StatusCode, "the header passes CSRF; the handler then wants JSON")
	})
}

func TestTheCSRFTokenIsBoundToTheSession(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		visitor := e.client("localhost")
		visitor.get("/login")
		visitorToken := visitor.cookie("XSRF-TOKEN")
		member := e.client("localhost")
		member.login(DemoEmail, DemoPassword)
		member.get("/feed")
		res := member.postForm("/accept-terms-and-conditions", url.Values{"_csrf": {visitorToken}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
	})
}

func TestPagesGoToMaintenanceWhenTheDatabaseIsUnreachable(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		member := e.client("localhost")
		member.login(DemoEmail, DemoPassword)
		sqlDB, err := e.db.DB()
		require.NoError(t, err)
		require.NoError(t, sqlDB.Close())

		res := member.get("/feed")
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/maintenance", res.Header.Get("Location"))
		page := member.get("/maintenance")
		assert.Equal(t, http.StatusServiceUnavailable, page.StatusCode)
		assert.Contains(t, page.Body, "We&#39;ll be right back")

		api := member.get("/api/v3/user/profile")
		assert.Equal(t, http.StatusBadGateway, api.StatusCode, "the spec's clients go to /maintenance on a 502")
		name, _, _ := apiError(t, api)
		assert.Equal(t, "ServerError", name)

		ready := e.client("localhost").get("/readyz")
		assert.Equal(t, http.StatusServiceUnavailable, ready.StatusCode)
		assert.Equal(t, http.StatusOK, e.client("localhost").get("/healthz").StatusCode)
	})
}

func TestStaticAssetsAreServedWithCacheHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	css := e.client("localhost").get("/static/css/app.css?v=1")
	require.Equal(t, http.StatusOK, css.StatusCode)
	assert.Contains(t, css.Header.Get("Cache-Control"), "immutable")
	assert.Contains(t, css.Body, "--color-primary")
	icons := e.client("localhost").get("/static/img/icons.svg")
	assert.Equal(t, http.StatusOK, icons.StatusCode)
}

func TestClientErrorReportsAreAccepted(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		ok := c.postJSON("/api/v1/public/client/error", `{"href":"http://localhost/feed","name":"TypeError","message":"x is undefined","lineno":3,"colno":7}`)
		assert.Equal(t, http.StatusNoContent, ok.StatusCode)
		bad := c.postJSON("/api/v1/public/client/panic", `{}`)
		assert.Equal(t, http.StatusBadRequest, bad.StatusCode)
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(bad.Body), &body))
	})
}
