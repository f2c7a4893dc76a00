package campaigns_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// The audience rule's lists read the panel's live campaigns (a per-process copy) with the
// person's standing and let CanSee decide; a list must agree with CanSee exactly. Campaigns in every state a list cares about, and a person's
// standing in them made by the real survey engine, are listed; the list must be exactly
// the campaigns CanSee lets the person see, in feed order.
func TestAListHoldsExactlyTheCampaignsCanSeeLetsThePersonSee(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		now := func() time.Time { return clock }
		catalogue := campaigns.New(campaigns.Deps{DB: db, Standing: surveys.Standing{}, Now: now})
		engine := surveys.New(surveys.Deps{DB: db, Catalogue: catalogue, Audience: catalogue.Audience})
		panel := seed.Panel(t, db, "acme", "USD", "en", "es")
		md := accounts.Metadata{"welcomeCampaignCompleted": true, "country": "US"}
		who := campaigns.PersonOf(&web.Member{ParticipantID: seed.Member(t, db, panel, "en", md, clock), LanguageCode: "en", Metadata: md}, "en")

		past, future := clock.Add(-time.Hour), clock.Add(time.Hour)
		country := func(c string) []campaigns.Condition {
			return []campaigns.Condition{{Field: "metadata.country", Op: campaigns.OpEq, Value: c}}
		}
		states := []struct {
			name  string
			edit  func(d *campaigns.Definition)
			after func(id string) // the person's standing, through the engine
		}{
			{name: "open"},
			{name: "closed", edit: func(d *campaigns.Definition) { d.ClosesAt = &past }},
			{name: "not open yet", edit: func(d *campaigns.Definition) { d.OpensAt = &future }},
			{name: "for Spanish speakers", edit: func(d *campaigns.Definition) { d.Targeting.Languages = []string{"es"} }},
			{name: "for English speakers", edit: func(d *campaigns.Definition) { d.Targeting.Languages = []string{"en"} }},
			{name: "for Britons", edit: func(d *campaigns.Definition) { d.Targeting.Profile = country("GB") }},
			{name: "for Americans", edit: func(d *campaigns.Definition) { d.Targeting.Profile = country("US") }},
			{name: "full", edit: func(d *campaigns.Definition) { d.Quotas = []campaigns.Quota{{ID: "all", Limit: 1}} },
				after: func(id string) { fill(t, db, catalogue, id, nil) }},
			{name: "full for Americans", edit: func(d *campaigns.Definition) { d.Quotas = []campaigns.Quota{{ID: "us", Limit: 1, When: country("US")}} },
				after: func(id string) { fill(t, db, catalogue, id, map[string]any{"metadata.country": "US"}) }},
			{name: "full for Britons", edit: func(d *campaigns.Definition) { d.Quotas = []campaigns.Quota{{ID: "gb", Limit: 1, When: country("GB")}} },
				after: func(id string) { fill(t, db, catalogue, id, map[string]any{"metadata.country": "GB"}) }},
			{name: "hidden", after: func(id string) { require.NoError(t, engine.Hide(ctx, panel, who.ID, id)) }},
			{name: "seen", after: func(id string) { require.NoError(t, engine.MarkSeen(ctx, panel, who.ID, id)) }},
			{name: "started", after: func(id string) { run(t, engine, panel, who, id, "") }},
			{name: "completed", after: func(id string) { run(t, engine, panel, who, id, `"yes"`) }},
			{name: "screened out", after: func(id string) { run(t, engine, panel, who, id, `"no"`) }},
		}
		var ids []string
		for i, s := range states {
			d := &campaigns.Definition{
				UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": s.name},
				Reward: "1.00", EstimatedMinutes: 1, Priority: len(states) - i,
				Questions: []campaigns.Question{{ID: "q1", ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": "Pick one"},
					Answers: []campaigns.Option{{ID: "yes"}, {ID: "no"}},
					Routes:  []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}}},
			}
			if s.edit != nil {
				s.edit(d)
			}
			_, err := catalogue.Import(ctx, panel, []*campaigns.Definition{d})
			require.NoError(t, err, s.name)
			if s.after != nil {
				s.after(d.UUID)
			}
			ids = append(ids, d.UUID)
		}

		var want, listed []string
		seeable := map[string]string{}
		for i, id := range ids {
			taking, err := catalogue.Audience.CanTake(ctx, panel, who, id)
			require.NoError(t, err, states[i].name)
			seeable[states[i].name] = catalogue.Audience.CanSee(taking.Listing, who)
			if seeable[states[i].name] == "" {
				want = append(want, id)
			}
		}
		rows, err := catalogue.Audience.Visible(ctx, panel, who, campaigns.ListQuery{}, len(ids), 0)
		require.NoError(t, err)
		for _, r := range rows {
			listed = append(listed, r.ID)
		}
		assert.Equal(t, want, listed, "CanSee said: %v", seeable)
		assert.Equal(t, map[string]string{
			"open": "", "closed": campaigns.StatusExpired, "not open yet": campaigns.StatusUnavailable,
			"for Spanish speakers": campaigns.StatusUnavailable, "for English speakers": "", "for Britons": campaigns.StatusUnavailable,
			"for Americans": "", "full": campaigns.StatusQuotaFull, "full for Americans": campaigns.StatusQuotaFull, "full for Britons": "",
			"hidden": campaigns.ReasonHidden, "seen": "", "started": "", "completed": campaigns.StatusCompleted, "screened out": campaigns.StatusScreened,
		}, seeable, "every state lists, or does not, for its own reason")

		// Narrowed lists keep to the rule too.
		only := func(q campaigns.ListQuery) []string {
			rows, err := catalogue.Audience.Visible(ctx, panel, who, q, len(ids), 0)
			require.NoError(t, err)
			var out []string
			for _, r := range rows {
				out = append(out, states[slices.Index(ids, r.ID)].name)
			}
			return out
		}
		assert.Equal(t, []string{"started"}, only(campaigns.ListQuery{Started: true}))
		assert.Equal(t, []string{"open", "for English speakers", "for Americans", "full for Britons"}, only(campaigns.ListQuery{Unseen: true}),
			"seen and started campaigns are not new")
		assert.Equal(t, []string{"for Americans", "full for Britons", "seen", "started"}, only(campaigns.ListQuery{Skip: ids[:5]}))
		welcome, err := catalogue.Audience.WelcomeDue(ctx, panel, who)
		require.NoError(t, err)
		assert.Empty(t, welcome, "the panel has no welcome campaign")
	})
}

