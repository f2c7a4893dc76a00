package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// loadEntries is the size of the demo member's ledger in the transactions load run.
const loadEntries = 10000

// TestTransactionsLoadRun serves the transactions page and transactions/paged of a member
// with 10,000 ledger entries over two years to 64 concurrent connections, on every dialect,
// and reports throughput and latency percentiles. It measures; it asserts nothing about
// time. `make bench` runs it (CANVASS_LOAD=1).
func TestTransactionsLoadRun(t *testing.T) {
	if os.Getenv("CANVASS_LOAD") != "1" {
		t.Skip("set CANVASS_LOAD=1 (make bench) to run the transactions load run")
	}
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			e := newEnv(t, d)
			seedStart := time.Now()
			seedLedger(t, e, loadEntries)
			t.Logf("%s: seeded %d ledger entries in %v", d, loadEntries, time.Since(seedStart).Round(time.Millisecond))
			base := listenLoopback(t, e)
			member := e.member()
			cookie := http.Header{"Cookie": {"pp-token=" + member.cookie("pp-token")}}
			tx := decodeJSON[transactionsJSON](t, member.get("/api/v3/transactions/paged?page=50"), http.StatusOK)
			require.Len(t, tx.Transactions, 10, "the member's ledger is long")
			require.Equal(t, http.StatusOK, member.get("/transactions").StatusCode)

			for _, target := range []loadTarget{
				{name: string(d) + " transactions page", path: "/transactions", header: cookie},
				{name: string(d) + " transactions/paged", path: "/api/v3/transactions/paged", header: cookie},
				{name: string(d) + " transactions/paged p.50", path: "/api/v3/transactions/paged?page=50", header: cookie},
				{name: string(d) + " transactions/paged comp.", path: "/api/v3/transactions/paged?competitions=yes", header: cookie},
			} {
				hammer(t, base, target, loadWorkers, loadWarmPer)
				drive(t, base, target, loadWorkers, loadPerWorker)
			}
		})
	}
}

// seedLedger gives the demo member n more entries over the last two years: credits of
// campaigns (some competitions) and redemptions, written directly (a test may) with the
// wallet row and month counts they add up to, then checked with Reconcile.
func seedLedger(t *testing.T, e *env, n int) {
	t.Helper()
	ctx := context.Background()
	panel, pid := e.demoParticipant()
	var w wallet.Wallet
	require.NoError(t, e.db.Where("participant_id = ?", pid).Take(&w).Error)
	rng := rand.New(rand.NewPCG(2026, 11))
	start := time.Now().UTC().AddDate(-2, 0, 0)
	step := 2 * 365 * 24 * time.Hour / time.Duration(n)
	balance, seq := w.BalanceMinor, w.EntryCount
	months := map[[2]int]*wallet.Month{}
	var existing []wallet.Month
	require.NoError(t, e.db.Where("participant_id = ?", pid).Find(&existing).Error)
	for i := range existing {
		months[[2]int{existing[i].Year, existing[i].Month}] = &existing[i]
	}
	entries := make([]wallet.Entry, 0, n)
	for i := range n {
		at := start.Add(time.Duration(i) * step).Truncate(time.Microsecond)
		e := wallet.Entry{ID: uuid.NewString(), ParticipantID: pid, PanelID: panel.ID, CurrencyCode: "USD", CreatedAt: at, Origin: wallet.OriginCampaign, Title: fmt.Sprintf("Survey %d", i)}
		switch r := rng.IntN(100); {
		case r < 5 && balance >= 2000:
			e.Origin, e.AmountMinor, e.Title = wallet.OriginRedeem, -2000, ""
		case r < 10:
			e.Competition, e.AmountMinor = true, 500
		default:
			e.AmountMinor = int64(25 + rng.IntN(200))
			key := fmt.Sprintf("campaign:load-%d", i)
			e.NaturalKey = &key
		}
		seq++
		balance += e.AmountMinor
		e.Seq, e.BalanceAfter = seq, balance
		entries = append(entries, e)
		k := [2]int{at.Year(), int(at.Month())}
		m := months[k]
		if m == nil {
			m = &wallet.Month{ParticipantID: pid, Year: k[0], Month: k[1]}
			months[k] = m
		}
		m.Entries++
		if e.AmountMinor > 0 {
			m.CreditedMinor += e.AmountMinor
		} else {
			m.DebitedMinor -= e.AmountMinor
		}
		if e.Competition {
			m.Competitions++
		}
		if e.Origin == wallet.OriginRedeem {
			m.Redemptions++
		}
	}
	require.NoError(t, e.db.CreateInBatches(entries, 500).Error)
	for _, m := range months {
		require.NoError(t, e.db.Save(m).Error)
	}
	require.NoError(t, e.db.Model(&wallet.Wallet{}).Where("participant_id = ?", pid).Updates(map[string]any{"balance_minor": balance, "entry_count": seq}).Error)
	for _, table := range []string{"ledger_entries", "ledger_months", "wallets"} {
		require.NoError(t, e.db.Exec("ANALYZE "+table).Error)
	}
	bad, err := e.app.Wallet.Reconcile(ctx, pid)
	require.NoError(t, err)
	require.Empty(t, bad, "the seeded ledger adds up")
}
