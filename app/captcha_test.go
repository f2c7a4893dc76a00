package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/captcha/localcaptcha"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withCaptcha serves a local siteverify endpoint on loopback and gives the demo panel a captcha.
func (e *env) withCaptcha(t *testing.T, mode string) *localcaptcha.Server {
	t.Helper()
	srv := localcaptcha.New("captcha-secret")
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), "demo")
	require.NoError(t, err)
	require.NoError(t, e.app.SignIn.ApplySignIn(context.Background(), panel.ID, nil, &signinconfig.CaptchaSpec{
		Kind: "local", Secret: "captcha-secret", VerifyURL: ts.URL + localcaptcha.Path, Mode: mode, AfterFailures: 3,
	}))
	return srv
}

func TestAPanelThatAlwaysAsksForACaptchaChecksItOnJoinLoginAndForgotPassword(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		srv := e.withCaptcha(t, "always")
		c := e.client("localhost")
		for _, page := range []string{"/login", "/join", "/forgot-password"} {
			body := c.get(page).Body
			assert.Contains(t, body, `name="captcha-local"`, page)
			assert.Contains(t, body, "local development captcha", page)
		}
		members := func() int64 { return e.count(t, "SELECT COUNT(*) FROM account_holders") }
		before := members()
		cases := []struct {
			name  string
			token string
			want  int
		}{
			{"no token", "", http.StatusBadRequest},
			{"a token the provider never issued", "lc1.forged", http.StatusBadRequest},
			{"a token made for another site", srv.Issue("evil.example"), http.StatusBadRequest},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				join := c.postForm("/join", url.Values{"email": {"robot@example.test"}, "password": {"robot-pass-1"}, "captcha-local": {tc.token}})
				assert.Equal(t, tc.want, join.StatusCode)
				assert.Contains(t, join.Body, "confirm you")
				assert.Equal(t, before, members(), "nobody joined")
				login := c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "captcha-local": {tc.token}})
				assert.Equal(t, tc.want, login.StatusCode)
				assert.Empty(t, c.cookie(accounts.TokenCookie), "not signed in")
				api := e.client("localhost").postJSON("/ah/api/v2/user/login", fmt.Sprintf(`{"email":%q,"password":%q,"captchaToken":%q}`, DemoEmail, DemoPassword, tc.token))
				assert.Equal(t, tc.want, api.StatusCode)
				assert.Contains(t, api.Body, `"captcha_failed"`)
			})
		}
		t.Run("a solved captcha lets the form through, once", func(t *testing.T) {
			token := srv.CheckboxToken("localhost")
			res := c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "captcha-local": {token}})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
			other := e.client("localhost")
			other.get("/login")
			again := other.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "captcha-local": {token}})
			assert.Equal(t, http.StatusBadRequest, again.StatusCode, "a token is spent by its first use")
		})
		t.Run("the provider down is a clear error, not a pass", func(t *testing.T) {
			srv.SetDown(true)
			defer srv.SetDown(false)
			other := e.client("localhost")
			other.get("/forgot-password")
			res := other.postForm("/forgot-password", url.Values{"email": {DemoEmail}, "captcha-local": {srv.CheckboxToken("localhost")}})
			assert.Equal(t, http.StatusBadGateway, res.StatusCode)
			assert.Empty(t, e.smtp.Messages(), "no mail went out")
		})
	})
}

func TestACaptchaAskedForAfterFailuresAppearsOnceAnIPHasFailedThreeTimes(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		srv := e.withCaptcha(t, "after_failures")
		c := e.client("localhost")
		required := func() string {
			return e.client("localhost").get("/ah/api/v1/user/" + url.PathEscape(DemoEmail) + "/recaptcha-required").Body
		}
		assert.NotContains(t, c.get("/login").Body, `name="captcha-local"`)
		assert.JSONEq(t, `{"required":false}`, required())
		for range 3 {
			assert.Equal(t, http.StatusUnauthorized, c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {"wrong-password"}}).StatusCode)
		}
		assert.Contains(t, c.get("/login").Body, `name="captcha-local"`)
		assert.JSONEq(t, `{"required":true,"provider":"local","siteKey":""}`, required())
		assert.Equal(t, http.StatusBadRequest, c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}}).StatusCode, "the right password alone is not enough now")
		res := c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "captcha-local": {srv.CheckboxToken("localhost")}})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	})
}

func TestATenantFileWithABadSignInOrCaptchaPartChangesNothing(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		signIn  signinconfig.SignInSpec
		captcha *signinconfig.CaptchaSpec
	}{
		"an unknown provider":           {signIn: signinconfig.SignInSpec{"myspace": {ClientID: "a", ClientSecret: "b"}}},
		"a provider without its secret": {signIn: signinconfig.SignInSpec{"google": {ClientID: "a"}}},
		"an endpoint in the clear":      {signIn: signinconfig.SignInSpec{"google": {ClientID: "a", ClientSecret: "b", Issuer: "http://accounts.example"}}},
		"an unknown captcha":            {captcha: &signinconfig.CaptchaSpec{Kind: "recaptcha2", Secret: "s", SiteKey: "k", Mode: "always"}},
		"a captcha without a mode":      {captcha: &signinconfig.CaptchaSpec{Kind: "turnstile", Secret: "s", SiteKey: "k", Mode: "sometimes"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Error(t, signinconfig.ValidateSignIn(tc.signIn, tc.captcha))
		})
	}
	assert.NoError(t, signinconfig.ValidateSignIn(signinconfig.SignInSpec{"google": {ClientID: "a", ClientSecret: "b"}}, &signinconfig.CaptchaSpec{Kind: "turnstile", Secret: "s", SiteKey: "k", Mode: "after_failures"}))
}

func TestProviderSecretsAreSealedAtRest(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withLocalSignIn(t)
		e.withCaptcha(t, "always")
		var dump string
		require.NoError(t, e.db.Raw(`SELECT client_secret_sealed || consumer_secret_sealed FROM sign_in_providers WHERE provider = 'twitter' LIMIT 1`).Scan(&dump).Error)
		assert.NotContains(t, dump, "test-secret")
		require.NoError(t, e.db.Raw(`SELECT secret_sealed FROM captcha_settings LIMIT 1`).Scan(&dump).Error)
		assert.NotContains(t, dump, "captcha-secret")
		assert.Contains(t, dump, "v1.")
	})
}
