package campaigns

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the campaigns
// module over it, and a clock the test moves.
type fixture struct {
	t      *testing.T
	ctx    context.Context
	db     *gorm.DB
	m      *Module
	acme   *web.Panel
	globex *web.Panel
	clock  time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		f.m = New(Deps{DB: db})
		f.m.now = func() time.Time { return f.clock }
		f.acme = f.panel("acme", "USD", "en", "es")
		f.globex = f.panel("globex", "GBP", "en")
		fn(t, f)
	})
}

func (f *fixture) panel(key, currency string, langs ...string) *web.Panel {
	var spec tenancy.PanelSpec
	spec.Instance.Code, spec.Key, spec.Name, spec.CurrencyCode = key, key, "Panel "+key, currency
	spec.Hosts, spec.Languages = []string{key + ".example.com"}, langs
	ts := tenancy.NewStore(f.db)
	_, err := ts.Apply(f.ctx, spec)
	require.NoError(f.t, err)
	p, _, err := tenancy.NewResolver(ts).ByKey(f.ctx, key)
	require.NoError(f.t, err)
	return p
}

// member creates a participant of a panel and describes them in lang. By default their
// welcome campaign is done; pass welcomeDone=false for a newcomer.
func (f *fixture) member(panel *web.Panel, lang string, welcomeDone bool, metadata map[string]any) Audience {
	id := uuid.NewString()
	md := accounts.Metadata{"welcomeCampaignCompleted": welcomeDone}
	for k, v := range metadata {
		md[k] = v
	}
	ah := &accounts.AccountHolder{ID: uuid.NewString(), PanelID: panel.ID, Email: id + "@example.com", EmailNormalized: id + "@example.com", Status: accounts.StatusActive, LanguageCode: lang, CreatedAt: f.clock, UpdatedAt: f.clock}
	p := &accounts.Participant{ID: id, AccountHolderID: ah.ID, PanelID: panel.ID, Metadata: md, CreatedAt: f.clock}
	require.NoError(f.t, accounts.NewStore(f.db).CreateMember(f.ctx, ah, p))
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
