package redemptions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheConsoleListsAMembersRedemptionsWithoutTheirPayoutDetails(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.redeemer(5000)
		first, _, err := f.redeem(pid, "paypal", "20.00", f.key())
		require.NoError(t, err)
		f.clock = f.clock.Add(time.Hour)
		second, _, err := f.redeem(pid, "paypal", "25.00", f.key())
		require.NoError(t, err)
		_, err = f.m.Reject(f.ctx, second.ID, "ops", "duplicate")
		require.NoError(t, err)

		got, err := f.m.MemberRedemptionSummaries(f.ctx, f.acme.ID, pid, 0)
		require.NoError(t, err)
		require.Len(t, got, 2)
		assert.Equal(t, second.ID, got[0].ID, "newest first")
		assert.Equal(t, StatusRejected, got[0].Status)
		assert.EqualValues(t, 2500, got[0].AmountMinor)
		assert.Equal(t, first.ID, got[1].ID)
		assert.Equal(t, StatusPending, got[1].Status)
		assert.Equal(t, "paypal", got[1].OptionID)
		assert.Equal(t, KindPayPal, got[1].Kind)
		assert.EqualValues(t, 2000, got[1].NetMinor)
		assert.Equal(t, "USD", got[1].CurrencyCode)
		// The summary type has no field for a destination: payout details cannot reach the
		// console's member page, whatever it renders.

		got, err = f.m.MemberRedemptionSummaries(f.ctx, f.acme.ID, pid, 1)
		require.NoError(t, err)
		assert.Len(t, got, 1, "at most the limit")
		got, err = f.m.MemberRedemptionSummaries(f.ctx, f.globex.ID, pid, 0)
		require.NoError(t, err)
		assert.Empty(t, got, "nothing through another panel")
	})
}
