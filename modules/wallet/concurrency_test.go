package wallet

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const racers = 100

// result is what one concurrent caller got back.
type result struct {
	entry   *Entry
	created bool
	err     error
}

// race runs n calls at once (released together) and returns what each got.
func race(n int, call func(i int) (*Entry, bool, error)) []result {
	out := make([]result, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			e, created, err := call(i)
			out[i] = result{e, created, err}
		}()
	}
	close(start)
	wg.Wait()
	return out
}

func TestConcurrentMovementsWithOneKeyMakeExactlyOneEntry(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		funded int64 // credited before the race; 0: the race opens the wallet
		debit  bool
	}{
		{name: "credits of a member without a wallet"},
		{name: "credits of a member with a wallet", funded: 1},
		{name: "debits of a retried redemption", funded: 10_000, debit: true},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				if c.funded > 0 {
					f.credit(f.acme, pid, c.funded)
				}
				const amount = 725
				results := race(racers, func(int) (*Entry, bool, error) {
					if c.debit {
						return f.m.Debit(f.ctx, redemption(f.acme, pid, amount, "redeem:same"))
					}
					return f.m.Credit(f.ctx, earning(f.acme, pid, amount, "campaign:same"))
				})

				created := 0
				var id string
				for i, r := range results {
					require.NoError(t, r.err, "caller %d", i)
					require.NotNil(t, r.entry, "caller %d", i)
					if r.created {
						created++
					}
					if id == "" {
						id = r.entry.ID
					}
					assert.Equal(t, id, r.entry.ID, "caller %d got another entry", i)
				}
				assert.Equal(t, 1, created, "exactly one caller creates the entry")

				want := c.funded + amount
				if c.debit {
					want = c.funded - amount
				}
				assert.Equal(t, want, f.balance(f.acme, pid))
				assert.Equal(t, want, f.sum(pid))
				wantCount := int64(1)
				if c.funded > 0 {
					wantCount = 2
				}
				assert.Equal(t, wantCount, f.count(pid))
				f.gapless(pid)
				f.reconciled(pid)
			})
		}
	})
}

func TestConcurrentDebitsBeyondTheBalanceNeverOverdrawIt(t *testing.T) {
	t.Parallel()
	cases := []struct{ balance, amount int64 }{
		{balance: 1000, amount: 30}, // 33 fit, 10 left
		{balance: 1000, amount: 25}, // 40 fit exactly
		{balance: 70, amount: 100},  // none fit
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%d by %d", c.balance, c.amount), func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				f.credit(f.acme, pid, c.balance)

				results := race(racers, func(i int) (*Entry, bool, error) {
					return f.m.Debit(f.ctx, redemption(f.acme, pid, c.amount, fmt.Sprintf("redeem:%d", i)))
				})

				succeeded, refused := 0, 0
				for i, r := range results {
					switch {
					case r.err == nil:
						require.True(t, r.created, "caller %d", i)
						succeeded++
					case errors.Is(r.err, ErrInsufficientFunds):
						assert.Nil(t, r.entry)
						refused++
					default:
						t.Fatalf("caller %d: %v", i, r.err)
					}
				}
				fit := int(c.balance / c.amount)
				assert.Equal(t, fit, succeeded, "exactly floor(balance/amount) debits succeed")
				assert.Equal(t, racers-fit, refused)

				left := c.balance - int64(fit)*c.amount
				assert.Equal(t, left, f.balance(f.acme, pid))
				assert.Equal(t, left, f.sum(pid), "the sum of the entries is not the balance")
				mismatches, err := f.m.Reconcile(f.ctx, pid)
				require.NoError(t, err)
				assert.Empty(t, mismatches)

				es := f.gapless(pid)
				require.Len(t, es, 1+fit)
				for _, e := range es[1:] {
					assert.Equal(t, -c.amount, e.AmountMinor)
				}
			})
		}
	})
}

