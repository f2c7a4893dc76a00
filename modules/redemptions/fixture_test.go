package redemptions

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with four panels (acme in USD, globex in GBP, euro in EUR, nippon in
// JPY), the real wallet, the redemptions module over both, an eligibleToRedeem the test sets
// per member, and a clock the test moves.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	wallet *wallet.Module
	acme   *web.Panel
	globex *web.Panel
	euro   *web.Panel
	nippon *web.Panel
	panels map[string]*web.Panel
	clock  time.Time

	mu          sync.Mutex
	eligibility map[string]string // participant id -> eligibleToRedeem; "yes" when unset
	keys        atomic.Int64
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL. After fn, every wallet
// must still agree with its entries.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newFixture(t, db)
		fn(t, f)
		f.t = t
		f.reconciled("")
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), eligibility: map[string]string{}, panels: map[string]*web.Panel{}}
	f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
	f.acme = f.panel("acme", "USD", "en", "es")
	f.globex = f.panel("globex", "GBP", "en")
	f.euro = f.panel("euro", "EUR", "en")
	f.nippon = f.panel("nippon", "JPY", "en")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	f.m = New(Deps{
		DB: db, Kit: kit, Log: log, Ledger: f.wallet, PayoutKey: kit.Secret("redemptions-payout-details"),
		EligibleToRedeem: func(_ context.Context, _ *web.Panel, pid string) (string, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if v, ok := f.eligibility[pid]; ok {
				return v, nil
			}
			return EligibleYes, nil
		},
		PanelByID: func(_ context.Context, id string) (*web.Panel, error) {
			if p, ok := f.panels[id]; ok {
				return p, nil
			}
			return nil, fmt.Errorf("panel %s: %w", id, web.ErrNotFound)
		},
	})
	f.m.now = func() time.Time { return f.clock }
	return f
}

func (f *fixture) panel(key, currency string, langs ...string) *web.Panel {
	p := seed.Panel(f.t, f.db, key, currency, langs...)
	f.panels[p.ID] = p
	return p
}

// member creates a participant of a panel and returns their participant id.
func (f *fixture) member(panel *web.Panel) string {
	return seed.Member(f.t, f.db, panel, "en", nil, f.clock)
}

// fund pays a member amount as a campaign completion would.
func (f *fixture) fund(panel *web.Panel, pid string, amount int64) {
	f.t.Helper()
	_, created, err := f.wallet.Credit(f.ctx, wallet.Movement{
		Panel: panel, ParticipantID: pid, Amount: amount, Currency: panel.CurrencyCode, Origin: wallet.OriginCampaign,
		Key: fmt.Sprintf("campaign:%d", f.keys.Add(1)), CampaignID: uuid.NewString(), Title: "Survey",
	})
	require.NoError(f.t, err)
	require.True(f.t, created)
}

// redeemer is a funded member of acme with a PayPal email on file.
func (f *fixture) redeemer(balance int64) string {
	f.t.Helper()
	pid := f.member(f.acme)
	if balance > 0 {
		f.fund(f.acme, pid, balance)
	}
	_, err := f.m.SavePayPal(f.ctx, f.acme, pid, "dana.payee@example.com")
	require.NoError(f.t, err)
	return pid
}

func (f *fixture) setEligibility(pid, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.eligibility[pid] = value
}

// standardOptions gives a panel PayPal (min 20.00, no fee), bank transfer (min 20.00, fee
// 0.50), a voucher (min 10.00) and a disabled option.
func (f *fixture) standardOptions(panel *web.Panel) {
	f.t.Helper()
	file, err := ParseOptions("options.yaml", []byte(`options:
  - {id: paypal, kind: paypal, name: {en: PayPal, es: PayPal}, description: {en: To your PayPal account, es: A tu cuenta PayPal}}
  - {id: bank, kind: bank, name: Bank transfer, minimum: "20.00", fee: "0.50"}
  - {id: amazon-voucher, kind: voucher, name: Amazon gift card, minimum: "10"}
  - {id: retired, kind: voucher, name: Old voucher, enabled: false}
`))
	require.NoError(f.t, err)
	opts, err := file.Build("options.yaml", panel)
	require.NoError(f.t, err)
	_, err = f.m.ApplyOptions(f.ctx, panel, opts)
	require.NoError(f.t, err)
}

