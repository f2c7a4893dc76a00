package main

import (
	"encoding/base64"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInChromiumAnEditorOpensTheQuickPollsResultsFromItsPageSeesTheMembersVoteAndFiltersItOut(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	poll := b.campaignID("demo", "Quick poll")
	m := b.member()
	api := "/api/v1/demo/campaigns/" + poll
	require.Equal(t, http.StatusOK, m.get(api+"/go").StatusCode)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/morning_drink", `{"answer":"tea"}`).StatusCode)

	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "editor@ops.demo.test", "console-editor-1")
	b.consoleOpen(p, "/console/panels/demo/campaigns/"+poll)
	leave(p, "the Results link", func() { p.MustElementR("a", "^Results$").MustClick() })
	assert.Equal(t, "/console/panels/demo/campaigns/"+poll+"/results", path(p))
	tea := p.MustElement(`#q-morning_drink tr[data-code="tea"]`)
	assert.Contains(t, tea.MustText(), "1", "the member's vote is counted")
	assert.Contains(t, tea.MustText(), "100 %")
	assert.True(t, p.MustHas(`#q-morning_drink svg`), "and drawn")

	// The filter is a plain form: choosing another outcome leaves no vote to count.
	p.MustElement("#f-outcome").MustSelect("Screened out")
	leave(p, "Apply", func() { p.MustElement("#rv-filter button[type=submit]").MustClick() })
	assert.Contains(t, path(p), "/results?outcome=screened&", "a GET form: the filter is in the address")
	assert.Contains(t, p.MustElement("#q-morning_drink").MustText(), "No answers yet.")
}

// queuedExport stores an export job of the campaign that no task prepares: it stays queued,
// with total rows to write, until the test moves it on. It gives its id.
func queuedExport(t *testing.T, e *env, panelKey, campaignID string, total int64) string {
	t.Helper()
	id := uuid.Must(uuid.NewV7()).String()
	require.NoError(t, e.db.Create(&results.Export{ID: id, PanelID: panelID(t, e, panelKey), CampaignID: campaignID, Format: "csv",
		FilterQuery: "outcome=all", OperatorID: "test", Status: results.ExportQueued, RowsTotal: total, CreatedAt: time.Now().UTC()}).Error)
	return id
}

func TestInChromiumAnExportsPageFollowsItsJobAndShowsTheFileOnceItIsReady(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	snack := b.campaignID("demo", "New snack bar concept")
	id := queuedExport(t, b.env, "demo", snack, 100)
	page := "/console/panels/demo/campaigns/" + snack + "/results/exports/" + id

	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "editor@ops.demo.test", "console-editor-1")
	b.consoleOpen(p, page)
	status := p.MustElement("#rv-job-status")
	assert.Equal(t, "Waiting to start: 100 responses to write.", status.MustText())
	assert.False(t, p.MustElement("#rv-job-download").MustVisible(), "no file yet")
	assert.True(t, p.MustElement("#rv-job-check").MustVisible(), "and a link to look again")

	// The job starts: the script's next poll (every 2 s) says so, without a reload.
	require.NoError(t, b.db.Model(&results.Export{}).Where("id = ?", id).Updates(map[string]any{"status": results.ExportRunning, "rows_done": 40}).Error)
	p.Timeout(browserStep).MustElementR("#rv-job-status", `40 of 100 responses written \(40 %\)`)
	assert.Equal(t, "40", p.MustEval(`() => String(document.getElementById('rv-job-progress').value)`).Str())
	assert.Equal(t, "polite", *p.MustElement("#rv-job-live").MustAttribute("aria-live"), "said to a screen reader's user")

	// It is done: the link shows, and there is nothing left to check.
	now := time.Now().UTC()
	expires := now.Add(results.ExportKept)
	require.NoError(t, b.db.Create(&results.ExportChunk{ExportID: id, Seq: 0, Data: base64.StdEncoding.EncodeToString([]byte("response_id\nr1\n"))}).Error)
	require.NoError(t, b.db.Model(&results.Export{}).Where("id = ?", id).Updates(map[string]any{
		"status": results.ExportDone, "rows_done": 100, "bytes": 15, "finished_at": now, "expires_at": expires}).Error)
	p.Timeout(browserStep).MustElement("#rv-job-download").MustWaitVisible()
	assert.Equal(t, page+"/download", *p.MustElement("#rv-job-download").MustAttribute("href"))
	assert.False(t, p.MustHas("#rv-job-check"), "nothing left to check")
	assert.Contains(t, status.MustText(), "Ready: 100 responses written.")
	assert.Equal(t, page, path(p), "all without leaving the page")
}

