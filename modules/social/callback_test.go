package social_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

func TestTheCallbackGivesTheCodeOnlyForThisBrowsersState(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		query string
		want  string
	}{
		{"a callback with this browser's state gives the code", "code=c-1&state=s-1", "c-1"},
		{"a callback with another state is refused", "code=c-1&state=s-2", ""},
		{"a callback with no state is refused", "code=c-1", ""},
		{"a cancelled sign-in is refused", "error=access_denied&state=s-1", ""},
		{"a callback with neither code nor error is refused", "state=s-1", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			require.NoError(t, err)
			code, err := social.Callback(social.Google, q, "s-1")
			if tc.want == "" {
				require.ErrorIs(t, err, social.ErrRefused)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, code)
		})
	}
}

func TestACancelOnTheProvidersPageComesBackAsARefusal(t *testing.T) {
	t.Parallel()
	for _, p := range social.Providers() {
		t.Run(string(p)+" cancel is refused with access_denied", func(t *testing.T) {
			e := newEnv(t)
			authURL, err := e.client.AuthURL(context.Background(), e.cfg[p], redirectURI, "s-1", "n-1", oauth2.GenerateVerifier())
			require.NoError(t, err)
			u, err := url.Parse(authURL)
			require.NoError(t, err)
			form := u.Query()
			form.Set("cancel", "1")
			u.RawQuery = ""
			browser := e.srv.Client()
			browser.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			resp, err := browser.PostForm(u.String(), form)
			require.NoError(t, err)
			resp.Body.Close()
			back, err := url.Parse(resp.Header.Get("Location"))
			require.NoError(t, err)
			_, err = social.Callback(p, back.Query(), "s-1")
			require.ErrorIs(t, err, social.ErrRefused)
			assert.Contains(t, err.Error(), "access_denied")
		})
	}
}
