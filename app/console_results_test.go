package main

import (
	"encoding/csv"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// resultsRow is the pattern of a result table's row for an option: its code, then its count.
func resultsRow(code string, count int) *regexp.Regexp {
	return regexp.MustCompile(`(?s)<tr data-code="` + regexp.QuoteMeta(code) + `">\s*<th[^>]*>[^<]*</th>\s*<td class="rv-num">` + strconv.Itoa(count) + `</td>`)
}

// answerQuickPoll has the demo member vote tea in the Quick poll and returns its id.
func answerQuickPoll(t *testing.T, e *env) string {
	t.Helper()
	poll := e.campaignID("demo", "Quick poll")
	m := e.member()
	api := "/api/v1/demo/campaigns/" + poll
	require.Equal(t, http.StatusOK, m.get(api+"/go").StatusCode)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/morning_drink", `{"answer":"tea"}`).StatusCode)
	return poll
}

func TestAnEditorReadsTheQuickPollsResultsFiltersThemAndOpensTheDemoMembersResponse(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		poll := answerQuickPoll(t, e)
		c := e.editorClient(t)
		base := "/console/panels/demo/campaigns/" + poll + "/results"

		campaign := c.get("/console/panels/demo/campaigns/" + poll)
		assert.Contains(t, campaign.Body, `href="`+base+`"`, "the campaign's page links its results")

		page := c.get(base)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `id="q-morning_drink"`)
		assert.Regexp(t, resultsRow("tea", 1), page.Body, "the member's vote is counted")
		assert.Regexp(t, resultsRow("coffee", 0), page.Body, "and the options nobody chose")
		assert.Regexp(t, resultsRow("completed", 1), page.Body, "and their complete")
		assert.Contains(t, page.Body, "<svg", "drawn as a chart")

		for _, c2 := range []struct {
			name, query string
			tea         int
		}{
			{"another outcome", "?outcome=screened", 0},
			{"every outcome", "?outcome=all", 1},
			{"the day it started", "?from=2000-01-01", 1},
			{"a day long gone", "?to=2000-01-01", 0},
			{"the member's language", "?lang=en", 1},
			{"another language", "?lang=es", 0},
			{"the option chosen", "?answer=morning_drink%3Dtea", 1},
			{"another option", "?answer=morning_drink%3Dcoffee", 0},
		} {
			t.Run(c2.name, func(t *testing.T) {
				res := c.get(base + c2.query)
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.Regexp(t, `id="rv-q1-answered">[^<]*\b`+strconv.Itoa(c2.tea)+`<`, res.Body)
				if c2.tea > 0 {
					assert.Regexp(t, resultsRow("tea", c2.tea), res.Body)
				}
			})
		}
		for _, bad := range []struct{ query, message string }{
			{"?from=29/11/2026", "Enter dates as YYYY-MM-DD."},
			{"?answer=morning_drink%3Dgin", "Choose an answer filter from the list."},
			{"?outcome=maybe", ""},
			{"?lang=fr", ""},
			{"?row=morning_drink", "Choose a question for the rows and a single-choice question for the columns."},
		} {
			res := c.get(base + bad.query)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, bad.query)
			assert.Contains(t, res.Body, bad.message, bad.query)
			assert.Regexp(t, resultsRow("tea", 1), res.Body, "%s: the unfiltered results still show", bad.query)
		}
		cross := c.get(base + "?row=morning_drink&col=morning_drink")
		assert.Equal(t, http.StatusBadRequest, cross.StatusCode, "a question by itself is no cross-tab")

		list := c.get(base + "/responses")
		require.Equal(t, http.StatusOK, list.StatusCode)
		m := regexp.MustCompile(`<tr data-participation="([^"]+)"`).FindAllStringSubmatch(list.Body, -1)
		require.Len(t, m, 1, "one response")
		response := c.get(base + "/responses/" + m[0][1])
		require.Equal(t, http.StatusOK, response.StatusCode)
		assert.Contains(t, response.Body, "Tea")
		assert.EqualValues(t, 1, consoleAudits(t, e, "response.read", m[0][1]), "reading a response is audited")
		assert.Equal(t, http.StatusNotFound, c.get(base+"/responses/not-a-response").StatusCode)
		assert.Equal(t, http.StatusNotFound, c.get(base+"/text/morning_drink").StatusCode, "a choice question has no text page")
		assert.Equal(t, http.StatusNotFound, c.get(base+"/responses?after=nonsense").StatusCode)
	})
}

