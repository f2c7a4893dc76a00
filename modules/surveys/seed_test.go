package surveys

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The seed tests' own builders (the other tests' may change under them).
func seedF(n float64) *float64 { return &n }
func seedI(n int) *int         { return &n }

// seedOpts are options with the given ids; an id ending in "!" is exclusive.
func seedOpts(ids ...string) []campaigns.Option {
	out := make([]campaigns.Option, len(ids))
	for i, id := range ids {
		out[i] = campaigns.Option{ID: strings.TrimSuffix(id, "!"), Text: campaigns.Text{"en": id}, Exclusive: strings.HasSuffix(id, "!")}
	}
	return out
}

// seedScale is a scale whose points store the given values.
func seedScale(values ...float64) []campaigns.Option {
	out := make([]campaigns.Option, len(values))
	for i, v := range values {
		out[i] = campaigns.Option{ID: "p" + string(rune('a'+i)), Value: seedF(v)}
	}
	return out
}

// seedQuestions are questions of every control type, several ways of setting each up.
var seedQuestions = []campaigns.Question{
	{ID: "text", ControlType: campaigns.ControlText, Text: campaigns.Text{"en": "Anything else?"}},
	{ID: "pet_name", ControlType: campaigns.ControlText, MinChars: seedI(1), MaxChars: seedI(40), Text: campaigns.Text{"en": "Your pet's name?"}},
	{ID: "must_visit", ControlType: campaigns.ControlText, MaxChars: seedI(80), Text: campaigns.Text{"en": "Which place in the UK?"}},
	{ID: "dream_destination", ControlType: campaigns.ControlText, MaxChars: seedI(80)},
	{ID: "tiny_text", ControlType: campaigns.ControlText, MinChars: seedI(3), MaxChars: seedI(5)},
	{ID: "long_text", ControlType: campaigns.ControlTextArea, MinChars: seedI(300), MaxChars: seedI(320)},
	{ID: "textarea", ControlType: campaigns.ControlTextArea, MinChars: seedI(10), MaxChars: seedI(1000)},
	{ID: "number", ControlType: campaigns.ControlNumber, MinNum: seedF(1), MaxNum: seedF(50), Step: seedF(1)},
	{ID: "number_open", ControlType: campaigns.ControlNumber},
	{ID: "number_tenths", ControlType: campaigns.ControlNumber, MinNum: seedF(0.5), MaxNum: seedF(2), Step: seedF(0.1)},
	{ID: "number_thirds", ControlType: campaigns.ControlNumber, MinNum: seedF(0), MaxNum: seedF(3), Step: seedF(1.0 / 3)},
	{ID: "number_below_zero", ControlType: campaigns.ControlNumber, MaxNum: seedF(-5)},
	{ID: "spend", ControlType: campaigns.ControlSpend, SpendMin: seedF(0), SpendMax: seedF(300), SpendPeriod: []string{"week", "month"}},
	{ID: "spend_open", ControlType: campaigns.ControlSpend},
	{ID: "spend_floor", ControlType: campaigns.ControlSpend, SpendMin: seedF(100), SpendMax: seedF(120), SpendPeriod: []string{"day"}},
	{ID: "dropdown", ControlType: campaigns.ControlDropdown, Answers: seedOpts("a", "b", "c", "d", "e")},
	{ID: "radio", ControlType: campaigns.ControlRadio, Answers: seedOpts("yes", "no")},
	{ID: "checkbox", ControlType: campaigns.ControlCheckbox, Answers: seedOpts("a", "b", "c", "d", "e", "none!")},
	{ID: "checkbox_2_to_3", ControlType: campaigns.ControlCheckbox, Answers: seedOpts("a", "b", "c", "d"), MinAnswers: seedI(2), MaxAnswers: seedI(3)},
	{ID: "checkbox_one", ControlType: campaigns.ControlCheckbox, Answers: seedOpts("a", "b", "c"), MaxAnswers: seedI(1)},
	{ID: "click_bar", ControlType: campaigns.ControlClickBar, MinNum: seedF(1), MaxNum: seedF(10), Step: seedF(1)},
	{ID: "click_bar_open", ControlType: campaigns.ControlClickBar},
	{ID: "image_select", ControlType: campaigns.ControlImageSelect, Answers: seedOpts("cat", "dog", "bird")},
	{ID: "multi_image", ControlType: campaigns.ControlMultiImage, Answers: seedOpts("cat", "dog", "fish", "none!"), MinAnswers: seedI(1)},
	{ID: "ranking", ControlType: campaigns.ControlRanking, Answers: seedOpts("taste", "price", "brand", "convenience", "sustainability")},
	{ID: "ranking_top_two", ControlType: campaigns.ControlRanking, Answers: seedOpts("x", "y", "z", "w"), MinAnswers: seedI(2), MaxAnswers: seedI(2)},
	{ID: "most_least", ControlType: campaigns.ControlMostLeast, Answers: seedOpts("price", "catalogue", "originals", "no_ads", "downloads", "quality")},
	{ID: "slider", ControlType: campaigns.ControlSlider, MinNum: seedF(0), MaxNum: seedF(5000), Step: seedF(100)},
	{ID: "slider_open", ControlType: campaigns.ControlSlider},
	{ID: "stepper", ControlType: campaigns.ControlStepper, MinNum: seedF(1), MaxNum: seedF(9), Step: seedF(2)},
	{ID: "nps", ControlType: campaigns.ControlNPS},
	{ID: "like_dislike", ControlType: campaigns.ControlLikeDislike, Answers: seedOpts("like", "dislike")},
	{ID: "likert", ControlType: campaigns.ControlLikert, ScaleAnswers: seedScale(-2, -1, 0, 1, 2)},
	{ID: "likert_positions", ControlType: campaigns.ControlLikert, ScaleAnswers: []campaigns.Option{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}},
	{ID: "star", ControlType: campaigns.ControlStar},
	{ID: "star_10", ControlType: campaigns.ControlStar, MaxNum: seedF(10)},
	{ID: "smiley", ControlType: campaigns.ControlSmiley, ScaleAnswers: seedScale(1, 2, 3, 4, 5)},
	{ID: "date", ControlType: campaigns.ControlDate},
	{ID: "birth_date", ControlType: campaigns.ControlDate},
	{ID: "location", ControlType: campaigns.ControlLocation},
	{ID: "frequency", ControlType: campaigns.ControlFrequency, FreqMin: seedI(0), FreqMax: seedI(30), FreqPeriod: []string{"day", "week"}},
	{ID: "frequency_open", ControlType: campaigns.ControlFrequency},
	{ID: "frequency_floor", ControlType: campaigns.ControlFrequency, FreqMin: seedI(3), FreqMax: seedI(4), FreqPeriod: []string{"year"}},
	{ID: "video", ControlType: campaigns.ControlVideo, VideoID: "abc123"},
	{ID: "grid", ControlType: campaigns.ControlGrid, Rows: seedOpts("r1", "r2", "r3"), Columns: seedOpts("never", "sometimes", "often")},
	{ID: "grid_multiple", ControlType: campaigns.ControlGrid, Rows: seedOpts("r1", "r2"), Columns: seedOpts("c1", "c2", "c3", "c4"), Multiple: true},
}

