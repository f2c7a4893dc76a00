package wallet

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// benchDialects is SQLite; WALLET_BENCH_POSTGRES=1 adds PostgreSQL (CANVASS_TEST_POSTGRES_URL).
func benchDialects() []migrations.Dialect {
	ds := []migrations.Dialect{migrations.SQLite}
	if os.Getenv("WALLET_BENCH_POSTGRES") == "1" && os.Getenv("CANVASS_TEST_POSTGRES_URL") != "" {
		ds = append(ds, migrations.Postgres)
	}
	return ds
}

// seedEntries gives a new member of acme n entries over the two years before the fixture's
// clock (campaign credits, some competitions, and redemptions), written directly in one
// transaction with the wallet row and month counts they add up to, and checks that they
// reconcile.
func (f *fixture) seedEntries(n int) string {
	pid := f.member(f.acme)
	rng := rand.New(rand.NewPCG(2026, 11))
	start := f.clock.AddDate(-2, 0, 0)
	step := f.clock.Sub(start) / time.Duration(n)
	var balance int64
	months := map[[2]int]*Month{}
	entries := make([]Entry, 0, n)
	for i := range n {
		at := start.Add(time.Duration(i) * step).Truncate(time.Microsecond)
		e := Entry{ID: uuid.NewString(), ParticipantID: pid, Seq: int64(i + 1), PanelID: f.acme.ID, CurrencyCode: "USD", Origin: OriginCampaign, Title: fmt.Sprintf("Survey %d", i), CreatedAt: at}
		switch r := rng.IntN(100); {
		case r < 5 && balance >= 2000:
			e.Origin, e.AmountMinor, e.Title = OriginRedeem, -2000, "Gift card"
			key := fmt.Sprintf("redeem:seed-%d", i)
			e.NaturalKey = &key
		case r < 10:
			e.Competition, e.AmountMinor = true, 500
		default:
			e.AmountMinor = int64(25 + rng.IntN(200))
			key := fmt.Sprintf("campaign:seed-%d", i)
			e.NaturalKey = &key
		}
		balance += e.AmountMinor
		e.BalanceAfter = balance
		entries = append(entries, e)
		k := [2]int{at.Year(), int(at.Month())}
		mo := months[k]
		if mo == nil {
			mo = &Month{ParticipantID: pid, Year: k[0], Month: k[1]}
			months[k] = mo
		}
		mo.Entries++
		if e.AmountMinor > 0 {
			mo.CreditedMinor += e.AmountMinor
		} else {
			mo.DebitedMinor -= e.AmountMinor
		}
		if e.Competition {
			mo.Competitions++
		}
		if e.Origin == OriginRedeem {
			mo.Redemptions++
		}
	}
	require.NoError(f.t, f.db.Transaction(func(tx *gorm.DB) error {
		w := Wallet{ParticipantID: pid, PanelID: f.acme.ID, CurrencyCode: "USD", BalanceMinor: balance, EntryCount: int64(n), UpdatedAt: f.clock}
		if err := tx.Create(&w).Error; err != nil {
			return err
		}
		if err := tx.CreateInBatches(entries, 500).Error; err != nil {
			return err
		}
		for _, mo := range months {
			if err := tx.Create(mo).Error; err != nil {
				return err
			}
		}
		return nil
	}))
	for _, table := range []string{"ledger_entries", "ledger_months", "wallets"} {
		require.NoError(f.t, f.db.Exec("ANALYZE "+table).Error)
	}
	f.reconciled(pid)
	return pid
}

func BenchmarkTransactionsPageOfAMemberWith10000Entries(b *testing.B) {
	const n = 10000
	for _, d := range benchDialects() {
		b.Run(string(d), func(b *testing.B) {
			f := newFixture(b, dbtest.Open(b, d))
			pid := f.seedEntries(n)
			// A few other members, so the member's rows are not the whole table.
			for range 5 {
				other := f.member(f.acme)
				for range 20 {
					f.credit(f.acme, other, 100)
				}
			}

			page := func(q Query, want int) func(b *testing.B) {
				return func(b *testing.B) {
					for b.Loop() {
						rows, _, err := f.m.Transactions(f.ctx, pid, q)
						if err != nil || len(rows) != want {
							b.Fatalf("%d rows, %v", len(rows), err)
						}
					}
				}
			}
			b.Run("page 1", page(Query{Page: 1}, DefaultPageSize))
			b.Run("page 900", page(Query{Page: 900}, DefaultPageSize))
			b.Run("competitions page 1", page(Query{Filter: FilterCompetitions, Page: 1}, DefaultPageSize))
			b.Run("months", func(b *testing.B) {
				for b.Loop() {
					months, err := f.m.Months(f.ctx, pid, FilterMostRecent, time.Time{}, time.Time{})
					if err != nil || len(months) < 24 {
						b.Fatalf("%d months, %v", len(months), err)
					}
				}
			})
			b.Run("month transactions", func(b *testing.B) {
				at := f.clock.AddDate(0, -1, 0)
				for b.Loop() {
					rows, _, err := f.m.MonthTransactions(f.ctx, pid, at.Year(), int(at.Month()), FilterMostRecent, time.Time{}, time.Time{})
					if err != nil || len(rows) < 300 {
						b.Fatalf("%d rows, %v", len(rows), err)
					}
				}
			})
		})
	}
}

func BenchmarkCredit(b *testing.B) {
	for _, d := range benchDialects() {
		b.Run(string(d), func(b *testing.B) {
			f := newFixture(b, dbtest.Open(b, d))
			pid := f.member(f.acme)
			i := 0
			for b.Loop() {
				i++
				if _, created, err := f.m.Credit(f.ctx, earning(f.acme, pid, 125, fmt.Sprintf("campaign:%d", i))); err != nil || !created {
					b.Fatalf("credit %d: created %v, %v", i, created, err)
				}
			}
			b.StopTimer()
			f.reconciled(pid)
			require.Equal(b, int64(i)*125, f.balance(f.acme, pid))
		})
	}
}
