package captcha_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha"
)

func TestWithDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   captcha.Config
		want captcha.Config
	}{
		{
			name: "reCAPTCHA gets Google's siteverify URL and a 0.5 minimum score",
			in:   captcha.Config{Kind: captcha.Recaptcha},
			want: captcha.Config{Kind: captcha.Recaptcha, VerifyURL: "https://www.google.com/recaptcha/api/siteverify",
				MinScore: 0.5, Mode: captcha.ModeOff, AfterFailures: 3},
		},
		{
			name: "hCaptcha gets hCaptcha's siteverify URL and no minimum score",
			in:   captcha.Config{Kind: captcha.HCaptcha},
			want: captcha.Config{Kind: captcha.HCaptcha, VerifyURL: "https://api.hcaptcha.com/siteverify",
				Mode: captcha.ModeOff, AfterFailures: 3},
		},
		{
			name: "Turnstile gets Cloudflare's siteverify URL",
			in:   captcha.Config{Kind: captcha.Turnstile},
			want: captcha.Config{Kind: captcha.Turnstile, VerifyURL: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
				Mode: captcha.ModeOff, AfterFailures: 3},
		},
		{
			name: "the local provider has no default URL",
			in:   captcha.Config{Kind: captcha.Local},
			want: captcha.Config{Kind: captcha.Local, Mode: captcha.ModeOff, AfterFailures: 3},
		},
		{
			name: "fields that are set are kept",
			in: captcha.Config{Kind: captcha.Recaptcha, VerifyURL: "http://127.0.0.1:9/siteverify", MinScore: 0.7,
				Mode: captcha.ModeAfterFailures, AfterFailures: 5},
			want: captcha.Config{Kind: captcha.Recaptcha, VerifyURL: "http://127.0.0.1:9/siteverify", MinScore: 0.7,
				Mode: captcha.ModeAfterFailures, AfterFailures: 5},
		},
		{
			name: "the zero config is off",
			in:   captcha.Config{},
			want: captcha.Config{Mode: captcha.ModeOff, AfterFailures: 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.in.WithDefaults())
		})
	}
}

func TestValidateAccepts(t *testing.T) {
	t.Parallel()
	valid := func(k captcha.Kind) captcha.Config {
		return captcha.Config{Kind: k, SiteKey: testSiteKey, Secret: testSecret, Mode: captcha.ModeAlways}
	}
	tests := []struct {
		name string
		cfg  captcha.Config
	}{
		{"a reCAPTCHA config with keys and the real URL", valid(captcha.Recaptcha)},
		{"an hCaptcha config with keys and the real URL", valid(captcha.HCaptcha)},
		{"a Turnstile config with keys and the real URL", valid(captcha.Turnstile)},
		{"a local config with a loopback URL and no site key", captcha.Config{Kind: captcha.Local, Secret: testSecret,
			VerifyURL: "http://localhost:3000/dev/captcha/siteverify", Mode: captcha.ModeAlways}},
		{"after_failures with the default count", func() captcha.Config {
			c := valid(captcha.Turnstile)
			c.Mode = captcha.ModeAfterFailures
			return c
		}()},
		{"plain http to 127.0.0.1", func() captcha.Config {
			c := valid(captcha.HCaptcha)
			c.VerifyURL = "http://127.0.0.1:8080/siteverify"
			return c
		}()},
		{"plain http to [::1]", func() captcha.Config {
			c := valid(captcha.HCaptcha)
			c.VerifyURL = "http://[::1]:8080/siteverify"
			return c
		}()},
		{"https to a self-hosted endpoint", func() captcha.Config {
			c := valid(captcha.Turnstile)
			c.VerifyURL = "https://captcha.internal/siteverify"
			return c
		}()},
		{"the zero config, which is off", captcha.Config{}},
		{"an off config whatever else it holds, so a broken setup can be switched off",
			captcha.Config{Kind: "nonsense", VerifyURL: "ftp://x", AfterFailures: -4, Mode: captcha.ModeOff}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.NoError(t, tt.cfg.Validate())
		})
	}
}

func TestValidateRefuses(t *testing.T) {
	t.Parallel()
	base := func(mut func(*captcha.Config)) captcha.Config {
		c := captcha.Config{Kind: captcha.Recaptcha, SiteKey: testSiteKey, Secret: testSecret, Mode: captcha.ModeAlways}
		mut(&c)
		return c
	}
	tests := []struct {
		name string
		cfg  captcha.Config
		want []string
	}{
		{"an unknown kind", base(func(c *captcha.Config) { c.Kind = "recaptcha_v2" }), []string{`unknown provider kind "recaptcha_v2"`}},
		{"a kind in the wrong case, which must be parsed first", base(func(c *captcha.Config) { c.Kind = "Turnstile" }), []string{"unknown provider kind"}},
		{"a missing kind", base(func(c *captcha.Config) { c.Kind = "" }), []string{"provider kind missing"}},
		{"a missing site key", base(func(c *captcha.Config) { c.SiteKey = " " }), []string{"site key missing"}},
		{"a missing secret", base(func(c *captcha.Config) { c.Secret = "" }), []string{"secret missing"}},
		{"an unknown mode", base(func(c *captcha.Config) { c.Mode = "sometimes" }), []string{`unknown mode "sometimes"`}},
		{"after_failures below one", base(func(c *captcha.Config) { c.Mode = captcha.ModeAfterFailures; c.AfterFailures = -1 }),
			[]string{"after_failures must be at least 1, got -1"}},
		{"a reCAPTCHA minimum score above one", base(func(c *captcha.Config) { c.MinScore = 1.5 }), []string{"min score must be between 0.0 and 1.0"}},
		{"a negative reCAPTCHA minimum score", base(func(c *captcha.Config) { c.MinScore = -0.1 }), []string{"min score"}},
		{"plain http to a public host", base(func(c *captcha.Config) { c.VerifyURL = "http://captcha.example.com/siteverify" }),
			[]string{"must use https (plain http only to a loopback host)"}},
		{"a relative verify URL", base(func(c *captcha.Config) { c.VerifyURL = "/siteverify" }), []string{"is not absolute"}},
		{"a verify URL with another scheme", base(func(c *captcha.Config) { c.VerifyURL = "ftp://example.com/siteverify" }), []string{"must use https"}},
		{"a verify URL with credentials", base(func(c *captcha.Config) { c.VerifyURL = "https://user:pw@example.com/siteverify" }),
			[]string{"must not carry credentials"}},
		{"a verify URL that does not parse", base(func(c *captcha.Config) { c.VerifyURL = "https://exa mple.com/%zz" }), []string{"does not parse"}},
		{"the local provider without a verify URL", captcha.Config{Kind: captcha.Local, Secret: testSecret, Mode: captcha.ModeAlways},
			[]string{"verify URL missing"}},
		{"everything wrong at once, every problem listed", captcha.Config{Kind: "nope", Mode: captcha.ModeAfterFailures, AfterFailures: -2,
			VerifyURL: "http://example.com/x"},
			[]string{"after_failures", "unknown provider kind", "site key missing", "secret missing", "must use https"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.NotContains(t, err.Error(), testSecret)
			assert.NotContains(t, err.Error(), "pw@", "credentials are redacted")
		})
	}
}
