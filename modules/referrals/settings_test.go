package referrals

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPanelWithoutRulesHasTheDefaults(t *testing.T) {
	t.Parallel()
	s, err := (*SettingsSpec)(nil).Resolve("p", "usd")
	require.NoError(t, err)
	assert.Equal(t, Settings{PanelID: "p", Enabled: true, CurrencyCode: "USD", RewardWhen: RewardOnWelcome, RequireWelcome: true,
		RequireValidatedEmail: true, ExpiryDays: 30, DailyLimit: 10}, s)
}

func TestTheReferralsBlockOfATenantFileIsReadAndEveryBadValueNamed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		spec   SettingsSpec
		want   func(s *Settings)
		errors []string
	}{
		{"a reward on the welcome campaign", SettingsSpec{Reward: "2.50"}, func(s *Settings) { s.RewardMinor = 250 }, nil},
		{"a reward on joining", SettingsSpec{Reward: "1", RewardWhen: RewardOnJoin}, func(s *Settings) { s.RewardMinor, s.RewardWhen = 100, RewardOnJoin }, nil},
		{"every member may refer", SettingsSpec{EligibleWhen: []string{}}, func(s *Settings) { s.RequireWelcome, s.RequireValidatedEmail = false, false }, nil},
		{"only a validated email", SettingsSpec{EligibleWhen: []string{EligibleEmail}}, func(s *Settings) { s.RequireWelcome = false }, nil},
		{"off, with other limits", SettingsSpec{Enabled: boolp(false), ExpiryDays: intp(7), DailyLimit: intp(3)}, func(s *Settings) {
			s.Enabled, s.ExpiryDays, s.DailyLimit = false, 7, 3
		}, nil},
		{"every problem at once", SettingsSpec{Reward: "2.001", RewardWhen: "later", EligibleWhen: []string{"rich"}, ExpiryDays: intp(0), DailyLimit: intp(500)}, nil, []string{
			`referrals.reward: "2.001" is not an amount of USD`, `referrals.reward_when: "later" is not welcome_completed or joined`,
			`referrals.eligible_when[0]: "rich" is not welcome_completed or email_validated`, "referrals.expiry_days: 0 is not between 1 and 365",
			"referrals.daily_limit: 500 is not between 1 and 100",
		}},
		{"a negative reward", SettingsSpec{Reward: "-1.00"}, nil, []string{`referrals.reward: "-1.00" is negative`}},
		{"words for a reward", SettingsSpec{Reward: "two dollars"}, nil, []string{`referrals.reward: "two dollars" is not an amount of USD`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.spec.Resolve("p", "USD")
			if c.errors != nil {
				require.Error(t, err)
				for _, e := range c.errors {
					assert.Contains(t, err.Error(), e)
				}
				return
			}
			require.NoError(t, err)
			want := DefaultSettings("p", "USD")
			c.want(&want)
			assert.Equal(t, want, s)
		})
	}
}

func TestAppliedRulesAreStoredAndAFileWithoutThemGivesTheDefaultsBack(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.rules(f.acme, &SettingsSpec{Reward: "3.00", DailyLimit: intp(2)})
		st, err := f.svc.Settings(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Equal(t, int64(300), st.RewardMinor)
		assert.Equal(t, 2, st.DailyLimit)
		other, err := f.svc.Settings(f.ctx, f.globex)
		require.NoError(t, err)
		assert.Equal(t, DefaultSettings(f.globex.ID, "GBP"), other, "the other panel keeps its own rules")

		f.rules(f.acme, nil)
		st, err = f.svc.Settings(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Equal(t, DefaultSettings(f.acme.ID, "USD"), st)

		err = f.m.ApplySettings(f.ctx, f.acme.ID, "USD", &SettingsSpec{ExpiryDays: intp(400)})
		require.ErrorContains(t, err, "referrals.expiry_days: 400 is not between 1 and 365")
		st, err = f.svc.Settings(f.ctx, f.acme)
		require.NoError(t, err)
		assert.Equal(t, 30, st.ExpiryDays, "a refused block changes nothing")
	})
}
