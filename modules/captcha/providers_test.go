package captcha_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

// TestVerifyReadsEachProvidersAnswer feeds Verify answers in the shapes the providers document
// (https://developers.google.com/recaptcha/docs/v3, https://docs.hcaptcha.com,
// https://developers.cloudflare.com/turnstile/get-started/server-side-validation/).
func TestVerifyReadsEachProvidersAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		kind    captcha.Kind
		body    string
		host    string
		action  string
		wantErr error
		wantMsg string
	}{
		// reCAPTCHA v3
		{
			name: "a reCAPTCHA v3 success with score and action is accepted",
			kind: captcha.Recaptcha,
			body: `{
  "success": true,
  "score": 0.9,
  "action": "login",
  "challenge_ts": "2024-03-05T14:32:10Z",
  "hostname": "panel.example.com"
}`,
			host: "panel.example.com", action: "login",
		},
		{
			name:    "a reCAPTCHA v3 success with a bot-like score is refused",
			kind:    captcha.Recaptcha,
			body:    `{"success": true, "score": 0.1, "action": "login", "challenge_ts": "2024-03-05T14:32:10Z", "hostname": "panel.example.com"}`,
			wantErr: captcha.ErrFailed, wantMsg: "score 0.10 below 0.50",
		},
		{
			name:    "a reCAPTCHA answer without a score, as a v2 key gives, is refused",
			kind:    captcha.Recaptcha,
			body:    `{"success": true, "challenge_ts": "2024-03-05T14:32:10Z", "hostname": "panel.example.com"}`,
			wantErr: captcha.ErrFailed, wantMsg: "no score",
		},
		{
			name:    "a reCAPTCHA refusal reports its error codes",
			kind:    captcha.Recaptcha,
			body:    `{"success": false, "error-codes": ["timeout-or-duplicate"]}`,
			wantErr: captcha.ErrFailed, wantMsg: "timeout-or-duplicate",
		},
		{
			name:    "a reCAPTCHA refusal of the secret is a misconfiguration",
			kind:    captcha.Recaptcha,
			body:    `{"success": false, "error-codes": ["invalid-input-secret"]}`,
			wantErr: captcha.ErrMisconfigured, wantMsg: "invalid-input-secret",
		},
		// hCaptcha
		{
			name: "an hCaptcha success with credit is accepted",
			kind: captcha.HCaptcha,
			body: `{
  "success": true,
  "challenge_ts": "2024-03-05T14:32:10.000Z",
  "hostname": "panel.example.com",
  "credit": false
}`,
			host: "panel.example.com",
		},
		{
			name: "an hCaptcha Enterprise success's score is not held to reCAPTCHA's minimum",
			kind: captcha.HCaptcha,
			body: `{"success": true, "challenge_ts": "2024-03-05T14:32:10.000Z", "hostname": "panel.example.com",
  "credit": true, "score": 0.2, "score_reason": ["safe"]}`,
			host: "panel.example.com",
		},
		{
			name:    "an hCaptcha refusal of a used token is a failure",
			kind:    captcha.HCaptcha,
			body:    `{"success": false, "error-codes": ["invalid-or-already-seen-response"]}`,
			wantErr: captcha.ErrFailed, wantMsg: "invalid-or-already-seen-response",
		},
		{
			name:    "an hCaptcha site key mismatch is a misconfiguration",
			kind:    captcha.HCaptcha,
			body:    `{"success": false, "error-codes": ["sitekey-secret-mismatch"]}`,
			wantErr: captcha.ErrMisconfigured, wantMsg: "sitekey-secret-mismatch",
		},
		// Turnstile
		{
			name: "a Turnstile success with action, cdata and metadata is accepted",
			kind: captcha.Turnstile,
			body: `{
  "success": true,
  "challenge_ts": "2022-02-28T15:14:30.096Z",
  "hostname": "example.com",
  "error-codes": [],
  "action": "login",
  "cdata": "sessionid-123456789",
  "metadata": {
    "ephemeral_id": "x:9f78e0ed210960d7693b167e"
  }
}`,
			host: "example.com", action: "login",
		},
		{
			name:    "a Turnstile success for another hostname is refused",
			kind:    captcha.Turnstile,
			body:    `{"success": true, "challenge_ts": "2022-02-28T15:14:30.096Z", "hostname": "example.com", "error-codes": [], "action": "", "cdata": ""}`,
			host:    "panel.example.com",
			wantErr: captcha.ErrFailed, wantMsg: `hostname "example.com"`,
		},
		{
			name:    "a success without a hostname is refused when one is expected",
			kind:    captcha.Turnstile,
			body:    `{"success": true, "error-codes": []}`,
			host:    "panel.example.com",
			wantErr: captcha.ErrFailed, wantMsg: `hostname ""`,
		},
		{
			name:    "a Turnstile refusal reports its error codes",
			kind:    captcha.Turnstile,
			body:    `{"success": false, "error-codes": ["invalid-input-response"]}`,
			wantErr: captcha.ErrFailed, wantMsg: "invalid-input-response",
		},
		{
			name:    "a refusal without error codes is still a failure",
			kind:    captcha.Turnstile,
			body:    `{"success": false}`,
			wantErr: captcha.ErrFailed, wantMsg: "no error code",
		},
		{
			name:    "error codes are sanitized before they reach the logs",
			kind:    captcha.Turnstile,
			body:    `{"success": false, "error-codes": ["bad\ncode <script>"]}`,
			wantErr: captcha.ErrFailed, wantMsg: "bad?code??script?",
		},
		{
			name:    "an answer without success is a failure, never a pass",
			kind:    captcha.Turnstile,
			body:    `{"hostname": "example.com"}`,
			wantErr: captcha.ErrFailed,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, calls := jsonServer(t, http.StatusOK, tt.body, nil)

			err := captcha.New(nil).Verify(t.Context(), configFor(tt.kind, url), "tok-123", "203.0.113.7", tt.host, tt.action)

			assert.Equal(t, 1, *calls)
			if tt.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}
