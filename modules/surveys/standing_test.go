package surveys

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParticipationsListWhatTheMemberStartedOrFinishedNewestFirst(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		defs := numbered(4)
		defs[3].Questions[0].Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}
		ids := f.campaigns(f.acme, defs...)
		who := f.member(f.acme, "en", true, nil)
		require.NoError(t, f.m.MarkSeen(f.ctx, f.acme, who.ID, ids[0]))
		f.start(f.acme, who, ids[1])
		f.mustAnswer(f.acme, who, ids[1], "q1", `"yes"`)
		f.clock = f.clock.Add(time.Minute)
		f.start(f.acme, who, ids[2])
		f.clock = f.clock.Add(time.Minute)
		f.start(f.acme, who, ids[3])
		f.mustAnswer(f.acme, who, ids[3], "q1", `"no"`)

		rows, total, err := f.m.Participations(f.ctx, who.ID, 1, 2)
		require.NoError(t, err)
		assert.EqualValues(t, 3, total, "a campaign only seen is no participation")
		require.Len(t, rows, 2)
		assert.Equal(t, ids[3], rows[0].CampaignID)
		assert.Equal(t, campaigns.StatusScreened, rows[0].Status)
		assert.Equal(t, ids[2], rows[1].CampaignID)
		assert.Equal(t, campaigns.StatusStarted, rows[1].Status)
		rows, _, err = f.m.Participations(f.ctx, who.ID, 2, 2)
		require.NoError(t, err)
		require.Len(t, rows, 1)
		assert.Equal(t, ids[1], rows[0].CampaignID)
		assert.Equal(t, campaigns.StatusCompleted, rows[0].Status)

		_, _, err = f.m.Participations(f.ctx, who.ID, 0, 2)
		assert.Error(t, err)
		_, _, err = f.m.Participations(f.ctx, who.ID, 1, maxParticipationsPage+1)
		assert.Error(t, err)
	})
}

func TestTheStandingOtherModulesReadFollowsTheMembersRuns(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := f.campaigns(f.acme, numbered(2)...)
		who := f.member(f.acme, "en", true, nil)
		done, err := f.m.Completed(f.ctx, f.acme, who.ID, ids[0])
		require.NoError(t, err)
		assert.False(t, done, "not taken: not completed")

		f.start(f.acme, who, ids[0])
		f.mustAnswer(f.acme, who, ids[0], "q1", `"yes"`)
		done, err = f.m.Completed(f.ctx, f.acme, who.ID, ids[0])
		require.NoError(t, err)
		assert.True(t, done)
		done, err = f.m.Completed(f.ctx, f.globex, who.ID, ids[0])
		require.NoError(t, err)
		assert.False(t, done, "asked about another panel, nothing is completed")

		require.NoError(t, f.m.Hide(f.ctx, f.acme, who.ID, ids[1]))
		require.NoError(t, f.m.Hide(f.ctx, f.acme, who.ID, ids[1]), "hiding twice is fine")
		p := f.participation(who, ids[1])
		require.NotNil(t, p.HiddenAt)
		assert.Equal(t, campaigns.StatusNew, p.Status, "hiding is not taking part")

		visible, err := f.catalogue.Audience.Visible(f.ctx, f.acme, who.Person(), campaigns.ListQuery{}, 10, 0)
		require.NoError(t, err)
		assert.Empty(t, visible, "the audience rule reads the standing: one campaign completed, the other hidden")
	})
}
