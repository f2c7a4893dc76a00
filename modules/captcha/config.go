package captcha

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"strings"
)

// The providers' real siteverify endpoints.
const (
	RecaptchaVerifyURL = "https://www.google.com/recaptcha/api/siteverify"
	HCaptchaVerifyURL  = "https://api.hcaptcha.com/siteverify"
	TurnstileVerifyURL = "https://challenges.cloudflare.com/turnstile/v0/siteverify"
)

const (
	// DefaultMinScore is the reCAPTCHA v3 score a token needs when Config.MinScore is 0.
	DefaultMinScore = 0.5
	// DefaultAfterFailures is Config.AfterFailures when it is 0.
	DefaultAfterFailures = 3
)

// Config is one panel's captcha settings.
type Config struct {
	Kind    Kind
	SiteKey string // public; goes in the page. Not needed for Local.
	Secret  string // private; sent to siteverify only.
	// VerifyURL is the siteverify endpoint; "" means the provider's real one (see WithDefaults).
	// Local has no real one and needs it set, e.g. to where a localcaptcha.Server is mounted.
	VerifyURL string
	// MinScore is the lowest reCAPTCHA v3 score accepted, 0.0–1.0; 0 means DefaultMinScore.
	// Other providers ignore it.
	MinScore float64
	// Mode is when the panel asks for a captcha; "" means ModeOff.
	Mode Mode
	// AfterFailures is, for ModeAfterFailures, how many failed logins or sign-ups from one IP
	// in the window make the captcha required; 0 means DefaultAfterFailures.
	AfterFailures int
}

// WithDefaults fills the zero fields: Mode off, the provider's real VerifyURL, MinScore 0.5 for
// reCAPTCHA and AfterFailures 3. It does not change fields that are set, valid or not.
func (c Config) WithDefaults() Config {
	if c.Mode == "" {
		c.Mode = ModeOff
	}
	if c.VerifyURL == "" {
		c.VerifyURL = defaultVerifyURL(c.Kind)
	}
	if c.Kind == Recaptcha && c.MinScore == 0 {
		c.MinScore = DefaultMinScore
	}
	if c.AfterFailures == 0 {
		c.AfterFailures = DefaultAfterFailures
	}
	return c
}

func defaultVerifyURL(k Kind) string {
	switch k {
	case Recaptcha:
		return RecaptchaVerifyURL
	case HCaptcha:
		return HCaptchaVerifyURL
	case Turnstile:
		return TurnstileVerifyURL
	}
	return ""
}

// Validate reports every problem with the config as Verify would use it, that is after
// WithDefaults, joined with errors.Join; nil means usable. A config in ModeOff is always valid
// (whatever else it holds), so that a broken provider setup can always be switched off.
// Messages never contain the secret.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	switch c.Mode {
	case ModeOff:
		return nil
	case ModeAlways:
	case ModeAfterFailures:
		if c.AfterFailures < 1 {
			errs = append(errs, fmt.Errorf("captcha: after_failures must be at least 1, got %d", c.AfterFailures))
		}
	default:
		errs = append(errs, fmt.Errorf("captcha: unknown mode %q (want off, always or after_failures)", c.Mode))
	}
	errs = append(errs, c.providerProblems()...)
	return errors.Join(errs...)
}

// providerProblems checks what Verify needs, whatever the mode. c has its defaults.
func (c Config) providerProblems() []error {
	var errs []error
	switch c.Kind {
	case Recaptcha, HCaptcha, Turnstile, Local:
	case "":
		errs = append(errs, errors.New("captcha: provider kind missing (want recaptcha, hcaptcha, turnstile or local)"))
	default:
		errs = append(errs, fmt.Errorf("captcha: unknown provider kind %q (want recaptcha, hcaptcha, turnstile or local)", c.Kind))
	}
	if c.Kind != Local && strings.TrimSpace(c.SiteKey) == "" {
		errs = append(errs, errors.New("captcha: site key missing"))
	}
	if strings.TrimSpace(c.Secret) == "" {
		errs = append(errs, errors.New("captcha: secret missing"))
	}
	if c.Kind == Recaptcha && (c.MinScore < 0 || c.MinScore > 1 || math.IsNaN(c.MinScore)) {
		errs = append(errs, fmt.Errorf("captcha: min score must be between 0.0 and 1.0, got %v", c.MinScore))
	}
	if err := checkVerifyURL(c.VerifyURL); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// checkVerifyURL accepts an absolute https URL, or http to a loopback host (tests, local
// development). Credentials in the URL are refused: they would end up in logs.
func checkVerifyURL(raw string) error {
	if raw == "" {
		return errors.New("captcha: verify URL missing (the local provider has no default)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("captcha: verify URL does not parse")
	}
	if !u.IsAbs() || u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("captcha: verify URL %q is not absolute", u.Redacted())
	}
	if u.User != nil {
		return fmt.Errorf("captcha: verify URL %q must not carry credentials", u.Redacted())
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("captcha: verify URL %q must use https (plain http only to a loopback host)", u.Redacted())
	}
	return fmt.Errorf("captcha: verify URL %q must use https", u.Redacted())
}

func isLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
