package main

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setLoginPage gives a demo panel its own login address (login_page_url) as a tenant file would.
func setLoginPage(t *testing.T, e *env, panelKey, address string) {
	t.Helper()
	e.changeDemoPanel(t, panelKey, func(spec *tenancy.PanelSpec) { spec.LoginPageURL = address })
}

func TestAVisitorOnAPrivatePageGoesToThePanelsOwnLoginWithRedirectAndReferrer(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		setLoginPage(t, e, "demo", "https://accounts.demo.example/sign-in?brand=demo")
		c := e.client("localhost")

		res := c.get("/feed?tab=new")
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		to, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err)
		assert.Equal(t, "https", to.Scheme)
		assert.Equal(t, "accounts.demo.example", to.Host)
		assert.Equal(t, "/sign-in", to.Path)
		assert.Equal(t, "demo", to.Query().Get("brand"), "the login address keeps its own query")
		assert.Equal(t, "http://localhost/feed?tab=new", to.Query().Get("redirect"), "the page the visitor asked for, in full")
		assert.Equal(t, "http://localhost", to.Query().Get("referrer"), "the web app the visitor came from")

		// An API call still answers 401: only pages redirect.
		assert.Equal(t, http.StatusUnauthorized, c.get("/api/v3/user/balance").StatusCode)

		// Northwind has no login address of its own: the web app's /login, as before.
		res = e.client("northwind.localhost").get("/feed")
		assert.Equal(t, "/login?redirect=%2Ffeed", res.Header.Get("Location"))
	})
}

func TestAPanelLoginAddressThatIsNotHttpsOrAPathIsIgnoredForTheAppsOwnLogin(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		for _, bad := range []string{
			"javascript:alert(1)",
			"//evil.example/login",
			"http://accounts.demo.example/login", // a password page in the clear
			"https://user:pass@accounts.demo.example/login",
			"ftp://accounts.demo.example/login",
			"/login", // the web app's own login
		} {
			setLoginPage(t, e, "demo", bad)
			res := c.get("/feed")
			require.Equal(t, http.StatusSeeOther, res.StatusCode, bad)
			assert.Equal(t, "/login?redirect=%2Ffeed", res.Header.Get("Location"), bad)
		}
		setLoginPage(t, e, "demo", "/members/sign-in")
		res := c.get("/transactions")
		to, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err)
		assert.Equal(t, "/members/sign-in", to.Path, "a path on the panel's own site is taken")
		assert.Equal(t, "http://localhost/transactions", to.Query().Get("redirect"))
		assert.Equal(t, "http://localhost", to.Query().Get("referrer"))
	})
}
