package surveys

import (
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resultsSurvey: q1 radio (yes, no: screened out), q2 checkbox (a_c, abc, d; "_" would be a
// LIKE wildcard), q3 free text.
func resultsSurvey() *campaigns.Definition {
	return survey("Results", []campaigns.Question{
		func() campaigns.Question {
			q := radioQ("q1", "yes", "no")
			q.Routes = []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: "eq", Value: "no"}}, Then: campaigns.ThenScreenOut}}
			return q
		}(),
		checkboxQ("q2", "a_c", "abc", "d"),
		textQ("q3"),
	})
}

// resultsRun is one member's answers, in the language they answer in.
type resultsRun struct {
	lang    string
	answers [][2]string // question id, VALUE as JSON
}

// seedResults runs members through the results survey, a minute apart, and returns the
// campaign id and the filter of all its runs.
func seedResults(f *fixture, runs []resultsRun) (string, ResultsFilter) {
	id := f.campaigns(f.acme, resultsSurvey())[0]
	for _, r := range runs {
		who := f.member(f.acme, r.lang, true, nil)
		f.start(f.acme, who, id)
		for _, a := range r.answers {
			f.mustAnswer(f.acme, who, id, a[0], a[1])
		}
		f.clock = f.clock.Add(time.Minute)
	}
	return id, ResultsFilter{PanelID: f.acme.ID, CampaignID: id}
}

var resultsRuns = []resultsRun{
	{"en", [][2]string{{"q1", `"yes"`}, {"q2", `["a_c","d"]`}, {"q3", `"Great 100% value"`}}},
	{"es", [][2]string{{"q1", `"yes"`}, {"q2", `["abc"]`}, {"q3", `"Bien"`}}},
	{"en", [][2]string{{"q1", `"no"`}}},
	{"en", [][2]string{{"q1", `"yes"`}}}, // still answering
	{"es", [][2]string{{"q1", `"yes"`}, {"q2", `["a_c"]`}, {"q3", `"great value"`}}},
}

