package localprovider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

// clock is a settable now for the server.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newClocked(t *testing.T) (*Server, *social.Client, *clock) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	s := New("http://"+srv.Listener.Addr().String(), map[string]string{"app": "secret"},
		[]Identity{{Subject: "1001", Email: "ann@example.com", Name: "Ann", EmailVerified: true}})
	clk := &clock{t: time.Now()}
	s.now = clk.now
	srv.Config.Handler = s
	srv.Start()
	t.Cleanup(srv.Close)
	return s, social.New(srv.Client()), clk
}

func TestCodesAndTokensStopWorkingWhenTheyExpire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("a code older than a minute is refused", func(t *testing.T) {
		for _, p := range social.Providers() {
			s, c, clk := newClocked(t)
			cfg := s.Configs("app", "secret")[p]
			verifier := oauth2.GenerateVerifier()
			authURL, err := c.AuthURL(ctx, cfg, "https://panel.example/cb", "st", "no", verifier)
			require.NoError(t, err)
			back, err := s.AuthorizeAs(authURL, "1001")
			require.NoError(t, err)
			u, err := url.Parse(back)
			require.NoError(t, err)
			clk.t = clk.t.Add(codeLifetime + time.Second)
			_, err = c.Exchange(ctx, cfg, "https://panel.example/cb", u.Query().Get("code"), "no", verifier)
			assert.ErrorIs(t, err, social.ErrRefused, p)
		}
	})
	t.Run("an access token older than an hour is refused", func(t *testing.T) {
		for _, p := range []social.Provider{social.Facebook, social.Twitter} {
			s, c, clk := newClocked(t)
			tok := s.IssueAccessToken(p, "1001", "app")
			clk.t = clk.t.Add(tokenLifetime + time.Second)
			_, err := c.VerifyToken(ctx, s.Configs("app", "secret")[p], tok, "")
			assert.ErrorIs(t, err, social.ErrRefused, p)
		}
	})
	t.Run("an OAuth 1.0a request whose timestamp is far off is refused", func(t *testing.T) {
		s, c, clk := newClocked(t)
		tok, secret := s.IssueOAuth1Token("1001")
		clk.t = clk.t.Add(oauth1Skew + time.Minute)
		_, err := c.VerifyToken(ctx, s.Configs("app", "secret")[social.Twitter], tok, secret)
		assert.ErrorIs(t, err, social.ErrRefused)
	})
}

func TestTheGoogleUserinfoEndpointAnswersForAGoogleAccessToken(t *testing.T) {
	t.Parallel()
	s, _, _ := newClocked(t)
	cases := []struct {
		name   string
		token  string
		status int
	}{
		{"a Google access token gets the claims", s.IssueAccessToken(social.Google, "1001", "app"), http.StatusOK},
		{"a Twitter token gets 401", s.IssueAccessToken(social.Twitter, "1001", "app"), http.StatusUnauthorized},
		{"no token gets 401", "", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, s.base+"/google/userinfo", nil)
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			assert.Equal(t, tc.status, rec.Code)
		})
	}
}
