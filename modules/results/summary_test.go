package results

import (
	"fmt"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func opts(ids ...string) []campaigns.Option {
	out := make([]campaigns.Option, len(ids))
	for i, id := range ids {
		out[i] = campaigns.Option{ID: id, Text: campaigns.Text{"en": "Label " + id}}
	}
	return out
}

func f64(v float64) *float64 { return &v }

// values are a question's value counts: VALUE (JSON) to how many gave it.
func values(q string, counts map[string]int) []surveys.ValueCount {
	var out []surveys.ValueCount
	for v, n := range counts {
		out = append(out, surveys.ValueCount{QuestionID: q, Value: v, N: n})
	}
	return out
}

func folded(q campaigns.Question, counts map[string]int) Question {
	out := Question{ID: q.ID, Control: q.ControlType, Kind: kindOf(q.ControlType)}
	fold(&out, &q, values(q.ID, counts), "en", "en")
	return out
}

func counts(cs []Count) map[string]int {
	out := map[string]int{}
	for _, c := range cs {
		out[c.ID] = c.Count
	}
	return out
}

func TestEachControlsAnswersFoldIntoTheResultThatSuitsIt(t *testing.T) {
	t.Parallel()
	t.Run("a single choice counts each option in the campaign's order, then options no longer offered", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlRadio, Answers: opts("b", "a")},
			map[string]int{`"a"`: 3, `"b"`: 1, `"gone"`: 1})
		assert.Equal(t, 5, r.Answered)
		assert.Equal(t, []Count{{"b", "Label b", 1, 0.2}, {"a", "Label a", 3, 0.6}, {"gone", "gone", 1, 0.2}}, r.Options)
	})
	t.Run("a multiple choice's shares are of respondents and may add up past one", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlCheckbox, Answers: opts("a", "b", "c")},
			map[string]int{`["a","b"]`: 2, `["a"]`: 2})
		assert.Equal(t, 4, r.Answered)
		assert.Equal(t, map[string]int{"a": 4, "b": 2, "c": 0}, counts(r.Options))
		assert.Equal(t, 1.0, r.Options[0].Share)
		assert.Equal(t, 0.5, r.Options[1].Share)
	})
	t.Run("a Likert scale is counted per point with its labels, mean and median", func(t *testing.T) {
		q := campaigns.Question{ID: "q", ControlType: campaigns.ControlLikert, ScaleAnswers: opts("1", "2", "3", "4", "5")}
		r := folded(q, map[string]int{"1": 1, "4": 2, "5": 1})
		assert.Equal(t, []string{"1", "2", "3", "4", "5"}, ids(r.Options))
		assert.Equal(t, "Label 4", r.Options[3].Label)
		assert.Equal(t, 3.5, *r.Mean)
		assert.Equal(t, 4.0, *r.Median)
	})
	t.Run("a 0-10 scale gives promoters, passives, detractors and the score", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlNPS}, map[string]int{"10": 5, "9": 1, "8": 2, "3": 2})
		require.NotNil(t, r.NPS)
		assert.Equal(t, NPS{Promoters: 6, Passives: 2, Detractors: 2, Score: 40}, *r.NPS)
		assert.Len(t, r.Options, 11, "and the distribution over 0 to 10")
	})
	t.Run("an even count's median is the mean of the two middle numbers", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlSlider, MinNum: f64(0), MaxNum: f64(100)}, map[string]int{"10": 1, "20": 1, "30": 1, "40": 1})
		assert.Equal(t, 25.0, *r.Median)
		assert.Equal(t, 25.0, *r.Mean)
		assert.Len(t, r.Options, 4, "a bar per distinct number while they are few")
	})
	t.Run("many distinct numbers are grouped into equal ranges", func(t *testing.T) {
		c := map[string]int{}
		for i := 0; i < 100; i++ {
			c[fmt.Sprint(i)] = 1
		}
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlNumber}, c)
		assert.Len(t, r.Options, maxBars)
		total := 0
		for _, o := range r.Options {
			total += o.Count
		}
		assert.Equal(t, 100, total, "every answer falls in a range")
	})
	t.Run("amounts per period are made monthly, with a bar per period", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlSpend, SpendPeriod: []string{"week", "month"}},
			map[string]int{`{"amount":10,"period":"month"}`: 1, `{"amount":30,"period":"month"}`: 1})
		assert.Equal(t, "month", r.Per)
		assert.Equal(t, 20.0, *r.Mean)
		assert.Equal(t, map[string]int{"week": 0, "month": 2}, counts(r.Options))
		r = folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlFrequency}, map[string]int{`{"count":1,"period":"year"}`: 1})
		assert.InDelta(t, 1.0/12, *r.Mean, 0.01)
	})
	t.Run("a grid's cells are shares of the row's respondents", func(t *testing.T) {
		q := campaigns.Question{ID: "q", ControlType: campaigns.ControlGrid, Rows: opts("r1", "r2"), Columns: opts("c1", "c2")}
		r := folded(q, map[string]int{`{"r1":"c1","r2":"c2"}`: 3, `{"r1":"c2","r2":"c2"}`: 1})
		require.NotNil(t, r.Grid)
		assert.Equal(t, 4, r.Grid.Rows[0].N)
		assert.Equal(t, []int{3, 1}, []int{r.Grid.Rows[0].Cells[0].Count, r.Grid.Rows[0].Cells[1].Count})
		assert.Equal(t, 0.75, r.Grid.Rows[0].Cells[0].Share)
		assert.Equal(t, 1.0, r.Grid.Rows[1].Cells[1].Share)
		multi := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlGrid, Multiple: true, Rows: opts("r1"), Columns: opts("c1", "c2")},
			map[string]int{`{"r1":["c1","c2"]}`: 2})
		assert.Equal(t, 1.0, multi.Grid.Rows[0].Cells[1].Share, "a multiple grid counts each column chosen")
	})
	t.Run("a ranking gives each item's average rank, best first", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlRanking, Answers: opts("a", "b", "c")},
			map[string]int{`["b","a","c"]`: 3, `["a","b","c"]`: 1})
		assert.Equal(t, []string{"b", "a", "c"}, itemIDs(r.Items))
		assert.Equal(t, 1.25, r.Items[0].Value)
		assert.Equal(t, 3, r.Items[0].First)
		assert.Equal(t, 3.0, r.Items[2].Value)
	})
	t.Run("a most/least question scores best minus worst, best first", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlMostLeast, Answers: opts("a", "b", "c")},
			map[string]int{`{"least":"c","most":"a"}`: 3, `{"least":"a","most":"b"}`: 1})
		assert.Equal(t, []string{"a", "b", "c"}, itemIDs(r.Items))
		assert.Equal(t, Item{ID: "a", Label: "Label a", Value: 2, Best: 3, Worst: 1}, r.Items[0])
		assert.Equal(t, -3.0, r.Items[2].Value)
	})
	t.Run("locations are counted by postcode, the most common ten and the rest together", func(t *testing.T) {
		c := map[string]int{}
		for i := 0; i < 12; i++ {
			c[fmt.Sprintf(`{"id":"x","postcode":"ab%02d"}`, i)] = 20 - i
		}
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlLocation}, c)
		require.Len(t, r.Options, maxRecorded+1)
		assert.Equal(t, Count{ID: "AB00", Label: "AB00", Count: 20, Share: 20.0 / 174}, r.Options[0])
		assert.Equal(t, 10+9, r.Options[maxRecorded].Count)
	})
	t.Run("dates are counted by month, in order", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlDate}, map[string]int{`"2026-03-04"`: 1, `"2025-12-31"`: 2, `"2026-03-20"`: 1})
		assert.Equal(t, []string{"2025-12", "2026-03"}, ids(r.Options))
	})
	t.Run("dates spread over more than two years are counted by year", func(t *testing.T) {
		c := map[string]int{}
		for y := 1960; y < 2000; y++ {
			c[fmt.Sprintf(`"%d-06-15"`, y)] = 1
			c[fmt.Sprintf(`"%d-01-02"`, y)] = 1
		}
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlDate}, c)
		require.Len(t, r.Options, 40)
		assert.Equal(t, Count{ID: "1960", Label: "1960", Count: 2, Share: 2.0 / 80}, r.Options[0])
	})
	t.Run("a video counts who watched it", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlVideo}, map[string]int{`{"watched":true}`: 4})
		assert.Equal(t, []Count{{ID: "watched", Label: "watched", Count: 4, Share: 1}}, r.Options)
	})
	t.Run("an unanswered question has no mean and no shares", func(t *testing.T) {
		r := folded(campaigns.Question{ID: "q", ControlType: campaigns.ControlStar}, nil)
		assert.Zero(t, r.Answered)
		assert.Nil(t, r.Mean)
		assert.Len(t, r.Options, surveys.DefaultStars)
	})
}

