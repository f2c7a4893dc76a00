package social_test

import (
	"context"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

func TestProvidersAreListedInDisplayOrderAndParsedByName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, []social.Provider{social.Google, social.Facebook, social.Twitter}, social.Providers())
	cases := []struct {
		in   string
		want social.Provider
		ok   bool
	}{
		{"google", social.Google, true},
		{"facebook", social.Facebook, true},
		{"twitter", social.Twitter, true},
		{"Google", "", false},
		{"x", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, ok := social.ParseProvider(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestEmptyEndpointsMeanTheProvidersProductionOnes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   social.Config
		want social.Config
	}{
		{"Google's issuer is accounts.google.com", social.Config{Provider: social.Google},
			social.Config{Provider: social.Google, Issuer: "https://accounts.google.com"}},
		{"Facebook's are Graph v19.0", social.Config{Provider: social.Facebook},
			social.Config{Provider: social.Facebook, AuthURL: "https://www.facebook.com/v19.0/dialog/oauth",
				TokenURL: "https://graph.facebook.com/v19.0/oauth/access_token", APIURL: "https://graph.facebook.com/v19.0"}},
		{"Twitter's are the OAuth 2.0 and API hosts", social.Config{Provider: social.Twitter},
			social.Config{Provider: social.Twitter, AuthURL: "https://twitter.com/i/oauth2/authorize",
				TokenURL: "https://api.twitter.com/2/oauth2/token", APIURL: "https://api.twitter.com"}},
		{"endpoints that are set are kept", social.Config{Provider: social.Twitter, AuthURL: "http://a", TokenURL: "http://t", APIURL: "http://api"},
			social.Config{Provider: social.Twitter, AuthURL: "http://a", TokenURL: "http://t", APIURL: "http://api"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.in.WithDefaults())
		})
	}
}

func TestACallWithoutTheCredentialsItNeedsIsNotConfigured(t *testing.T) {
	t.Parallel()
	c := social.New(nil)
	ctx := context.Background()
	v := oauth2.GenerateVerifier()
	cases := []struct {
		name string
		call func() error
	}{
		{"an unknown provider is not configured", func() error {
			_, err := c.AuthURL(ctx, social.Config{Provider: "myspace", ClientID: "a", ClientSecret: "b"}, redirectURI, "s", "n", v)
			return err
		}},
		{"a sign-in without a client id is not configured", func() error {
			_, err := c.AuthURL(ctx, social.Config{Provider: social.Facebook, ClientSecret: "b"}, redirectURI, "s", "n", v)
			return err
		}},
		{"a code exchange without a client secret is not configured", func() error {
			_, err := c.Exchange(ctx, social.Config{Provider: social.Twitter, ClientID: "a"}, redirectURI, "code", "n", v)
			return err
		}},
		{"a Facebook token check without the app secret is not configured", func() error {
			_, err := c.VerifyToken(ctx, social.Config{Provider: social.Facebook, ClientID: "a"}, "EAAtoken", "")
			return err
		}},
		{"a Google ID token check without a client id is not configured", func() error {
			_, err := c.VerifyToken(ctx, social.Config{Provider: social.Google}, "a.b.c", "")
			return err
		}},
		{"a Twitter OAuth 1.0a check without consumer credentials is not configured", func() error {
			_, err := c.VerifyToken(ctx, social.Config{Provider: social.Twitter, ClientID: "a", ClientSecret: "b"}, "token", "secret")
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.call(), social.ErrNotConfigured)
		})
	}
}

func TestAProvidersOwnDomainIsTheRegistrableDomainOfWhereTheBrowserSignsIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  social.Config
		want string
	}{
		{social.Config{Provider: social.Google}, "google.com"},
		{social.Config{Provider: social.Facebook}, "facebook.com"},
		{social.Config{Provider: social.Twitter}, "twitter.com"},
		{social.Config{Provider: social.Google, Issuer: "https://login.id.example.co.uk"}, "example.co.uk"},
		{social.Config{Provider: social.Facebook, AuthURL: "http://127.0.0.1:8080/facebook/dialog/oauth"}, "127.0.0.1"},
		{social.Config{Provider: social.Twitter, AuthURL: "http://localhost:3000/_dev/sign-in/twitter/authorize"}, "localhost"},
	} {
		assert.Equal(t, tc.want, tc.cfg.Domain(), "%+v", tc.cfg)
	}
}