func TestSeedQuestionsCoverEveryControlType(t *testing.T) {
	t.Parallel()
	for _, control := range campaigns.ControlTypes {
		assert.True(t, slices.ContainsFunc(seedQuestions, func(q campaigns.Question) bool { return q.ControlType == control }), control)
	}
}

func TestEverySyntheticAnswerPassesTheEnginesValidationAsItIsStored(t *testing.T) {
	t.Parallel()
	for _, q := range seedQuestions {
		t.Run(q.ID, func(t *testing.T) {
			t.Parallel()
			for _, lang := range []string{"en", "es", "ru", "zh", "fr"} {
				for seed := range uint64(300) {
					v := SyntheticAnswer(&q, rand.New(rand.NewPCG(seed, 7)), lang)
					raw, err := json.Marshal(v)
					require.NoError(t, err)
					got, err := ValidateAnswer(&q, raw)
					require.NoError(t, err, "%s in %s, seed %d: %s", q.ID, lang, seed, raw)
					stored, err := json.Marshal(got)
					require.NoError(t, err)
					require.JSONEq(t, string(raw), string(stored), "the answer is stored as the engine would store it")
				}
			}
		})
	}
}

func TestSyntheticAnswersAreTheSameForTheSameSeed(t *testing.T) {
	t.Parallel()
	for _, q := range seedQuestions {
		a := SyntheticAnswer(&q, rand.New(rand.NewPCG(42, 1)), "es")
		b := SyntheticAnswer(&q, rand.New(rand.NewPCG(42, 1)), "es")
		assert.Equal(t, a, b, q.ID)
	}
}

