package captcha_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

// TestVerify runs tokens through a real Verifier and a localcaptcha server over loopback HTTP.
func TestVerify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		kind   captcha.Kind
		config func(*captcha.Config)
		// prepare may configure the server and returns the token to verify.
		prepare func(t *testing.T, f *fixture) string
		host    string // expectedHost
		action  string
		wantErr error  // nil, ErrFailed, ErrUnavailable or ErrMisconfigured
		wantMsg string // in the error
		calls   int    // siteverify requests, including any made by prepare
	}{
		{
			name:    "a freshly solved local checkbox is accepted",
			kind:    captcha.Local,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.CheckboxToken(panelHost) },
			host:    panelHost,
			calls:   1,
		},
		{
			name:    "a reCAPTCHA token with a good score and the expected action is accepted",
			kind:    captcha.Recaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.9, "login") },
			host:    panelHost,
			action:  "login",
			calls:   1,
		},
		{
			name:    "an hCaptcha token is accepted",
			kind:    captcha.HCaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue(panelHost) },
			host:    panelHost,
			calls:   1,
		},
		{
			name:    "a Turnstile token is accepted",
			kind:    captcha.Turnstile,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0, "join") },
			host:    panelHost,
			action:  "join",
			calls:   1,
		},
		{
			name:    "any hostname is accepted when none is expected",
			kind:    captcha.Local,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue("elsewhere.example.org") },
			calls:   1,
		},
		{
			name:    "the hostname matches ignoring case and ports",
			kind:    captcha.Local,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue("Panel.Example.com:8443") },
			host:    "PANEL.example.COM:3000",
			calls:   1,
		},
		{
			name:    "an empty token is refused without calling the provider",
			kind:    captcha.Local,
			prepare: func(*testing.T, *fixture) string { return "" },
			wantErr: captcha.ErrFailed,
			wantMsg: "no captcha response",
			calls:   0,
		},
		{
			name:    "a blank token is refused without calling the provider",
			kind:    captcha.Turnstile,
			prepare: func(*testing.T, *fixture) string { return " \t " },
			wantErr: captcha.ErrFailed,
			calls:   0,
		},
		{
			name:    "a wrong secret is an operator's misconfiguration, not the user's failure",
			kind:    captcha.Turnstile,
			config:  func(c *captcha.Config) { c.Secret = "not-the-secret" },
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue(panelHost) },
			wantErr: captcha.ErrMisconfigured,
			wantMsg: "invalid-input-secret",
			calls:   1,
		},
		{
			name:    "a token the provider never issued is refused",
			kind:    captcha.Local,
			prepare: func(*testing.T, *fixture) string { return "lc1.forged.token" },
			wantErr: captcha.ErrFailed,
			wantMsg: "invalid-input-response",
			calls:   1,
		},
		{
			name: "a replayed token is refused the second time",
			kind: captcha.Recaptcha,
			prepare: func(t *testing.T, f *fixture) string {
				tok := f.srv.IssueScored(panelHost, 0.9, "login")
				require.NoError(t, f.v.Verify(t.Context(), f.cfg, tok, "", panelHost, "login"))
				return tok
			},
			host:    panelHost,
			action:  "login",
			wantErr: captcha.ErrFailed,
			wantMsg: "timeout-or-duplicate",
			calls:   2,
		},
		{
			name: "a replayed hCaptcha token is refused with hCaptcha's code",
			kind: captcha.HCaptcha,
			prepare: func(t *testing.T, f *fixture) string {
				tok := f.srv.Issue(panelHost)
				require.NoError(t, f.v.Verify(t.Context(), f.cfg, tok, "", panelHost, ""))
				return tok
			},
			wantErr: captcha.ErrFailed,
			wantMsg: "invalid-or-already-seen-response",
			calls:   2,
		},
		{
			name: "an expired token is refused",
			kind: captcha.Turnstile,
			prepare: func(_ *testing.T, f *fixture) string {
				start := time.Now()
				f.srv.SetClock(func() time.Time { return start })
				tok := f.srv.Issue(panelHost)
				f.srv.SetClock(func() time.Time { return start.Add(6 * time.Minute) })
				return tok
			},
			wantErr: captcha.ErrFailed,
			wantMsg: "timeout-or-duplicate",
			calls:   1,
		},
		{
			name:    "a reCAPTCHA score below the default 0.5 is refused",
			kind:    captcha.Recaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.3, "login") },
			action:  "login",
			wantErr: captcha.ErrFailed,
			wantMsg: "score 0.30 below 0.50",
			calls:   1,
		},
		{
			name:    "a reCAPTCHA score of exactly the minimum is accepted",
			kind:    captcha.Recaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.5, "login") },
			action:  "login",
			calls:   1,
		},
		{
			name:    "a panel's stricter minimum score is applied",
			kind:    captcha.Recaptcha,
			config:  func(c *captcha.Config) { c.MinScore = 0.8 },
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.7, "login") },
			wantErr: captcha.ErrFailed,
			wantMsg: "below 0.80",
			calls:   1,
		},
		{
			name:    "a reCAPTCHA token made for another action is refused",
			kind:    captcha.Recaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.9, "join") },
			action:  "login",
			wantErr: captcha.ErrFailed,
			wantMsg: `action "join", want "login"`,
			calls:   1,
		},
		{
			name:    "a reCAPTCHA action is not checked when none is expected",
			kind:    captcha.Recaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0.9, "join") },
			calls:   1,
		},
		{
			name:    "a Turnstile token made for another action is refused",
			kind:    captcha.Turnstile,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.IssueScored(panelHost, 0, "forgot") },
			action:  "login",
			wantErr: captcha.ErrFailed,
			wantMsg: `action "forgot", want "login"`,
			calls:   1,
		},
		{
			name:    "a Turnstile token from a widget without an action is accepted",
			kind:    captcha.Turnstile,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue(panelHost) },
			action:  "login",
			calls:   1,
		},
		{
			name:    "a token solved on another hostname is refused",
			kind:    captcha.HCaptcha,
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue("other-panel.example.com") },
			host:    panelHost,
			wantErr: captcha.ErrFailed,
			wantMsg: `hostname "other-panel.example.com", want "panel.example.com"`,
			calls:   1,
		},
		{
			name: "hCaptcha is sent the site key and refuses a token for another site",
			kind: captcha.HCaptcha,
			prepare: func(_ *testing.T, f *fixture) string {
				f.srv.SetSiteKey("another-site-key")
				return f.srv.Issue(panelHost)
			},
			wantErr: captcha.ErrMisconfigured,
			wantMsg: "sitekey-secret-mismatch",
			calls:   1,
		},
		{
			name:    "an invalid config fails as misconfigured without calling the provider",
			kind:    captcha.Turnstile,
			config:  func(c *captcha.Config) { c.SiteKey = ""; c.VerifyURL = "http://captcha.example.com/siteverify" },
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue(panelHost) },
			wantErr: captcha.ErrMisconfigured,
			wantMsg: "site key missing",
			calls:   0,
		},
		{
			name:    "a config that is off still verifies a token it is given",
			kind:    captcha.Local,
			config:  func(c *captcha.Config) { c.Mode = captcha.ModeOff },
			prepare: func(_ *testing.T, f *fixture) string { return f.srv.Issue(panelHost) },
			calls:   1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.kind)
			if tt.config != nil {
				tt.config(&f.cfg)
			}
			token := tt.prepare(t, f)

			err := f.v.Verify(t.Context(), f.cfg, token, "203.0.113.7", tt.host, tt.action)

			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Contains(t, err.Error(), tt.wantMsg)
			}
			assert.Len(t, f.srv.Requests(), tt.calls, "siteverify calls")
		})
	}
}