func init() {
	consoleParts["results"] = consolePart{
		pages: []string{
			"/console/panels/:panel/campaigns/:id/results", "/console/panels/:panel/campaigns/:id/results/text/:question",
			"/console/panels/:panel/campaigns/:id/results/responses", "/console/panels/:panel/campaigns/:id/results/responses/:response",
			"/console/panels/:panel/campaigns/:id/results/exports/:export",
		},
		skipped: map[string]string{
			"/console/panels/:panel/campaigns/:id/results/export.csv":               "a download (CSV), not a page",
			"/console/panels/:panel/campaigns/:id/results/codebook.csv":             "a download (CSV), not a page",
			"/console/panels/:panel/campaigns/:id/results/export.sps":               "a download (SPSS syntax), not a page",
			"/console/panels/:panel/campaigns/:id/results/export.xlsx":              "a download (a workbook), not a page",
			"/console/panels/:panel/campaigns/:id/results/exports/:export/download": "a download (an export job's file), not a page",
			"/console/panels/:panel/campaigns/:id/results/exports/:export/progress": "JSON (an export job's progress, for its page's script), not a page",
		},
		visit: func(t *testing.T, w *a11yWalk, s *a11ySession) {
			// Synthetic respondents, so every kind of result has something to draw.
			require.NoError(t, LoadDemoResults(t.Context(), w.b.app))
			base := func(name string) string {
				return "/console/panels/demo/campaigns/" + w.b.campaignID("demo", name) + "/results"
			}
			w.open(s, base("Your coffee habits"))
			w.check(s, "console: results (ranking, scales, amounts)")
			w.open(s, base("Streaming TV at home"))
			w.check(s, "console: results (grid, NPS, most/least)")
			snack := base("New snack bar concept")
			w.open(s, snack)
			w.check(s, "console: results (text, images, video)")
			w.open(s, snack+"?outcome=all&from=2000-01-01&answer=expected_price%3Dfrom_3_to_4&row=purchase_intent&col=bar_name")
			w.check(s, "console: results, filtered, with a cross-tab")
			w.open(s, snack+"?from=01/01/2000")
			w.check(s, "console: results, filter refused")
			w.open(s, snack+"/text/improvements?q=e")
			w.check(s, "console: results, text answers searched")
			w.open(s, snack+"/responses")
			w.check(s, "console: responses")
			w.open(s, *s.p().MustElement("#rv-responses tbody tr a").MustAttribute("href"))
			w.check(s, "console: one response")

			// An export job, prepared by the queue: its page once the file is ready, and the
			// summary that lists it.
			snackID := w.b.campaignID("demo", "New snack bar concept")
			api := "/console/api/panels/demo/campaigns/" + snackID + "/results"
			token := consoleAPIToken(t, w.b.env, "editor@ops.demo.test", "demo", console.ActionReadResults)
			c := w.b.client(consoleHost)
			job := createExport(t, c, api, token, "xlsx", "outcome=all")
			require.Equal(t, results.ExportDone, waitExport(t, c, api, token, job.ID).Status)
			w.open(s, snack+"/exports/"+job.ID)
			w.check(s, "console: an export job, done")
			queued := queuedExport(t, w.b.env, "demo", snackID, 48211)
			w.open(s, snack+"/exports/"+queued)
			w.check(s, "console: an export job, waiting (its script polls)")
			w.open(s, snack+"?outcome=all")
			w.check(s, "console: results with their recent exports")
		},
	}
}
