package main

import (
	"context"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/results"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoTableCounts counts the rows LoadDemoResults writes.
func demoTableCounts(t *testing.T, e *env) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, table := range []string{"account_holders", "participants", "participations", "answers"} {
		var n int64
		require.NoError(t, e.db.Table(table).Count(&n).Error)
		out[table] = n
	}
	return out
}

func TestDemoResultsGiveEveryQuestionOfEverySeededCampaignAnswersAndLoadOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		demo, err := e.app.Tenancy.PanelByKey(ctx, "demo")
		require.NoError(t, err)
		member, err := e.app.Accounts.Service().ParticipantByEmail(ctx, demo, DemoEmail)
		require.NoError(t, err)
		var memberRuns int64
		require.NoError(t, e.db.Table("participations").Where("participant_id = ?", member).Count(&memberRuns).Error)
		before := demoTableCounts(t, e)

		began := time.Now()
		require.NoError(t, LoadDemoResults(ctx, e.app))
		t.Logf("LoadDemoResults took %s", time.Since(began).Round(time.Millisecond))
		after := demoTableCounts(t, e)
		for table, n := range after {
			t.Logf("%s: %d rows added", table, n-before[table])
		}
		assert.Equal(t, int64(300+150), after["account_holders"]-before["account_holders"], "the synthetic respondents")

		var onboarding int
		outcomes := map[string]int{}
		for _, key := range []string{"demo", "northwind"} {
			panel, err := e.app.Tenancy.PanelByKey(ctx, key)
			require.NoError(t, err)
			files, err := demoCampaignFiles(key)
			require.NoError(t, err)
			for _, f := range files {
				def, err := campaigns.ParseFile(f.Name, f.Data)
				require.NoError(t, err)
				if def.Onboarding {
					onboarding++
					continue // not seeded: LoadDemoResults says why
				}
				c, err := e.app.Campaigns.Campaign(ctx, panel, def.UUID)
				require.NoError(t, err)
				for _, filter := range []results.Filter{{Outcome: campaigns.StatusCompleted}, {Outcome: results.OutcomeAll}} {
					rf, err := filter.Check(panel, c)
					require.NoError(t, err)
					sum, err := results.Summarize(ctx, e.app.Surveys, c, filter, rf, c.DefaultLanguage, "", "")
					require.NoError(t, err)
					assert.Positive(t, sum.Responses, "%s %s: responses (%s)", key, f.Name, filter.Outcome)
					assert.NotEmpty(t, sum.PerDay, "%s %s: runs per day", key, f.Name)
					assert.NotNil(t, sum.MedianMinutes, "%s %s: median minutes", key, f.Name)
					for _, q := range sum.Questions {
						assert.Positive(t, q.Answered, "%s %s: question %s (%s) has answers among %s runs", key, f.Name, q.ID, q.Control, filter.Outcome)
					}
					if filter.Outcome == results.OutcomeAll {
						for o, n := range sum.Outcomes {
							outcomes[o] += n
						}
					}
				}
			}
		}
		assert.Equal(t, 2, onboarding, "Northwind's onboarding campaigns are left out")
		total := 0
		for _, n := range outcomes {
			total += n
		}
		for _, o := range surveys.ResultOutcomes {
			assert.Positive(t, outcomes[o], "some run ended %s", o)
		}
		assert.InDelta(t, 0.75, float64(outcomes[campaigns.StatusCompleted])/float64(total), 0.1, "most runs completed: %v", outcomes)

		var nowRuns int64
		require.NoError(t, e.db.Table("participations").Where("participant_id = ?", member).Count(&nowRuns).Error)
		assert.Equal(t, memberRuns, nowRuns, "the demo member is none of the respondents")
		pid, err := e.app.Accounts.Service().ParticipantByEmail(ctx, demo, accounts.SyntheticEmail(1))
		require.NoError(t, err)
		assert.NotEqual(t, member, pid)

		require.NoError(t, LoadDemoResults(ctx, e.app))
		assert.Equal(t, after, demoTableCounts(t, e), "a second load adds nothing")
	})
}