func TestConcurrentCreditsAndDebitsOfOneMemberKeepTheLedgerConsistent(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		bystander := f.member(f.acme) // moves at the same time, in its own wallet
		const start, debit = 500, 40
		f.credit(f.acme, pid, start)

		results := race(racers, func(i int) (*Entry, bool, error) {
			switch i % 3 {
			case 0:
				return f.m.Credit(f.ctx, earning(f.acme, pid, int64(i+1), fmt.Sprintf("campaign:%d", i)))
			case 1:
				return f.m.Debit(f.ctx, redemption(f.acme, pid, debit, fmt.Sprintf("redeem:%d", i)))
			default:
				return f.m.Credit(f.ctx, earning(f.acme, bystander, int64(i), fmt.Sprintf("campaign:%d", i)))
			}
		})

		want, entries := int64(start), int64(1)
		var bystanders int64
		for i, r := range results {
			switch {
			case r.err == nil:
				require.True(t, r.created, "caller %d", i)
				if i%3 == 2 {
					bystanders += int64(i)
					continue
				}
				want += r.entry.AmountMinor
				entries++
			case i%3 == 1 && errors.Is(r.err, ErrInsufficientFunds):
			default:
				t.Fatalf("caller %d: %v", i, r.err)
			}
		}
		assert.Equal(t, want, f.balance(f.acme, pid))
		assert.GreaterOrEqual(t, f.balance(f.acme, pid), int64(0))
		assert.Equal(t, entries, f.count(pid))
		assert.Equal(t, bystanders, f.balance(f.acme, bystander))
		f.gapless(pid) // every balance after is the running sum and never below zero
		f.gapless(bystander)
		f.reconciled(pid)
		f.reconciled("")
	})
}

// A double-clicked report button sends the same report twice at once: the member reported
// the transaction once, so there is one report and every call answers with it. On
// PostgreSQL the test holds a SHARE lock on transaction_reports (reads pass, writes wait)
// until every caller is waiting, so the callers meet in the same place on every run.
func TestConcurrentReportsOfOneTransactionMakeOneReport(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		e := f.credit(f.acme, pid, 100)
		// An earlier report of another transaction: its statements are prepared and cached,
		// so the callers below wait in the database, where holdReportWrites sees them.
		_, _, err := f.m.Report(f.ctx, pid, f.credit(f.acme, pid, 1).ID, "other", "not mine")
		require.NoError(t, err)
		n := racers
		var release func()
		if migrations.DialectOf(f.db) == migrations.Postgres {
			n = 2
			release = f.holdReportWrites(n)
		}
		results := make([]struct {
			report  *TransactionReport
			created bool
			err     error
		}, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r := &results[i]
				r.report, r.created, r.err = f.m.Report(f.ctx, pid, e.ID, "missing_reward", "")
			}()
		}
		close(start)
		if release != nil {
			release()
		}
		wg.Wait()

		fresh := 0
		for i, r := range results {
			require.NoError(t, r.err, "caller %d", i)
			if r.created {
				fresh++
			}
			assert.Equal(t, results[0].report.ID, r.report.ID, "caller %d got another report", i)
		}
		assert.Equal(t, 1, fresh, "exactly one caller creates the report")
		var reports int64
		require.NoError(t, f.db.Model(&TransactionReport{}).Where("transaction_id = ?", e.ID).Count(&reports).Error)
		assert.Equal(t, int64(1), reports, "one report of the transaction")
	})
}

// holdReportWrites (PostgreSQL) takes a SHARE lock on transaction_reports and returns a
// release that waits until n sessions are blocked behind it, directly or through one
// another (at most 10 seconds; then it releases anyway), and then commits.
func (f *fixture) holdReportWrites(n int) func() {
	f.t.Helper()
	holder := f.db.Begin()
	require.NoError(f.t, holder.Error)
	require.NoError(f.t, holder.Exec(`LOCK TABLE transaction_reports IN SHARE MODE`).Error)
	var holderPID int64
	require.NoError(f.t, holder.Raw(`SELECT pg_backend_pid()`).Scan(&holderPID).Error)
	return func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			var rows []struct {
				PID      int64 `gorm:"column:pid"`
				Blockers string
			}
			require.NoError(f.t, f.db.Raw(`SELECT pid, array_to_string(pg_blocking_pids(pid), ',') AS blockers
				FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`).Scan(&rows).Error)
			behind := map[int64]bool{holderPID: true}
			for grew := true; grew; {
				grew = false
				for _, r := range rows {
					if behind[r.PID] {
						continue
					}
					for _, b := range strings.Split(r.Blockers, ",") {
						if pid, err := strconv.ParseInt(b, 10, 64); err == nil && behind[pid] {
							behind[r.PID], grew = true, true
							break
						}
					}
				}
			}
			if len(behind)-1 >= n {
				break
			}
		}
		require.NoError(f.t, holder.Commit().Error)
	}
}
