package wallet

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// defaultPropertySeed makes the property test repeatable; WALLET_PROPERTY_SEED replays another.
const defaultPropertySeed = 20261122

const propertySteps = 300

// ledgerModel is the simplest ledger that can be right: a balance, a count, the keys used
// and per-month counters.
type ledgerModel struct {
	balance int64
	count   int64
	keys    []usedKey
	months  map[[2]int]*Month
}

// usedKey is a key the ledger has written an entry for, and how to ask for it again.
type usedKey struct {
	key    string // as the movement or the adjustment names it
	amount int64  // signed, as stored
	origin Origin
	adjust bool // an Adjust key: retried through Adjust
}

func (lm *ledgerModel) write(at time.Time, amount int64, origin Origin, competition bool) {
	lm.balance += amount
	lm.count++
	k := [2]int{at.Year(), int(at.Month())}
	mo := lm.months[k]
	if mo == nil {
		mo = &Month{Year: k[0], Month: k[1]}
		lm.months[k] = mo
	}
	mo.Entries++
	if competition {
		mo.Competitions++
	}
	if origin == OriginRedeem {
		mo.Redemptions++
	}
	if amount > 0 {
		mo.CreditedMinor += amount
	} else {
		mo.DebitedMinor -= amount
	}
}

// monthsOf is what Months must answer for a filter.
func (lm *ledgerModel) monthsOf(f Filter) []MonthSummary {
	out := []MonthSummary{}
	for _, mo := range lm.months {
		n := mo.Entries
		switch f {
		case FilterCompetitions:
			n = mo.Competitions
		case FilterRedemptions:
			n = mo.Redemptions
		}
		if n > 0 {
			out = append(out, MonthSummary{Year: mo.Year, Month: mo.Month, Entries: n, Credited: mo.CreditedMinor, Debited: mo.DebitedMinor})
		}
	}
	slices.SortFunc(out, func(a, b MonthSummary) int { return -cmp.Compare(a.Year*12+a.Month, b.Year*12+b.Month) })
	return out
}

func propertySeed(t *testing.T) uint64 {
	seed := uint64(defaultPropertySeed)
	if s := os.Getenv("WALLET_PROPERTY_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "WALLET_PROPERTY_SEED must be a whole number")
		seed = n
	}
	t.Logf("property seed %d (replay with WALLET_PROPERTY_SEED=%d)", seed, seed)
	return seed
}

