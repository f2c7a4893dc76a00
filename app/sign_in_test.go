package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/social/localprovider"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The identities of the local provider in these tests.
var (
	newcomer = localprovider.Identity{Subject: "sub-newcomer", Email: "newcomer@example.test", EmailVerified: true, Name: "Nia Newcomer"}
	fbFriend = localprovider.Identity{Subject: "sub-fb-friend", Email: "friend@example.test", EmailVerified: true, Name: "Fay Friend"}
	demoSelf = localprovider.Identity{Subject: "sub-demo", Email: DemoEmail, EmailVerified: true, Name: "Demo Member"}
	noEmail  = localprovider.Identity{Subject: "sub-noemail", Name: "Sam Noemail"}
	unproven = localprovider.Identity{Subject: "sub-unproven", Email: "unproven@example.test", Name: "Una Unproven"}
)

// withLocalSignIn serves a local provider on loopback (real HTTP: discovery, JWKS, tokens) and
// configures both demo panels' Google, Facebook and X sign-in with it.
func (e *env) withLocalSignIn(t *testing.T) *localprovider.Server {
	t.Helper()
	var lp *localprovider.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { lp.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	lp = localprovider.New(ts.URL, map[string]string{"test-client": "test-secret"}, []localprovider.Identity{newcomer, fbFriend, demoSelf, noEmail, unproven})
	spec := signinconfig.SignInSpec{}
	for p, c := range lp.Configs("test-client", "test-secret") {
		spec[string(p)] = signinconfig.ProviderSpec{
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, Issuer: c.Issuer, AuthURL: c.AuthURL, TokenURL: c.TokenURL,
			APIURL: c.APIURL, ConsumerKey: c.ConsumerKey, ConsumerSecret: c.ConsumerSecret,
		}
	}
	for _, key := range []string{"demo", "northwind"} {
		panel, err := e.app.Tenancy.PanelByKey(context.Background(), key)
		require.NoError(t, err)
		require.NoError(t, e.app.SignIn.ApplySignIn(context.Background(), panel.ID, spec, nil))
	}
	return lp
}

// startSignIn follows "Continue with …" to the provider and returns its authorization address.
func (c *client) startSignIn(t *testing.T, path string) string {
	t.Helper()
	res := c.get(path)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	return res.Header.Get("Location")
}

// backFrom picks an identity at the provider and follows its redirect back to the panel.
func (c *client) backFrom(t *testing.T, lp *localprovider.Server, authURL, subject string) *response {
	t.Helper()
	back, err := lp.AuthorizeAs(authURL, subject)
	require.NoError(t, err)
	u, err := url.Parse(back)
	require.NoError(t, err)
	require.Equal(t, c.host, u.Host, "the provider sends the browser back to the panel it came from")
	return c.get(u.RequestURI())
}

func (c *client) signInWith(t *testing.T, lp *localprovider.Server, provider social.Provider, subject string) *response {
	t.Helper()
	return c.backFrom(t, lp, c.startSignIn(t, "/sign-in/"+string(provider)), subject)
}

func (c *client) profile(t *testing.T) accounts.UserProfile {
	t.Helper()
	res := c.do(http.MethodGet, "/ah/api/v1/user/profile", nil, http.Header{"pp-token": {c.cookie(accounts.TokenCookie)}})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	var p accounts.UserProfile
	require.NoError(t, json.Unmarshal([]byte(res.Body), &p))
	return p
}

func (e *env) count(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var n int64
	require.NoError(t, e.db.Raw(query, args...).Scan(&n).Error)
	return n
}

func TestTheLoginAndJoinPagesOfferEachConfiguredProviderAsAPlainLink(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		assert.NotContains(t, c.get("/login").Body, "/sign-in/google", "a panel without providers shows no buttons")
		e.withLocalSignIn(t)
		for _, page := range []string{"/login", "/join"} {
			body := c.get(page).Body
			for _, want := range []string{`href="/sign-in/google"`, `href="/sign-in/facebook"`, `href="/sign-in/twitter"`, "Continue with Google", "Continue with X (Twitter)"} {
				assert.Contains(t, body, want, page)
			}
		}
		assert.Contains(t, c.get("/login?redirect=%2Ftransactions").Body, `href="/sign-in/google?redirect=%2Ftransactions"`)
		assert.Equal(t, http.StatusNotFound, c.get("/sign-in/myspace").StatusCode)
	})
}