// key is a fresh Idempotency-Key.
func (f *fixture) key() string { return fmt.Sprintf("key-%d-%s", f.keys.Add(1), uuid.NewString()[:8]) }

// redeem asks to redeem amount with an option under a key, as acme's member pid.
func (f *fixture) redeem(pid, option, amount, key string) (*Redemption, bool, error) {
	return f.m.Redeem(f.ctx, RedeemInput{Panel: f.acme, ParticipantID: pid, Email: pid + "@example.com", OptionID: option, Amount: amount, Key: key})
}

func (f *fixture) balance(panel *web.Panel, pid string) int64 {
	f.t.Helper()
	b, err := f.wallet.Balance(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return b.Minor
}

// snapshot is everything a refusal must leave as it was.
type snapshot struct {
	Balance     int64
	Entries     []string
	Redemptions []string
	Events      int64
	Details     map[Kind]string
}

func (f *fixture) snapshot(panel *web.Panel, pid string) snapshot {
	f.t.Helper()
	s := snapshot{Balance: f.balance(panel, pid), Details: map[Kind]string{}}
	require.NoError(f.t, f.db.Model(&wallet.Entry{}).Where("participant_id = ?", pid).Order("seq").Pluck("id", &s.Entries).Error)
	require.NoError(f.t, f.db.Model(&Redemption{}).Where("participant_id = ?", pid).Order("id").Pluck("id", &s.Redemptions).Error)
	require.NoError(f.t, f.db.Model(&Event{}).Where("redemption_id IN (SELECT id FROM redemptions WHERE participant_id = ?)", pid).Count(&s.Events).Error)
	var rows []PayoutDetails
	require.NoError(f.t, f.db.Where("participant_id = ?", pid).Find(&rows).Error)
	for _, r := range rows {
		s.Details[r.Kind] = r.Sealed
	}
	return s
}

// reconciled asserts every wallet (or one member's) agrees with its entries, and that each
// member's balance is the sum of their entries counted independently in SQL.
func (f *fixture) reconciled(pid string) {
	f.t.Helper()
	mismatches, err := f.wallet.Reconcile(f.ctx, pid)
	require.NoError(f.t, err)
	require.Empty(f.t, mismatches, "wallets disagree with their entries")
	var rows []struct {
		ParticipantID string
		Balance       int64
		Sum           int64
	}
	require.NoError(f.t, f.db.Raw(`SELECT w.participant_id, w.balance_minor AS balance, COALESCE(SUM(e.amount_minor), 0) AS sum
		FROM wallets w LEFT JOIN ledger_entries e ON e.participant_id = w.participant_id
		GROUP BY w.participant_id, w.balance_minor`).Scan(&rows).Error)
	for _, r := range rows {
		assert.Equal(f.t, r.Sum, r.Balance, "the balance of %s is not the sum of its entries", r.ParticipantID)
		assert.GreaterOrEqual(f.t, r.Balance, int64(0))
	}
}

// events lists a redemption's events.
func (f *fixture) events(id string) []Event {
	f.t.Helper()
	_, evs, err := f.m.Redemption(f.ctx, id)
	require.NoError(f.t, err)
	return evs
}

// entry loads a ledger entry.
func (f *fixture) entry(id string) wallet.Entry {
	f.t.Helper()
	var e wallet.Entry
	require.NoError(f.t, f.db.Where("id = ?", id).Take(&e).Error)
	return e
}

// body is the API's JSON of a redemption, as a client reads it.
func body(t testing.TB, r *Redemption) string {
	t.Helper()
	b, err := json.Marshal(toJSON(r))
	require.NoError(t, err)
	return string(b)
}

// codeOf is the machine-readable code of an API error (its first detail's), or "".
func codeOf(err error) string {
	e := web.AsError(err)
	if e == nil || len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Code
}

func statusOf(err error) int { return web.AsError(err).Status }

// race runs n calls at once (released together).
func race(n int, call func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			call(i)
		}()
	}
	close(start)
	wg.Wait()
}
