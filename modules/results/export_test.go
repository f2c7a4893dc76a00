package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// exportCampaign has a question of each shape an export lays out differently.
func exportCampaign() *campaigns.Campaign {
	text := func(s string) campaigns.Text { return campaigns.Text{"en": s, "es": "ES " + s} }
	return &campaigns.Campaign{ID: "c1", DefaultLanguage: "en", Names: text("Tea's time"), Definition: campaigns.Definition{Questions: []campaigns.Question{
		{ID: "drink", ControlType: campaigns.ControlRadio, Text: text("Drink"), Answers: opts("tea", "coffee")},
		{ID: "likes", ControlType: campaigns.ControlCheckbox, Text: text("Likes"), Answers: opts("milk", "sugar")},
		{ID: "rank", ControlType: campaigns.ControlRanking, Text: text("Rank"), Answers: opts("a", "b")},
		{ID: "best", ControlType: campaigns.ControlMostLeast, Text: text("Best"), Answers: opts("a", "b", "c")},
		{ID: "grid", ControlType: campaigns.ControlGrid, Text: text("Grid"), Rows: opts("r1", "r2"), Columns: opts("c1", "c2")},
		{ID: "mgrid", ControlType: campaigns.ControlGrid, Multiple: true, Text: text("Multi grid"), Rows: opts("r1"), Columns: opts("c1", "c2")},
		{ID: "spend", ControlType: campaigns.ControlSpend, Text: text("Spend"), SpendPeriod: []string{"week", "month"}},
		{ID: "agree", ControlType: campaigns.ControlLikert, Text: text("Agree"), ScaleAnswers: []campaigns.Option{{ID: "lo", Text: text("Low"), Value: f64(-1)}, {ID: "hi", Text: text("High"), Value: f64(1)}}},
		{ID: "where", ControlType: campaigns.ControlLocation, Text: text("Where")},
		{ID: "why", ControlType: campaigns.ControlTextArea, Text: text("Why, 'really'?")},
		{ID: "nps", ControlType: campaigns.ControlNPS, Text: text("Recommend")},
	}}}
}

var exportWords = Words{Response: "Response", Member: "Member", Outcome: "Outcome", Started: "Started", Finished: "Finished", Language: "Language",
	Chosen: "Chosen", NotChosen: "Not chosen", Most: "Most", Least: "Least", Amount: "Amount", Period: "Period",
	Periods: map[string]string{"day": "per day", "week": "per week", "month": "per month", "year": "per year"}}

func exportResponses() []surveys.ResponseWithAnswers {
	started := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	finished := started.Add(4 * time.Minute)
	es := "es"
	return []surveys.ResponseWithAnswers{
		{Response: surveys.Response{ID: "r1", ParticipantID: "m1", Status: campaigns.StatusCompleted, StartedAt: started, FinishedAt: &finished, Language: &es},
			Answers: map[string]string{
				"drink": `"coffee"`, "likes": `["sugar"]`, "rank": `["b","a"]`, "best": `{"least":"a","most":"c"}`,
				"grid": `{"r1":"c2","r2":"c1"}`, "mgrid": `{"r1":["c1","c2"]}`, "spend": `{"amount":12.5,"period":"week"}`, "agree": `-1`,
				"where": `{"id":"x","postcode":"AB1 2CD"}`, "why": `"Because, \"quite\"\nsimply"`, "nps": `9`,
			}},
		{Response: surveys.Response{ID: "r2", ParticipantID: "m2", Status: campaigns.StatusStarted, StartedAt: started.Add(time.Hour)},
			Answers: map[string]string{"drink": `"tea"`}},
	}
}

