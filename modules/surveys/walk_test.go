package surveys

import (
	"encoding/json"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// visitor is a respondent who is not a member: onboarding's, once it lands.
type visitor campaigns.Person

func (v visitor) Person() campaigns.Person { return campaigns.Person(v) }

func TestAVisitorWalksACampaignWithNothingStoredAndNothingPaid(t *testing.T) {
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("About you", threeQuestions(), func(d *campaigns.Definition) {
			d.Quotas = []campaigns.Quota{{ID: "all", Limit: 5}}
			d.Questions[0].Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenSkipTo, Target: "q3"}}
		}))[0]
		v := visitor{Language: "en", Fields: map[string]any{"languageCode": "en", "metadata.welcomeCampaignCompleted": true}}

		first, err := f.m.Walk(f.ctx, f.acme, v, id, "", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusStarted, first.Status)
		require.NotNil(t, first.Question)
		assert.Equal(t, "q1", first.Question.ID)

		next, err := f.m.Walk(f.ctx, f.acme, v, id, "q1", json.RawMessage(`"no"`), nil)
		require.NoError(t, err)
		require.NotNil(t, next.Question)
		assert.Equal(t, "q3", next.Question.ID, "the walk routes like a kept run")

		_, err = f.m.Walk(f.ctx, f.acme, v, id, "q3", json.RawMessage(`""`), map[string]json.RawMessage{"q1": json.RawMessage(`"no"`)})
		requireRefused(t, err, 400, "")

		done, err := f.m.Walk(f.ctx, f.acme, v, id, "q3", json.RawMessage(`"hello"`), map[string]json.RawMessage{"q1": json.RawMessage(`"no"`)})
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusCompleted, done.Status)
		assert.Equal(t, 2, done.Answered)

		var participations, entries int64
		require.NoError(t, f.db.Model(&Participation{}).Count(&participations).Error)
		require.NoError(t, f.db.Model(&wallet.Entry{}).Count(&entries).Error)
		assert.Zero(t, participations, "a walk keeps no participation")
		assert.Zero(t, entries, "a walk pays nothing")
		assert.Zero(t, f.quotaCompletes(id, "all"), "a walk counts towards no quota")
	})
}

func TestAVisitorWalksOnlyWhatTheAudienceRuleLetsThemTake(t *testing.T) {
	eachFixture(t, func(t *testing.T, f *fixture) {
		britons := f.campaigns(f.acme, definition("For Britons", func(d *campaigns.Definition) {
			d.Targeting.Profile = []campaigns.Condition{{Field: "metadata.country", Op: campaigns.OpEq, Value: "GB"}}
		}))[0]
		adults := f.campaigns(f.acme, definition("Adults only", func(d *campaigns.Definition) { d.MinAge = 18 }))[0]
		v := visitor{Language: "en", Fields: map[string]any{"languageCode": "en", "metadata.welcomeCampaignCompleted": true, "metadata.country": "US"}}

		r, err := f.m.Walk(f.ctx, f.acme, v, britons, "", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusUnavailable, r.Status)
		assert.Nil(t, r.Question)
		_, err = f.m.Walk(f.ctx, f.acme, v, britons, "q1", json.RawMessage(`"yes"`), nil)
		requireFinished(t, err, campaigns.StatusUnavailable)

		r, err = f.m.Walk(f.ctx, f.acme, v, adults, "", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, ActionDOBBlock, r.Action, "no date of birth: held back")
		assert.Nil(t, r.Question)
		_, err = f.m.Walk(f.ctx, f.acme, v, adults, "q1", json.RawMessage(`"yes"`), nil)
		requireRefused(t, err, 403, ActionDOBBlock)

		_, err = f.m.Walk(f.ctx, f.globex, v, britons, "", nil, nil)
		assert.ErrorIs(t, err, web.ErrNotFound, "another panel's campaign")
	})
}

func TestAKeptRunIsForMembersOnly(t *testing.T) {
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Members"))[0]
		v := visitor{Language: "en", Fields: map[string]any{"metadata.welcomeCampaignCompleted": true}}
		_, err := f.m.Go(f.ctx, f.acme, v, id)
		requireRefused(t, err, 401, "")
		_, err = f.m.Answer(f.ctx, f.acme, v, id, "q1", []byte(`{"answer":"yes"}`))
		requireRefused(t, err, 401, "")
	})
}
