package feed

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/campaignseed"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels (acme in USD, globex in GBP), the catalogue, the
// survey engine and the feed over it, wired as the app wires them, and a clock the test moves.
type fixture struct {
	t         *testing.T
	ctx       context.Context
	db        *gorm.DB
	m         *Module
	catalogue *campaigns.Module
	surveys   *surveys.Module
	acme      *web.Panel
	globex    *web.Panel
	clock     time.Time
}

// eachFixture runs fn on SQLite and, when configured, PostgreSQL.
func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, clock: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
		now := func() time.Time { return f.clock }
		f.catalogue = campaigns.New(campaigns.Deps{DB: db, Standing: surveys.Standing{}, Now: now})
		f.surveys = surveys.New(surveys.Deps{DB: db, Catalogue: f.catalogue, Audience: f.catalogue.Audience})
		f.m = New(Deps{DB: db, Audience: f.catalogue.Audience, Catalogue: f.catalogue, Marks: f.surveys})
		f.m.now = now
		f.surveys.SetFeed(f.m)
		f.acme = seed.Panel(t, db, "acme", "USD", "en", "es")
		f.globex = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

// member creates a participant of a panel and describes them in lang. By default their
// welcome campaign is done; pass welcomeDone=false for a newcomer.
func (f *fixture) member(panel *web.Panel, lang string, welcomeDone bool, metadata map[string]any) campaigns.Person {
	md := accounts.Metadata{"welcomeCampaignCompleted": welcomeDone}
	for k, v := range metadata {
		md[k] = v
	}
	id := seed.Member(f.t, f.db, panel, lang, md, f.clock)
	return campaigns.PersonOf(&web.Member{ParticipantID: id, LanguageCode: lang, Metadata: md}, lang)
}

// screenOutOnNo routes q1's no to screen_out: answering yes completes a campaignseed.Definition,
// no screens the member out.
func screenOutOnNo(d *campaigns.Definition) {
	d.Questions[0].Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}
}

// definition is a campaignseed.Definition that screenOutOnNo routes; edits adjust it.
func definition(name string, edits ...func(*campaigns.Definition)) *campaigns.Definition {
	return campaignseed.Definition(name, append([]func(*campaigns.Definition){screenOutOnNo}, edits...)...)
}

// numbered makes n campaigns with descending priority, so the feed lists them in order.
func numbered(n int) []*campaigns.Definition { return campaignseed.Numbered(n, screenOutOnNo) }

// campaigns imports definitions into a panel and returns their uuids in order.
func (f *fixture) campaigns(panel *web.Panel, defs ...*campaigns.Definition) []string {
	return campaignseed.Import(f.t, f.catalogue, panel, defs...)
}

// take puts the member's run of a campaign made by definition in a status, through the
// survey engine: started (go), completed (answered yes) or screened (answered no).
func (f *fixture) take(who campaigns.Person, panel *web.Panel, campaignID, status string) {
	f.t.Helper()
	_, err := f.surveys.Go(f.ctx, panel, surveys.Member(who), campaignID)
	require.NoError(f.t, err)
	answer := map[string]string{campaigns.StatusCompleted: `"yes"`, campaigns.StatusScreened: `"no"`}
	if status == campaigns.StatusStarted {
		return
	}
	require.Contains(f.t, answer, status, "take runs a campaign to started, completed or screened")
	r, err := f.surveys.Answer(f.ctx, panel, surveys.Member(who), campaignID, "q1", []byte(`{"answer":`+answer[status]+`}`))
	require.NoError(f.t, err)
	require.Equal(f.t, status, r.Status)
}

func guids(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.GUID
	}
	return out
}
