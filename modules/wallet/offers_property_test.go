package wallet

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// offerModel is the simplest ledger with offer debt that can be right: a balance, a debt, a
// count, and the offer credits with whether each has been reversed.
type offerModel struct {
	balance, owed, count int64
	offers               []modelOffer
}

type modelOffer struct {
	txID     string
	amount   int64
	reversal string // the key it was reversed under; "" while it stands
	owed     int64  // what its reversal left owed
}

// credit is any credit: it lands on the balance, then repays what it can of the debt.
func (om *offerModel) credit(amount int64) {
	om.balance += amount
	om.count++
	if om.owed > 0 {
		repaid := min(amount, om.owed)
		om.balance -= repaid
		om.owed -= repaid
		om.count++
	}
}

// TestRandomOfferCreditsReversalsAndSpendingAgreeWithASimpleModelAfterEveryStep applies a
// random sequence of survey and offer credits, redemptions, reversals (some of credits reversed
// already) and retries of both to the ledger and to the model, across months, and checks every
// invariant after every step.
func TestRandomOfferCreditsReversalsAndSpendingAgreeWithASimpleModelAfterEveryStep(t *testing.T) {
	t.Parallel()
	seed := propertySeed(t)
	eachFixture(t, func(t *testing.T, f *fixture) {
		rng := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
		pid := f.member(f.acme)
		om := &offerModel{}
		fresh := 0
		outcomes := map[string]int{}
		for step := 1; step <= 200; step++ {
			var what string
			switch op := rng.IntN(100); {
			case op < 10:
				f.clock = f.clock.Add(time.Duration(rng.IntN(10*24*60)+1) * time.Minute)
				continue
			case op < 30: // a survey pays, sometimes without a key
				fresh++
				mv := earning(f.acme, pid, int64(rng.IntN(400)+1), fmt.Sprintf("campaign:%d", fresh))
				if rng.IntN(5) == 0 {
					mv.Key = ""
				}
				what = fmt.Sprintf("survey %d", mv.Amount)
				_, created, err := f.m.Credit(f.ctx, mv)
				require.NoError(t, err, "step %d: %s", step, what)
				require.True(t, created)
				om.credit(mv.Amount)
				outcomes["survey"]++
			case op < 55: // an offer pays
				fresh++
				o := modelOffer{txID: fmt.Sprintf("tx-%d", fresh), amount: int64(rng.IntN(900) + 1)}
				what = fmt.Sprintf("offer %s of %d", o.txID, o.amount)
				_, created, err := f.creditTx(offerCredit(f.acme, pid, o.amount, o.txID))
				require.NoError(t, err, "step %d: %s", step, what)
				require.True(t, created)
				om.credit(o.amount)
				om.offers = append(om.offers, o)
				outcomes["offer"]++
			case op < 72: // a redemption of what there is, sometimes more
				amount := int64(rng.IntN(int(om.balance)+100) + 1)
				what = fmt.Sprintf("redeem %d of %d", amount, om.balance)
				_, _, err := f.m.Debit(f.ctx, redemption(f.acme, pid, amount, f.key("redeem")))
				if amount > om.balance {
					require.ErrorIs(t, err, ErrInsufficientFunds, "step %d: %s", step, what)
					outcomes["refused redemption"]++
					break
				}
				require.NoError(t, err, "step %d: %s", step, what)
				om.balance -= amount
				om.count++
			case op < 92: // the provider reverses an offer, or sends a reversal again
				if len(om.offers) == 0 {
					continue
				}
				o := &om.offers[rng.IntN(len(om.offers))]
				retry := o.reversal != "" && rng.IntN(2) == 0
				key := fmt.Sprintf("reversal:%d", step)
				if retry {
					key = o.reversal
				}
				what = fmt.Sprintf("reverse %s (%d) under %s, balance %d, owed %d", o.txID, o.amount, key, om.balance, om.owed)
				e, owed, created, err := f.reverseTx(reversalOf(f.acme, pid, o.txID, key))
				switch {
				case retry:
					require.NoError(t, err, "step %d: %s", step, what)
					require.False(t, created)
					require.Equal(t, o.owed, owed, "step %d: %s", step, what)
					outcomes["retried reversal"]++
				case o.reversal != "":
					require.ErrorIs(t, err, ErrNothingToReverse, "step %d: %s", step, what)
					outcomes["reversed twice"]++
				default:
					require.NoError(t, err, "step %d: %s", step, what)
					require.True(t, created)
					taken := min(o.amount, om.balance)
					require.Equal(t, -taken, e.AmountMinor, "step %d: %s", step, what)
					require.Equal(t, o.amount-taken, owed, "step %d: %s", step, what)
					om.balance -= taken
					om.owed += o.amount - taken
					om.count++
					o.reversal, o.owed = key, owed
					if owed > 0 {
						outcomes["reversal into debt"]++
					} else {
						outcomes["reversal covered"]++
					}
				}
			default: // the provider retries an offer's credit
				if len(om.offers) == 0 {
					continue
				}
				o := om.offers[rng.IntN(len(om.offers))]
				what = "retry " + o.txID
				_, created, err := f.creditTx(offerCredit(f.acme, pid, o.amount, o.txID))
				require.NoError(t, err, "step %d: %s", step, what)
				require.False(t, created, "step %d: %s", step, what)
				outcomes["retried offer"]++
			}
			require.Equal(t, om.balance, f.balance(f.acme, pid), "step %d: %s: balance", step, what)
			require.Equal(t, om.owed, f.owed(pid), "step %d: %s: owed", step, what)
			require.Equal(t, om.count, f.count(pid), "step %d: %s: entries", step, what)
			f.sound(pid)
		}
		for _, o := range []string{"survey", "offer", "refused redemption", "retried reversal", "reversed twice", "reversal into debt", "reversal covered", "retried offer"} {
			require.Positive(t, outcomes[o], "no step ended %q", o)
		}
		t.Logf("%d entries, balance %d, owed %d; outcomes %v", om.count, om.balance, om.owed, outcomes)
	})
}
