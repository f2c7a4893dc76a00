package captcha_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/canvass/canvass/modules/captcha"
)

func TestParseKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want captcha.Kind
		ok   bool
	}{
		{"recaptcha is reCAPTCHA v3", "recaptcha", captcha.Recaptcha, true},
		{"hcaptcha is hCaptcha", "hcaptcha", captcha.HCaptcha, true},
		{"turnstile is Cloudflare Turnstile", "turnstile", captcha.Turnstile, true},
		{"local is the development provider", "local", captcha.Local, true},
		{"case and surrounding spaces are ignored", "  TurnStile ", captcha.Turnstile, true},
		{"an empty name is no kind", "", "", false},
		{"an unknown provider is no kind", "recaptcha_v2", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := captcha.ParseKind(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestKindsListsEveryKindParseKindAccepts(t *testing.T) {
	t.Parallel()
	for _, k := range captcha.Kinds() {
		got, ok := captcha.ParseKind(string(k))
		assert.True(t, ok, k)
		assert.Equal(t, k, got)
	}
	assert.Len(t, captcha.Kinds(), 4)
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want captcha.Mode
		ok   bool
	}{
		{"off never asks", "off", captcha.ModeOff, true},
		{"always always asks", "always", captcha.ModeAlways, true},
		{"after_failures asks after failed attempts", "after_failures", captcha.ModeAfterFailures, true},
		{"case and surrounding spaces are ignored", " ALWAYS\n", captcha.ModeAlways, true},
		{"an unknown mode is no mode", "sometimes", "", false},
		{"an empty mode is no mode", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := captcha.ParseMode(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	assert.Len(t, captcha.Modes(), 3)
}
