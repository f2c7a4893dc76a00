package redemptions

import (
	"testing"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestARedemptionIsRecordedWithItsDebitAndItsMaskedDestination(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		option      string
		amount      string
		details     func(f *fixture, pid string)
		fee, net    int64
		destination Destination
		summary     string
	}{
		{
			name: "to PayPal without a fee", option: "paypal", amount: "20.00", net: 2000,
			details: func(f *fixture, pid string) {
				_, err := f.m.SavePayPal(f.ctx, f.acme, pid, "Dana.Payee@Example.COM")
				require.NoError(f.t, err)
			},
			destination: Destination{Kind: KindPayPal, PayPalEmail: "D***@example.com"}, summary: "D***@example.com",
		},
		{
			name: "by bank transfer with its fee", option: "bank", amount: "25", fee: 50, net: 2450,
			details: func(f *fixture, pid string) {
				_, err := f.m.SaveBank(f.ctx, f.acme, pid, BankInput{AccountHolder: " Dana  Payee ", RoutingNumber: "021000021", AccountNumber: "000123456789", AccountType: "Checking"})
				require.NoError(f.t, err)
			},
			destination: Destination{Kind: KindBank, Currency: "USD", AccountHolder: "Dana Payee", RoutingNumber: "*****0021", AccountNumber: "********6789", AccountType: "checking"},
			summary:     "********6789",
		},
		{
			name: "as a voucher to the account email", option: "amazon-voucher", amount: "10.00", net: 1000,
			details: func(*fixture, string) {},
		},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				f.fund(f.acme, pid, 3000)
				c.details(f, pid)
				key := f.key()

				r, created, err := f.redeem(pid, c.option, c.amount, key)
				require.NoError(t, err)
				assert.True(t, created)
				amount := c.fee + c.net
				assert.Equal(t, StatusPending, r.Status)
				assert.Equal(t, c.option, r.OptionID)
				assert.Equal(t, []int64{amount, c.fee, c.net}, []int64{r.AmountMinor, r.FeeMinor, r.NetMinor})
				assert.Equal(t, "USD", r.CurrencyCode)
				assert.Equal(t, key, r.IdempotencyKey)
				assert.Equal(t, 3000-amount, f.balance(f.acme, pid))

				want := c.destination
				if c.option == "amazon-voucher" {
					want = Destination{Kind: KindVoucher, Email: MaskEmail(pid + "@example.com")}
					c.summary = want.Email
				}
				assert.Equal(t, want, r.MaskedDestination())
				assert.Equal(t, c.summary, r.MaskedDestination().Summary())
				full, err := f.m.FullDestination(r)
				require.NoError(t, err)
				assert.NotContains(t, full.Summary(), "*", "operators see the whole destination")

				e := f.entry(r.EntryID)
				assert.Equal(t, -amount, e.AmountMinor, "the ledger debits the whole amount; the fee is kept from the payout")
				assert.Equal(t, wallet.OriginRedeem, e.Origin)
				assert.Equal(t, "redeem:"+key, *e.NaturalKey)
				assert.Equal(t, r.ID, *e.RedemptionID)

				evs := f.events(r.ID)
				require.Len(t, evs, 1)
				assert.Equal(t, Event{ID: evs[0].ID, RedemptionID: r.ID, FromStatus: "", ToStatus: StatusPending, Operator: "member", CreatedAt: f.clock}, evs[0])

				stored, err := f.m.MemberRedemption(f.ctx, pid, r.ID)
				require.NoError(t, err)
				assert.Equal(t, body(t, r), body(t, stored), "the API answers the same before and after a read-back")
				f.reconciled(pid)
			})
		}
	})
}

func TestAReplayedRedeemReturnsTheFirstRedemptionAndMovesNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		amount string
		change func(f *fixture, pid string) // what changes before the replay
	}{
		{name: "with the same amount text", amount: "20.00", change: func(*fixture, string) {}},
		{name: "with the amount written another way", amount: "20", change: func(*fixture, string) {}},
		{name: "after the balance ran out", amount: "20.00", change: func(f *fixture, pid string) {
			_, _, err := f.redeem(pid, "paypal", "20.00", f.key())
			require.Error(f.t, err, "the balance no longer covers a second redemption")
		}},
		{name: "after the member lost eligibility", amount: "20.00", change: func(f *fixture, pid string) { f.setEligibility(pid, "reverify") }},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.redeemer(3000)
				key := f.key()
				first, created, err := f.redeem(pid, "paypal", "20.00", key)
				require.NoError(t, err)
				require.True(t, created)
				c.change(f, pid)
				before := f.snapshot(f.acme, pid)

				again, created, err := f.redeem(pid, "paypal", c.amount, key)
				require.NoError(t, err)
				assert.False(t, created)
				assert.Equal(t, body(t, first), body(t, again))
				assert.Equal(t, before, f.snapshot(f.acme, pid))
			})
		}
	})
}

func TestIdempotencyKeysBelongToOneMember(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		alice, bob := f.redeemer(2000), f.redeemer(2000)
		a, created, err := f.redeem(alice, "paypal", "20.00", "shared-key")
		require.NoError(t, err)
		require.True(t, created)
		b, created, err := f.redeem(bob, "paypal", "20.00", "shared-key")
		require.NoError(t, err)
		assert.True(t, created, "another member's key is no replay of theirs")
		assert.NotEqual(t, a.ID, b.ID)
		assert.Zero(t, f.balance(f.acme, alice))
		assert.Zero(t, f.balance(f.acme, bob))
	})
}

func TestARedemptionKeepsTheDestinationGivenWhenItWasMade(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.redeemer(2000)
		r, _, err := f.redeem(pid, "paypal", "20.00", f.key())
		require.NoError(t, err)
		_, err = f.m.SavePayPal(f.ctx, f.acme, pid, "someone.else@example.org")
		require.NoError(t, err)

		full, err := f.m.FullDestination(r)
		require.NoError(t, err)
		assert.Equal(t, "dana.payee@example.com", full.PayPalEmail)
		stored, err := f.m.MemberRedemption(f.ctx, pid, r.ID)
		require.NoError(t, err)
		assert.Equal(t, "d***@example.com", stored.MaskedDestination().PayPalEmail)
	})
}