func TestANewIdentityTheProviderVouchesForJoinsAndSignsInAgainLater(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		for provider, who := range map[social.Provider]localprovider.Identity{social.Google: newcomer, social.Facebook: fbFriend} {
			t.Run(string(provider), func(t *testing.T) {
				c := e.client("localhost")
				res := c.signInWith(t, lp, provider, who.Subject)
				require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
				assert.Equal(t, "/feed", res.Header.Get("Location"))
				first := c.profile(t)
				assert.Equal(t, who.Email, first.Email)
				assert.True(t, first.EmailValidated, "the provider vouched for the email")
				assert.Equal(t, []string{string(provider)}, first.OAuthConnections)

				c.get("/logout")
				again := e.client("localhost")
				res = again.signInWith(t, lp, provider, who.Subject)
				require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
				assert.Equal(t, first.PPUUID, again.profile(t).PPUUID, "the same member signs in")
			})
		}
	})
}

func TestAnIdentityWhoseEmailIsAnAccountsIsLinkedOnlyWithThatAccountsPassword(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("localhost")
		res := c.signInWith(t, lp, social.Google, demoSelf.Subject)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		require.Equal(t, "/sign-in/link", res.Header.Get("Location"), "never linked by email alone")
		assert.Empty(t, c.cookie(accounts.TokenCookie), "not signed in yet")
		page := c.get("/sign-in/link")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, DemoEmail)

		wrong := c.postForm("/sign-in/link", url.Values{"password": {"not-the-password"}})
		assert.Equal(t, http.StatusUnauthorized, wrong.StatusCode)
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM oauth_connections"), "a wrong password links nothing")

		ok := c.postForm("/sign-in/link", url.Values{"password": {DemoPassword}})
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		assert.Equal(t, []string{"google"}, c.profile(t).OAuthConnections)
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM sign_in_pending"), "the wait is spent")

		later := e.client("localhost")
		res = later.signInWith(t, lp, social.Google, demoSelf.Subject)
		assert.Equal(t, "/feed", res.Header.Get("Location"), "linked: signs in at once")
		assert.Equal(t, DemoEmail, later.profile(t).Email)
	})
}

func TestAnIdentityWithoutAProvenEmailGivesOneToJoin(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		t.Run("no email at all (X)", func(t *testing.T) {
			c := e.client("localhost")
			res := c.signInWith(t, lp, social.Twitter, noEmail.Subject)
			require.Equal(t, "/sign-in/complete", res.Header.Get("Location"), res.Body)
			page := c.get("/sign-in/complete")
			assert.Contains(t, page.Body, `value="Sam Noemail"`, "the name comes prefilled")
			bad := c.postForm("/sign-in/complete", url.Values{"email": {"not-an-email"}, "firstName": {"Sam"}})
			assert.Equal(t, http.StatusBadRequest, bad.StatusCode)
			done := c.postForm("/sign-in/complete", url.Values{"email": {"sam@example.test"}, "firstName": {"Sam"}})
			require.Equal(t, http.StatusSeeOther, done.StatusCode, done.Body)
			p := c.profile(t)
			assert.Equal(t, "sam@example.test", p.Email)
			assert.False(t, p.EmailValidated, "an email the provider did not vouch for is validated by mail as usual")
			assert.Equal(t, []string{"twitter"}, p.OAuthConnections)
		})
		t.Run("an email already used is a choice to link that account", func(t *testing.T) {
			c := e.client("localhost")
			res := c.signInWith(t, lp, social.Google, unproven.Subject)
			require.Equal(t, "/sign-in/complete", res.Header.Get("Location"), res.Body)
			taken := c.postForm("/sign-in/complete", url.Values{"email": {DemoEmail}, "firstName": {"Una"}})
			assert.Equal(t, http.StatusConflict, taken.StatusCode)
			assert.Contains(t, taken.Body, `href="/sign-in/link"`)
			link := c.postForm("/sign-in/link", url.Values{"password": {DemoPassword}})
			require.Equal(t, http.StatusSeeOther, link.StatusCode, link.Body)
			assert.Contains(t, c.profile(t).OAuthConnections, "google")
		})
	})
}

func TestRefusedSignInsChangeNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		members := func() int64 { return e.count(t, "SELECT COUNT(*) FROM account_holders") }
		before := members()
		cases := []struct {
			name string
			run  func(t *testing.T) *response
			want int
		}{
			{"a state that does not match", func(t *testing.T) *response {
				c := e.client("localhost")
				back, err := lp.AuthorizeAs(c.startSignIn(t, "/sign-in/google"), newcomer.Subject)
				require.NoError(t, err)
				u, _ := url.Parse(back)
				q := u.Query()
				q.Set("state", q.Get("state")+"x")
				return c.get(u.Path + "?" + q.Encode())
			}, http.StatusBadRequest},
			{"a return in another browser (login CSRF)", func(t *testing.T) *response {
				back, err := lp.AuthorizeAs(e.client("localhost").startSignIn(t, "/sign-in/google"), newcomer.Subject)
				require.NoError(t, err)
				u, _ := url.Parse(back)
				return e.client("localhost").get(u.RequestURI())
			}, http.StatusBadRequest},
			{"a replayed return (its code and nonce)", func(t *testing.T) *response {
				c := e.client("localhost")
				authURL := c.startSignIn(t, "/sign-in/google")
				browser := c.cookie("sign-in")
				back, err := lp.AuthorizeAs(authURL, unproven.Subject)
				require.NoError(t, err)
				u, _ := url.Parse(back)
				require.Equal(t, http.StatusSeeOther, c.get(u.RequestURI()).StatusCode)
				c.jar.SetCookies(&url.URL{Scheme: "http", Host: c.host, Path: "/"}, []*http.Cookie{{Name: "sign-in", Value: browser, Path: "/"}})
				return c.get(u.RequestURI())
			}, http.StatusBadRequest},
			{"the member cancelled at the provider", func(t *testing.T) *response {
				c := e.client("localhost")
				c.startSignIn(t, "/sign-in/google")
				return c.get("/sign-in/google/return?error=access_denied&state=whatever")
			}, http.StatusSeeOther},
			{"another panel's provider return", func(t *testing.T) *response {
				c := e.client("localhost")
				back, err := lp.AuthorizeAs(c.startSignIn(t, "/sign-in/google"), newcomer.Subject)
				require.NoError(t, err)
				u, _ := url.Parse(back)
				nw := e.client("northwind.localhost")
				nw.jar.SetCookies(&url.URL{Scheme: "http", Host: nw.host, Path: "/"}, []*http.Cookie{{Name: "sign-in", Value: c.cookie("sign-in"), Path: "/"}})
				return nw.get(u.RequestURI())
			}, http.StatusBadRequest},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := tc.run(t)
				assert.Equal(t, tc.want, res.StatusCode, res.Body)
				assert.Equal(t, before, members(), "no member was created")
				assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM oauth_connections"), "nothing was linked")
			})
		}
	})
}

func TestARedirectAfterSignInStaysOnThePanel(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		for target, want := range map[string]string{"/transactions": "/transactions", "https://evil.example/steal": "/feed", "//evil.example": "/feed"} {
			c := e.client("localhost")
			res := c.backFrom(t, lp, c.startSignIn(t, "/sign-in/google?redirect="+url.QueryEscape(target)), newcomer.Subject)
			assert.Equal(t, want, res.Header.Get("Location"), target)
		}
	})
}

func TestAnIdentityLinkedOnOnePanelNeverSignsInToAnother(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		demo := e.client("localhost")
		require.Equal(t, "/feed", demo.signInWith(t, lp, social.Google, newcomer.Subject).Header.Get("Location"))
		nw := e.client("northwind.localhost")
		// Northwind has onboarding: the identity, new there, answers it before it becomes a member.
		nw.follow(nw.onboardingVia(t, lp, social.Google, newcomer.Subject))
		assert.Empty(t, nw.cookie(accounts.TokenCookie), "not signed in as the Canvass Demo member")
		nw.answerAll(t)
		require.Equal(t, "/", nw.where(t, "/onboarding"))
		a, b := demo.profile(t), nw.profile(t)
		assert.NotEqual(t, a.PPUUID, b.PPUUID, "Northwind made its own member: no account crosses panels")
		assert.Equal(t, "northwind", b.PanelKey)
		assert.Equal(t, int64(2), e.count(t, "SELECT COUNT(*) FROM oauth_connections WHERE subject = ?", newcomer.Subject))
	})
}

func TestConnectionsAreAddedAndRemovedThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		m := e.member()
		token := http.Header{"pp-token": {m.cookie(accounts.TokenCookie)}, "Content-Type": {"application/json"}}
		call := func(path, body string, h http.Header) *response {
			return m.do(http.MethodPost, path, strings.NewReader(body), h)
		}
		anon := http.Header{"Content-Type": {"application/json"}}
		t.Run("without a member token", func(t *testing.T) {
			for _, path := range []string{"/ah/api/v1/oauth/google/id-token/connect", "/ah/api/v1/oauth/disconnect"} {
				res := e.client("localhost").do(http.MethodPost, path, strings.NewReader(`{"token":"x","provider":"google"}`), anon)
				assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
				assert.Contains(t, res.Body, `"No token detected"`)
			}
		})
		claims := lp.IDTokenClaims(demoSelf.Subject, "test-client")
		refusals := map[string]string{
			"a forged ID token":  lp.MintForeignIDToken(claims),
			"a wrong audience":   lp.MintIDToken(with(claims, "aud", "another-app")),
			"an expired token":   lp.MintIDToken(with(claims, "exp", time.Now().Add(-time.Hour).Unix())),
			"another issuer":     lp.MintIDToken(with(claims, "iss", "https://accounts.example")),
			"not a token at all": "garbage",
		}
		for name, tok := range refusals {
			t.Run(name, func(t *testing.T) {
				res := call("/ah/api/v1/oauth/google/id-token/connect", fmt.Sprintf(`{"token":%q,"platformKey":"web"}`, tok), token)
				assert.Equal(t, http.StatusUnauthorized, res.StatusCode, res.Body)
				assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM oauth_connections"))
			})
		}
		t.Run("a verified token connects once however often it is sent", func(t *testing.T) {
			body := fmt.Sprintf(`{"token":%q,"platformKey":"web"}`, lp.MintIDToken(claims))
			for range 2 {
				res := call("/ah/api/v1/oauth/google/id-token/connect", body, token)
				require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
				assert.JSONEq(t, `{"oauthConnections":["google"]}`, res.Body)
			}
			fb := call("/ah/api/v1/oauth/facebook/id-token/connect", fmt.Sprintf(`{"token":%q,"platformKey":"web"}`, lp.IssueAccessToken(social.Facebook, newcomer.Subject, "test-client")), token)
			require.Equal(t, http.StatusOK, fb.StatusCode, fb.Body)
			xt, xs := lp.IssueOAuth1Token(noEmail.Subject)
			x := call("/ah/api/v1/oauth/twitter/id-token/connect", fmt.Sprintf(`{"token":%q,"secret":%q,"platformKey":"web"}`, xt, xs), token)
			require.Equal(t, http.StatusOK, x.StatusCode, x.Body)
			assert.ElementsMatch(t, []string{"google", "facebook", "twitter"}, m.profile(t).OAuthConnections)
		})
		t.Run("an identity of another member is refused", func(t *testing.T) {
			other := e.client("localhost")
			require.Equal(t, "/feed", other.signInWith(t, lp, social.Google, newcomer.Subject).Header.Get("Location"))
			res := call("/ah/api/v1/oauth/google/id-token/connect", fmt.Sprintf(`{"token":%q}`, lp.MintIDToken(lp.IDTokenClaims(newcomer.Subject, "test-client"))), token)
			assert.Equal(t, http.StatusConflict, res.StatusCode, res.Body)
		})
		t.Run("disconnecting removes the network", func(t *testing.T) {
			res := call("/ah/api/v1/oauth/disconnect", `{"provider":"google"}`, token)
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
			assert.ElementsMatch(t, []string{"facebook", "twitter"}, m.profile(t).OAuthConnections)
			assert.Equal(t, http.StatusBadRequest, call("/ah/api/v1/oauth/disconnect", `{"provider":"myspace"}`, token).StatusCode)
		})
	})
}

func with(claims map[string]any, key string, value any) map[string]any {
	out := maps.Clone(claims)
	out[key] = value
	return out
}

func TestAMemberWithoutAPasswordKeepsTheirOnlyWayToSignIn(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("localhost")
		require.Equal(t, "/feed", c.signInWith(t, lp, social.Google, newcomer.Subject).Header.Get("Location"))
		settings := c.get("/settings").Body
		assert.Contains(t, settings, "Set a password before you disconnect it", "no disconnect button for the only way in")
		assert.Contains(t, settings, `href="/settings/connections/facebook"`)

		res := c.postForm("/settings/connections/google/disconnect", url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, []string{"google"}, c.profile(t).OAuthConnections, "refused: still connected")

		// Connecting Facebook from settings (the provider round trip) makes Google removable.
		back := c.backFrom(t, lp, c.startSignIn(t, "/settings/connections/facebook"), unproven.Subject)
		require.Equal(t, "/settings", back.Header.Get("Location"), back.Body)
		assert.ElementsMatch(t, []string{"google", "facebook"}, c.profile(t).OAuthConnections)
		require.Equal(t, http.StatusSeeOther, c.postForm("/settings/connections/google/disconnect", url.Values{}).StatusCode)
		assert.Equal(t, []string{"facebook"}, c.profile(t).OAuthConnections)
	})
}
