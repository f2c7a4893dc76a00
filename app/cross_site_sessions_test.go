package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// anotherMember joins Canvass Demo through the API and returns the new member's pp-token.
func (e *env) anotherMember(t *testing.T, email string) string {
	t.Helper()
	res := e.client("localhost").postJSON("/ah/api/v2/user/register", `{"email":"`+email+`","password":"another-pass-1","firstName":"Other"}`)
	require.Equal(t, http.StatusCreated, res.StatusCode, res.Body)
	var body struct {
		PPToken string `json:"ppToken"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Body), &body))
	require.NotEmpty(t, body.PPToken)
	return body.PPToken
}

func TestALinkFromAnotherSiteNeverSwapsTheMemberABrowserIsSignedInAs(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		attacker := e.anotherMember(t, "attacker@example.test")
		cases := []struct {
			name    string
			header  http.Header
			swapped bool
		}{
			{"a link on another site", http.Header{"Sec-Fetch-Site": {"cross-site"}}, false},
			{"a link on a sibling domain", http.Header{"Sec-Fetch-Site": {"same-site"}}, false},
			{"a link on another site, from a browser without Sec-Fetch-Site", http.Header{"Referer": {"https://evil.example/page"}}, false},
			{"an address the member typed or bookmarked", http.Header{"Sec-Fetch-Site": {"none"}}, true},
			{"a link on the panel's own pages", http.Header{"Sec-Fetch-Site": {"same-origin"}}, true},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c := e.member()
				victim := c.cookie(accounts.TokenCookie)
				res := c.do(http.MethodGet, "/feed?pp-token="+attacker, nil, tc.header)
				require.Equal(t, http.StatusSeeOther, res.StatusCode)
				assert.Equal(t, "/feed", res.Header.Get("Location"), "the token leaves the address either way")
				if tc.swapped {
					assert.Equal(t, attacker, c.cookie(accounts.TokenCookie))
				} else {
					assert.Equal(t, victim, c.cookie(accounts.TokenCookie), "the member's own session stays")
				}
			})
		}
		t.Run("a browser signed in nowhere still enters by the spec's link from a tenant's site", func(t *testing.T) {
			c := e.client("localhost")
			c.do(http.MethodGet, "/feed?pp-token="+attacker, nil, http.Header{"Sec-Fetch-Site": {"cross-site"}})
			assert.Equal(t, attacker, c.cookie(accounts.TokenCookie))
		})
	})
}

func TestAWidgetHandoffFromAnotherSiteKeepsTheSessionABrowserAlreadyHas(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		other := e.client("localhost")
		other.header.Set("pp-token", e.anotherMember(t, "framed@example.test"))
		var handoff struct {
			URL string `json:"url"`
		}
		res := other.postJSON("/ah/api/v1/widgets/handoff", `{}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		require.NoError(t, json.Unmarshal([]byte(res.Body), &handoff))
		u, err := url.Parse(handoff.URL)
		require.NoError(t, err)

		c := e.member()
		victim := c.cookie(accounts.TokenCookie)
		res = c.do(http.MethodGet, u.RequestURI(), nil, http.Header{"Sec-Fetch-Site": {"cross-site"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/feed", res.Header.Get("Location"))
		assert.Equal(t, victim, c.cookie(accounts.TokenCookie), "the member's own session stays")

		fresh := e.client("localhost")
		res = fresh.do(http.MethodGet, u.RequestURI(), nil, http.Header{"Sec-Fetch-Site": {"cross-site"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, "the code was left unspent: "+res.Body)
		assert.NotEmpty(t, fresh.cookie(accounts.TokenCookie), "a browser signed in nowhere takes the hand-off")
	})
}

func TestSigningOutByTheCookieAloneNeedsTheXSRFHeader(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		signedIn := func() bool { return c.get("/ah/api/v1/user/profile").StatusCode == http.StatusOK }

		res := c.do(http.MethodGet, "/ah/api/v1/user/logout", nil, http.Header{"Sec-Fetch-Site": {"cross-site"}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
		_, msg, _ := apiError(t, res)
		assert.NotEmpty(t, msg)
		assert.True(t, signedIn(), "a GET from another site does not end the session")

		res = c.do(http.MethodGet, "/ah/api/v1/user/logout", nil, http.Header{web.CSRFHeader: {c.cookie("XSRF-TOKEN")}})
		assert.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.True(t, strings.Contains(res.Body, `"success":true`), res.Body)
		assert.False(t, signedIn(), "with the header, it does")
	})
}
