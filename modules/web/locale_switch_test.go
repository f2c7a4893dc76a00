package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// localeApp runs the locale middleware on a panel offering en (default) and es; every page
// answers with the language chosen for it.
func localeApp(t *testing.T) *fiber.App {
	t.Helper()
	kit := newKit(t, "development")
	app := newApp(kit)
	app.Use(func(c fiber.Ctx) error {
		web.SetPanel(c, panelOffering("en", "en", "es"))
		return c.Next()
	})
	app.Use(kit.Locale())
	app.Get("/*", func(c fiber.Ctx) error { return c.SendString(web.LocaleOf(c)) })
	return app
}

// rawGet sends a GET whose request line is exactly requestURI.
func rawGet(t *testing.T, app *fiber.App, requestURI string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost/", nil)
	req.RequestURI = requestURI
	return send(t, app, req)
}

func TestTheLangParameterIsRememberedAndRemovedByARedirect(t *testing.T) {
	t.Parallel()
	app := localeApp(t)
	cases := []struct {
		name, uri, location string
		remembered          string
	}{
		{"an offered language is remembered", "/feed?lang=es", "/feed", "es"},
		{"other parameters are kept", "/login?lang=es&redirect=%2Ffeed", "/login?redirect=%2Ffeed", "es"},
		{"a region is reduced to its language", "/feed?lang=es-MX", "/feed", "es"},
		{"a language the panel does not offer is removed but not remembered", "/feed?lang=ru", "/feed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := rawGet(t, app, tc.uri)
			require.Equal(t, http.StatusSeeOther, res.StatusCode)
			assert.Equal(t, tc.location, res.Header.Get("Location"))
			ck := cookieOf(res, web.LangCookie)
			if tc.remembered == "" {
				assert.Nil(t, ck)
				return
			}
			require.NotNil(t, ck)
			assert.Equal(t, tc.remembered, ck.Value)
		})
	}
}

func TestALangParameterThatIsNotALanguageIsIgnored(t *testing.T) {
	t.Parallel()
	res, body := rawGet(t, localeApp(t), "/feed?lang=%3Cscript%3E")
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, "en", body)
	assert.Nil(t, cookieOf(res, web.LangCookie))
}

func TestAnAPIRequestRemembersTheLangParameterWithoutARedirect(t *testing.T) {
	t.Parallel()
	res, _ := rawGet(t, localeApp(t), "/api/v3/user/profile?lang=es")
	assert.Equal(t, http.StatusOK, res.StatusCode)
	ck := cookieOf(res, web.LangCookie)
	require.NotNil(t, ck)
	assert.Equal(t, "es", ck.Value)
}

func TestTheLanguageRedirectNeverLeavesTheSite(t *testing.T) {
	t.Parallel()
	app := localeApp(t)
	for _, uri := range []string{"//evil.example/feed?lang=es", "///evil.example/feed?lang=es"} {
		t.Run(uri, func(t *testing.T) {
			res, _ := rawGet(t, app, uri)
			require.Equal(t, http.StatusSeeOther, res.StatusCode)
			location := res.Header.Get("Location")
			assert.True(t, strings.HasPrefix(location, "/"), "Location %q", location)
			assert.False(t, strings.HasPrefix(location, "//"), "Location %q leaves the site", location)
		})
	}
}
