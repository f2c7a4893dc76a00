package social_test

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// Every way a provider or a token says no must come back wrapping ErrRefused, so the
// caller can tell the person "that did not work" rather than "try again later".

func TestForgedOrMisaddressedGoogleIDTokensAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	cases := []struct {
		name  string
		token func() string
	}{
		{"a token signed with a key not in the JWKS is refused", func() string {
			return e.lp.MintForeignIDToken(e.lp.IDTokenClaims("1001", clientID))
		}},
		{"a token for another app is refused", func() string {
			c := e.lp.IDTokenClaims("1001", otherID)
			return e.lp.MintIDToken(c)
		}},
		{"a token that expired is refused", func() string {
			c := e.lp.IDTokenClaims("1001", clientID)
			c["iat"], c["exp"] = now.Add(-2*time.Hour).Unix(), now.Add(-time.Hour).Unix()
			return e.lp.MintIDToken(c)
		}},
		{"a token from another issuer is refused", func() string {
			c := e.lp.IDTokenClaims("1001", clientID)
			c["iss"] = "https://accounts.google.com"
			return e.lp.MintIDToken(c)
		}},
		{"a token that is not a JWT is refused", func() string { return "not.a.jwt" }},
		{"a token whose payload was changed after signing is refused", func() string {
			good := e.lp.MintIDToken(e.lp.IDTokenClaims("1001", clientID))
			evil := e.lp.MintIDToken(e.lp.IDTokenClaims("1002", clientID))
			return headerOf(good) + "." + payloadOf(evil) + "." + signatureOf(good)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.VerifyToken(context.Background(), e.cfg[social.Google], tc.token(), "")
			require.ErrorIs(t, err, social.ErrRefused)
		})
	}
}

func TestAGoogleSignInWhoseNonceDiffersIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	s := e.startSignIn(t, social.Google, "1001")
	s.nonce = "nonce-of-another-sign-in"
	_, err := e.exchange(s, social.Google)
	require.ErrorIs(t, err, social.ErrRefused)
}

func TestCodesThatWereUsedOrDoNotMatchTheSignInAreRefused(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(e *env, s *signIn, cfg *social.Config)
		before func(t *testing.T, e *env, s signIn, p social.Provider)
	}{
		{name: "a code used twice is refused the second time", before: func(t *testing.T, e *env, s signIn, p social.Provider) {
			_, err := e.exchange(s, p)
			require.NoError(t, err, "the first use")
		}},
		{name: "a wrong PKCE verifier is refused", change: func(_ *env, s *signIn, _ *social.Config) {
			s.verifier = oauth2.GenerateVerifier()
		}},
		{name: "a wrong client secret is refused", change: func(_ *env, _ *signIn, cfg *social.Config) {
			cfg.ClientSecret = "not-the-secret"
		}},
		{name: "another app's credentials are refused", change: func(_ *env, _ *signIn, cfg *social.Config) {
			cfg.ClientID, cfg.ClientSecret = otherID, otherSecret
		}},
		{name: "a made-up code is refused", change: func(_ *env, s *signIn, _ *social.Config) {
			s.code = "made-up"
		}},
	}
	for _, p := range social.Providers() {
		for _, tc := range cases {
			t.Run(string(p)+": "+tc.name, func(t *testing.T) {
				e := newEnv(t)
				s := e.startSignIn(t, p, "1001")
				cfg := e.cfg[p]
				if tc.before != nil {
					tc.before(t, e, s, p)
				}
				if tc.change != nil {
					tc.change(e, &s, &cfg)
				}
				_, err := e.client.Exchange(context.Background(), cfg, redirectURI, s.code, s.nonce, s.verifier)
				require.ErrorIs(t, err, social.ErrRefused)
			})
		}
	}
}

func TestACodeRedeemedForAnotherRedirectURIIsRefused(t *testing.T) {
	t.Parallel()
	for _, p := range social.Providers() {
		t.Run(string(p)+" refuses it", func(t *testing.T) {
			e := newEnv(t)
			s := e.startSignIn(t, p, "1001")
			_, err := e.client.Exchange(context.Background(), e.cfg[p], "https://evil.example/callback", s.code, s.nonce, s.verifier)
			require.ErrorIs(t, err, social.ErrRefused)
		})
	}
}

func TestFacebookTokensThatAreInvalidOrForAnotherAppAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name  string
		cfg   social.Config
		token func() string
	}{
		{"a token issued to another app is refused", e.cfg[social.Facebook], func() string {
			return e.lp.IssueAccessToken(social.Facebook, "1001", otherID)
		}},
		{"a token Facebook never issued is refused", e.cfg[social.Facebook], func() string {
			return "EAAmade-up-token"
		}},
		{"a Google token is refused by Facebook", e.cfg[social.Facebook], func() string {
			return e.lp.IssueAccessToken(social.Google, "1001", clientID)
		}},
		{"a valid token is refused when the app secret is wrong", e.with(social.Facebook, func(c *social.Config) {
			c.ClientSecret = "not-the-secret"
		}), func() string {
			return e.lp.IssueAccessToken(social.Facebook, "1001", clientID)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.VerifyToken(context.Background(), tc.cfg, tc.token(), "")
			require.ErrorIs(t, err, social.ErrRefused)
		})
	}
}

func TestTwitterTokensThatDoNotCheckOutAreRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok, secret := e.lp.IssueOAuth1Token("1001")
	cases := []struct {
		name          string
		cfg           social.Config
		token, secret string
	}{
		{"a bearer token Twitter never issued is refused", e.cfg[social.Twitter], "made-up-bearer", ""},
		{"a Facebook token is refused as a Twitter bearer", e.cfg[social.Twitter], e.lp.IssueAccessToken(social.Facebook, "1001", clientID), ""},
		{"an OAuth 1.0a token with the wrong token secret is refused", e.cfg[social.Twitter], tok, "not-the-token-secret"},
		{"an OAuth 1.0a token Twitter never issued is refused", e.cfg[social.Twitter], "made-up-token", secret},
		{"an OAuth 1.0a request signed with the wrong consumer secret is refused", e.with(social.Twitter, func(c *social.Config) {
			c.ConsumerSecret = "not-the-consumer-secret"
		}), tok, secret},
		{"an OAuth 1.0a request from an unknown consumer is refused", e.with(social.Twitter, func(c *social.Config) {
			c.ConsumerKey = "unknown-consumer"
		}), tok, secret},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.client.VerifyToken(context.Background(), tc.cfg, tc.token, tc.secret)
			require.ErrorIs(t, err, social.ErrRefused)
			assert.NotErrorIs(t, err, social.ErrUnavailable)
		})
	}
}
