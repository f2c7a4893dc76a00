package captcha_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/canvass/canvass/modules/captcha"
)

func TestScriptURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  captcha.Config
		want string
	}{
		{"reCAPTCHA v3 loads api.js rendered with the site key", captcha.Config{Kind: captcha.Recaptcha, SiteKey: "6LcAbC-_x"},
			"https://www.google.com/recaptcha/api.js?render=6LcAbC-_x"},
		{"a reCAPTCHA site key is query-escaped", captcha.Config{Kind: captcha.Recaptcha, SiteKey: "a&b=c"},
			"https://www.google.com/recaptcha/api.js?render=a%26b%3Dc"},
		{"hCaptcha loads its api.js", captcha.Config{Kind: captcha.HCaptcha, SiteKey: "x"}, "https://js.hcaptcha.com/1/api.js"},
		{"Turnstile loads its api.js", captcha.Config{Kind: captcha.Turnstile, SiteKey: "x"}, "https://challenges.cloudflare.com/turnstile/v0/api.js"},
		{"the local provider loads no script", captcha.Config{Kind: captcha.Local}, ""},
		{"an unknown kind loads no script", captcha.Config{Kind: "nope"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.cfg.ScriptURL())
		})
	}
}

func TestCSPSources(t *testing.T) {
	t.Parallel()
	hc := []string{"https://hcaptcha.com", "https://*.hcaptcha.com"}
	tests := []struct {
		name                          string
		kind                          captcha.Kind
		script, frame, connect, style []string
	}{
		{"reCAPTCHA needs Google's recaptcha paths for scripts and frames", captcha.Recaptcha,
			[]string{"https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"},
			[]string{"https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"}, nil, nil},
		{"hCaptcha needs its hosts for scripts, frames, connections and styles", captcha.HCaptcha, hc, hc, hc, hc},
		{"Turnstile needs challenges.cloudflare.com for scripts and frames", captcha.Turnstile,
			[]string{"https://challenges.cloudflare.com"}, []string{"https://challenges.cloudflare.com"}, nil, nil},
		{"the local provider needs nothing", captcha.Local, nil, nil, nil, nil},
		{"an unknown kind needs nothing", "nope", nil, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := captcha.Config{Kind: tt.kind}
			script, frame, connect := cfg.CSPSources()
			assert.Equal(t, tt.script, script, "script-src")
			assert.Equal(t, tt.frame, frame, "frame-src")
			assert.Equal(t, tt.connect, connect, "connect-src")
			assert.Equal(t, tt.style, cfg.StyleSources(), "style-src")
		})
	}
}

func TestCSPSourcesAreFreshSlicesACallerMayAppendTo(t *testing.T) {
	t.Parallel()
	cfg := captcha.Config{Kind: captcha.HCaptcha}
	script, _, _ := cfg.CSPSources()
	script[0] = "'unsafe-inline'"
	again, _, _ := cfg.CSPSources()
	assert.Equal(t, "https://hcaptcha.com", again[0])
}

func TestResponseField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		kind captcha.Kind
		want string
	}{
		{"reCAPTCHA fills g-recaptcha-response", captcha.Recaptcha, "g-recaptcha-response"},
		{"hCaptcha fills h-captcha-response", captcha.HCaptcha, "h-captcha-response"},
		{"Turnstile fills cf-turnstile-response", captcha.Turnstile, "cf-turnstile-response"},
		{"the local checkbox is named captcha-local", captcha.Local, "captcha-local"},
		{"an unknown kind has no field", "nope", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, captcha.Config{Kind: tt.kind}.ResponseField())
		})
	}
}
