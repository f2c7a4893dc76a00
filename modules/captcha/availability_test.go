package captcha_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

// TestVerifyWhenTheProviderCannotAnswer checks that every way of getting no verdict is
// ErrUnavailable, never ErrFailed (which would blame the user) and never success.
func TestVerifyWhenTheProviderCannotAnswer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		url     func(t *testing.T) string
		ctx     func(t *testing.T) context.Context
		client  *http.Client
		wantMsg string
	}{
		{
			name: "a provider outage answering 503 is unavailable",
			url: func(t *testing.T) string {
				f := newFixture(t, captcha.Turnstile)
				f.srv.SetDown(true)
				return f.cfg.VerifyURL
			},
			wantMsg: "HTTP 503",
		},
		{
			name: "a rate-limited provider answering 429 is unavailable",
			url: func(t *testing.T) string {
				u, _ := jsonServer(t, http.StatusTooManyRequests, `{"success":false}`, nil)
				return u
			},
			wantMsg: "HTTP 429",
		},
		{
			name: "an unreachable server is unavailable",
			url: func(t *testing.T) string {
				ts := httptest.NewServer(http.NotFoundHandler())
				u := ts.URL + "/siteverify"
				ts.Close()
				return u
			},
			wantMsg: "connect",
		},
		{
			name: "a provider slower than the caller's deadline is unavailable",
			url: func(t *testing.T) string {
				return slowServer(t)
			},
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
				t.Cleanup(cancel)
				return ctx
			},
			wantMsg: "deadline exceeded",
		},
		{
			name:    "a provider slower than the client's timeout is unavailable",
			url:     slowServer,
			client:  &http.Client{Timeout: 50 * time.Millisecond},
			wantMsg: "Timeout",
		},
		{
			name: "an HTML error page with status 200 is unavailable",
			url: func(t *testing.T) string {
				u, _ := jsonServer(t, http.StatusOK, `<html><body>Oops</body></html>`, nil)
				return u
			},
			wantMsg: "not the expected JSON",
		},
		{
			name: "an answer over 64 KiB is unavailable, not read to the end",
			url: func(t *testing.T) string {
				u, _ := jsonServer(t, http.StatusOK, `{"success":true,"pad":"`+strings.Repeat("x", 70<<10)+`"}`, nil)
				return u
			},
			wantMsg: "larger than 65536 bytes",
		},
		{
			name: "Turnstile's internal-error is unavailable",
			url: func(t *testing.T) string {
				u, _ := jsonServer(t, http.StatusOK, `{"success":false,"error-codes":["internal-error"]}`, nil)
				return u
			},
			wantMsg: "internal-error",
		},
		{
			name: "a redirect is not followed, so the secret is never re-sent elsewhere",
			url: func(t *testing.T) string {
				elsewhere, calls := jsonServer(t, http.StatusOK, `{"success":true}`, nil)
				t.Cleanup(func() { assert.Zero(t, *calls, "the redirect target was called") })
				ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
				}))
				t.Cleanup(ts.Close)
				return ts.URL + "/siteverify"
			},
			client:  &http.Client{}, // follows redirects by default
			wantMsg: "HTTP 307",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			if tt.ctx != nil {
				ctx = tt.ctx(t)
			}
			err := captcha.New(tt.client).Verify(ctx, configFor(captcha.Turnstile, tt.url(t)), "tok-123", "", "", "")

			require.ErrorIs(t, err, captcha.ErrUnavailable)
			assert.NotErrorIs(t, err, captcha.ErrFailed)
			assert.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}

func TestVerifyPassesTheCallersContextCancellationThrough(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	err := captcha.New(nil).Verify(ctx, configFor(captcha.HCaptcha, slowServer(t)), "tok", "", "", "")
	assert.ErrorIs(t, err, captcha.ErrUnavailable)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestVerifyRecoversOnceTheOutageEnds(t *testing.T) {
	t.Parallel()
	f := newFixture(t, captcha.Local)
	f.srv.SetDown(true)
	tok := f.srv.Issue(panelHost)
	require.ErrorIs(t, f.v.Verify(t.Context(), f.cfg, tok, "", panelHost, ""), captcha.ErrUnavailable)
	f.srv.SetDown(false)
	assert.NoError(t, f.v.Verify(t.Context(), f.cfg, tok, "", panelHost, ""), "a token is not used up by an outage")
}

// slowServer answers only when the request is abandoned or after 5 s.
func slowServer(t *testing.T) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices the client hanging up
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/siteverify"
}
