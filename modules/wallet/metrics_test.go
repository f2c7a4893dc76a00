package wallet

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestTotalsSumCommittedEntriesByOriginAndCurrency(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ann, bob, yuki := f.member(f.acme), f.member(f.acme), f.member(f.nippon)
		for _, mv := range []Movement{
			earning(f.acme, ann, 150, f.key("campaign")),
			earning(f.acme, bob, 250, f.key("campaign")),
			earning(f.nippon, yuki, 300, f.key("campaign")),
			redemption(f.acme, ann, 100, f.key("redeem")),
		} {
			var err error
			if mv.Origin == OriginRedeem {
				_, _, err = f.m.Debit(f.ctx, mv)
			} else {
				_, _, err = f.m.Credit(f.ctx, mv)
			}
			require.NoError(t, err)
		}
		_, _, err := f.m.Record(f.ctx, entered(f.acme, bob, f.key("campaign")))
		require.NoError(t, err)
		// A credit whose transaction rolls back never counts.
		_ = f.db.Transaction(func(tx *gorm.DB) error {
			_, _, err := f.m.CreditTx(tx, earning(f.acme, ann, 999, f.key("campaign")))
			require.NoError(t, err)
			return assert.AnError
		})

		got, err := f.m.Totals(f.ctx)
		require.NoError(t, err)
		assert.Equal(t, []Total{
			{Origin: OriginCampaign, Currency: "JPY", Credits: 1, CreditedMinor: 300},
			{Origin: OriginCampaign, Currency: "USD", Credits: 2, CreditedMinor: 400},
			{Origin: OriginRedeem, Currency: "USD", Debits: 1, DebitedMinor: 100},
		}, got, "one row per origin and currency; an entry that moves no money counts in neither; a rolled-back credit nowhere")
	})
}
