package signinconfig

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
)

// SignInSpec is the `sign_in:` part of a tenant file (`canvass tenant apply`): each provider
// the panel offers, by name (google, facebook, twitter). Endpoints are left out for the real
// providers; a test or the demo points them at a local provider.
type SignInSpec map[string]ProviderSpec

type ProviderSpec struct {
	ClientID       string `yaml:"client_id"`
	ClientSecret   string `yaml:"client_secret"`
	Issuer         string `yaml:"issuer"`
	AuthURL        string `yaml:"auth_url"`
	TokenURL       string `yaml:"token_url"`
	APIURL         string `yaml:"api_url"`
	ConsumerKey    string `yaml:"consumer_key"`
	ConsumerSecret string `yaml:"consumer_secret"`
}

// Validate lists every problem of a panel's sign-in configuration at once.
func (s SignInSpec) Validate() error {
	var errs []error
	for name, p := range s {
		if _, ok := social.ParseProvider(name); !ok {
			errs = append(errs, fmt.Errorf("sign_in.%s: unknown provider (google, facebook or twitter)", name))
			continue
		}
		if strings.TrimSpace(p.ClientID) == "" {
			errs = append(errs, fmt.Errorf("sign_in.%s.client_id: required", name))
		}
		if strings.TrimSpace(p.ClientSecret) == "" {
			errs = append(errs, fmt.Errorf("sign_in.%s.client_secret: required", name))
		}
		for field, v := range map[string]string{"issuer": p.Issuer, "auth_url": p.AuthURL, "token_url": p.TokenURL, "api_url": p.APIURL} {
			if v != "" && !web.EndpointURL(v) {
				errs = append(errs, fmt.Errorf("sign_in.%s.%s: %q must be an https address (http only on this machine)", name, field, v))
			}
		}
		if (p.ConsumerKey == "") != (p.ConsumerSecret == "") {
			errs = append(errs, fmt.Errorf("sign_in.%s: consumer_key and consumer_secret go together", name))
		}
	}
	return errors.Join(errs...)
}

// ValidateSignIn lists every problem of a tenant file's sign_in and captcha parts, so that
// `tenant apply` refuses a file before changing anything.
func ValidateSignIn(spec SignInSpec, captcha *CaptchaSpec) error {
	_, cerr := captchaConfigOf(captcha)
	return errors.Join(spec.Validate(), cerr)
}

// ApplySignIn makes a panel's providers and captcha what the tenant file says, sealing secrets.
func (m *Module) ApplySignIn(ctx context.Context, panelID string, spec SignInSpec, captcha *CaptchaSpec) error {
	if err := ValidateSignIn(spec, captcha); err != nil {
		return err
	}
	now := time.Now().UTC()
	var rows []SignInProvider
	for i, p := range social.Providers() {
		ps, ok := spec[string(p)]
		if !ok {
			continue
		}
		secret, err := m.sealer.Seal([]byte(ps.ClientSecret), providerBinding(panelID, string(p), "client"))
		if err != nil {
			return err
		}
		row := SignInProvider{
			PanelID: panelID, Provider: string(p), ClientID: strings.TrimSpace(ps.ClientID), ClientSecretSealed: secret,
			Issuer: ps.Issuer, AuthURL: ps.AuthURL, TokenURL: ps.TokenURL, APIURL: ps.APIURL, ConsumerKey: ps.ConsumerKey,
			Position: i, UpdatedAt: now,
		}
		if ps.ConsumerSecret != "" {
			if row.ConsumerSecretSealed, err = m.sealer.Seal([]byte(ps.ConsumerSecret), providerBinding(panelID, string(p), "consumer")); err != nil {
				return err
			}
		}
		rows = append(rows, row)
	}
	cs, err := m.captchaRow(panelID, captcha, now)
	if err != nil {
		return err
	}
	if err := m.store.ReplaceSignIn(ctx, panelID, rows, cs); err != nil {
		return err
	}
	m.cache.forget(panelID)
	return nil
}

func providerBinding(panelID, provider, which string) string {
	return "sign-in:" + panelID + ":" + provider + ":" + which
}

// panelSignIn is a panel's sign-in configuration with its secrets opened, as the pages use it.
type panelSignIn struct {
	providers []social.Config
	captcha   *captcha.Config
}

// signInCache keeps each panel's sign-in configuration for a while, so that the login page
// costs no database round trip; a change made by another process shows within ttl.
type signInCache struct {
	mu   sync.Mutex
	ttl  time.Duration
	byID map[string]signInEntry
}

type signInEntry struct {
	cfg    *panelSignIn
	loaded time.Time
}

func (c *signInCache) forget(panelID string) {
	c.mu.Lock()
	delete(c.byID, panelID)
	c.mu.Unlock()
}

// SignInOf is a panel's sign-in configuration, secrets opened (cached for the TTL): its
// providers in display order, and its captcha (nil: none, or off). Accounts' sign-in pages and
// login gates read it (accounts.SignIns).
func (m *Module) SignInOf(ctx context.Context, panel *web.Panel) ([]social.Config, *captcha.Config, error) {
	now := time.Now()
	m.cache.mu.Lock()
	e, ok := m.cache.byID[panel.ID]
	m.cache.mu.Unlock()
	if ok && now.Sub(e.loaded) < m.cache.ttl {
		return e.cfg.providers, e.cfg.captcha, nil
	}
	cfg, err := m.loadSignIn(ctx, panel.ID)
	if err != nil {
		return nil, nil, err
	}
	m.cache.mu.Lock()
	m.cache.byID[panel.ID] = signInEntry{cfg: cfg, loaded: now}
	m.cache.mu.Unlock()
	return cfg.providers, cfg.captcha, nil
}

func (m *Module) loadSignIn(ctx context.Context, panelID string) (*panelSignIn, error) {
	rows, err := m.store.SignInProviders(ctx, panelID)
	if err != nil {
		return nil, err
	}
	out := &panelSignIn{}
	for _, r := range rows {
		p, ok := social.ParseProvider(r.Provider)
		if !ok {
			continue
		}
		secret, err := m.sealer.Open(r.ClientSecretSealed, providerBinding(panelID, r.Provider, "client"))
		if err != nil {
			return nil, fmt.Errorf("open %s secret of panel %s: %w", r.Provider, panelID, err)
		}
		cfg := social.Config{
			Provider: p, ClientID: r.ClientID, ClientSecret: string(secret), Issuer: r.Issuer, AuthURL: r.AuthURL,
			TokenURL: r.TokenURL, APIURL: r.APIURL, ConsumerKey: r.ConsumerKey,
		}
		if r.ConsumerSecretSealed != "" {
			cs, err := m.sealer.Open(r.ConsumerSecretSealed, providerBinding(panelID, r.Provider, "consumer"))
			if err != nil {
				return nil, fmt.Errorf("open %s consumer secret of panel %s: %w", r.Provider, panelID, err)
			}
			cfg.ConsumerSecret = string(cs)
		}
		out.providers = append(out.providers, cfg.WithDefaults())
	}
	if out.captcha, err = m.loadCaptcha(ctx, panelID); err != nil {
		return nil, err
	}
	return out, nil
}