// fill counts one complete of a person of the profile towards the campaign's quotas, as the
// survey engine counts it.
func fill(t *testing.T, db *gorm.DB, catalogue *campaigns.Module, id string, profile map[string]any) {
	require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
		_, _, err := catalogue.CountComplete(tx, id, profile, nil)
		return err
	}))
}

// run starts the person's run of a campaign and, with an answer, answers its question.
func run(t *testing.T, engine *surveys.Module, panel *web.Panel, who campaigns.Person, id, answer string) {
	ctx := context.Background()
	_, err := engine.Go(ctx, panel, surveys.Member(who), id)
	require.NoError(t, err)
	if answer != "" {
		_, err = engine.Answer(ctx, panel, surveys.Member(who), id, "q1", []byte(`{"answer":`+answer+`}`))
		require.NoError(t, err)
	}
}

// Each process keeps a panel's live campaign list for campaigns.ListTTL. Two catalogues on one
// database stand for two processes: the one that imports lists the change at once, the other
// once its copy is ListTTL old.
func TestACampaignListShowsThisProcesssChangesAtOnceAndAnothersWithinTheListTTL(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		now := func() time.Time { return clock }
		one := campaigns.New(campaigns.Deps{DB: db, Standing: surveys.Standing{}, Now: now})
		two := campaigns.New(campaigns.Deps{DB: db, Standing: surveys.Standing{}, Now: now})
		panel := seed.Panel(t, db, "acme", "USD", "en")
		md := accounts.Metadata{"welcomeCampaignCompleted": true}
		who := campaigns.PersonOf(&web.Member{ParticipantID: seed.Member(t, db, panel, "en", md, clock), LanguageCode: "en", Metadata: md}, "en")
		names := func(m *campaigns.Module) []string {
			rows, err := m.Audience.Visible(ctx, panel, who, campaigns.ListQuery{}, 10, 0)
			require.NoError(t, err)
			var out []string
			for _, r := range rows {
				out = append(out, r.Names.In("en", "en"))
			}
			return out
		}
		def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "First name"},
			Reward: "1.00", EstimatedMinutes: 1, Questions: []campaigns.Question{{ID: "q1", ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Why?"}}}}
		_, err := one.Import(ctx, panel, []*campaigns.Definition{def})
		require.NoError(t, err)
		assert.Equal(t, []string{"First name"}, names(one))
		assert.Equal(t, []string{"First name"}, names(two), "both processes hold the list now")

		def.Name = campaigns.Text{"en": "Second name"}
		_, err = one.Import(ctx, panel, []*campaigns.Definition{def})
		require.NoError(t, err)
		assert.Equal(t, []string{"Second name"}, names(one), "the importing process lists the change at once")
		assert.Equal(t, []string{"First name"}, names(two), "the other keeps its copy until ListTTL")
		clock = clock.Add(campaigns.ListTTL)
		assert.Equal(t, []string{"Second name"}, names(two), "and lists the change once its copy is ListTTL old")
	})
}
