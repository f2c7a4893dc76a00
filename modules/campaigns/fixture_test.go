package campaigns

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/migrations/dbtest/seed"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the campaigns
// module over it, and a clock the test moves. The module pays completions through the real
// wallet (as the app wires it) and marks the welcome campaign done through the real
// accounts service, recording who it marked.
type fixture struct {
	t        *testing.T
	ctx      context.Context
	db       *gorm.DB
	m        *Module
	wallet   *wallet.Module
	accounts *accounts.Module
	acme     *web.Panel
	globex   *web.Panel
	clock    time.Time

	mu       sync.Mutex
	welcomed []string // the participants WelcomeDone was called for, in call order
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
		f.accounts = accounts.New(accounts.Deps{DB: db, Kit: testKit(t)})
		f.m = New(Deps{DB: db, Pay: payCompletion(f.wallet), WelcomeDone: func(ctx context.Context, participantID string) error {
			f.mu.Lock()
			f.welcomed = append(f.welcomed, participantID)
			f.mu.Unlock()
			return f.accounts.Service().MarkWelcomeCompleted(ctx, participantID)
		}})
		f.m.now = func() time.Time { return f.clock }
		f.acme = f.panel("acme", "USD", "en", "es")
		f.globex = f.panel("globex", "GBP", "en")
		fn(t, f)
	})
}

func (f *fixture) panel(key, currency string, langs ...string) *web.Panel {
	return seed.Panel(f.t, f.db, key, currency, langs...)
}

// member creates a participant of a panel and describes them in lang. By default their
// welcome campaign is done; pass welcomeDone=false for a newcomer.
func (f *fixture) member(panel *web.Panel, lang string, welcomeDone bool, metadata map[string]any) Audience {
	md := accounts.Metadata{"welcomeCampaignCompleted": welcomeDone}
	for k, v := range metadata {
		md[k] = v
	}
	id := seed.Member(f.t, f.db, panel, lang, md, f.clock)
	return AudienceOf(&web.Member{ParticipantID: id, LanguageCode: lang, Metadata: md}, lang)
}

// definition is a valid one-question campaign; edits adjust it.
func definition(name string, edits ...func(*Definition)) *Definition {
	d := &Definition{
		UUID: uuid.NewString(), Type: TypeSurvey, DefaultLanguage: "en", Name: Text{"en": name}, Reward: "1.00", EstimatedMinutes: 5,
		Questions: []Question{{ID: "q1", ControlType: ControlRadio, Text: Text{"en": "Pick one"}, Answers: []Option{{ID: "yes", Text: Text{"en": "Yes"}}, {ID: "no", Text: Text{"en": "No"}}}}},
	}
	for _, e := range edits {
		e(d)
	}
	return d
}

// campaigns imports definitions into a panel and returns their uuids in order.
func (f *fixture) campaigns(panel *web.Panel, defs ...*Definition) []string {
	_, err := f.m.Import(f.ctx, panel, defs)
	require.NoError(f.t, err)
	ids := make([]string, len(defs))
	for i, d := range defs {
		ids[i] = d.UUID
	}
	return ids
}

// numbered makes n campaigns with descending priority, so the feed lists them in order.
func numbered(n int) []*Definition {
	out := make([]*Definition, n)
	for i := range out {
		out[i] = definition(fmt.Sprintf("Campaign %02d", i+1), func(d *Definition) { d.Priority = n - i })
	}
	return out
}

// setStatus puts a member's participation in a status, as the survey engine will.
func (f *fixture) setStatus(who Audience, panel *web.Panel, campaignID, status string) {
	require.NoError(f.t, touchParticipation(f.ctx, f.db, panel.ID, campaignID, who.ParticipantID, f.clock, map[string]any{"status": status}, ""))
}

func guids(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.GUID
	}
	return out
}

// payCompletion is app/server.go's payCompletion: the completion credit through the ledger,
// in the engine's transaction, once per member and campaign.
func payCompletion(w *wallet.Module) Payer {
	return func(tx *gorm.DB, p Payment) error {
		_, _, err := w.CreditTx(tx, wallet.Movement{
			Panel: p.Panel, ParticipantID: p.ParticipantID, Amount: p.RewardMinor, Currency: p.Currency,
			Origin: wallet.OriginCampaign, Key: wallet.CampaignKey(p.CampaignID), CampaignID: p.CampaignID,
			Competition: p.Competition, Title: p.Title,
		})
		return err
	}
}

