package offers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/web"
)

// Spec is the `offers:` part of a tenant file (`canvass tenant apply`): the panel's offers
// provider. Secrets may be given as ${ENV} references, resolved by the CLI.
type Spec struct {
	BaseURL        string `yaml:"base_url"`
	AppID          string `yaml:"app_id"`
	APIKey         string `yaml:"api_key"`
	PostbackSecret string `yaml:"postback_secret"`
	// CreditCeiling is the most one postback may credit at once, in major units of the
	// panel's currency ("50.00"); a credit above it is held for an operator's review in the
	// console (owner or finance) instead of paid. "": no ceiling, every credit is paid at once.
	CreditCeiling string `yaml:"credit_ceiling,omitempty"`
}

// minSecret is the shortest postback secret accepted: it is all that stands between a
// forged postback and a member's balance.
const minSecret = 16

// Validate lists every problem of the spec at once.
func (s *Spec) Validate() error {
	if s == nil {
		return nil
	}
	var errs []error
	if !web.EndpointURL(s.BaseURL) {
		errs = append(errs, fmt.Errorf("offers.base_url: %q must be an https address (http only on this machine)", s.BaseURL))
	}
	if strings.TrimSpace(s.AppID) == "" {
		errs = append(errs, errors.New("offers.app_id: required"))
	}
	if len(s.PostbackSecret) < minSecret {
		errs = append(errs, fmt.Errorf("offers.postback_secret: at least %d characters", minSecret))
	}
	return errors.Join(errs...)
}

// ValidateIn is Validate with the credit ceiling read in the panel's currency.
func (s *Spec) ValidateIn(currency string) error {
	if s == nil {
		return nil
	}
	_, err := s.CeilingIn(currency)
	return errors.Join(s.Validate(), err)
}

// CeilingIn reads the credit ceiling in minor units of the panel's currency: 0 when none is
// set. It must be a positive amount with no more decimals than the currency has.
func (s *Spec) CeilingIn(currency string) (int64, error) {
	if s == nil || strings.TrimSpace(s.CreditCeiling) == "" {
		return 0, nil
	}
	if strings.TrimSpace(currency) == "" {
		return 0, errors.New("offers.credit_ceiling: the panel's currency is needed to read it")
	}
	minor, err := web.ParseMoney(s.CreditCeiling, currency)
	if err != nil || minor <= 0 {
		return 0, fmt.Errorf("offers.credit_ceiling: %q must be a positive amount of %s", s.CreditCeiling, strings.ToUpper(currency))
	}
	return minor, nil
}

func sealBinding(panelID, which string) string { return "offers:" + panelID + ":" + which }

// Apply makes the panel's offers provider what the tenant file says, sealing its secrets; a
// nil spec removes it (the offers page and postbacks go with it). A spec with a credit ceiling
// needs the panel's currency: ApplyIn.
func (m *Module) Apply(ctx context.Context, panelID string, s *Spec) error {
	return m.ApplyIn(ctx, panelID, "", s)
}

// ApplyIn is Apply for a panel whose currency is known: the credit ceiling, when the spec
// sets one, is read and kept in minor units of that currency.
func (m *Module) ApplyIn(ctx context.Context, panelID, currency string, s *Spec) error {
	if err := s.ValidateIn(currency); err != nil {
		return err
	}
	if s == nil {
		if err := m.svc.store.DeleteProvider(ctx, panelID); err != nil {
			return err
		}
		m.svc.configs.forget(panelID)
		m.svc.cache.forgetPanel(panelID)
		return nil
	}
	secret, err := m.svc.sealer.Seal([]byte(s.PostbackSecret), sealBinding(panelID, "postback"))
	if err != nil {
		return fmt.Errorf("seal postback secret of panel %s: %w", panelID, err)
	}
	row := ProviderRow{PanelID: panelID, BaseURL: strings.TrimRight(strings.TrimSpace(s.BaseURL), "/"),
		AppID: strings.TrimSpace(s.AppID), PostbackSecretSealed: secret, UpdatedAt: m.svc.now().UTC()}
	if ceiling, _ := s.CeilingIn(currency); ceiling > 0 {
		row.CreditCeilingMinor, row.CreditCeilingCurrency = &ceiling, strings.ToUpper(currency)
	}
	if s.APIKey != "" {
		if row.APIKeySealed, err = m.svc.sealer.Seal([]byte(s.APIKey), sealBinding(panelID, "api-key")); err != nil {
			return fmt.Errorf("seal API key of panel %s: %w", panelID, err)
		}
	}
	if err := m.svc.store.SaveProvider(ctx, row); err != nil {
		return err
	}
	m.svc.configs.forget(panelID)
	m.svc.cache.forgetPanel(panelID)
	return nil
}

// panelProvider is a panel's provider, ready to call.
type panelProvider struct {
	cfg      ProviderConfig
	provider Provider
	// ceiling is the most one postback credits at once, in minor units of ceilingCurrency;
	// nil: no ceiling.
	ceiling         *int64
	ceilingCurrency string
}

// holds tells whether a credit of amount (minor units of currency) is held for review: above
// the ceiling, or any credit when the ceiling was set in another currency than the panel's
// (its currency changed since): an operator sets it again.
func (p *panelProvider) holds(amount int64, currency string) bool {
	if p.ceiling == nil {
		return false
	}
	return !strings.EqualFold(p.ceilingCurrency, currency) || amount > *p.ceiling
}

// configCache keeps each panel's provider for a while, so that pages and postbacks cost no
// extra database round trip for it; a change made by another process shows within ttl.
type configCache struct {
	mu   sync.Mutex
	ttl  time.Duration
	byID map[string]configEntry
}

type configEntry struct {
	p      *panelProvider // nil: the panel has no provider
	loaded time.Time
}

func (c *configCache) forget(panelID string) {
	c.mu.Lock()
	delete(c.byID, panelID)
	c.mu.Unlock()
}

// providerOf is the panel's provider, nil when it has none.
func (s *Service) providerOf(ctx context.Context, panelID string) (*panelProvider, error) {
	now := s.now()
	s.configs.mu.Lock()
	e, ok := s.configs.byID[panelID]
	s.configs.mu.Unlock()
	if ok && now.Sub(e.loaded) < s.configs.ttl {
		return e.p, nil
	}
	row, err := s.store.Provider(ctx, panelID)
	if err != nil {
		return nil, err
	}
	var p *panelProvider
	if row != nil {
		cfg := ProviderConfig{BaseURL: row.BaseURL, AppID: row.AppID}
		secret, err := s.sealer.Open(row.PostbackSecretSealed, sealBinding(panelID, "postback"))
		if err != nil {
			return nil, fmt.Errorf("open postback secret of panel %s: %w", panelID, err)
		}
		cfg.PostbackSecret = string(secret)
		if row.APIKeySealed != "" {
			key, err := s.sealer.Open(row.APIKeySealed, sealBinding(panelID, "api-key"))
			if err != nil {
				return nil, fmt.Errorf("open API key of panel %s: %w", panelID, err)
			}
			cfg.APIKey = string(key)
		}
		p = &panelProvider{cfg: cfg, provider: s.newProvider(cfg), ceiling: row.CreditCeilingMinor, ceilingCurrency: row.CreditCeilingCurrency}
	}
	s.configs.mu.Lock()
	s.configs.byID[panelID] = configEntry{p: p, loaded: now}
	s.configs.mu.Unlock()
	return p, nil
}
