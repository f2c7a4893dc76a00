package redemptions

import (
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAvailabilitySaysWhyAMemberCantRedeemYet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		option      string
		balance     int64
		eligibility string
		paypal      bool
		bank        bool
		reason      string
		needs       string
	}{
		{name: "a verified member with enough and a PayPal email", option: "paypal", balance: 2000, eligibility: "yes", paypal: true},
		{name: "a member of a panel that skips verification", option: "paypal", balance: 2000, eligibility: "skip", paypal: true},
		{name: "a member below the minimum", option: "paypal", balance: 1999, eligibility: "yes", paypal: true, reason: ReasonBelowMinimum},
		{name: "a member without a PayPal email", option: "paypal", balance: 2000, eligibility: "yes", reason: ReasonNeedsPayPalData, needs: "paypal-data"},
		{name: "a member without a bank account", option: "bank", balance: 5000, eligibility: "yes", paypal: true, reason: ReasonNeedsBankData, needs: "bank-data"},
		{name: "a member with a bank account", option: "bank", balance: 5000, eligibility: "yes", bank: true},
		{name: "a voucher needs no payout details", option: "amazon-voucher", balance: 1000, eligibility: "yes"},
		{name: "an unverified member, whatever else", option: "paypal", balance: 0, eligibility: "not-verified", reason: ReasonNotEligible, needs: "paypal-data"},
		{name: "a member who must verify again", option: "paypal", balance: 5000, eligibility: "reverify", paypal: true, reason: ReasonNotEligible},
		{name: "a member verified too recently", option: "paypal", balance: 5000, eligibility: "verified-too-recently", paypal: true, reason: ReasonNotEligible},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				if c.balance > 0 {
					f.fund(f.acme, pid, c.balance)
				}
				f.setEligibility(pid, c.eligibility)
				if c.paypal {
					_, err := f.m.SavePayPal(f.ctx, f.acme, pid, "dana@example.com")
					require.NoError(t, err)
				}
				if c.bank {
					f.saveBank(pid)
				}
				a, err := f.m.Availability(f.ctx, f.acme, pid, c.option)
				require.NoError(t, err)
				assert.Equal(t, c.reason, a.Reason)
				assert.Equal(t, c.reason == "", a.Available)
				assert.Equal(t, c.needs, a.Needs)
				assert.Equal(t, c.balance, a.Balance)
				assert.Equal(t, c.eligibility, a.Eligibility)
			})
		}
		pid := f.member(f.acme)
		for _, id := range []string{"retired", "gold-bars", ""} {
			_, err := f.m.Availability(f.ctx, f.acme, pid, id)
			assert.ErrorIs(t, err, web.ErrNotFound, "option %q", id)
		}
	})
}

func TestSettingsListTheEnabledOptionsInOrderWithWhatTheMemberStillNeeds(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.member(f.acme)
		needs := func() map[string]string {
			list, err := f.m.Settings(f.ctx, f.acme, pid)
			require.NoError(t, err)
			out := map[string]string{}
			var order []string
			for _, s := range list {
				out[s.ID] = s.Needs
				order = append(order, s.ID)
			}
			assert.Equal(t, []string{"paypal", "bank", "amazon-voucher"}, order)
			return out
		}
		assert.Equal(t, map[string]string{"paypal": "paypal-data", "bank": "bank-data", "amazon-voucher": ""}, needs())
		_, err := f.m.SavePayPal(f.ctx, f.acme, pid, "dana@example.com")
		require.NoError(t, err)
		f.saveBank(pid)
		assert.Equal(t, map[string]string{"paypal": "", "bank": "", "amazon-voucher": ""}, needs())

		// Details stored for another panel's currency don't count.
		eu := f.member(f.euro)
		f.standardOptions(f.euro)
		list, err := f.m.Settings(f.ctx, f.euro, eu)
		require.NoError(t, err)
		assert.Equal(t, "bank-data", list[1].Needs)
	})
}