// draws are n answers to a question, as JSON, one seed each.
func draws(q campaigns.Question, n int, lang string) []string {
	out := make([]string, n)
	for i := range out {
		raw, _ := json.Marshal(SyntheticAnswer(&q, rand.New(rand.NewPCG(uint64(i), 3)), lang))
		out[i] = string(raw)
	}
	return out
}

func TestSyntheticAnswersLeanTheWayRealOnesDo(t *testing.T) {
	t.Parallel()
	byID := func(id string) campaigns.Question {
		i := slices.IndexFunc(seedQuestions, func(q campaigns.Question) bool { return q.ID == id })
		require.GreaterOrEqual(t, i, 0, id)
		return seedQuestions[i]
	}
	counts := func(answers []string) map[string]int {
		out := map[string]int{}
		for _, a := range answers {
			out[a]++
		}
		return out
	}
	cases := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"a single choice has a favourite chosen several times as often as the least liked option", func(t *testing.T) {
			c := counts(draws(byID("dropdown"), 3000, "en"))
			require.Len(t, c, 5, "every option is chosen by someone")
			least, most := 3000, 0
			for _, n := range c {
				least, most = min(least, n), max(most, n)
			}
			assert.Greater(t, most, 3*least)
		}},
		{"a multiple choice has one to three options but for its exclusive option alone", func(t *testing.T) {
			sizes := map[int]int{}
			for _, a := range draws(byID("checkbox"), 2000, "en") {
				var ids []string
				require.NoError(t, json.Unmarshal([]byte(a), &ids))
				if !slices.Contains(ids, "none") {
					sizes[len(ids)]++
				}
			}
			assert.Equal(t, []int{1, 2, 3}, sortedKeys(sizes))
		}},
		{"NPS answers are mostly 7 to 10 with some detractors", func(t *testing.T) {
			high, low := 0, 0
			for _, a := range draws(byID("nps"), 3000, "en") {
				var n float64
				require.NoError(t, json.Unmarshal([]byte(a), &n))
				if n >= 7 {
					high++
				} else {
					low++
				}
			}
			assert.Greater(t, high, 3000*6/10)
			assert.Greater(t, low, 3000*5/100)
		}},
		{"a scale's answers spread over several points", func(t *testing.T) {
			assert.GreaterOrEqual(t, len(counts(draws(byID("smiley"), 2000, "en"))), 4)
		}},
		{"a ranking puts some items first far more often than others", func(t *testing.T) {
			first := map[string]int{}
			for _, a := range draws(byID("ranking"), 3000, "en") {
				var ids []string
				require.NoError(t, json.Unmarshal([]byte(a), &ids))
				first[ids[0]]++
			}
			least, most := 3000, 0
			for _, n := range first {
				least, most = min(least, n), max(most, n)
			}
			assert.Greater(t, most, 3*least)
		}},
		{"free text answers vary and are in the respondent's language", func(t *testing.T) {
			texts := counts(draws(byID("textarea"), 500, "ru"))
			assert.Greater(t, len(texts), 15)
			for s := range texts {
				assert.Regexp(t, `\p{Cyrillic}`, s)
			}
		}},
		{"a location answer is a postcode with its place id", func(t *testing.T) {
			for a := range counts(draws(byID("location"), 200, "zh")) {
				var v struct{ Postcode, ID string }
				require.NoError(t, json.Unmarshal([]byte(a), &v))
				assert.Contains(t, syntheticPlacesUK, Place(v))
			}
		}},
		{"a date is within the last two years, a date of birth an adult's", func(t *testing.T) {
			today := time.Now().UTC()
			for _, a := range draws(byID("date"), 500, "en") {
				var s string
				require.NoError(t, json.Unmarshal([]byte(a), &s))
				d, err := time.Parse(time.DateOnly, s)
				require.NoError(t, err)
				assert.WithinRange(t, d, today.AddDate(-2, 0, -1), today)
			}
			for _, a := range draws(byID("birth_date"), 500, "en") {
				var s string
				require.NoError(t, json.Unmarshal([]byte(a), &s))
				d, err := time.Parse(time.DateOnly, s)
				require.NoError(t, err)
				assert.WithinRange(t, d, today.AddDate(-70, 0, 0), today.AddDate(-18, 0, 0))
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}

func sortedKeys(m map[int]int) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// seededSurvey disqualifies at q1 ("yes"), screens out at q2 ("no"), skips q4 for a q3 of
// "skip", and has a quota of one complete: every way a run can go.
func seededSurvey() *campaigns.Definition {
	return definition("Seeded", func(d *campaigns.Definition) {
		d.DefaultLanguage = "en"
		d.Quotas = []campaigns.Quota{{ID: "all", Limit: 1}}
		d.Questions = []campaigns.Question{
			{ID: "q1", ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": "Work in research?"}, Answers: seedOpts("yes", "no"),
				Routes: []campaigns.Route{{When: []campaigns.Condition{{Question: "q1", Op: campaigns.OpEq, Value: "yes"}}, Then: campaigns.ThenDisqualify}}},
			{ID: "q2", ControlType: campaigns.ControlRadio, Text: campaigns.Text{"en": "Own a pet?"}, Answers: seedOpts("yes", "no"),
				Routes: []campaigns.Route{{When: []campaigns.Condition{{Question: "q2", Op: campaigns.OpEq, Value: "no"}}, Then: campaigns.ThenScreenOut}}},
			{ID: "q3", ControlType: campaigns.ControlDropdown, Text: campaigns.Text{"en": "Which?"}, Answers: seedOpts("skip", "dog", "cat"),
				Routes: []campaigns.Route{{When: []campaigns.Condition{{Question: "q3", Op: campaigns.OpEq, Value: "skip"}}, Then: campaigns.ThenSkipTo, Target: "q5"}}},
			{ID: "q4", ControlType: campaigns.ControlNPS, Text: campaigns.Text{"en": "Recommend?"}},
			{ID: "q5", ControlType: campaigns.ControlGrid, Text: campaigns.Text{"en": "How often?"}, Rows: seedOpts("r1", "r2"), Columns: seedOpts("c1", "c2")},
			{ID: "q6", ControlType: campaigns.ControlTextArea, Text: campaigns.Text{"en": "Anything else?"}},
		}
	})
}

func TestSeedRunsWritesEachRunWithItsOutcomeAndValidAnswersOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, seededSurvey())[0]
		c, err := f.catalogue.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		outcomes := []string{campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusQuotaFull, campaigns.StatusDisqualified, campaigns.StatusStarted}
		var runs []SyntheticRun
		var members []Member
		start := time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)
		for i := range 40 {
			who := f.member(f.acme, "es", true, nil)
			members = append(members, who)
			runs = append(runs, SyntheticRun{ParticipantID: who.ID, Outcome: outcomes[i%len(outcomes)], StartedAt: start.Add(time.Duration(i) * time.Hour),
				Minutes: 4, Language: "es", Seed: int64(i)})
		}
		// A participant twice in the runs runs once.
		dup := runs[0]
		dup.Outcome = campaigns.StatusScreened
		runs = append(runs, dup)

		added, err := f.m.SeedRuns(f.ctx, f.acme.ID, c, runs)
		require.NoError(t, err)
		assert.Equal(t, 40, added)

		def := &c.Definition
		for i, who := range members {
			p := f.participation(who, id)
			r := runs[i]
			assert.Equal(t, r.Outcome, p.Status, "run %d", i)
			require.NotNil(t, p.StartedAt)
			assert.True(t, p.StartedAt.Equal(r.StartedAt), "run %d starts when it says", i)
			require.NotNil(t, p.Language)
			assert.Equal(t, "es", *p.Language)
			assert.Nil(t, p.QuotaID, "no quota counts a synthetic complete")
			answers := f.storedAnswers(who, id)
			assert.Len(t, answers, p.Answered, "run %d", i)
			for qid, raw := range answers {
				_, err := ValidateAnswer(&def.Questions[def.QuestionIndex(qid)], json.RawMessage(raw))
				assert.NoError(t, err, "run %d: %s = %s", i, qid, raw)
			}
			switch r.Outcome {
			case campaigns.StatusCompleted:
				require.NotNil(t, p.FinishedAt)
				assert.Equal(t, 4*time.Minute, p.FinishedAt.Sub(*p.StartedAt))
				assert.Equal(t, `"no"`, answers["q1"], "a complete was not disqualified")
				assert.Equal(t, `"yes"`, answers["q2"], "a complete was not screened out")
				assert.Contains(t, answers, "q6", "a complete answered the last question")
				if answers["q3"] == `"skip"` {
					assert.NotContains(t, answers, "q4", "the routing skipped q4")
				} else {
					assert.Contains(t, answers, "q4")
				}
			case campaigns.StatusDisqualified:
				assert.Equal(t, map[string]string{"q1": `"yes"`}, answers, "disqualified where the route does")
			case campaigns.StatusScreened:
				assert.Equal(t, map[string]string{"q1": `"no"`, "q2": `"no"`}, answers, "screened out where the route does")
			case campaigns.StatusQuotaFull:
				require.NotNil(t, p.FinishedAt)
				assert.NotEmpty(t, answers)
				assert.LessOrEqual(t, len(answers), 2)
			case campaigns.StatusStarted:
				assert.Nil(t, p.FinishedAt)
				require.NotNil(t, p.CurrentQuestion, "an abandoned run waits at a question")
				assert.NotContains(t, answers, *p.CurrentQuestion)
			}
		}
		assert.Equal(t, 0, f.quotaCompletes(id, "all"), "the quota counted nothing")
		assert.Equal(t, int64(0), f.balance(f.acme, members[0]), "nothing was paid")

		counts, err := f.m.OutcomeCounts(f.ctx, ResultsFilter{PanelID: f.acme.ID, CampaignID: id})
		require.NoError(t, err)
		assert.Equal(t, map[string]int{campaigns.StatusCompleted: 8, campaigns.StatusScreened: 8, campaigns.StatusQuotaFull: 8,
			campaigns.StatusDisqualified: 8, OutcomeAbandoned: 8}, counts, "the results read the runs")

		var rowsBefore, answersBefore int64
		require.NoError(t, f.db.Model(&Participation{}).Count(&rowsBefore).Error)
		require.NoError(t, f.db.Model(&Answer{}).Count(&answersBefore).Error)
		again, err := f.m.SeedRuns(f.ctx, f.acme.ID, c, runs)
		require.NoError(t, err)
		assert.Zero(t, again, "a second seeding adds nothing")
		var rowsAfter, answersAfter int64
		require.NoError(t, f.db.Model(&Participation{}).Count(&rowsAfter).Error)
		require.NoError(t, f.db.Model(&Answer{}).Count(&answersAfter).Error)
		assert.Equal(t, rowsBefore, rowsAfter)
		assert.Equal(t, answersBefore, answersAfter)
	})
}

