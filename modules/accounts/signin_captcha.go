package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

// CaptchaSpec is the `captcha:` part of a tenant file: the provider (recaptcha, hcaptcha,
// turnstile, or local for development), its keys, and when it is asked for.
type CaptchaSpec struct {
	Kind          string  `yaml:"kind"`
	SiteKey       string  `yaml:"site_key"`
	Secret        string  `yaml:"secret"`
	VerifyURL     string  `yaml:"verify_url"`
	MinScore      float64 `yaml:"min_score"`
	Mode          string  `yaml:"mode"` // off, always, after_failures
	AfterFailures int     `yaml:"after_failures"`
}

type captchaConfig = captcha.Config

// signUpFailures counts failed sign-ups per IP, beside the login failures, for captchas asked
// for after failures.
const signUpIPKey = "join:ip:"

// captchaConfigOf checks a tenant file's captcha part; nil stays nil (no captcha).
func captchaConfigOf(spec *CaptchaSpec) (*captchaConfig, error) {
	if spec == nil {
		return nil, nil
	}
	kind, ok := captcha.ParseKind(spec.Kind)
	if !ok {
		return nil, fmt.Errorf("captcha.kind: %q is not recaptcha, hcaptcha, turnstile or local", spec.Kind)
	}
	mode, ok := captcha.ParseMode(spec.Mode)
	if !ok {
		return nil, fmt.Errorf("captcha.mode: %q is not off, always or after_failures", spec.Mode)
	}
	cfg := captcha.Config{
		Kind: kind, SiteKey: strings.TrimSpace(spec.SiteKey), Secret: spec.Secret, VerifyURL: spec.VerifyURL,
		MinScore: spec.MinScore, Mode: mode, AfterFailures: spec.AfterFailures,
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("captcha: %w", err)
	}
	return &cfg, nil
}

func (m *Module) captchaRow(panelID string, spec *CaptchaSpec, now time.Time) (*CaptchaSetting, error) {
	cfg, err := captchaConfigOf(spec)
	if err != nil || cfg == nil {
		return nil, err
	}
	sealed, err := m.sealer.Seal([]byte(cfg.Secret), captchaBinding(panelID))
	if err != nil {
		return nil, err
	}
	full := cfg.WithDefaults()
	return &CaptchaSetting{
		PanelID: panelID, Kind: string(cfg.Kind), SiteKey: cfg.SiteKey, SecretSealed: sealed, VerifyURL: cfg.VerifyURL,
		MinScore: full.MinScore, Mode: string(cfg.Mode), AfterFailures: full.AfterFailures, UpdatedAt: now,
	}, nil
}

func captchaBinding(panelID string) string { return "captcha:" + panelID }

func (m *Module) loadCaptcha(ctx context.Context, panelID string) (*captchaConfig, error) {
	row, err := m.svc.store.Captcha(ctx, panelID)
	if err != nil || row == nil {
		return nil, err
	}
	secret, err := m.sealer.Open(row.SecretSealed, captchaBinding(panelID))
	if err != nil {
		return nil, fmt.Errorf("open captcha secret of panel %s: %w", panelID, err)
	}
	kind, _ := captcha.ParseKind(row.Kind)
	mode, _ := captcha.ParseMode(row.Mode)
	cfg := captcha.Config{
		Kind: kind, SiteKey: row.SiteKey, Secret: string(secret), VerifyURL: row.VerifyURL, MinScore: row.MinScore,
		Mode: mode, AfterFailures: row.AfterFailures,
	}.WithDefaults()
	if cfg.Mode == captcha.ModeOff {
		return nil, nil
	}
	return &cfg, nil
}

// captchaFor is the panel's captcha when this request must solve one: always, or once this IP
// (or, for the API's recaptcha-required, this account) has failed often enough.
func (m *Module) captchaFor(c fiber.Ctx, account string) (*captchaConfig, error) {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil || cfg.captcha == nil {
		return nil, err
	}
	if cfg.captcha.Mode == captcha.ModeAlways {
		return cfg.captcha, nil
	}
	failures, err := m.svc.failures(c.Context(), web.PanelOf(c), c.IP(), account)
	if err != nil {
		return nil, err
	}
	if failures >= cfg.captcha.AfterFailures {
		return cfg.captcha, nil
	}
	return nil, nil
}

// failures are the failed logins and sign-ups of an IP in the login window, or the failed
// logins of an account when one is named, whichever is more.
func (s *Service) failures(ctx context.Context, panel *web.Panel, ip, account string) (int, error) {
	logins, err := s.limiter.Count(ctx, "login:ip:"+ip, loginWindow)
	if err != nil {
		return 0, err
	}
	signUps, err := s.limiter.Count(ctx, signUpIPKey+ip, loginWindow)
	if err != nil || account == "" {
		return logins + signUps, err
	}
	acct, err := s.limiter.Count(ctx, "login:acct:"+panel.ID+":"+NormalizeEmail(account), loginWindow)
	return max(logins+signUps, acct), err
}

// signUpFailed counts a refused sign-up against the IP.
func (s *Service) signUpFailed(ctx context.Context, ip string) error {
	_, err := s.limiter.Hit(ctx, signUpIPKey+ip, loginWindow)
	return err
}

// checkCaptcha verifies the captcha token of a join, login or forgot-password request when the
// panel asks for one now. A refused token is a 400 on the captcha field; an unreachable
// provider is a 502 (the member may try again); nothing else happens in either case.
func (m *Module) checkCaptcha(c fiber.Ctx, token, account string) error {
	cfg, err := m.captchaFor(c, account)
	if err != nil || cfg == nil {
		return err
	}
	err = m.captcha.Verify(c.Context(), *cfg, token, c.IP(), c.Hostname(), "")
	switch {
	case err == nil:
		return nil
	case errors.Is(err, captcha.ErrMisconfigured):
		return web.Internal(fmt.Errorf("panel %s captcha: %w", web.PanelOf(c).Key, err)) // the operator's to fix
	case errors.Is(err, captcha.ErrFailed):
		return web.Invalid("captcha", "error.captcha_failed", nil).WithCode("captcha_failed")
	case errors.Is(err, captcha.ErrUnavailable):
		return &web.Error{Status: fiber.StatusBadGateway, ID: "error.captcha_unavailable", Err: err}
	}
	return err
}

// formCaptchaToken is the token a page's form carries in its provider's field.
func (m *Module) formCaptchaToken(c fiber.Ctx) string {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil || cfg.captcha == nil {
		return ""
	}
	return c.FormValue(cfg.captcha.ResponseField())
}

// captchaWidget is what a form shows when the panel asks for a captcha now; nil otherwise.
func (m *Module) captchaWidget(c fiber.Ctx, account string) (*views.Captcha, error) {
	cfg, err := m.captchaFor(c, account)
	if err != nil || cfg == nil {
		return nil, err
	}
	w := &views.Captcha{Kind: string(cfg.Kind), SiteKey: cfg.SiteKey, ScriptURL: cfg.ScriptURL(), Field: cfg.ResponseField()}
	if cfg.Kind == captcha.Local && m.localCaptcha != nil {
		w.LocalToken = m.localCaptcha.CheckboxToken(c.Hostname())
	}
	script, frame, connect := cfg.CSPSources()
	web.AllowSources(c, web.CSPSources{Script: script, Frame: frame, Connect: connect, Style: cfg.StyleSources()})
	return w, nil
}
