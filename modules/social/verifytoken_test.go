package social_test

import (
	"context"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A phone app that signed someone in natively sends its token to the panel, which asks the
// provider whose it is.
func TestTokensThatClientAppsSendAreVerifiedWithTheProvider(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	oauth1Token, oauth1Secret := e.lp.IssueOAuth1Token("1001")
	cases := []struct {
		name          string
		provider      social.Provider
		token, secret string
		want          social.Identity
	}{
		{"a Google ID token for this app gives its subject and verified email", social.Google,
			e.lp.MintIDToken(e.lp.IDTokenClaims("1001", clientID)), "",
			social.Identity{Provider: social.Google, Subject: "1001", Email: "ann@example.com", EmailVerified: true, Name: "Ann Example"}},
		{"a Google ID token says when the email is not verified", social.Google,
			e.lp.MintIDToken(e.lp.IDTokenClaims("1002", clientID)), "",
			social.Identity{Provider: social.Google, Subject: "1002", Email: "bob@example.com", Name: "Bob Example"}},
		{"a Facebook user token of this app gives the Graph id and confirmed email", social.Facebook,
			e.lp.IssueAccessToken(social.Facebook, "1001", clientID), "",
			social.Identity{Provider: social.Facebook, Subject: "1001", Email: "ann@example.com", EmailVerified: true, Name: "Ann Example"}},
		{"a Twitter bearer token gives the user id", social.Twitter,
			e.lp.IssueAccessToken(social.Twitter, "1001", clientID), "",
			social.Identity{Provider: social.Twitter, Subject: "1001", Name: "Ann Example"}},
		{"a Twitter OAuth 1.0a token and secret give the user id and an unverified email", social.Twitter,
			oauth1Token, oauth1Secret,
			social.Identity{Provider: social.Twitter, Subject: "1001", Email: "ann@example.com", Name: "Ann Example"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := e.client.VerifyToken(context.Background(), e.cfg[tc.provider], tc.token, tc.secret)
			require.NoError(t, err)
			assert.Equal(t, tc.want, *got)
		})
	}
}

func TestAGoogleIDTokenWithANonceIsStillAcceptedFromAClientApp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	claims := e.lp.IDTokenClaims("1001", clientID)
	claims["nonce"] = "whatever-the-app-chose"
	got, err := e.client.VerifyToken(context.Background(), e.cfg[social.Google], e.lp.MintIDToken(claims), "")
	require.NoError(t, err)
	assert.Equal(t, "1001", got.Subject)
}
