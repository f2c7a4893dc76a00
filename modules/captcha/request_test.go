package captcha_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

// TestVerifySends checks the siteverify request itself: a form POST whose body carries the
// secret and token (never the URL), plus remoteip and hCaptcha's sitekey.
func TestVerifySends(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		kind         captcha.Kind
		remoteIP     string
		wantRemoteIP string
		wantSiteKey  string
	}{
		{"reCAPTCHA gets the remote IP", captcha.Recaptcha, "203.0.113.7", "203.0.113.7", ""},
		{"a port on the remote IP is dropped", captcha.Turnstile, "203.0.113.7:54321", "203.0.113.7", ""},
		{"an IPv6 remote IP with port is sent bare", captcha.Turnstile, "[2001:db8::1]:443", "2001:db8::1", ""},
		{"something that is not an IP is not sent", captcha.Turnstile, "unknown", "", ""},
		{"no remote IP sends none", captcha.Local, "", "", ""},
		{"hCaptcha also gets the site key", captcha.HCaptcha, "198.51.100.2", "198.51.100.2", testSiteKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *http.Request
			var form map[string][]string
			url, _ := jsonServer(t, http.StatusOK, `{"success":true,"hostname":"panel.example.com","score":0.9}`, func(r *http.Request) {
				require.NoError(t, r.ParseForm())
				got, form = r, r.PostForm
			})
			require.NoError(t, captcha.New(nil).Verify(t.Context(), configFor(tt.kind, url), "tok-123", tt.remoteIP, "", ""))

			require.NotNil(t, got)
			assert.Equal(t, http.MethodPost, got.Method)
			assert.Equal(t, "application/x-www-form-urlencoded", got.Header.Get("Content-Type"))
			assert.Empty(t, got.URL.RawQuery, "nothing travels in the URL")
			assert.Equal(t, []string{testSecret}, form["secret"])
			assert.Equal(t, []string{"tok-123"}, form["response"])
			assert.Equal(t, tt.wantRemoteIP, got.PostForm.Get("remoteip"))
			assert.Equal(t, tt.wantSiteKey, got.PostForm.Get("sitekey"))
		})
	}
}
