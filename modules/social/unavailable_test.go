package social_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// When a provider cannot be asked, the error must say so (ErrUnavailable) and never that it
// refused: the person should try again later, not be told their account is wrong.

func TestAProviderThatIsDownIsUnavailable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok, secret := e.lp.IssueOAuth1Token("1001")
	idToken := e.lp.MintIDToken(e.lp.IDTokenClaims("1001", clientID))
	fbToken := e.lp.IssueAccessToken(social.Facebook, "1001", clientID)
	// Sign-ins started while it was up, finished once it is down.
	started := map[social.Provider]signIn{}
	for _, p := range []social.Provider{social.Facebook, social.Twitter} {
		started[p] = e.startSignIn(t, p, "1001")
	}
	e.srv.Close()
	ctx := context.Background()
	cases := []struct {
		name string
		call func() error
	}{
		{"Google's AuthURL cannot discover the endpoints", func() error {
			_, err := e.client.AuthURL(ctx, e.cfg[social.Google], redirectURI, "s", "n", oauth2.GenerateVerifier())
			return err
		}},
		{"a Google ID token cannot be checked", func() error {
			_, err := e.client.VerifyToken(ctx, e.cfg[social.Google], idToken, "")
			return err
		}},
		{"a Facebook code cannot be exchanged", func() error {
			_, err := e.exchange(started[social.Facebook], social.Facebook)
			return err
		}},
		{"a Facebook token cannot be checked", func() error {
			_, err := e.client.VerifyToken(ctx, e.cfg[social.Facebook], fbToken, "")
			return err
		}},
		{"a Twitter code cannot be exchanged", func() error {
			_, err := e.exchange(started[social.Twitter], social.Twitter)
			return err
		}},
		{"a Twitter OAuth 1.0a token cannot be checked", func() error {
			_, err := e.client.VerifyToken(ctx, e.cfg[social.Twitter], tok, secret)
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			require.ErrorIs(t, err, social.ErrUnavailable)
			assert.NotErrorIs(t, err, social.ErrRefused)
		})
	}
}

func TestGoogleKeysThatCannotBeFetchedMakeTheProviderUnavailableNotTheTokenForged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, err := e.client.AuthURL(ctx, e.cfg[social.Google], redirectURI, "s", "n", oauth2.GenerateVerifier())
	require.NoError(t, err, "discovery while the provider is up")
	e.srv.Close()
	_, err = e.client.VerifyToken(ctx, e.cfg[social.Google], e.lp.MintIDToken(e.lp.IDTokenClaims("1001", clientID)), "")
	require.ErrorIs(t, err, social.ErrUnavailable)
	assert.NotErrorIs(t, err, social.ErrRefused)
}

func TestAProviderAnsweringBrokenlyIsUnavailable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		status int
		body   string
	}{
		{"a 503 is unavailable", http.StatusServiceUnavailable, `{"error":"temporarily_unavailable"}`},
		{"a 500 is unavailable", http.StatusInternalServerError, `oops`},
		{"a 200 that is not JSON is unavailable", http.StatusOK, `<html>maintenance</html>`},
		{"a 404 is unavailable", http.StatusNotFound, `{}`},
		{"an answer over 1 MiB is unavailable", http.StatusOK, `{"id":"` + strings.Repeat("x", 1<<20) + `"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := down(t, tc.status, tc.body)
			c := social.New(srv.Client())
			ctx := context.Background()
			calls := map[string]func() error{
				"google discovery": func() error {
					_, err := c.AuthURL(ctx, social.Config{Provider: social.Google, ClientID: clientID, ClientSecret: clientSecret, Issuer: srv.URL}, redirectURI, "s", "n", oauth2.GenerateVerifier())
					return err
				},
				"facebook exchange": func() error {
					cfg := social.Config{Provider: social.Facebook, ClientID: clientID, ClientSecret: clientSecret, AuthURL: srv.URL, TokenURL: srv.URL, APIURL: srv.URL}
					_, err := c.Exchange(ctx, cfg, redirectURI, "code", "", oauth2.GenerateVerifier())
					return err
				},
				"facebook token": func() error {
					cfg := social.Config{Provider: social.Facebook, ClientID: clientID, ClientSecret: clientSecret, APIURL: srv.URL}
					_, err := c.VerifyToken(ctx, cfg, "EAAtoken", "")
					return err
				},
				"twitter bearer": func() error {
					cfg := social.Config{Provider: social.Twitter, ClientID: clientID, ClientSecret: clientSecret, APIURL: srv.URL}
					_, err := c.VerifyToken(ctx, cfg, "bearer", "")
					return err
				},
			}
			for name, call := range calls {
				err := call()
				require.ErrorIs(t, err, social.ErrUnavailable, name)
				assert.NotErrorIs(t, err, social.ErrRefused, name)
			}
		})
	}
}

func TestErrorsNeverShowTokensOrSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	fbToken := e.lp.IssueAccessToken(social.Facebook, "1001", clientID)
	tok, secret := e.lp.IssueOAuth1Token("1001")
	refusedFB := e.with(social.Facebook, func(c *social.Config) { c.ClientSecret = "wrong-secret-value" })
	_, refusedErr := e.client.VerifyToken(ctx, refusedFB, fbToken, "")
	require.ErrorIs(t, refusedErr, social.ErrRefused)
	e.srv.Close()
	_, fbErr := e.client.VerifyToken(ctx, e.cfg[social.Facebook], fbToken, "")
	require.ErrorIs(t, fbErr, social.ErrUnavailable)
	_, twErr := e.client.VerifyToken(ctx, e.cfg[social.Twitter], tok, secret)
	require.ErrorIs(t, twErr, social.ErrUnavailable)
	for _, err := range []error{refusedErr, fbErr, twErr} {
		for _, secret := range []string{fbToken, clientSecret, "wrong-secret-value", tok, secret} {
			assert.NotContains(t, err.Error(), secret)
		}
	}
}