func TestResultsCountOutcomesAndAnswersWithinAFilter(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, all := seedResults(f, resultsRuns)
		outcomes, err := f.m.OutcomeCounts(f.ctx, all)
		require.NoError(t, err)
		assert.Equal(t, map[string]int{campaigns.StatusCompleted: 3, campaigns.StatusScreened: 1, OutcomeAbandoned: 1}, outcomes)

		count := func(rf ResultsFilter, q string) map[string]int {
			rows, err := f.m.AnswerValueCounts(f.ctx, rf, []string{q})
			require.NoError(t, err)
			out := map[string]int{}
			for _, r := range rows {
				out[r.Value] += r.N
			}
			return out
		}
		completed := all
		completed.Outcomes = []string{campaigns.StatusCompleted}
		for _, c := range []struct {
			name   string
			filter func(ResultsFilter) ResultsFilter
			q1     map[string]int
		}{
			{"every run that started", func(f ResultsFilter) ResultsFilter { return f }, map[string]int{`"yes"`: 4, `"no"`: 1}},
			{"completes only", func(f ResultsFilter) ResultsFilter { f.Outcomes = []string{campaigns.StatusCompleted}; return f }, map[string]int{`"yes"`: 3}},
			{"abandoned runs are those still started", func(f ResultsFilter) ResultsFilter { f.Outcomes = []string{OutcomeAbandoned}; return f }, map[string]int{`"yes"`: 1}},
			{"one language", func(f ResultsFilter) ResultsFilter { f.Language = "es"; return f }, map[string]int{`"yes"`: 2}},
			{"an option of a multiple choice, whose id holds an underscore", func(f ResultsFilter) ResultsFilter {
				f.Answers = []AnswerMatch{{QuestionID: "q2", Option: "a_c"}}
				return f
			}, map[string]int{`"yes"`: 2}},
			{"an option of a single choice", func(f ResultsFilter) ResultsFilter {
				f.Answers = []AnswerMatch{{QuestionID: "q1", Option: "no"}}
				return f
			}, map[string]int{`"no"`: 1}},
			{"both answers at once", func(f ResultsFilter) ResultsFilter {
				f.Answers = []AnswerMatch{{QuestionID: "q1", Option: "yes"}, {QuestionID: "q2", Option: "abc"}}
				return f
			}, map[string]int{`"yes"`: 1}},
			{"runs started from the third minute", func(rf ResultsFilter) ResultsFilter {
				from := time.Date(2026, 11, 22, 12, 2, 0, 0, time.UTC)
				rf.From = &from
				return rf
			}, map[string]int{`"no"`: 1, `"yes"`: 2}},
			{"runs started before the second minute", func(rf ResultsFilter) ResultsFilter {
				to := time.Date(2026, 11, 22, 12, 1, 0, 0, time.UTC)
				rf.To = &to
				return rf
			}, map[string]int{`"yes"`: 1}},
		} {
			t.Run(c.name, func(t *testing.T) {
				assert.Equal(t, c.q1, count(c.filter(all), "q1"))
			})
		}
		assert.Equal(t, map[string]int{`["a_c","d"]`: 1, `["abc"]`: 1, `["a_c"]`: 1}, count(completed, "q2"))

		answered, err := f.m.AnsweredCounts(f.ctx, completed, []string{"q3", "q1"})
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"q1": 3, "q3": 3}, answered)

		cross, err := f.m.CrossCounts(f.ctx, all, "q2", "q1")
		require.NoError(t, err)
		assert.ElementsMatch(t, []CrossCount{{Row: `["a_c","d"]`, Column: `"yes"`, N: 1}, {Row: `["abc"]`, Column: `"yes"`, N: 1}, {Row: `["a_c"]`, Column: `"yes"`, N: 1}}, cross)

		days, err := f.m.StartsPerDay(f.ctx, all)
		require.NoError(t, err)
		assert.Equal(t, []DayCount{{Day: "2026-11-22", N: 5}}, days)

		other := all
		other.CampaignID = f.campaigns(f.acme, resultsSurvey())[0]
		none, err := f.m.OutcomeCounts(f.ctx, other)
		require.NoError(t, err)
		assert.Empty(t, none, "another campaign's results are its own")
	})
}

func TestResultsPageResponsesAndTextAnswersByKeysetBothWays(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, all := seedResults(f, resultsRuns)
		// Pages of two, newest first, then back again: every run once, in order.
		var seen []string
		pg := Page{Limit: 2}
		var pages []ResponsesPage
		for {
			page, err := f.m.Responses(f.ctx, all, pg)
			require.NoError(t, err)
			pages = append(pages, page)
			for _, r := range page.Rows {
				seen = append(seen, r.ID)
			}
			if !page.More {
				break
			}
			pg = Page{Limit: 2, After: page.Rows[len(page.Rows)-1].Cursor()}
		}
		require.Len(t, seen, 5)
		require.Len(t, pages, 3)
		for i := 1; i < len(pages[0].Rows); i++ {
			assert.True(t, pages[0].Rows[i-1].StartedAt.After(pages[0].Rows[i].StartedAt), "newest first")
		}
		back, err := f.m.Responses(f.ctx, all, Page{Limit: 2, Before: pages[1].Rows[0].Cursor()})
		require.NoError(t, err)
		assert.Equal(t, pages[0].Rows, back.Rows, "the page before the second is the first")
		assert.False(t, back.More, "nothing is newer than the first page")
		assert.Equal(t, "es", *pages[0].Rows[0].Language, "the language answered in is kept")

		// A cursor's text form goes through a URL and back.
		c := pages[0].Rows[1].Cursor()
		parsed, err := ParseCursor(c.String())
		require.NoError(t, err)
		assert.True(t, c.At.Equal(parsed.At))
		assert.Equal(t, c.ID, parsed.ID)
		for _, bad := range []string{"!!", "bm90aGluZw", "MjAyNi0xMS0yMlQxMjowMDowMFo"} {
			_, err := ParseCursor(bad)
			assert.ErrorIs(t, err, ErrBadCursor, bad)
		}

		texts, err := f.m.TextAnswers(f.ctx, all, "q3", "", Page{Limit: 10})
		require.NoError(t, err)
		require.Len(t, texts.Rows, 3)
		assert.Equal(t, `"great value"`, texts.Rows[0].Value, "newest first")
		for search, want := range map[string]int{"GREAT": 2, "100%": 1, "0%": 1, "%": 1, "_": 0, "bien": 1, "nothing like it": 0} {
			page, err := f.m.TextAnswers(f.ctx, all, "q3", search, Page{Limit: 10})
			require.NoError(t, err)
			assert.Len(t, page.Rows, want, "search %q", search)
		}

		r, answers, err := f.m.Response(f.ctx, all.PanelID, all.CampaignID, pages[2].Rows[0].ID)
		require.NoError(t, err)
		assert.Equal(t, campaigns.StatusCompleted, r.Outcome())
		assert.Equal(t, []ResponseAnswer{{"q1", `"yes"`}, {"q2", `["a_c","d"]`}, {"q3", `"Great 100% value"`}}, answers, "in the order given")
		_, _, err = f.m.Response(f.ctx, f.globex.ID, all.CampaignID, r.ID)
		assert.ErrorIs(t, err, ErrNoResponse, "another panel's response is none")
	})
}