var (
	testLocalesOnce sync.Once
	testLocales     *web.Locales
	testLocalesErr  error
)

// testKit is a kit with the real message files (read once) and a silent log: what the
// accounts module needs to be built.
func testKit(t *testing.T) *web.Kit {
	t.Helper()
	testLocalesOnce.Do(func() { testLocales, testLocalesErr = web.NewLocales(locales.FS, nil) })
	require.NoError(t, testLocalesErr)
	return web.NewKit("development", strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), testLocales, nil)
}

// welcomeCalls returns the participants WelcomeDone was called for.
func (f *fixture) welcomeCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.welcomed...)
}

// refreshed describes the member again from their stored profile (after WelcomeDone).
func (f *fixture) refreshed(who Audience) Audience {
	md := f.metadata(who)
	return AudienceOf(&web.Member{ParticipantID: who.ParticipantID, LanguageCode: who.Language, Metadata: md}, who.Language)
}

// metadata is the member's stored profile metadata.
func (f *fixture) metadata(who Audience) accounts.Metadata {
	p, err := accounts.NewStore(f.db).Participant(f.ctx, who.ParticipantID)
	require.NoError(f.t, err)
	return p.Metadata
}

// start is the member's campaign go, which must succeed.
func (f *fixture) start(panel *web.Panel, who Audience, id string) *GoResult {
	f.t.Helper()
	r, err := f.m.Go(f.ctx, panel, who, id)
	require.NoError(f.t, err)
	return r
}

// answer posts {"answer": VALUE} (VALUE as JSON text) to a question.
func (f *fixture) answer(panel *web.Panel, who Audience, id, questionID, value string) (*GoResult, error) {
	return f.m.Answer(f.ctx, panel, who, id, questionID, []byte(`{"answer":`+value+`}`))
}

// mustAnswer is answer, which must succeed.
func (f *fixture) mustAnswer(panel *web.Panel, who Audience, id, questionID, value string) *GoResult {
	f.t.Helper()
	r, err := f.answer(panel, who, id, questionID, value)
	require.NoError(f.t, err, "answer %s = %s", questionID, value)
	return r
}

// balance is the member's wallet balance in minor units.
func (f *fixture) balance(panel *web.Panel, who Audience) int64 {
	f.t.Helper()
	b, err := f.wallet.Balance(f.ctx, panel, who.ParticipantID)
	require.NoError(f.t, err)
	return b.Minor
}

// ledger lists the member's ledger entries in order.
func (f *fixture) ledger(who Audience) []wallet.Entry {
	f.t.Helper()
	var out []wallet.Entry
	require.NoError(f.t, f.db.Where("participant_id = ?", who.ParticipantID).Order("seq").Find(&out).Error)
	return out
}

// participation is the member's participation in a campaign (zero if none).
func (f *fixture) participation(who Audience, campaignID string) Participation {
	f.t.Helper()
	var p Participation
	require.NoError(f.t, f.db.Where("participant_id = ? AND campaign_id = ?", who.ParticipantID, campaignID).Limit(1).Find(&p).Error)
	return p
}

// storedAnswers lists the member's stored answers in a campaign, question id to VALUE as JSON.
func (f *fixture) storedAnswers(who Audience, campaignID string) map[string]string {
	f.t.Helper()
	var rows []Answer
	require.NoError(f.t, f.db.Where("participation_id = ?", f.participation(who, campaignID).ID).Find(&rows).Error)
	out := map[string]string{}
	for _, r := range rows {
		out[r.QuestionID] = r.Value
	}
	return out
}

// quotaCompletes is how many completes a quota counted.
func (f *fixture) quotaCompletes(campaignID, quotaID string) int {
	f.t.Helper()
	var q CampaignQuota
	require.NoError(f.t, f.db.Where("campaign_id = ? AND quota_id = ?", campaignID, quotaID).Take(&q).Error)
	return q.Completes
}
