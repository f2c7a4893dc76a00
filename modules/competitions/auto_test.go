package competitions

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// autoCompetition is a competition of the panel with a prize of 10.00 that asks for an
// automatic draw, or not.
func (f *fixture) autoCompetition(panel *web.Panel, winners int, drawAt *time.Time, auto bool) campaigns.CompetitionInfo {
	f.t.Helper()
	c := f.competitionDrawn(panel, 1000, winners, drawAt, auto)
	require.Equal(f.t, auto, c.AutoDraw)
	return c
}

func TestTheAutomaticDrawDrawsDueCompetitionsThatAskForItOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		due := f.clock.Add(time.Hour)
		later := f.clock.Add(48 * time.Hour)
		dueAuto := f.autoCompetition(f.acme, 2, &due, true)
		dueManual := f.autoCompetition(f.acme, 1, &due, false)
		notDue := f.autoCompetition(f.globex, 1, &later, true)
		entrants := f.entered(f.acme, dueAuto, 3)
		f.entered(f.acme, dueManual, 2)
		f.entered(f.globex, notDue, 2)
		f.at(due.Add(time.Minute))

		drawn, err := f.m.DrawDue(f.ctx, f.clock)
		require.NoError(t, err)
		assert.Equal(t, int64(1), drawn, "one competition was due and asked for it")
		again, err := f.m.DrawDue(f.ctx, f.clock)
		require.NoError(t, err)
		assert.Zero(t, again, "a second round draws nothing more")

		for _, tc := range []struct {
			name  string
			c     campaigns.CompetitionInfo
			drawn bool
		}{
			{"a due competition that asks for an automatic draw is drawn", dueAuto, true},
			{"a due competition without the flag waits for an operator", dueManual, false},
			{"a competition whose draw date has not come is not drawn", notDue, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var draws []DrawRecord
				require.NoError(t, f.db.Where("competition_id = ?", tc.c.ID).Find(&draws).Error)
				if !tc.drawn {
					assert.Empty(t, draws)
					return
				}
				require.Len(t, draws, 1, "drawn once")
				assert.Equal(t, AutoDrawOperator, draws[0].Operator)
				assert.Contains(t, draws[0].Reason, "automatic draw")
				assert.False(t, draws[0].Early)
				var prizes int
				for _, pid := range entrants {
					prizes += len(f.keyed(pid, PrizeKey(tc.c.ID)))
				}
				assert.Equal(t, 2, prizes, "each of the two winners is paid once")
				v, err := f.m.Verify(f.ctx, tc.c.ID)
				require.NoError(t, err)
				assert.True(t, v.OK(), "the draw verifies: %v", v.Problems)
			})
		}
	})
}

func TestTwoProcessesRunningTheAutomaticDrawAtOnceDrawOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		due := f.clock.Add(time.Hour)
		c := f.autoCompetition(f.acme, 1, &due, true)
		f.entered(f.acme, c, 4)
		f.at(due)
		counts := make([]int64, 3)
		errs := make([]error, 3)
		race(3, func(i int) { counts[i], errs[i] = f.m.DrawDue(f.ctx, f.clock) })
		var total int64
		for i := range counts {
			assert.NoError(t, errs[i], "a draw another round got first is done, not an error")
			total += counts[i]
		}
		assert.Equal(t, int64(1), total)
		var n int64
		require.NoError(t, f.db.Model(&Winner{}).Where("competition_id = ?", c.ID).Count(&n).Error)
		assert.Equal(t, int64(1), n)
	})
}
