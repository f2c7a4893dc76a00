package social_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

func TestSigningInWithEachProviderGivesWhoSignedIn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		provider social.Provider
		subject  string
		want     social.Identity
	}{
		{"Google gives the subject and the verified email", social.Google, "1001",
			social.Identity{Provider: social.Google, Subject: "1001", Email: "ann@example.com", EmailVerified: true, Name: "Ann Example"}},
		{"Google says when an email is not verified", social.Google, "1002",
			social.Identity{Provider: social.Google, Subject: "1002", Email: "bob@example.com", EmailVerified: false, Name: "Bob Example"}},
		{"Google gives no email when the account has none", social.Google, "1003",
			social.Identity{Provider: social.Google, Subject: "1003", Name: "Cy Example"}},
		{"Facebook gives the Graph id and a confirmed email as verified", social.Facebook, "1001",
			social.Identity{Provider: social.Facebook, Subject: "1001", Email: "ann@example.com", EmailVerified: true, Name: "Ann Example"}},
		{"Facebook gives no email that was never confirmed", social.Facebook, "1002",
			social.Identity{Provider: social.Facebook, Subject: "1002", Name: "Bob Example"}},
		{"Twitter gives the user id and no email", social.Twitter, "1001",
			social.Identity{Provider: social.Twitter, Subject: "1001", Name: "Ann Example"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			s := e.startSignIn(t, tc.provider, tc.subject)
			got, err := e.exchange(s, tc.provider)
			require.NoError(t, err)
			assert.Equal(t, tc.want, *got)
		})
	}
}

func TestTheAuthURLAsksForWhatEachProtocolNeeds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	verifier := oauth2.GenerateVerifier()
	cases := []struct {
		name     string
		provider social.Provider
		path     string
		want     map[string]string
	}{
		{"Google's asks for an OpenID Connect code with a nonce and PKCE", social.Google, "/google/authorize",
			map[string]string{"scope": "openid email profile", "nonce": "n-1", "response_type": "code"}},
		{"Facebook's asks for the email permission with PKCE", social.Facebook, "/facebook/dialog/oauth",
			map[string]string{"scope": "email", "response_type": "code"}},
		{"Twitter's asks to read the user with PKCE", social.Twitter, "/twitter/i/oauth2/authorize",
			map[string]string{"scope": "users.read tweet.read", "response_type": "code"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := e.client.AuthURL(context.Background(), e.cfg[tc.provider], redirectURI, "s-1", "n-1", verifier)
			require.NoError(t, err)
			u, err := url.Parse(raw)
			require.NoError(t, err)
			assert.True(t, strings.HasSuffix(u.Path, tc.path), u.Path)
			q := u.Query()
			for k, v := range tc.want {
				assert.Equal(t, v, q.Get(k), k)
			}
			assert.Equal(t, clientID, q.Get("client_id"))
			assert.Equal(t, redirectURI, q.Get("redirect_uri"))
			assert.Equal(t, "s-1", q.Get("state"))
			assert.Equal(t, "S256", q.Get("code_challenge_method"))
			assert.Equal(t, oauth2.S256ChallengeFromVerifier(verifier), q.Get("code_challenge"))
			assert.NotContains(t, raw, verifier, "only the challenge leaves the server")
			assert.NotContains(t, raw, clientSecret)
		})
	}
}

func TestGoogleDiscoveryIsFetchedOncePerIssuer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, err := e.client.AuthURL(ctx, e.cfg[social.Google], redirectURI, "s", "n", oauth2.GenerateVerifier())
	require.NoError(t, err)
	e.srv.Close()
	_, err = e.client.AuthURL(ctx, e.cfg[social.Google], redirectURI, "s", "n", oauth2.GenerateVerifier())
	assert.NoError(t, err, "the second AuthURL needs no request")
}

func TestAMountedProviderWorksUnderAPathPrefix(t *testing.T) {
	t.Parallel()
	for _, strip := range []bool{false, true} {
		how := map[bool]string{false: "with the prefix left on", true: "with the prefix stripped"}[strip]
		e := newPrefixedEnv(t, "/_dev/sign-in", strip)
		for _, p := range social.Providers() {
			t.Run(string(p)+" signs in through the prefix "+how, func(t *testing.T) {
				s := e.startSignIn(t, p, "1001")
				got, err := e.exchange(s, p)
				require.NoError(t, err)
				assert.Equal(t, "1001", got.Subject)
			})
		}
		t.Run("twitter OAuth 1.0a signatures cover the prefixed path "+how, func(t *testing.T) {
			tok, secret := e.lp.IssueOAuth1Token("1001")
			got, err := e.client.VerifyToken(context.Background(), e.cfg[social.Twitter], tok, secret)
			require.NoError(t, err)
			assert.Equal(t, "1001", got.Subject)
		})
	}
}
