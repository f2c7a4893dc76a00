package localprovider_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

func TestTheSignInPageSaysItIsLocalAndListsTheIdentities(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		provider social.Provider
		label    string
	}{
		{social.Google, "Local development sign-in — this is not Google; no real account is used"},
		{social.Facebook, "Local development sign-in — this is not Facebook; no real account is used"},
		{social.Twitter, "Local development sign-in — this is not X; no real account is used"},
	}
	for _, tc := range cases {
		t.Run("the "+string(tc.provider)+" page names what it imitates and offers everyone", func(t *testing.T) {
			resp, page := e.get(t, e.authURL(t, tc.provider))
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Contains(t, page, "<h1>"+tc.label+"</h1>", "the label is the page's heading, at the top")
			assert.Less(t, strings.Index(page, tc.label), strings.Index(page, "<form"), "the label comes before the choices")
			assert.Contains(t, page, `<html lang="en">`)
			assert.Contains(t, page, "<title>")
			assert.Contains(t, page, "Ann Example — ann@example.com")
			assert.Contains(t, page, "Bob &lt;Example&gt; — bob@example.com (unverified)", "names are escaped")
			assert.Contains(t, page, "Cy Example (no email)")
			assert.Contains(t, page, `<button type="submit" name="cancel" value="1">Cancel</button>`)
		})
	}
	t.Run("the page works without JavaScript and loads nothing", func(t *testing.T) {
		resp, page := e.get(t, e.authURL(t, social.Google))
		for _, banned := range []string{"<script", "<style", "style=", "<link", "src=", "<img", "onclick"} {
			assert.NotContains(t, page, banned)
		}
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	})
}

func TestPickingAnIdentityOnThePageSendsACodeBackToTheApp(t *testing.T) {
	t.Parallel()
	for _, p := range social.Providers() {
		t.Run(string(p)+" sends the code and the state back, and the code signs the identity in", func(t *testing.T) {
			e := newEnv(t)
			verifier := oauth2.GenerateVerifier()
			authURL, err := e.client.AuthURL(context.Background(), e.cfg[p], redirectURI, "s-1", "n-1", verifier)
			require.NoError(t, err)
			_, page := e.get(t, authURL)
			resp := e.submit(t, page, "subject", "1002")
			require.Equal(t, http.StatusSeeOther, resp.StatusCode)
			back, err := url.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			assert.Equal(t, "panel.example", back.Host)
			assert.Equal(t, "s-1", back.Query().Get("state"))
			id, err := e.client.Exchange(context.Background(), e.cfg[p], redirectURI, back.Query().Get("code"), "n-1", verifier)
			require.NoError(t, err)
			assert.Equal(t, "1002", id.Subject)
		})
	}
}

func TestCancellingSendsAccessDeniedBackWithTheState(t *testing.T) {
	t.Parallel()
	for _, p := range social.Providers() {
		t.Run(string(p)+" answers error=access_denied and the state", func(t *testing.T) {
			e := newEnv(t)
			_, page := e.get(t, e.authURL(t, p))
			resp := e.submit(t, page, "cancel", "1")
			require.Equal(t, http.StatusSeeOther, resp.StatusCode)
			back, err := url.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			assert.Equal(t, "https://panel.example/oauth/callback", back.Scheme+"://"+back.Host+back.Path)
			assert.Equal(t, "access_denied", back.Query().Get("error"))
			assert.Equal(t, "s-1", back.Query().Get("state"))
			assert.Empty(t, back.Query().Get("code"))
			assert.Zero(t, e.lp.TokenCalls(p))
		})
	}
}

func TestABadClientOrRedirectURIGetsAnErrorPageNotARedirect(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	good, err := url.Parse(e.authURL(t, social.Google))
	require.NoError(t, err)
	cases := []struct {
		name, param, value string
	}{
		{"an unknown client id", "client_id", "stranger"},
		{"no client id", "client_id", ""},
		{"a javascript: redirect URI", "redirect_uri", "javascript:alert(1)"},
		{"a relative redirect URI", "redirect_uri", "/oauth/callback"},
		{"an ftp redirect URI", "redirect_uri", "ftp://panel.example/cb"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" shows an error page", func(t *testing.T) {
			u := *good
			q := u.Query()
			q.Set(tc.param, tc.value)
			u.RawQuery = q.Encode()
			resp, page := e.get(t, u.String())
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("Location"))
			assert.Contains(t, page, "Local development sign-in — this is not Google; no real account is used")
			assert.Contains(t, page, "This sign-in request cannot be completed")
		})
	}
}

func TestAMalformedRequestFromAKnownClientIsSentBackAsAnOAuthError(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name     string
		provider social.Provider
		param    string
		value    string
		want     string
	}{
		{"Twitter without PKCE is an invalid request", social.Twitter, "code_challenge", "", "invalid_request"},
		{"a plain PKCE challenge is an invalid request", social.Facebook, "code_challenge_method", "plain", "invalid_request"},
		{"Google without the openid scope is an invalid scope", social.Google, "scope", "email", "invalid_scope"},
		{"a token response type is unsupported", social.Google, "response_type", "token", "unsupported_response_type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(e.authURL(t, tc.provider))
			require.NoError(t, err)
			q := u.Query()
			if tc.value == "" {
				q.Del(tc.param)
				q.Del("code_challenge_method")
			} else {
				q.Set(tc.param, tc.value)
			}
			u.RawQuery = q.Encode()
			resp, _ := e.get(t, u.String())
			require.Equal(t, http.StatusFound, resp.StatusCode)
			back, err := url.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			assert.Equal(t, tc.want, back.Query().Get("error"))
			assert.Equal(t, "s-1", back.Query().Get("state"))
		})
	}
}

func TestAuthorizeAsRefusesWhatThePageWouldRefuse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.lp.AuthorizeAs(e.authURL(t, social.Google), "nobody")
	assert.ErrorContains(t, err, "No identity with that subject")
	_, err = e.lp.AuthorizeAs("http://elsewhere.example/google/authorize", "1001")
	assert.Error(t, err)
}
