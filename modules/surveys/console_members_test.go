package surveys

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheConsoleListsAMembersCampaignRunsOfTheirPanelMostRecentFirst(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := f.campaigns(f.acme, numbered(2)...)
		who := f.member(f.acme, "en", true, nil)
		other := f.member(f.acme, "en", true, nil)

		f.start(f.acme, who, ids[0])
		f.mustAnswer(f.acme, who, ids[0], "q1", `"yes"`)
		f.clock = f.clock.Add(time.Hour)
		f.start(f.acme, who, ids[1])
		f.start(f.acme, other, ids[0])

		runs, err := f.m.MemberParticipations(f.ctx, f.acme.ID, who.ID, 0)
		require.NoError(t, err)
		require.Len(t, runs, 2, "only this member's runs")
		assert.Equal(t, ids[1], runs[0].CampaignID, "the most recently changed first")
		assert.Equal(t, campaigns.StatusStarted, runs[0].Status)
		require.NotNil(t, runs[0].StartedAt)
		assert.Nil(t, runs[0].FinishedAt)
		assert.Equal(t, ids[0], runs[1].CampaignID)
		assert.Equal(t, campaigns.StatusCompleted, runs[1].Status)
		require.NotNil(t, runs[1].FinishedAt)
		require.NotNil(t, runs[1].SeenAt)

		runs, err = f.m.MemberParticipations(f.ctx, f.acme.ID, who.ID, 1)
		require.NoError(t, err)
		assert.Len(t, runs, 1, "at most the limit")
		runs, err = f.m.MemberParticipations(f.ctx, f.globex.ID, who.ID, 0)
		require.NoError(t, err)
		assert.Empty(t, runs, "nothing through another panel")
	})
}