func each(rs []surveys.ResponseWithAnswers) Each {
	return func(fn func(surveys.ResponseWithAnswers) error) error {
		for _, r := range rs {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestAnExportHasAColumnPerQuestionOptionRowAndItemWithNumericCodes(t *testing.T) {
	t.Parallel()
	vars := Variables(exportCampaign(), "en", exportWords)
	assert.Equal(t, []string{"response_id", "member_id", "outcome", "started_at", "finished_at", "language",
		"q1_drink", "q2_likes_milk", "q2_likes_sugar", "q3_rank_a", "q3_rank_b", "q4_best_most", "q4_best_least",
		"q5_grid_r1", "q5_grid_r2", "q6_mgrid_r1_c1", "q6_mgrid_r1_c2", "q7_spend_amount", "q7_spend_period", "q8_agree",
		"q9_where", "q10_why", "q11_nps"}, Names(vars))

	var buf bytes.Buffer
	require.NoError(t, WriteCSV(&buf, vars, each(exportResponses())))
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err, "the CSV reads back")
	require.Len(t, rows, 3)
	assert.Equal(t, []string{"r1", "m1", "completed", "2026-11-20 09:30:00", "2026-11-20 09:34:00", "es",
		"2", "0", "1", "2", "1", "3", "1", "2", "1", "1", "1", "12.5", "2", "-1", "AB1 2CD", "Because, \"quite\"\nsimply", "9"}, rows[1])
	assert.Equal(t, []string{"r2", "m2", "abandoned", "2026-11-20 10:30:00", "", "", "1", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""}, rows[2],
		"an unanswered question is an empty cell")
}

func TestTheCodebookListsEveryVariableAndCodeInTheChosenLanguage(t *testing.T) {
	t.Parallel()
	vars := Variables(exportCampaign(), "es", exportWords)
	var buf bytes.Buffer
	require.NoError(t, WriteCodebook(&buf, vars))
	rows, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, CodebookHeader, rows[0])
	assert.Contains(t, rows, []string{"q1_drink", "drink", "ES Drink", "", "", ""})
	assert.Contains(t, rows, []string{"q1_drink", "drink", "", "2", "coffee", "Label coffee"})
	assert.Contains(t, rows, []string{"q2_likes_sugar", "likes", "", "1", "", "Chosen"})
	assert.Contains(t, rows, []string{"q7_spend_period", "spend", "", "2", "week", "per week"})
	assert.Contains(t, rows, []string{"q8_agree", "agree", "", "-1", "lo", "ES Low"})
}

func TestTheSPSSSyntaxReadsTheCSVWithEveryLabel(t *testing.T) {
	t.Parallel()
	vars := Variables(exportCampaign(), "en", exportWords)
	var buf bytes.Buffer
	require.NoError(t, WriteSPS(&buf, vars, "tea-s-time-responses.csv", "Tea's time"))
	sps := buf.String()
	assert.Contains(t, sps, "/FILE='tea-s-time-responses.csv'")
	assert.Contains(t, sps, "/ENCODING='UTF8'")
	assert.Contains(t, sps, "    q1_drink F8.0\n")
	assert.Contains(t, sps, "    q7_spend_amount F12.2\n")
	assert.Contains(t, sps, "    q10_why A5000\n", "a text is as wide as the engine lets it be")
	assert.Contains(t, sps, "  /q10_why 'Why, ''really''?'\n", "quotes are doubled")
	assert.Contains(t, sps, "VALUE LABELS\n  q1_drink 1 'Label tea' 2 'Label coffee'\n")
	assert.Contains(t, sps, "  /q8_agree -1 'Low' 1 'High'\n")
	assert.True(t, strings.HasSuffix(sps, "EXECUTE.\n"))
	// Every variable of the CSV, in its order, and no other.
	start := strings.Index(sps, "/VARIABLES=\n") + len("/VARIABLES=\n")
	end := strings.Index(sps[start:], "\n.\n")
	var declared []string
	for _, line := range strings.Split(sps[start:start+end], "\n") {
		declared = append(declared, strings.Fields(line)[0])
	}
	assert.Equal(t, Names(vars), declared)
	assert.Equal(t, "'"+strings.Repeat("é", 60)+"'", spssQuote(strings.Repeat("é", 70), 120), "cut to SPSS's bytes without splitting a character")
}

func TestTheWorkbookHoldsTheResponsesAsNumbersAndTheCodebook(t *testing.T) {
	t.Parallel()
	vars := Variables(exportCampaign(), "en", exportWords)
	var buf bytes.Buffer
	require.NoError(t, WriteXLSX(&buf, vars, each(exportResponses())))
	f, err := excelize.OpenReader(&buf)
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, []string{SheetResponses, SheetCodebook}, f.GetSheetList())
	rows, err := f.GetRows(SheetResponses)
	require.NoError(t, err)
	require.Len(t, rows, 3)
	assert.Equal(t, Names(vars), rows[0])
	assert.Equal(t, "12.5", rows[1][17])
	typ, err := f.GetCellType(SheetResponses, "G2")
	require.NoError(t, err)
	assert.NotEqual(t, excelize.CellTypeSharedString, typ, "a code is a number, not text")
	assert.NotEqual(t, excelize.CellTypeInlineString, typ)
	codebook, err := f.GetRows(SheetCodebook)
	require.NoError(t, err)
	assert.Equal(t, CodebookHeader, codebook[0])
	assert.Contains(t, codebook, []string{"q1_drink", "drink", "", "2", "coffee", "Label coffee"})
}

func TestAnExportStopsAtTheReadersError(t *testing.T) {
	t.Parallel()
	broken := errors.New("the database went away")
	failing := func(fn func(surveys.ResponseWithAnswers) error) error { return broken }
	vars := Variables(exportCampaign(), "en", exportWords)
	assert.ErrorIs(t, WriteCSV(&bytes.Buffer{}, vars, failing), broken)
	assert.ErrorIs(t, WriteXLSX(&bytes.Buffer{}, vars, failing), broken)
}

func TestVariableNamesStayValidShortAndUnique(t *testing.T) {
	t.Parallel()
	taken := map[string]bool{}
	assert.Equal(t, "q1_a_b", uniqueName("q1_a-b", taken))
	assert.Equal(t, "q1_a_b_2", uniqueName("q1_a_b", taken))
	assert.Equal(t, "v_1x", uniqueName("1x", taken))
	long := uniqueName(strings.Repeat("x", 40), taken)
	assert.Len(t, long, 32)
	again := uniqueName(strings.Repeat("x", 40), taken)
	assert.Len(t, again, 32)
	assert.NotEqual(t, long, again)
	assert.Equal(t, "tea-s-time", fileStem("Tea's time"))
	assert.Equal(t, "campaign", fileStem("茶还是咖啡？"))
}