func TestVerifyErrorsAreOneOfTheTwoKinds(t *testing.T) {
	t.Parallel()
	assert.ErrorIs(t, captcha.ErrMisconfigured, captcha.ErrUnavailable, "misconfigured is a kind of unavailable")
	assert.NotErrorIs(t, captcha.ErrMisconfigured, captcha.ErrFailed)
	assert.NotErrorIs(t, captcha.ErrUnavailable, captcha.ErrFailed)
}

func TestVerifyTokensAreSingleUseUnderConcurrency(t *testing.T) {
	t.Parallel()
	f := newFixture(t, captcha.Turnstile)
	tok := f.srv.Issue(panelHost)
	const n = 20
	results := make(chan error, n)
	for range n {
		go func() { results <- f.v.Verify(context.Background(), f.cfg, tok, "", panelHost, "") }()
	}
	ok, failed := 0, 0
	for range n {
		if err := <-results; err == nil {
			ok++
		} else if assert.ErrorIs(t, err, captcha.ErrFailed) {
			failed++
		}
	}
	assert.Equal(t, 1, ok)
	assert.Equal(t, n-1, failed)
}

func TestANilVerifierClientStillWorks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, captcha.Local)
	for _, v := range []*captcha.Verifier{captcha.New(nil), {}} {
		require.NoError(t, v.Verify(t.Context(), f.cfg, f.srv.Issue(panelHost), "", panelHost, ""))
	}
	assert.NotNil(t, captcha.New(nil).HTTP)
	assert.Equal(t, 10*time.Second, captcha.New(nil).HTTP.Timeout)
}
