package offers_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), each with its own fake
// offers provider on loopback and its own postback secret, the real wallet, the offers module
// over them, and a clock the test moves.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *offers.Module
	svc    *offers.Service
	wallet *wallet.Module
	acme   *web.Panel
	globex *web.Panel
	fake   map[string]*offerstest.Server // by panel key
	secret map[string]string
	mu     sync.Mutex
	clock  time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL. After fn, every wallet must
// still agree with its entries (and its debt with its entries' debt).
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newFixture(t, db)
		fn(t, f)
		mismatches, err := f.wallet.Reconcile(f.ctx, "")
		require.NoError(t, err)
		require.Empty(t, mismatches, "wallets disagree with their entries")
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Now().UTC().Truncate(time.Second),
		fake: map[string]*offerstest.Server{}, secret: map[string]string{}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
	f.globex = seed.Panel(t, db, "globex", "GBP", "en")
	f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
	f.m = offers.New(offers.Deps{DB: db, Kit: kit, Log: log, Ledger: f.wallet, Limiter: ratelimit.New(db), Now: f.now})
	f.svc = f.m.Service()
	for _, p := range []*web.Panel{f.acme, f.globex} {
		fake := offerstest.New(t, p.Key+"-app", p.Key+"-api-key")
		f.fake[p.Key], f.secret[p.Key] = fake, p.Key+"-postback-secret-0123456789"
		require.NoError(t, f.m.Apply(f.ctx, p.ID, &offers.Spec{BaseURL: fake.URL, AppID: fake.AppID, APIKey: fake.APIKey, PostbackSecret: f.secret[p.Key]}))
	}
	return f
}

func (f *fixture) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.clock
}

// after moves the clock on.
func (f *fixture) after(d time.Duration) {
	f.mu.Lock()
	f.clock = f.clock.Add(d)
	f.mu.Unlock()
}

// member makes a member of panel and returns them with their sub-id.
func (f *fixture) member(panel *web.Panel) (pid, sub string) {
	f.t.Helper()
	pid = seed.Member(f.t, f.db, panel, "en", nil, f.now())
	sub, err := f.svc.SubID(f.ctx, panel.ID, pid)
	require.NoError(f.t, err)
	return pid, sub
}

// who is a member as the module's calls see them.
func (f *fixture) who(panel *web.Panel, pid, country string) offers.Member {
	return offers.Member{Panel: panel, ParticipantID: pid, Query: offers.Query{Country: country, Lang: "en", Device: "desktop"},
		IP: "198.51.100.7", UserAgent: "Mozilla/5.0 (X11; Linux x86_64)"}
}

// postback delivers a postback to panel signed with secret, as the HTTP handler would.
func (f *fixture) postback(panel *web.Panel, secret string, p offerstest.PostbackParams) ([]byte, error) {
	f.t.Helper()
	signed, err := offerstest.PostbackURL(postbackPath(panel), secret, p)
	require.NoError(f.t, err)
	return f.deliver(panel, signed)
}

// deliver hands an already built postback address (perhaps tampered with) to the module.
func (f *fixture) deliver(panel *web.Panel, pathAndQuery string) ([]byte, error) {
	f.after(time.Millisecond) // records are told apart by their time
	return f.svc.Receive(f.ctx, offers.PostbackRequest{Panel: panel, PathAndQuery: pathAndQuery, SourceIP: "203.0.113.9"})
}

func postbackPath(panel *web.Panel) string {
	return "/api/v1/" + panel.InstanceCode + "/offers/postback"
}

// counts is how many rows each money or offers table holds, for refusals that must change nothing.
func (f *fixture) counts() map[string]int64 {
	f.t.Helper()
	out := map[string]int64{}
	for _, table := range []string{"ledger_entries", "offer_transactions", "offer_rows"} {
		var n int64
		require.NoError(f.t, f.db.Table(table).Count(&n).Error)
		out[table] = n
	}
	return out
}

func (f *fixture) balance(panel *web.Panel, pid string) int64 {
	f.t.Helper()
	b, err := f.wallet.Balance(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return b.Minor
}

func (f *fixture) owed(pid string) int64 {
	f.t.Helper()
	n, err := f.wallet.Owed(f.ctx, pid)
	require.NoError(f.t, err)
	return n
}

// records is the postbacks recorded for a panel, oldest first.
func (f *fixture) records(panel *web.Panel) []offers.PostbackRecord {
	f.t.Helper()
	var out []offers.PostbackRecord
	require.NoError(f.t, f.db.Where("panel_id = ?", panel.ID).Order("created_at, id").Find(&out).Error)
	return out
}

func (f *fixture) row(id string) offers.Row {
	f.t.Helper()
	var r offers.Row
	require.NoError(f.t, f.db.Where("id = ?", id).Take(&r).Error)
	return r
}
