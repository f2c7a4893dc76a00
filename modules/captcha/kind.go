// Package captcha checks captcha tokens with a provider's "siteverify" endpoint and tells pages
// what they need to show the provider's widget.
//
// Supported providers are reCAPTCHA v3, hCaptcha and Cloudflare Turnstile, which all answer the
// same request shape (a form POST of secret, response and remoteip, answered with JSON carrying
// success, challenge_ts, hostname and error-codes), plus "local": the offline development
// provider in package localcaptcha, which speaks the same protocol over plain HTTP.
//
// A panel's [Config] says which provider it uses and when a captcha is asked for ([Mode]);
// [Verifier.Verify] checks one token and returns nil, [ErrFailed] (the user's token was refused)
// or [ErrUnavailable] (the provider could not give an answer).
package captcha

import "strings"

// Kind is a captcha provider.
type Kind string

const (
	// Recaptcha is Google reCAPTCHA v3 (invisible, score based).
	Recaptcha Kind = "recaptcha"
	// HCaptcha is hCaptcha.
	HCaptcha Kind = "hcaptcha"
	// Turnstile is Cloudflare Turnstile.
	Turnstile Kind = "turnstile"
	// Local is the offline development provider of package localcaptcha: a plain checkbox,
	// no script, not a real captcha.
	Local Kind = "local"
)

// Kinds lists every supported provider, in a stable order (for settings forms).
func Kinds() []Kind { return []Kind{Recaptcha, HCaptcha, Turnstile, Local} }

// ParseKind reads a provider name, ignoring case and surrounding spaces.
func ParseKind(s string) (Kind, bool) {
	k := Kind(strings.ToLower(strings.TrimSpace(s)))
	switch k {
	case Recaptcha, HCaptcha, Turnstile, Local:
		return k, true
	}
	return "", false
}

// Mode is when a panel asks for a captcha on join, login and forgot-password.
type Mode string

const (
	// ModeOff never asks.
	ModeOff Mode = "off"
	// ModeAlways always asks.
	ModeAlways Mode = "always"
	// ModeAfterFailures asks once one IP has had Config.AfterFailures failed logins or sign-ups
	// in the rate-limit window.
	ModeAfterFailures Mode = "after_failures"
)

// Modes lists every mode, in a stable order (for settings forms).
func Modes() []Mode { return []Mode{ModeOff, ModeAlways, ModeAfterFailures} }

// ParseMode reads a mode name, ignoring case and surrounding spaces.
func ParseMode(s string) (Mode, bool) {
	m := Mode(strings.ToLower(strings.TrimSpace(s)))
	switch m {
	case ModeOff, ModeAlways, ModeAfterFailures:
		return m, true
	}
	return "", false
}
