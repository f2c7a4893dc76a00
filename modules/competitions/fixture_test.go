package competitions

import (
	"context"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/campaignseed"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the real wallet, a
// campaign catalogue the test fills (competitions and who completed them), the competitions
// module over them, and a clock the test moves.
type fixture struct {
	t      testing.TB
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	wallet *wallet.Module
	camps  *campaigns.Module
	runs   *surveys.Module
	acme   *web.Panel
	globex *web.Panel
	clock  time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL. After fn, every wallet
// must still agree with its entries.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newFixture(t, db)
		fn(t, f)
		f.t = t
		f.reconciled()
	})
}

func newFixture(t testing.TB, db *gorm.DB) *fixture {
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
	f.acme = f.panel("acme", "USD", "en", "es")
	f.globex = f.panel("globex", "GBP", "en")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	loc := messages.Locales(t)
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	// The real campaign catalogue and survey engine: members complete a competition's
	// campaign by answering it (its reward is not paid here: no payer).
	f.camps = campaigns.New(campaigns.Deps{DB: db, Log: log, Standing: surveys.Standing{}})
	f.runs = surveys.New(surveys.Deps{DB: db, Kit: kit, Log: log, Catalogue: f.camps, Audience: f.camps.Audience})
	f.m = New(Deps{
		DB: db, Kit: kit, Log: log, Campaigns: f.camps, Completions: f.runs, Ledger: f.wallet,
		Panels: func(context.Context) ([]*web.Panel, error) { return []*web.Panel{f.acme, f.globex}, nil },
		Now:    func() time.Time { return f.clock },
	})
	return f
}

func (f *fixture) panel(key, currency string, langs ...string) *web.Panel {
	return seed.Panel(f.t, f.db, key, currency, langs...)
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
		Key: "campaign:" + uuid.NewString(), CampaignID: uuid.NewString(), Title: "Survey",
	})
	require.NoError(f.t, err)
	require.True(f.t, created)
}

// competition imports a one-question competition campaign into a panel: a prize of
// prizeMinor (0: not money), winners, drawn at drawAt (nil: no date). It returns the
// competition as the campaigns module describes it.
func (f *fixture) competition(panel *web.Panel, prizeMinor int64, winners int, drawAt *time.Time) campaigns.CompetitionInfo {
	f.t.Helper()
	return f.competitionDrawn(panel, prizeMinor, winners, drawAt, false)
}

// competitionDrawn is competition, drawn automatically at drawAt when auto (auto_draw).
func (f *fixture) competitionDrawn(panel *web.Panel, prizeMinor int64, winners int, drawAt *time.Time, auto bool) campaigns.CompetitionInfo {
	f.t.Helper()
	def := campaignseed.Definition("Prize draw", func(d *campaigns.Definition) {
		d.Type, d.Reward, d.EstimatedMinutes = campaigns.TypeCompetition, "0.25", 1
		d.Competition = &campaigns.Competition{Prize: campaigns.Text{"en": "a $50 gift card", "es": "una tarjeta regalo de 50 $"}, Winners: winners, DrawAt: drawAt, AutoDraw: auto}
		d.ThankYou = campaigns.ThankYou{Kind: campaigns.ThankYouCompetitionInvitation}
	})
	if prizeMinor > 0 {
		def.Competition.PrizeAmount = web.MoneyString(prizeMinor, panel.CurrencyCode)
	}
	_, err := f.camps.Import(f.ctx, panel, []*campaigns.Definition{def})
	require.NoError(f.t, err)
	info, err := f.camps.CompetitionOf(f.ctx, panel, def.UUID)
	require.NoError(f.t, err)
	return *info
}

// entrant is a new member of the competition's panel who completed its campaign.
func (f *fixture) entrant(panel *web.Panel, c campaigns.CompetitionInfo) string {
	f.t.Helper()
	pid := seed.Member(f.t, f.db, panel, "en", accounts.Metadata{"welcomeCampaignCompleted": true}, f.clock)
	f.complete(panel, pid, c.CampaignID)
	return pid
}

// complete answers the campaign's question for the member, through the survey engine.
func (f *fixture) complete(panel *web.Panel, pid, campaignID string) {
	f.t.Helper()
	who := surveys.Member(campaigns.PersonOf(&web.Member{ParticipantID: pid, LanguageCode: "en", Metadata: accounts.Metadata{"welcomeCampaignCompleted": true}}, "en"))
	_, err := f.runs.Go(f.ctx, panel, who, campaignID)
	require.NoError(f.t, err)
	res, err := f.runs.Answer(f.ctx, panel, who, campaignID, "q1", []byte(`{"answer":"yes"}`))
	require.NoError(f.t, err)
	require.Equal(f.t, campaigns.StatusCompleted, res.Status)
}

// enter enters pid into the competition as the API would.
func (f *fixture) enter(panel *web.Panel, pid string, c campaigns.CompetitionInfo) (string, error) {
	return f.m.EnterCompetition(f.ctx, panel, pid, c.CampaignID, c.ID, panel.DefaultLanguage)
}

// entered is n members of the panel who completed the campaign and entered its draw.
func (f *fixture) entered(panel *web.Panel, c campaigns.CompetitionInfo, n int) []string {
	f.t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = f.entrant(panel, c)
		_, err := f.enter(panel, ids[i], c)
		require.NoError(f.t, err)
	}
	sort.Strings(ids)
	return ids
}

func (f *fixture) at(t time.Time) { f.clock = t }

// ledger lists a member's ledger entries in order.
func (f *fixture) ledger(pid string) []wallet.Entry {
	f.t.Helper()
	var out []wallet.Entry
	require.NoError(f.t, f.db.Where("participant_id = ?", pid).Order("seq").Find(&out).Error)
	return out
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

// snapshot is everything a refusal must leave as it was.
type snapshot struct {
	Entries []Entry
	Draws   []DrawRecord
	Winners []Winner
	Ledger  []string
	Wallets []wallet.Wallet
}

func (f *fixture) snapshot() snapshot {
	f.t.Helper()
	var s snapshot
	require.NoError(f.t, f.db.Order("competition_id, participant_id").Find(&s.Entries).Error)
	require.NoError(f.t, f.db.Order("competition_id").Find(&s.Draws).Error)
	require.NoError(f.t, f.db.Order("competition_id, rank").Find(&s.Winners).Error)
	require.NoError(f.t, f.db.Model(&wallet.Entry{}).Order("id").Pluck("id", &s.Ledger).Error)
	require.NoError(f.t, f.db.Order("participant_id").Find(&s.Wallets).Error)
	return s
}

// reconciled asserts every wallet agrees with its entries, and that each member's balance is
// the sum of their entries counted independently in SQL.
func (f *fixture) reconciled() {
	f.t.Helper()
	mismatches, err := f.wallet.Reconcile(f.ctx, "")
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
	}
}

// codeOf is the machine-readable code of an API error (its first detail's), or "".
func codeOf(err error) string {
	e := web.AsError(err)
	if e == nil || len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Code
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

func ptr[T any](v T) *T { return &v }
