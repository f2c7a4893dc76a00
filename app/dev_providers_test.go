package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTheLocalSignInStandInSendsTheBrowserBackOnlyToAPanelsOwnHost(t *testing.T) {
	t.Parallel()
	cfg := testConfig("development")
	cfg.Demo = true
	eachDialectWith(t, cfg, func(t *testing.T, e *env) {
		authorize := func(redirect string) *response {
			q := url.Values{
				"client_id": {devClientID}, "redirect_uri": {redirect}, "response_type": {"code"},
				"scope": {"openid email profile"}, "state": {"s"},
			}
			return e.client("localhost").get(devSignInPath + "/google/authorize?" + q.Encode())
		}
		cases := []struct {
			name, redirect string
			shown          bool
		}{
			{"a panel's own host", "http://localhost:3000/sign-in/google/callback", true},
			{"another panel's host", "http://northwind.localhost:3000/sign-in/google/callback", true},
			{"another site", "https://evil.example/landing", false},
			{"a look-alike of a panel's host", "http://localhost.evil.example/landing", false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := authorize(tc.redirect)
				assert.Empty(t, res.Header.Get("Location"), "the stand-in never redirects before a choice")
				if tc.shown {
					assert.Equal(t, http.StatusOK, res.StatusCode, res.Body)
					return
				}
				assert.Equal(t, http.StatusBadRequest, res.StatusCode)
				assert.Contains(t, res.Body, "not registered")
			})
		}
		// The choice on the page is where the stand-in sends the browser back: refused too.
		form := url.Values{
			"client_id": {devClientID}, "redirect_uri": {"https://evil.example/landing"}, "response_type": {"code"},
			"scope": {"openid"}, "state": {"s"}, "subject": {"local-dana"},
		}
		res := e.client("localhost").do(http.MethodPost, devSignInPath+"/google/authorize", strings.NewReader(form.Encode()),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Empty(t, res.Header.Get("Location"))
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	})
}
