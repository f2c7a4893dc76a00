package signinconfig

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/captcha"
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

// captchaConfigOf checks a tenant file's captcha part; nil stays nil (no captcha).
func captchaConfigOf(spec *CaptchaSpec) (*captcha.Config, error) {
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

func (m *Module) loadCaptcha(ctx context.Context, panelID string) (*captcha.Config, error) {
	row, err := m.store.Captcha(ctx, panelID)
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
