package surveys

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/testsupport/campaignseed"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACampaignsFunnelCountsItsStartsByOutcomeWithTheMedianMinutesToComplete(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := campaignseed.Import(t, f.catalogue, f.acme, definition("Funnel"), definition("Other"))
		other := campaignseed.Import(t, f.catalogue, f.globex, definition("Globex"))[0]
		// status, minutes from start to finish (-1: never started, 0: not finished)
		people := []struct {
			status  string
			minutes int
		}{
			{campaigns.StatusCompleted, 4}, {campaigns.StatusCompleted, 6}, {campaigns.StatusCompleted, 11},
			{campaigns.StatusCompleted, 7}, {campaigns.StatusScreened, 1}, {campaigns.StatusDisqualified, 2},
			{campaigns.StatusQuotaFull, 3}, {campaigns.StatusStarted, 0}, {campaigns.StatusSkipped, 1},
			{campaigns.StatusNew, -1},
		}
		add := func(panelID, campaignID, participantID, status string, minutes int) {
			p := Participation{ID: uuid.NewString(), PanelID: panelID, CampaignID: campaignID, ParticipantID: participantID, Status: status,
				CreatedAt: f.clock, UpdatedAt: f.clock}
			if minutes >= 0 {
				start := f.clock
				p.StartedAt = &start
			}
			if minutes > 0 {
				end := f.clock.Add(time.Duration(minutes) * time.Minute)
				p.FinishedAt = &end
			}
			require.NoError(t, f.db.Create(&p).Error)
		}
		for _, p := range people {
			add(f.acme.ID, ids[0], f.member(f.acme, "en", true, nil).ID, p.status, p.minutes)
		}
		add(f.acme.ID, ids[1], f.member(f.acme, "en", true, nil).ID, campaigns.StatusCompleted, 2)
		add(f.globex.ID, other, f.member(f.globex, "en", true, nil).ID, campaigns.StatusCompleted, 2)

		funnel, err := f.m.CampaignFunnel(f.ctx, f.acme.ID, ids[0])
		require.NoError(t, err)
		median := 6.5
		assert.Equal(t, Funnel{Started: 9, InProgress: 1, Completed: 4, Screened: 1, Disqualified: 1, QuotaFull: 1, Other: 1, MedianMinutes: &median}, funnel)

		empty, err := f.m.CampaignFunnel(f.ctx, f.globex.ID, ids[0])
		require.NoError(t, err)
		assert.Equal(t, Funnel{}, empty, "another panel's campaign counts nothing")

		completes, err := f.m.CompletesByCampaign(f.ctx, f.acme.ID)
		require.NoError(t, err)
		assert.Equal(t, map[string]int{ids[0]: 4, ids[1]: 1}, completes)
	})
}

func TestTheMedianOfAnOddAndAnEvenCount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   []float64
		want *float64
	}{
		{nil, nil},
		{[]float64{3, 1, 2}, ptr(2.0)},
		{[]float64{1, 2, 3, 10}, ptr(2.5)},
		{[]float64{1.04, 1.06}, ptr(1.1)},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, median(tc.in), "%v", tc.in)
	}
}

func ptr[T any](v T) *T { return &v }