func TestResultsAreForEditorsAndResponsesForSupportToo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	poll := answerQuickPoll(t, e)
	nw := e.campaignID("northwind", "Tea or coffee?")
	base := "/console/panels/demo/campaigns/" + poll + "/results"
	for _, tc := range []struct {
		email, password   string
		summary, response int
	}{
		{"owner@ops.demo.test", "console-owner-1", http.StatusOK, http.StatusOK},
		{"editor@ops.demo.test", "console-editor-1", http.StatusOK, http.StatusOK},
		{"support@ops.demo.test", "console-support-1", http.StatusForbidden, http.StatusOK},
		{"finance@ops.demo.test", "console-finance-1", http.StatusForbidden, http.StatusForbidden},
	} {
		t.Run(tc.email, func(t *testing.T) {
			c := e.client(consoleHost)
			require.Equal(t, http.StatusSeeOther, c.consoleLogin(tc.email, tc.password, "").StatusCode)
			assert.Equal(t, tc.summary, c.get(base).StatusCode)
			assert.Equal(t, tc.response, c.get(base+"/responses").StatusCode)
		})
	}
	owner := e.client(consoleHost)
	owner.consoleLogin("owner@ops.demo.test", "console-owner-1", "")
	assert.Equal(t, http.StatusNotFound, owner.get("/console/panels/demo/campaigns/"+nw+"/results").StatusCode, "another panel's campaign")
}

func TestTheResultsAPIGivesTheSummaryAndTheResponsesToScopedTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	poll := answerQuickPoll(t, e)
	read := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
	responses := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResponses)
	c := e.client(consoleHost)
	base := "/console/api/panels/demo/campaigns/" + poll + "/results"

	type count struct {
		ID    string  `json:"id"`
		Count int     `json:"count"`
		Share float64 `json:"share"`
	}
	sum := decodeJSON[struct {
		Responses int            `json:"responses"`
		Outcomes  map[string]int `json:"outcomes"`
		Questions []struct {
			ID       string  `json:"id"`
			Kind     string  `json:"kind"`
			Answered int     `json:"answered"`
			Options  []count `json:"options"`
		} `json:"questions"`
	}](t, c.consoleCall(http.MethodGet, base, read, ""), http.StatusOK)
	assert.Equal(t, 1, sum.Responses)
	assert.Equal(t, 1, sum.Outcomes["completed"])
	require.Len(t, sum.Questions, 1)
	assert.Equal(t, "choice", sum.Questions[0].Kind)
	assert.Contains(t, sum.Questions[0].Options, count{ID: "tea", Count: 1, Share: 1})

	bad := c.consoleCall(http.MethodGet, base+"?from=yesterday&answer=nope", read, "")
	require.Equal(t, http.StatusBadRequest, bad.StatusCode)
	assert.Contains(t, bad.Body, `"field":"from"`)
	assert.Contains(t, bad.Body, `"field":"answer"`)
	assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, base+"/responses", read, "").StatusCode, "responses need their own scope")
	assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, base, responses, "").StatusCode)

	list := decodeJSON[struct {
		Responses []struct {
			ID       string `json:"id"`
			Outcome  string `json:"outcome"`
			Language string `json:"language"`
		} `json:"responses"`
		Next *string `json:"next"`
	}](t, c.consoleCall(http.MethodGet, base+"/responses", responses, ""), http.StatusOK)
	require.Len(t, list.Responses, 1)
	assert.Nil(t, list.Next, "one page")
	assert.Equal(t, "completed", list.Responses[0].Outcome)
	one := c.consoleCall(http.MethodGet, base+"/responses/"+list.Responses[0].ID, responses, "")
	require.Equal(t, http.StatusOK, one.StatusCode)
	assert.Contains(t, one.Body, `{"questionId":"morning_drink","value":"tea"}`)
	assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodGet, base+"/responses?after=nonsense", responses, "").StatusCode)
}

