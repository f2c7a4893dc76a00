package referrals

import (
	"context"

	"github.com/canvass/canvass/modules/web"
)

// SettingsSpecOf reads a panel's referral rules back as the tenant file's `referrals:` block
// (every value written out, the defaults too), for the operator console's export.
func (m *Module) SettingsSpecOf(ctx context.Context, panelID, currency string) (*SettingsSpec, error) {
	s, err := m.svc.store.Settings(ctx, panelID, currency)
	if err != nil {
		return nil, err
	}
	enabled, expiry, daily := s.Enabled, s.ExpiryDays, s.DailyLimit
	eligible := []string{}
	if s.RequireWelcome {
		eligible = append(eligible, EligibleWelcome)
	}
	if s.RequireValidatedEmail {
		eligible = append(eligible, EligibleEmail)
	}
	spec := &SettingsSpec{Enabled: &enabled, RewardWhen: s.RewardWhen, EligibleWhen: eligible, ExpiryDays: &expiry, DailyLimit: &daily}
	if s.RewardMinor > 0 {
		spec.Reward = web.MoneyString(s.RewardMinor, currency)
	}
	return spec, nil
}
