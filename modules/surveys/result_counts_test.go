package surveys

import (
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveFigures are what the live reads give for completes, all or by one answer.
func liveFigures(t *testing.T, f *fixture, all ResultsFilter, by *AnswerMatch, questions []string) CountedResults {
	t.Helper()
	rf := all
	rf.Outcomes = []string{campaigns.StatusCompleted}
	if by != nil {
		rf.Answers = []AnswerMatch{*by}
	}
	outcomes, err := f.m.OutcomeCounts(f.ctx, rf)
	require.NoError(t, err)
	days, err := f.m.StartsPerDay(f.ctx, rf)
	require.NoError(t, err)
	minutes, err := f.m.CompleteMinutes(f.ctx, rf)
	require.NoError(t, err)
	values, err := f.m.AnswerValueCounts(f.ctx, rf, questions)
	require.NoError(t, err)
	sort.Slice(values, func(i, j int) bool {
		if values[i].QuestionID != values[j].QuestionID {
			return values[i].QuestionID < values[j].QuestionID
		}
		return values[i].Value < values[j].Value
	})
	return CountedResults{Outcomes: outcomes, Days: days, MedianMinutes: minutes, Values: values}
}

// sameFigures compares counted and live figures (medians within a tenth of a minute: the
// counts keep durations in tenths).
func sameFigures(t *testing.T, what string, live, got CountedResults) {
	t.Helper()
	assert.Equal(t, live.Outcomes, got.Outcomes, "%s: outcomes", what)
	assert.Equal(t, live.Days, got.Days, "%s: days", what)
	require.Equal(t, live.MedianMinutes == nil, got.MedianMinutes == nil, "%s: a median", what)
	if live.MedianMinutes != nil {
		assert.LessOrEqual(t, math.Abs(*live.MedianMinutes-*got.MedianMinutes), 0.1, "%s: median %v, counted %v", what, *live.MedianMinutes, *got.MedianMinutes)
	}
	var values []ValueCount
	for _, v := range got.Values {
		if v.Value != "" { // free text is counted as answered
			values = append(values, v)
		}
	}
	assert.Equal(t, live.Values, values, "%s: answers", what)
}

func TestCountedResultsEqualTheLiveReadsForCompletesAllAndByEachAnswer(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		def := seededSurvey()
		def.Quotas = nil // members answering through the engine below must not meet a full quota
		id := f.campaigns(f.acme, def)[0]
		c, err := f.catalogue.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		all := ResultsFilter{PanelID: f.acme.ID, CampaignID: id}
		var counted []string
		for _, q := range c.Definition.Questions {
			if !textControl(q.ControlType) {
				counted = append(counted, q.ID)
			}
		}
		check := func(stage string) {
			t.Helper()
			got, err := f.m.Counted(f.ctx, c, nil)
			require.NoError(t, err)
			sameFigures(t, stage+", every complete", liveFigures(t, f, all, nil, counted), *got)
			for _, by := range []AnswerMatch{{"q2", "yes"}, {"q3", "dog"}, {"q3", "cat"}, {"q1", "no"}} {
				got, err := f.m.Counted(f.ctx, c, &by)
				require.NoError(t, err)
				live := liveFigures(t, f, all, &by, counted)
				// By answer, every outcome of the runs that gave it (the live read's outcome
				// counts ignore the outcome filter).
				sameFigures(t, stage+", by "+by.QuestionID+"="+by.Option, live, *got)
			}
		}
		// Runs written by the seeder, counted as they are written...
		outcomes := []string{campaigns.StatusCompleted, campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusDisqualified, campaigns.StatusStarted}
		var runs []SyntheticRun
		start := time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)
		for i := range 30 {
			who := f.member(f.acme, "en", true, nil)
			runs = append(runs, SyntheticRun{ParticipantID: who.ID, Outcome: outcomes[i%len(outcomes)], StartedAt: start.Add(time.Duration(i) * 5 * time.Hour),
				Minutes: 2 + float64(i%7), Language: "en", Seed: int64(i)})
		}
		_, err = f.m.SeedRuns(f.ctx, f.acme.ID, c, runs)
		require.NoError(t, err)
		check("seeded")

		// ...then members answering through the engine: one completes, one is screened out,
		// one is still answering.
		done := f.member(f.acme, "en", true, nil)
		f.start(f.acme, done, id)
		for _, a := range [][2]string{{"q1", `"no"`}, {"q2", `"yes"`}, {"q3", `"cat"`}, {"q4", `9`}, {"q5", `{"r1":"c1","r2":"c2"}`}, {"q6", `"All good"`}} {
			f.clock = f.clock.Add(20 * time.Second)
			f.mustAnswer(f.acme, done, id, a[0], a[1])
		}
		out := f.member(f.acme, "en", true, nil)
		f.start(f.acme, out, id)
		f.mustAnswer(f.acme, out, id, "q1", `"no"`)
		f.mustAnswer(f.acme, out, id, "q2", `"no"`)
		busy := f.member(f.acme, "en", true, nil)
		f.start(f.acme, busy, id)
		f.mustAnswer(f.acme, busy, id, "q1", `"no"`)
		f.mustAnswer(f.acme, busy, id, "q2", `"yes"`)
		// Summaries at once count the queued runs once between them.
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := f.m.Counted(f.ctx, c, nil)
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		check("answered")

		// Counting from scratch gives what was counted along the way.
		require.NoError(t, f.m.recount(f.ctx, c))
		check("recounted")

		// Runs that ended longer than countLag ago move from the live read into the counts.
		f.clock = f.clock.Add(countLag + time.Minute)
		check("later")

		// A closing member's answers leave the counts (their run, counted, stays).
		require.NoError(t, f.m.Erase(f.ctx, f.db, done.ID))
		check("after an erasure")
	})
}