func TestExportsOfAFilteredSummaryReadBackWithThePagesCounts(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		require.NoError(t, LoadDemoResults(t.Context(), e.app))
		poll := e.campaignID("demo", "Quick poll")
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
		c := e.client(consoleHost)
		base := "/console/api/panels/demo/campaigns/" + poll + "/results"
		filter := "?outcome=all&lang=en"

		sum := decodeJSON[struct {
			Responses int `json:"responses"`
			Questions []struct {
				Options []struct {
					ID    string `json:"id"`
					Count int    `json:"count"`
				} `json:"options"`
			} `json:"questions"`
		}](t, c.consoleCall(http.MethodGet, base+filter, token, ""), http.StatusOK)
		require.Greater(t, sum.Responses, 10, "the synthetic respondents answered")
		want := map[string]int{} // the summary's count of each option's code (its place, from 1)
		for i, o := range sum.Questions[0].Options {
			if o.Count > 0 {
				want[strconv.Itoa(i+1)] = o.Count
			}
		}

		csvRes := c.consoleCall(http.MethodGet, base+"/export.csv"+filter, token, "")
		require.Equal(t, http.StatusOK, csvRes.StatusCode)
		assert.Equal(t, `attachment; filename="quick-poll-responses.csv"`, csvRes.Header.Get("Content-Disposition"))
		rows, err := csv.NewReader(strings.NewReader(csvRes.Body)).ReadAll()
		require.NoError(t, err)
		require.Len(t, rows, sum.Responses+1, "a row per response and the header")
		assert.Equal(t, "q1_morning_drink", rows[0][6])
		got := map[string]int{}
		for _, r := range rows[1:] {
			assert.Equal(t, "en", r[5], "the filter holds")
			if r[6] != "" {
				got[r[6]]++
			}
		}
		assert.Equal(t, want, got, "the CSV counts what the summary counts")

		xlsxRes := c.consoleCall(http.MethodGet, base+"/export.xlsx"+filter, token, "")
		require.Equal(t, http.StatusOK, xlsxRes.StatusCode)
		book, err := excelize.OpenReader(strings.NewReader(xlsxRes.Body))
		require.NoError(t, err)
		defer book.Close()
		sheet, err := book.GetRows("Responses")
		require.NoError(t, err)
		require.Len(t, sheet, sum.Responses+1)
		got = map[string]int{}
		for _, r := range sheet[1:] {
			if len(r) > 6 && r[6] != "" {
				got[r[6]]++
			}
		}
		assert.Equal(t, want, got, "the workbook counts what the summary counts")
		codebook, err := book.GetRows("Codebook")
		require.NoError(t, err)
		assert.Contains(t, codebook, []string{"q1_morning_drink", "morning_drink", "", "2", "tea", "Tea"})

		sps := c.consoleCall(http.MethodGet, base+"/export.sps", token, "")
		require.Equal(t, http.StatusOK, sps.StatusCode)
		assert.Contains(t, sps.Body, "/FILE='quick-poll-responses.csv'")
		assert.Contains(t, sps.Body, "q1_morning_drink 1 'Coffee' 2 'Tea'")
		assert.EqualValues(t, 3, consoleAudits(t, e, "results.export", poll), "each export of responses is audited")
	})
}
