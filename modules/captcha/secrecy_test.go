package captcha_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

// TestVerifyErrorsNeverCarryTheSecretOrToken walks every failing path; errors end up in logs.
func TestVerifyErrorsNeverCarryTheSecretOrToken(t *testing.T) {
	t.Parallel()
	const token = "TOKEN-0xC0FFEE-never-in-errors"
	answering := func(status int, body string) func(t *testing.T) captcha.Config {
		return func(t *testing.T) captcha.Config {
			u, _ := jsonServer(t, status, body, nil)
			return configFor(captcha.Recaptcha, u)
		}
	}
	tests := []struct {
		name string
		cfg  func(t *testing.T) captcha.Config
	}{
		{"a refused token", answering(http.StatusOK, `{"success":false,"error-codes":["invalid-input-response"]}`)},
		{"a refused secret", answering(http.StatusOK, `{"success":false,"error-codes":["invalid-input-secret"]}`)},
		{"a low score", answering(http.StatusOK, `{"success":true,"score":0.1,"hostname":"panel.example.com"}`)},
		{"a wrong hostname", answering(http.StatusOK, `{"success":true,"score":0.9,"hostname":"evil.example"}`)},
		{"a wrong action", answering(http.StatusOK, `{"success":true,"score":0.9,"hostname":"panel.example.com","action":"x"}`)},
		{"an outage", answering(http.StatusServiceUnavailable, `down`)},
		{"an unparsable answer", answering(http.StatusOK, `{"success":`)},
		{"an unreachable provider", func(t *testing.T) captcha.Config {
			ts := httptest.NewServer(http.NotFoundHandler())
			ts.Close()
			return configFor(captcha.Recaptcha, ts.URL+"/siteverify")
		}},
		{"an invalid config", func(t *testing.T) captcha.Config {
			c := configFor(captcha.Recaptcha, "http://public.example.com/siteverify")
			c.MinScore = 7
			return c
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := captcha.New(nil).Verify(t.Context(), tt.cfg(t), token, "203.0.113.7", panelHost, "login")
			require.Error(t, err)
			assert.NotContains(t, err.Error(), testSecret)
			assert.NotContains(t, err.Error(), token)
		})
	}
}
