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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Members"))[0]
		v := visitor{Language: "en", Fields: map[string]any{"metadata.welcomeCampaignCompleted": true}}
		_, err := f.m.Go(f.ctx, f.acme, v, id)
		requireRefused(t, err, 401, "")
		_, err = f.m.Answer(f.ctx, f.acme, v, id, "q1", []byte(`{"answer":"yes"}`))
		requireRefused(t, err, 401, "")
	})
}

func TestAKeptWalkResumesWhereItsAnswersLeadAndAStepReplacesAnEarlierAnswer(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("About you", threeQuestions(), func(d *campaigns.Definition) {
			d.Questions[0].Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenSkipTo, Target: "q3"}}
		}))[0]
		v := visitor{Language: "en", Fields: map[string]any{"languageCode": "en"}}
		raw := func(s string) json.RawMessage { return json.RawMessage(s) }

		start, err := f.m.Resume(f.ctx, f.acme, v, id, nil)
		require.NoError(t, err)
		assert.Equal(t, "q1", start.Question.ID, "nothing kept: the first question")

		cases := []struct {
			name    string
			kept    map[string]json.RawMessage
			current string
			status  string
		}{
			{"kept answers lead on", map[string]json.RawMessage{"q1": raw(`"yes"`), "q2": raw(`3`)}, "q3", campaigns.StatusStarted},
			{"an answer the routing skips is ignored", map[string]json.RawMessage{"q1": raw(`"no"`), "q2": raw(`3`)}, "q3", campaigns.StatusStarted},
			{"an answer that no longer validates is asked again", map[string]json.RawMessage{"q1": raw(`"maybe"`)}, "q1", campaigns.StatusStarted},
			{"every answer kept: the outcome", map[string]json.RawMessage{"q1": raw(`"no"`), "q3": raw(`"hi"`)}, "", campaigns.StatusCompleted},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				r, err := f.m.Resume(f.ctx, f.acme, v, id, tc.kept)
				require.NoError(t, err)
				assert.Equal(t, tc.status, r.Status)
				if tc.current == "" {
					assert.Nil(t, r.Question)
				} else {
					require.NotNil(t, r.Question)
					assert.Equal(t, tc.current, r.Question.ID)
				}
			})
		}

		kept := map[string]json.RawMessage{"q1": raw(`"yes"`), "q2": raw(`3`)}
		r, keep, err := f.m.Step(f.ctx, f.acme, v, id, "q1", raw(`"no"`), kept)
		require.NoError(t, err)
		assert.Equal(t, "q3", r.Question.ID, "the new answer routes past q2")
		assert.Equal(t, map[string]json.RawMessage{"q1": raw(`"no"`)}, keep, "q2 is off the route now, so it is not kept")

		_, _, err = f.m.Step(f.ctx, f.acme, v, id, "q2", raw(`3`), keep)
		requireRefused(t, err, 409, "not_current_question")
		_, _, err = f.m.Step(f.ctx, f.acme, v, id, "q3", raw(`""`), keep)
		requireRefused(t, err, 400, "")

		done, keep, err := f.m.Step(f.ctx, f.acme, v, id, "q3", raw(`"hello"`), keep)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusCompleted, done.Status)
		_, _, err = f.m.Step(f.ctx, f.acme, v, id, "q1", raw(`"yes"`), keep)
		requireFinished(t, err, campaigns.StatusCompleted)

		var participations int64
		require.NoError(t, f.db.Model(&Participation{}).Count(&participations).Error)
		assert.Zero(t, participations, "a kept walk stores nothing here: its keeper does")
	})
}

func TestAdoptingAWalkRecordsItAsTheMembersRunAndPaysOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, survey("About you", threeQuestions(), func(d *campaigns.Definition) { d.Reward = "1.25" }))[0]
		who := f.member(f.acme, "en", true, nil)
		answers := map[string]json.RawMessage{"q1": json.RawMessage(`"yes"`), "q2": json.RawMessage(`7`), "q3": json.RawMessage(`"from onboarding"`)}

		status, err := f.m.Adopt(f.ctx, f.acme, who, id, answers)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusCompleted, status)
		assert.Equal(t, map[string]string{"q1": `"yes"`, "q2": `7`, "q3": `"from onboarding"`}, f.storedAnswers(who, id))
		assert.Equal(t, int64(125), f.balance(f.acme, who))

		again, err := f.m.Adopt(f.ctx, f.acme, who, id, answers)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusCompleted, again, "adopting again changes nothing")
		assert.Equal(t, int64(125), f.balance(f.acme, who), "paid once")

		other := f.member(f.acme, "en", true, nil)
		partial, err := f.m.Adopt(f.ctx, f.acme, other, id, map[string]json.RawMessage{"q1": json.RawMessage(`"yes"`)})
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusStarted, partial, "a walk that stopped leaves the run waiting at its question")
	})
}
