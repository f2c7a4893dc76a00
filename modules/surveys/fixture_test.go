package surveys

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
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/testsupport/campaignseed"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the catalogue and the
// engine over it, and a clock the test moves. The engine pays completions through the real
// wallet (as the app wires it) and marks the welcome campaign done through the real accounts
// service, recording who it marked.
type fixture struct {
	t         *testing.T
	ctx       context.Context
	db        *gorm.DB
	m         *Module
	catalogue *campaigns.Module
	wallet    *wallet.Module
	accounts  *accounts.Module
	acme      *web.Panel
	globex    *web.Panel
	clock     time.Time

	mu       sync.Mutex
	welcomed []string // the participants WelcomeDone was called for, in call order
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		f.wallet = wallet.New(wallet.Deps{DB: db, PanelOf: accounts.PanelOfParticipant})
		f.accounts = accounts.New(accounts.Deps{DB: db, Kit: testKit(t)})
		f.catalogue = campaigns.New(campaigns.Deps{DB: db, Standing: Standing{}, Now: f.now})
		f.m = New(Deps{DB: db, Catalogue: f.catalogue, Audience: f.catalogue.Audience, Pay: ledgerPayer{f.wallet},
			WelcomeDone: func(ctx context.Context, participantID string) error {
				f.mu.Lock()
				f.welcomed = append(f.welcomed, participantID)
				f.mu.Unlock()
				return f.accounts.Service().MarkWelcomeCompleted(ctx, participantID)
			}})
		f.m.now = f.now
		f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
		f.globex = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

func (f *fixture) now() time.Time { return f.clock }

// member creates a participant of a panel and describes them in lang. By default their
// welcome campaign is done; pass welcomeDone=false for a newcomer.
func (f *fixture) member(panel *web.Panel, lang string, welcomeDone bool, metadata map[string]any) Member {
	md := accounts.Metadata{"welcomeCampaignCompleted": welcomeDone}
	for k, v := range metadata {
		md[k] = v
	}
	id := seed.Member(f.t, f.db, panel, lang, md, f.clock)
	return Member(campaigns.PersonOf(&web.Member{ParticipantID: id, LanguageCode: lang, Metadata: md}, lang))
}

// definition is a valid one-question campaign (campaignseed.Definition); edits adjust it.
var definition = campaignseed.Definition

// numbered makes n campaigns with descending priority, so lists show them in order.
func numbered(n int) []*campaigns.Definition { return campaignseed.Numbered(n) }

// campaigns imports definitions into a panel and returns their uuids in order.
func (f *fixture) campaigns(panel *web.Panel, defs ...*campaigns.Definition) []string {
	return campaignseed.Import(f.t, f.catalogue, panel, defs...)
}

// ledgerPayer is app/server.go's completionPayer: the completion credit through the ledger,
// in the engine's transaction, once per member and campaign.
type ledgerPayer struct{ w *wallet.Module }

func (p ledgerPayer) PayCompletion(tx *gorm.DB, pay Payment) error {
	_, _, err := p.w.CreditTx(tx, wallet.Movement{
		Panel: pay.Panel, ParticipantID: pay.ParticipantID, Amount: pay.RewardMinor, Currency: pay.Currency,
		Origin: wallet.OriginCampaign, Key: wallet.CampaignKey(pay.CampaignID), CampaignID: pay.CampaignID,
		Competition: pay.Competition, Title: pay.Title,
	})
	return err
}

// testKit is a kit with the real message files (read once) and a silent log: what the
// accounts module needs to be built.
func testKit(t *testing.T) *web.Kit {
	t.Helper()
	return web.NewKit("development", strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), messages.Locales(t), nil)
}

// welcomeCalls returns the participants WelcomeDone was called for.
func (f *fixture) welcomeCalls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.welcomed...)
}

// refreshed describes the member again from their stored profile (after WelcomeDone).
func (f *fixture) refreshed(who Member) Member {
	md := f.metadata(who)
	return Member(campaigns.PersonOf(&web.Member{ParticipantID: who.ID, LanguageCode: who.Language, Metadata: md}, who.Language))
}

// metadata is the member's stored profile metadata.
func (f *fixture) metadata(who Member) accounts.Metadata {
	p, err := accounts.NewStore(f.db).Participant(f.ctx, who.ID)
	require.NoError(f.t, err)
	return p.Metadata
}

// start is the member's campaign go, which must succeed.
func (f *fixture) start(panel *web.Panel, who Member, id string) *GoResult {
	f.t.Helper()
	r, err := f.m.Go(f.ctx, panel, who, id)
	require.NoError(f.t, err)
	return r
}

// answer posts {"answer": VALUE} (VALUE as JSON text) to a question.
func (f *fixture) answer(panel *web.Panel, who Member, id, questionID, value string) (*GoResult, error) {
	return f.m.Answer(f.ctx, panel, who, id, questionID, []byte(`{"answer":`+value+`}`))
}

// mustAnswer is answer, which must succeed.
func (f *fixture) mustAnswer(panel *web.Panel, who Member, id, questionID, value string) *GoResult {
	f.t.Helper()
	r, err := f.answer(panel, who, id, questionID, value)
	require.NoError(f.t, err, "answer %s = %s", questionID, value)
	return r
}

// balance is the member's wallet balance in minor units.
func (f *fixture) balance(panel *web.Panel, who Member) int64 {
	f.t.Helper()
	b, err := f.wallet.Balance(f.ctx, panel, who.ID)
	require.NoError(f.t, err)
	return b.Minor
}

// ledger lists the member's ledger entries in order.
func (f *fixture) ledger(who Member) []wallet.Entry {
	f.t.Helper()
	var out []wallet.Entry
	require.NoError(f.t, f.db.Where("participant_id = ?", who.ID).Order("seq").Find(&out).Error)
	return out
}

// participation is the member's participation in a campaign (zero if none).
func (f *fixture) participation(who Member, campaignID string) Participation {
	f.t.Helper()
	var p Participation
	require.NoError(f.t, f.db.Where("participant_id = ? AND campaign_id = ?", who.ID, campaignID).Limit(1).Find(&p).Error)
	return p
}

// storedAnswers lists the member's stored answers in a campaign, question id to VALUE as JSON.
func (f *fixture) storedAnswers(who Member, campaignID string) map[string]string {
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
	var q campaigns.CampaignQuota
	require.NoError(f.t, f.db.Where("campaign_id = ? AND quota_id = ?", campaignID, quotaID).Take(&q).Error)
	return q.Completes
}
