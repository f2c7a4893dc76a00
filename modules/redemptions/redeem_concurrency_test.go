package redemptions

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcome is what one concurrent caller got back.
type outcome struct {
	r       *Redemption
	created bool
	err     error
}

func TestConcurrentRedeemsOfTheWholeBalanceLetExactlyOneThrough(t *testing.T) {
	t.Parallel()
	const racers = 100
	cases := []struct {
		name    string
		balance int64
		amount  string
		fit     int
	}{
		{name: "the whole balance 100 times", balance: 2500, amount: "25.00", fit: 1},
		{name: "the minimum 100 times where four fit", balance: 8000, amount: "20.00", fit: 4},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.redeemer(c.balance)
				out := make([]outcome, racers)
				race(racers, func(i int) {
					r, created, err := f.redeem(pid, "paypal", c.amount, fmt.Sprintf("whole-%d", i))
					out[i] = outcome{r, created, err}
				})

				succeeded := 0
				for i, o := range out {
					if o.err == nil {
						require.True(t, o.created, "caller %d", i)
						succeeded++
						continue
					}
					assert.Equal(t, http.StatusUnprocessableEntity, statusOf(o.err), "caller %d: %v", i, o.err)
					assert.Equal(t, "insufficient_funds", codeOf(o.err), "caller %d: %v", i, o.err)
				}
				assert.Equal(t, c.fit, succeeded)
				var redemptions int64
				require.NoError(t, f.db.Model(&Redemption{}).Where("participant_id = ?", pid).Count(&redemptions).Error)
				assert.EqualValues(t, c.fit, redemptions, "a refused redeem leaves no redemption behind")
				var entries []wallet.Entry
				require.NoError(t, f.db.Where("participant_id = ?", pid).Order("seq").Find(&entries).Error)
				require.Len(t, entries, 1+c.fit)
				for _, e := range entries {
					assert.GreaterOrEqual(t, e.BalanceAfter, int64(0), "the balance never went below zero")
				}
				assert.GreaterOrEqual(t, f.balance(f.acme, pid), int64(0))
				f.reconciled(pid)
			})
		}
	})
}

func TestOneIdempotencyKeySentFiftyTimesAtOnceDebitsOnceAndAnswersAlike(t *testing.T) {
	t.Parallel()
	const racers = 50
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.redeemer(5000)
		out := make([]outcome, racers)
		race(racers, func(i int) {
			r, created, err := f.redeem(pid, "paypal", "20.00", "double-click")
			out[i] = outcome{r, created, err}
		})

		created := 0
		var first string
		for i, o := range out {
			require.NoError(t, o.err, "caller %d", i)
			if o.created {
				created++
			}
			b := body(t, o.r)
			if first == "" {
				first = b
			}
			assert.Equal(t, first, b, "caller %d got another answer", i)
		}
		assert.Equal(t, 1, created, "exactly one caller records the redemption")
		assert.Equal(t, int64(3000), f.balance(f.acme, pid), "one debit of 20.00")
		var debits int64
		require.NoError(t, f.db.Model(&wallet.Entry{}).Where("participant_id = ? AND amount_minor < 0", pid).Count(&debits).Error)
		assert.EqualValues(t, 1, debits)
		f.reconciled(pid)
	})
}

func TestOneIdempotencyKeyWithTwoBodiesAtOnceRecordsOneAndRefusesTheOther(t *testing.T) {
	t.Parallel()
	const racers = 40
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.standardOptions(f.acme)
		pid := f.redeemer(10000)
		amounts := []string{"20.00", "30.00"}
		out := make([]outcome, racers)
		race(racers, func(i int) {
			r, created, err := f.redeem(pid, "paypal", amounts[i%2], "one-key")
			out[i] = outcome{r, created, err}
		})

		var winner *Redemption
		for _, o := range out {
			if o.created {
				require.Nil(t, winner, "two callers recorded a redemption under one key")
				winner = o.r
			}
		}
		require.NotNil(t, winner)
		for i, o := range out {
			sameBody := (amounts[i%2] == "20.00") == (winner.AmountMinor == 2000)
			if sameBody {
				require.NoError(t, o.err, "caller %d sent the winner's request", i)
				assert.Equal(t, winner.ID, o.r.ID)
				continue
			}
			require.Error(t, o.err, "caller %d reused the key for another amount", i)
			assert.Equal(t, http.StatusConflict, statusOf(o.err))
			assert.Equal(t, "idempotency_key_reused", codeOf(o.err))
		}
		assert.Equal(t, 10000-winner.AmountMinor, f.balance(f.acme, pid))
		f.reconciled(pid)
	})
}
