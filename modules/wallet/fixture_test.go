package wallet

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with three panels (acme in USD, globex in GBP, nippon in JPY), the
// wallet module over it, and a clock the test moves.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	acme   *web.Panel
	globex *web.Panel
	nippon *web.Panel
	clock  time.Time
	keys   atomic.Int64 // numbers the fixture's natural keys
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		fn(t, newFixture(t, db))
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	f.m = New(Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
	f.m.now = func() time.Time { return f.clock }
	f.acme = f.panel("acme", "USD", "en", "es")
	f.globex = f.panel("globex", "GBP", "en")
	f.nippon = f.panel("nippon", "JPY", "en")
	return f
}

func (f *fixture) panel(key, currency string, langs ...string) *web.Panel {
	return seed.Panel(f.t, f.db, key, currency, langs...)
}

// member creates a participant of a panel and returns their participant id.
func (f *fixture) member(panel *web.Panel) string {
	return seed.Member(f.t, f.db, panel, "en", nil, f.clock)
}

// key is a fresh natural key with a prefix ("campaign", "redeem").
func (f *fixture) key(prefix string) string {
	return fmt.Sprintf("%s:%d", prefix, f.keys.Add(1))
}

// earning is a campaign completion paying amount to a member of panel.
func earning(panel *web.Panel, pid string, amount int64, key string) Movement {
	return Movement{Panel: panel, ParticipantID: pid, Amount: amount, Currency: panel.CurrencyCode, Origin: OriginCampaign, Key: key, CampaignID: uuid.NewString(), Title: "Survey"}
}

// redemption is a member's redemption of amount.
func redemption(panel *web.Panel, pid string, amount int64, key string) Movement {
	return Movement{Panel: panel, ParticipantID: pid, Amount: amount, Currency: panel.CurrencyCode, Origin: OriginRedeem, Key: key, RedemptionID: uuid.NewString(), Title: "Gift card"}
}

// entered is a member's entry into a competition: history without money.
func entered(panel *web.Panel, pid, key string) Movement {
	return Movement{Panel: panel, ParticipantID: pid, Currency: panel.CurrencyCode, Origin: OriginCampaign, Key: key, CampaignID: uuid.NewString(), Competition: true, Title: "Entered the draw"}
}

// credit pays a member amount for a new campaign and returns the entry.
func (f *fixture) credit(panel *web.Panel, pid string, amount int64) *Entry {
	f.t.Helper()
	e, created, err := f.m.Credit(f.ctx, earning(panel, pid, amount, f.key("campaign")))
	require.NoError(f.t, err)
	require.True(f.t, created)
	return e
}

// debit redeems amount of a member's balance and returns the entry.
func (f *fixture) debit(panel *web.Panel, pid string, amount int64) *Entry {
	f.t.Helper()
	e, created, err := f.m.Debit(f.ctx, redemption(panel, pid, amount, f.key("redeem")))
	require.NoError(f.t, err)
	require.True(f.t, created)
	return e
}

// balance is the member's cached balance in minor units.
func (f *fixture) balance(panel *web.Panel, pid string) int64 {
	f.t.Helper()
	b, err := f.m.Balance(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return b.Minor
}

// count is how many ledger entries the member has, counted in the table itself.
func (f *fixture) count(pid string) int64 {
	f.t.Helper()
	var n int64
	require.NoError(f.t, f.db.Model(&Entry{}).Where("participant_id = ?", pid).Count(&n).Error)
	return n
}

// sum adds the member's entries up in SQL, independently of the wallet's cache.
func (f *fixture) sum(pid string) int64 {
	f.t.Helper()
	var total int64
	require.NoError(f.t, f.db.Raw(`SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries WHERE participant_id = ?`, pid).Scan(&total).Error)
	return total
}

// cached is the wallet row's balance, or -1 without a wallet.
func (f *fixture) cached(pid string) int64 {
	f.t.Helper()
	var ws []Wallet
	require.NoError(f.t, f.db.Where("participant_id = ?", pid).Find(&ws).Error)
	if len(ws) == 0 {
		return -1
	}
	return ws[0].BalanceMinor
}

// hasWallet tells whether the member's wallet row exists.
func (f *fixture) hasWallet(pid string) bool {
	f.t.Helper()
	var n int64
	require.NoError(f.t, f.db.Model(&Wallet{}).Where("participant_id = ?", pid).Count(&n).Error)
	return n > 0
}

// entries are all of the member's entries in seq order.
func (f *fixture) entries(pid string) []Entry {
	f.t.Helper()
	var out []Entry
	require.NoError(f.t, f.db.Where("participant_id = ?", pid).Order("seq").Find(&out).Error)
	return out
}

// reconciled asserts that the member's wallet agrees with their entries (or every wallet's
// with "") and with an independent sum.
func (f *fixture) reconciled(pid string) {
	f.t.Helper()
	mismatches, err := f.m.Reconcile(f.ctx, pid)
	require.NoError(f.t, err)
	require.Empty(f.t, mismatches, "Reconcile found wallets that disagree with their entries")
	if pid != "" && f.hasWallet(pid) {
		require.Equal(f.t, f.sum(pid), f.cached(pid), "the cached balance is not the sum of the entries")
	}
}

// gapless asserts that the member's entries are numbered 1..n, each balance_after is the
// running sum (so the balance never went below zero) and the wallet counts n of them.
func (f *fixture) gapless(pid string) []Entry {
	f.t.Helper()
	es := f.entries(pid)
	running := int64(0)
	for i, e := range es {
		require.Equal(f.t, int64(i+1), e.Seq, "entry numbers have a gap or a repeat")
		running += e.AmountMinor
		require.Equal(f.t, running, e.BalanceAfter, "entry %d's balance after is not the running sum", e.Seq)
		require.GreaterOrEqual(f.t, e.BalanceAfter, int64(0), "the balance went below zero at entry %d", e.Seq)
	}
	var w Wallet
	require.NoError(f.t, f.db.Where("participant_id = ?", pid).Take(&w).Error)
	assert.Equal(f.t, int64(len(es)), w.EntryCount)
	assert.Equal(f.t, running, w.BalanceMinor)
	return es
}

// state is what a refusal must leave unchanged.
type state struct {
	Wallet  bool
	Balance int64
	Owed    int64
	Count   int64
	Months  []MonthSummary
}

func (f *fixture) state(panel *web.Panel, pid string) state {
	f.t.Helper()
	months, err := f.m.Months(f.ctx, pid, FilterMostRecent, time.Time{}, time.Time{})
	require.NoError(f.t, err)
	owed, err := f.m.Owed(f.ctx, pid)
	require.NoError(f.t, err)
	return state{Wallet: f.hasWallet(pid), Balance: f.balance(panel, pid), Owed: owed, Count: f.count(pid), Months: months}
}

// at sets the clock.
func (f *fixture) at(year int, month time.Month, day, hour int) {
	f.clock = time.Date(year, month, day, hour, 0, 0, 0, time.UTC)
}

func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