// TestRandomMovementsAgreeWithASimpleModelAfterEveryStep applies a random sequence of credits
// (some retried, some reusing a key for another amount), debits (some too large, some
// retried) and manual adjustments of both signs across months to the ledger and to the model,
// and compares them after every step.
func TestRandomMovementsAgreeWithASimpleModelAfterEveryStep(t *testing.T) {
	t.Parallel()
	seed := propertySeed(t)
	eachFixture(t, func(t *testing.T, f *fixture) {
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		pid := f.member(f.acme)
		lm := &ledgerModel{months: map[[2]int]*Month{}}
		fresh := 0
		outcomes := map[string]int{}
		newKey := func(prefix string) string { fresh++; return fmt.Sprintf("%s:%d", prefix, fresh) }

		for step := 1; step <= propertySteps; step++ {
			var (
				moved   = true // false: no movement this step
				what    string
				err     error
				created bool
				e       *Entry
				want    error // the refusal the model expects; nil: accepted
				retried *usedKey
			)
			at := f.clock
			switch op := rng.IntN(100); {
			case op < 12: // the clock moves: minutes to weeks, across months
				f.clock = f.clock.Add(time.Duration(rng.IntN(20*24*60)+1) * time.Minute)
				what, moved = "clock to "+f.clock.Format(time.RFC3339), false
				at = f.clock
			case op < 40: // a campaign pays
				mv := earning(f.acme, pid, int64(rng.IntN(500)+1), newKey("campaign"))
				mv.Competition = rng.IntN(4) == 0
				if rng.IntN(6) == 0 {
					mv.Key = "" // a credit without a key
				}
				what = fmt.Sprintf("credit %d (competition %v, key %q)", mv.Amount, mv.Competition, mv.Key)
				e, created, err = f.m.Credit(f.ctx, mv)
				if err == nil && created {
					lm.write(at, mv.Amount, mv.Origin, mv.Competition)
					if mv.Key != "" {
						lm.keys = append(lm.keys, usedKey{key: mv.Key, amount: mv.Amount, origin: mv.Origin})
					}
				}
			case op < 62: // a redemption, sometimes for more than the balance
				amount := int64(rng.IntN(int(lm.balance)+200) + 1)
				mv := redemption(f.acme, pid, amount, newKey("redeem"))
				what = fmt.Sprintf("debit %d of %d", amount, lm.balance)
				if amount > lm.balance {
					want = ErrInsufficientFunds
				}
				e, created, err = f.m.Debit(f.ctx, mv)
				if err == nil && created {
					lm.write(at, -amount, mv.Origin, false)
					lm.keys = append(lm.keys, usedKey{key: mv.Key, amount: -amount, origin: mv.Origin})
				}
			case op < 80: // an operator's adjustment of either sign, some of them too large
				amount := int64(rng.IntN(3000) + 1)
				if rng.IntN(2) == 0 {
					amount = -amount
				}
				text := moneyText(amount)
				key := ""
				if rng.IntN(2) == 0 {
					key = newKey("ticket")
				}
				what = fmt.Sprintf("adjust %s of %d (key %q)", text, lm.balance, key)
				if lm.balance+amount < 0 {
					want = ErrInsufficientFunds
				}
				e, created, err = f.m.Adjust(f.ctx, f.acme, pid, text, "property step "+strconv.Itoa(step), "ops", key)
				if err == nil && created {
					require.Equal(t, amount, e.AmountMinor, "step %d: %s", step, what)
					lm.write(at, amount, OriginManual, false)
					if key != "" {
						lm.keys = append(lm.keys, usedKey{key: key, amount: amount, origin: OriginManual, adjust: true})
					}
				}
			case op < 92: // a retry of an earlier movement: the same entry, nothing moves
				if len(lm.keys) == 0 {
					continue
				}
				k := lm.keys[rng.IntN(len(lm.keys))]
				retried = &k
				what = fmt.Sprintf("retry %s (%d)", k.key, k.amount)
				e, created, err = replay(f, pid, k, 0)
			default: // a key reused for another amount
				if len(lm.keys) == 0 {
					continue
				}
				k := lm.keys[rng.IntN(len(lm.keys))]
				what = fmt.Sprintf("reuse %s (%d) for another amount", k.key, k.amount)
				want = ErrKeyReused
				e, created, err = replay(f, pid, k, 1)
			}

			switch {
			case !moved:
			case want != nil:
				require.ErrorIs(t, err, want, "step %d: %s", step, what)
				require.Nil(t, e, "step %d: %s", step, what)
				outcomes[want.Error()]++
			case retried != nil:
				outcomes["retried"]++
				require.NoError(t, err, "step %d: %s", step, what)
				require.False(t, created, "step %d: %s wrote again", step, what)
				require.Equal(t, retried.amount, e.AmountMinor, "step %d: %s returned another entry", step, what)
			default:
				require.NoError(t, err, "step %d: %s", step, what)
				require.True(t, created, "step %d: %s", step, what)
				outcomes["written"]++
				require.Equal(t, lm.count, e.Seq, "step %d: %s", step, what)
				require.Equal(t, lm.balance, e.BalanceAfter, "step %d: %s", step, what)
			}

			require.Equal(t, lm.balance, f.balance(f.acme, pid), "step %d: %s: balance", step, what)
			require.Equal(t, lm.count, f.count(pid), "step %d: %s: entry count", step, what)
			for _, filter := range Filters {
				months, err := f.m.Months(f.ctx, pid, filter, time.Time{}, time.Time{})
				require.NoError(t, err)
				require.Equal(t, lm.monthsOf(filter), months, "step %d: %s: months of %s", step, what, filter)
			}
			mismatches, err := f.m.Reconcile(f.ctx, pid)
			require.NoError(t, err)
			require.Empty(t, mismatches, "step %d: %s: reconcile", step, what)
		}
		// The sequence exercised every path, or it proves less than it claims.
		require.Greater(t, len(lm.months), 3, "the sequence should span several months")
		for _, o := range []string{"written", "retried", ErrInsufficientFunds.Error(), ErrKeyReused.Error()} {
			require.Positive(t, outcomes[o], "no step ended %q", o)
		}
		f.gapless(pid)
		t.Logf("%d entries over %d months, balance %d; outcomes %v", lm.count, len(lm.months), lm.balance, outcomes)
	})
}

// replay asks the ledger again for a used key's movement, with its amount moved delta further
// from zero (0: the same movement, a retry).
func replay(f *fixture, pid string, k usedKey, delta int64) (*Entry, bool, error) {
	amount := k.amount + delta
	if k.amount < 0 {
		amount = k.amount - delta
	}
	switch {
	case k.adjust:
		return f.m.Adjust(f.ctx, f.acme, pid, moneyText(amount), "retried", "ops", k.key)
	case amount > 0:
		return f.m.Credit(f.ctx, earning(f.acme, pid, amount, k.key))
	default:
		return f.m.Debit(f.ctx, redemption(f.acme, pid, -amount, k.key))
	}
}

// moneyText writes minor units of a two-decimal currency as Adjust reads them.
func moneyText(minor int64) string {
	sign := ""
	if minor < 0 {
		sign = "-"
	}
	return fmt.Sprintf("%s%d.%02d", sign, abs(minor)/100, abs(minor)%100)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
