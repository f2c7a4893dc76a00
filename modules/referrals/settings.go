package referrals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/web"
)

// SettingsSpec is the `referrals:` block of a tenant file (canvass tenant apply). A file
// without the block gives the panel the defaults (DefaultSettings).
type SettingsSpec struct {
	Enabled    *bool  `yaml:"enabled"`     // default true
	Reward     string `yaml:"reward"`      // major units of the panel's currency; "" or "0": none
	RewardWhen string `yaml:"reward_when"` // welcome_completed (default) or joined
	// EligibleWhen are the conditions a member must meet to refer: welcome_completed,
	// email_validated. Absent: both; an empty list: every member.
	EligibleWhen []string `yaml:"eligible_when"`
	ExpiryDays   *int     `yaml:"expiry_days"` // 1-365, default 30
	DailyLimit   *int     `yaml:"daily_limit"` // 1-100, default 10
}

// Eligibility conditions of a SettingsSpec.
const (
	EligibleWelcome = "welcome_completed"
	EligibleEmail   = "email_validated"
)

// Resolve checks a spec against the panel's currency and returns the panel's settings, or
// every problem at once (each naming its field).
func (sp *SettingsSpec) Resolve(panelID, currency string) (Settings, error) {
	s := DefaultSettings(panelID, strings.ToUpper(currency))
	if sp == nil {
		return s, nil
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("referrals."+format, args...)) }
	if sp.Enabled != nil {
		s.Enabled = *sp.Enabled
	}
	if r := strings.TrimSpace(sp.Reward); r != "" {
		minor, err := web.ParseMoney(r, currency)
		switch {
		case err != nil:
			bad("reward: %q is not an amount of %s (%v)", r, currency, err)
		case minor < 0:
			bad("reward: %q is negative", r)
		default:
			s.RewardMinor = minor
		}
	}
	switch sp.RewardWhen {
	case "":
	case RewardOnWelcome, RewardOnJoin:
		s.RewardWhen = sp.RewardWhen
	default:
		bad("reward_when: %q is not %s or %s", sp.RewardWhen, RewardOnWelcome, RewardOnJoin)
	}
	if sp.EligibleWhen != nil {
		s.RequireWelcome, s.RequireValidatedEmail = false, false
		for i, c := range sp.EligibleWhen {
			switch c {
			case EligibleWelcome:
				s.RequireWelcome = true
			case EligibleEmail:
				s.RequireValidatedEmail = true
			default:
				bad("eligible_when[%d]: %q is not %s or %s", i, c, EligibleWelcome, EligibleEmail)
			}
		}
	}
	if sp.ExpiryDays != nil {
		if *sp.ExpiryDays < 1 || *sp.ExpiryDays > 365 {
			bad("expiry_days: %d is not between 1 and 365", *sp.ExpiryDays)
		}
		s.ExpiryDays = *sp.ExpiryDays
	}
	if sp.DailyLimit != nil {
		if *sp.DailyLimit < 1 || *sp.DailyLimit > 100 {
			bad("daily_limit: %d is not between 1 and 100", *sp.DailyLimit)
		}
		s.DailyLimit = *sp.DailyLimit
	}
	return s, errors.Join(errs...)
}

// ApplySettings sets a panel's referral rules from its tenant file's block (nil: the
// defaults), after checking them against the panel's currency.
func (m *Module) ApplySettings(ctx context.Context, panelID, currency string, spec *SettingsSpec) error {
	s, err := spec.Resolve(panelID, currency)
	if err != nil {
		return err
	}
	if spec == nil {
		err = m.svc.store.DeleteSettings(ctx, panelID)
	} else {
		s.UpdatedAt = m.svc.now().UTC()
		err = m.svc.store.SaveSettings(ctx, s)
	}
	if err != nil {
		return err
	}
	m.svc.settings.forget()
	return nil
}

// settingsCache keeps each panel's rules per process: the feed's navigation and the session's
// eligibility check read them on every page (docs/contributing.md, Server cost). A change made by another
// process shows within ttl; this process's own at once.
type settingsCache struct {
	ttl  time.Duration
	mu   sync.RWMutex
	byID map[string]cachedSettings
}

type cachedSettings struct {
	s       Settings
	expires time.Time
}

func (c *settingsCache) get(now time.Time, panelID string) (Settings, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.byID[panelID]
	if !ok || !now.Before(e.expires) {
		return Settings{}, false
	}
	return e.s, true
}

func (c *settingsCache) put(now time.Time, s Settings) {
	c.mu.Lock()
	c.byID[s.PanelID] = cachedSettings{s: s, expires: now.Add(c.ttl)}
	c.mu.Unlock()
}

func (c *settingsCache) forget() {
	c.mu.Lock()
	c.byID = map[string]cachedSettings{}
	c.mu.Unlock()
}

// Settings returns a panel's rules (cached per process).
func (s *Service) Settings(ctx context.Context, panel *web.Panel) (Settings, error) {
	now := s.now()
	if st, ok := s.settings.get(now, panel.ID); ok {
		return st, nil
	}
	st, err := s.store.Settings(ctx, panel.ID, panel.CurrencyCode)
	if err != nil {
		return Settings{}, err
	}
	s.settings.put(now, st)
	return st, nil
}