func TestResultsLoseAClosingMembersAnswersButKeepTheirRun(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id, all := seedResults(f, resultsRuns[:2])
		page, err := f.m.Responses(f.ctx, all, Page{Limit: 10})
		require.NoError(t, err)
		gone := page.Rows[0]
		require.NoError(t, f.m.Erase(f.ctx, f.db, gone.ParticipantID))

		_, answers, err := f.m.Response(f.ctx, f.acme.ID, id, gone.ID)
		require.NoError(t, err)
		assert.Empty(t, answers)
		counts, err := f.m.AnswerValueCounts(f.ctx, all, []string{"q1"})
		require.NoError(t, err)
		assert.Equal(t, []ValueCount{{QuestionID: "q1", Value: `"yes"`, N: 1}}, counts, "only the other member's answer is counted")
		outcomes, err := f.m.OutcomeCounts(f.ctx, all)
		require.NoError(t, err)
		assert.Equal(t, 2, outcomes[campaigns.StatusCompleted], "the run itself still counts as a complete")
	})
}

func TestEveryResponseIsReadOnceOldestFirstWithItsAnswersABatchAtATime(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		_, all := seedResults(f, resultsRuns)
		for _, batch := range []int{1, 2, 5, 500} {
			var seen []ResponseWithAnswers
			require.NoError(t, f.m.eachResponse(f.ctx, all, batch, func(r ResponseWithAnswers) error {
				seen = append(seen, r)
				return nil
			}))
			require.Len(t, seen, 5, "batch %d", batch)
			for i := 1; i < len(seen); i++ {
				assert.True(t, seen[i].StartedAt.After(seen[i-1].StartedAt), "oldest first")
			}
			assert.Equal(t, map[string]string{"q1": `"yes"`, "q2": `["a_c","d"]`, "q3": `"Great 100% value"`}, seen[0].Answers)
			assert.Equal(t, map[string]string{"q1": `"no"`}, seen[2].Answers)
		}
		completed := all
		completed.Outcomes = []string{campaigns.StatusCompleted}
		n := 0
		require.NoError(t, f.m.EachResponse(f.ctx, completed, func(ResponseWithAnswers) error { n++; return nil }))
		assert.Equal(t, 3, n, "within the filter")
		stop := errors.New("enough")
		assert.ErrorIs(t, f.m.EachResponse(f.ctx, all, func(ResponseWithAnswers) error { return stop }), stop, "an error stops the reading")
	})
}
