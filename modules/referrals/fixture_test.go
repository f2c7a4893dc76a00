package referrals

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
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the real accounts
// module (its join hooks plugged into this module), the real wallet, a loopback SMTP server
// every mail goes to, the referrals module over them, and a clock the test moves.
type fixture struct {
	t        testing.TB
	ctx      context.Context
	db       *gorm.DB
	m        *Module
	svc      *Service
	accounts *accounts.Module
	wallet   *wallet.Module
	smtp     *mailertest.Server
	acme     *web.Panel
	globex   *web.Panel
	clock    time.Time
	mu       sync.Mutex
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL. After fn, every wallet must
// still agree with its entries.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newFixture(t, db)
		fn(t, f)
		f.t = t
		mismatches, err := f.wallet.Reconcile(f.ctx, "")
		require.NoError(t, err)
		require.Empty(t, mismatches, "wallets disagree with their entries")
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Now().UTC().Truncate(time.Second)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	f.smtp = mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: f.smtp.URL(), From: "no-reply@canvass.test"}, nil)
	require.NoError(t, err)
	limiter := ratelimit.New(db)
	f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
	f.globex = seed.Panel(t, db, "globex", "GBP", "en")
	f.accounts = accounts.New(accounts.Deps{DB: db, Kit: kit, Limiter: limiter, Mail: sender, Log: log})
	f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
	f.m = New(Deps{
		DB: db, Kit: kit, Log: log, Members: f.accounts, Ledger: f.wallet, Mail: sender, Limiter: limiter,
		PanelOf: f.panelByID, Now: f.now,
	})
	f.svc = f.m.Service()
	f.accounts.SetJoinHooks(f.svc)
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

func (f *fixture) panelByID(_ context.Context, id string) (*web.Panel, error) {
	for _, p := range []*web.Panel{f.acme, f.globex} {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, web.ErrNotFound
}

// rules sets a panel's referral rules as a tenant file would.
func (f *fixture) rules(panel *web.Panel, spec *SettingsSpec) {
	f.t.Helper()
	require.NoError(f.t, f.m.ApplySettings(f.ctx, panel.ID, panel.CurrencyCode, spec))
}

// who is a member as a request sees them: validated, welcome campaign done, and whatever
// edit says.
type who struct {
	pid, email, name string
	member           *web.Member
}

// member creates a member of the panel who passed every gate (validated email, welcome
// campaign completed unless welcome is false) and returns them as a request would see them.
func (f *fixture) member(panel *web.Panel, name string, welcome bool) *who {
	f.t.Helper()
	email := strings.ToLower(name) + "-" + uuid.NewString()[:8] + "@example.com"
	svc := f.accounts.Service()
	require.NoError(f.t, svc.EnsureMember(f.ctx, panel, accounts.RegisterInput{Email: email, Password: "a-long-password-1", FirstName: name, LanguageCode: "en"},
		accounts.Metadata{"welcomeCampaignCompleted": welcome}))
	pid, err := svc.ParticipantByEmail(f.ctx, panel, email)
	require.NoError(f.t, err)
	return f.as(pid)
}

// as reads a member again (after their flags changed).
func (f *fixture) as(pid string) *who {
	f.t.Helper()
	c, err := f.accounts.Contact(f.ctx, pid)
	require.NoError(f.t, err)
	return &who{pid: pid, email: c.Email, name: c.FirstName, member: &web.Member{
		ParticipantID: pid, Email: c.Email, LanguageCode: c.LanguageCode, EmailValidated: c.EmailValidated, Status: c.Status,
		IsEligibleToRefer: c.IsEligibleToRefer, Metadata: map[string]any{"welcomeCampaignCompleted": c.WelcomeCompleted},
	}}
}

// sender is a member sending from a browser with a device cookie.
func (w *who) from(device string) Sender {
	return Sender{Member: w.member, Lang: "en", Device: device, Origin: "https://acme.example.com"}
}

// invite sends an invitation that must be accepted by the rules.
func (f *fixture) invite(panel *web.Panel, w *who, email string) *Referral {
	f.t.Helper()
	r, err := f.svc.Send(f.ctx, panel, w.from("device-of-"+w.pid), email, "")
	require.NoError(f.t, err)
	return r
}

// join signs a friend up through the accounts service, with an invitation and partner code
// (each "" for none) from a browser with device (its cookie), and returns their participant id.
func (f *fixture) join(panel *web.Panel, email, firstName, inviteID, affiliate, device string) (string, error) {
	issued, err := f.accounts.Service().Register(f.ctx, panel, accounts.RegisterInput{
		Email: email, Password: "a-long-password-1", FirstName: firstName, InviteID: inviteID, Affiliate: affiliate,
	}, "en", accounts.Client{IP: "192.0.2.1", Device: device})
	if err != nil {
		return "", err
	}
	return issued.Member.ParticipantID, nil
}

// mustJoin is join that must succeed.
func (f *fixture) mustJoin(panel *web.Panel, email, firstName, inviteID, affiliate, device string) string {
	f.t.Helper()
	pid, err := f.join(panel, email, firstName, inviteID, affiliate, device)
	require.NoError(f.t, err)
	return pid
}

// referral reads an invitation as stored.
func (f *fixture) referral(id string) Referral {
	f.t.Helper()
	var r Referral
	require.NoError(f.t, f.db.Where("id = ?", id).Take(&r).Error)
	return r
}

// keyed is a member's ledger entries with a natural key.
func (f *fixture) keyed(pid, key string) []wallet.Entry {
	f.t.Helper()
	var out []wallet.Entry
	require.NoError(f.t, f.db.Where("participant_id = ? AND natural_key = ?", pid, key).Find(&out).Error)
	return out
}

func (f *fixture) balance(panel *web.Panel, pid string) int64 {
	f.t.Helper()
	b, err := f.wallet.Balance(f.ctx, panel, pid)
	require.NoError(f.t, err)
	return b.Minor
}

// rows counts the module's rows, for refusals that must write nothing.
func (f *fixture) rows() map[string]int64 {
	f.t.Helper()
	out := map[string]int64{}
	for _, table := range []string{"referrals", "blade_dismissals", "affiliates", "affiliate_members", "ledger_entries"} {
		var n int64
		require.NoError(f.t, f.db.Table(table).Count(&n).Error)
		out[table] = n
	}
	return out
}

// codeOf is the machine-readable code of an API error (its first detail's), or "".
func codeOf(err error) string {
	if e := web.AsError(err); e != nil {
		return e.Code()
	}
	return ""
}

// statusOf is an error's HTTP status (0 for none).
func statusOf(err error) int {
	if err == nil {
		return 0
	}
	return web.AsError(err).Status
}

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

func intp(v int) *int    { return &v }
func boolp(v bool) *bool { return &v }

// web400Field is the field a 400 names ("" for none).
func web400Field(err error) string {
	e := web.AsError(err)
	if e == nil || len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Field
}

// welcomed is a member completing the welcome campaign as the app wires it: accounts records
// it in the profile, then this module hears of it.
func (f *fixture) welcomed(pid string) {
	f.t.Helper()
	require.NoError(f.t, f.accounts.Service().MarkWelcomeCompleted(f.ctx, pid))
	require.NoError(f.t, f.svc.WelcomeCompleted(f.ctx, pid))
}