func TestSeedRunsGivesTheSameAnswersForTheSameSeeds(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, seededSurvey())[0]
		c, err := f.catalogue.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		a, b := f.member(f.acme, "en", true, nil), f.member(f.acme, "en", true, nil)
		at := time.Date(2026, 11, 2, 18, 0, 0, 0, time.UTC)
		_, err = f.m.SeedRuns(f.ctx, f.acme.ID, c, []SyntheticRun{
			{ParticipantID: a.ID, Outcome: campaigns.StatusCompleted, StartedAt: at, Minutes: 3, Seed: 99},
			{ParticipantID: b.ID, Outcome: campaigns.StatusCompleted, StartedAt: at, Minutes: 3, Seed: 99},
		})
		require.NoError(t, err)
		assert.Equal(t, f.storedAnswers(a, id), f.storedAnswers(b, id))
		assert.Nil(t, f.participation(a, id).Language, "a run without a language leaves it NULL")
	})
}

func TestSeedRunsRefusesAnOutcomeARunCannotHave(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, seededSurvey())[0]
		c, err := f.catalogue.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		who := f.member(f.acme, "en", true, nil)
		added, err := f.m.SeedRuns(f.ctx, f.acme.ID, c, []SyntheticRun{{ParticipantID: who.ID, Outcome: campaigns.StatusExpired, StartedAt: f.clock}})
		assert.Error(t, err)
		assert.Zero(t, added)
		assert.Empty(t, f.participation(who, id).ID)
	})
}