func ids(cs []Count) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func itemIDs(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func TestACrossTabSharesAreOfTheColumn(t *testing.T) {
	t.Parallel()
	def := &campaigns.Definition{Questions: []campaigns.Question{
		{ID: "likes", ControlType: campaigns.ControlCheckbox, Answers: opts("tea", "coffee")},
		{ID: "sex", ControlType: campaigns.ControlRadio, Answers: opts("f", "m")},
		{ID: "words", ControlType: campaigns.ControlText},
	}}
	x := crossTab(def, "likes", "sex", []surveys.CrossCount{
		{Row: `["tea","coffee"]`, Column: `"f"`, N: 2}, {Row: `["tea"]`, Column: `"f"`, N: 2}, {Row: `["coffee"]`, Column: `"m"`, N: 1},
	}, "en", "en")
	assert.Equal(t, []int{4, 1}, []int{x.Grid.Columns[0].Count, x.Grid.Columns[1].Count}, "column totals are respondents")
	assert.Equal(t, "tea", x.Grid.Rows[0].ID)
	assert.Equal(t, 1.0, x.Grid.Rows[0].Cells[0].Share, "every woman chose tea")
	assert.Equal(t, 0.5, x.Grid.Rows[1].Cells[0].Share, "half of them coffee")
	assert.Equal(t, 1.0, x.Grid.Rows[1].Cells[1].Share)

	for _, c := range []struct {
		row, col string
		ok       bool
	}{
		{"", "", true}, {"likes", "sex", true}, {"sex", "sex", false}, {"words", "sex", false}, {"likes", "likes", false},
		{"likes", "", false}, {"nope", "sex", false},
	} {
		assert.Equal(t, c.ok, CheckCross(def, c.row, c.col), "%s by %s", c.row, c.col)
	}
}
