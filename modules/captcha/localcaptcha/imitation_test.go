package localcaptcha_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/captcha/localcaptcha"
)

// TestImitateShapesTheAnswer checks each imitation carries its provider's fields and no others.
func TestImitateShapesTheAnswer(t *testing.T) {
	t.Parallel()
	issued := time.Date(2024, 3, 5, 14, 32, 10, 96_000_000, time.UTC)
	tests := []struct {
		name string
		kind captcha.Kind
		want map[string]any
	}{
		{"reCAPTCHA answers with score and action", captcha.Recaptcha, map[string]any{
			"success": true, "challenge_ts": "2024-03-05T14:32:10Z", "hostname": host, "score": 0.7, "action": "login",
		}},
		{"hCaptcha answers with credit", captcha.HCaptcha, map[string]any{
			"success": true, "challenge_ts": "2024-03-05T14:32:10.096Z", "hostname": host, "credit": false,
		}},
		{"Turnstile answers with empty error codes, action and cdata", captcha.Turnstile, map[string]any{
			"success": true, "challenge_ts": "2024-03-05T14:32:10.096Z", "hostname": host, "error-codes": []any{},
			"action": "login", "cdata": "",
		}},
		{"the local provider answers like Turnstile without cdata", captcha.Local, map[string]any{
			"success": true, "challenge_ts": "2024-03-05T14:32:10.096Z", "hostname": host, "error-codes": []any{},
			"action": "login",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := localcaptcha.New(secret)
			srv.Imitate(tt.kind)
			srv.SetClock(func() time.Time { return issued })
			a := siteverify(t, serve(t, srv), form(secret, srv.IssueScored(host+":8443", 0.7, "login")))
			assert.Equal(t, tt.want, a.raw)
		})
	}
}

func TestAFailureHasOnlySuccessAndErrorCodes(t *testing.T) {
	t.Parallel()
	for _, k := range captcha.Kinds() {
		t.Run(string(k), func(t *testing.T) {
			srv := localcaptcha.New(secret)
			srv.Imitate(k)
			a := siteverify(t, serve(t, srv), form(secret, "nope"))
			assert.Equal(t, map[string]any{"success": false, "error-codes": []any{"invalid-input-response"}}, a.raw)
		})
	}
}

func TestImitatingHCaptcha(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		siteKey   string // the server's, set with SetSiteKey
		sent      string // the request's sitekey parameter
		replay    bool
		wantCodes []string
	}{
		{"a matching site key passes", "site-1", "site-1", false, nil},
		{"another site key is sitekey-secret-mismatch", "site-1", "site-2", false, []string{"sitekey-secret-mismatch"}},
		{"no site key sent is not checked", "site-1", "", false, nil},
		{"no site key set checks nothing", "", "site-2", false, nil},
		{"a replay is invalid-or-already-seen-response, as hCaptcha says", "", "", true, []string{"invalid-or-already-seen-response"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := localcaptcha.New(secret)
			srv.Imitate(captcha.HCaptcha)
			srv.SetSiteKey(tt.siteKey)
			u := serve(t, srv)
			f := form(secret, srv.Issue(host))
			if tt.sent != "" {
				f.Set("sitekey", tt.sent)
			}
			a := siteverify(t, u, f)
			if tt.replay {
				a = siteverify(t, u, f)
			}
			assert.Equal(t, tt.wantCodes == nil, a.Success)
			assert.Equal(t, tt.wantCodes, a.ErrorCodes)
		})
	}
}
