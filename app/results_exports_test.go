package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

// The results' export jobs (modules/results/export_jobs*.go), end to end: the Quick poll's
// synthetic respondents, with a direct download limit of exportsLimit so that one filter
// (exportsSmall, 77 responses) downloads at once and another (exportsLarge, 162) is prepared
// as a job of the queue.
const (
	exportsLimit = 100
	exportsSmall = "outcome=all&lang=es"
	exportsLarge = "outcome=all&lang=en"
)

// newExportsEnv is an app over the demo with the results' synthetic respondents and a direct
// download limit of exportsLimit; working jobs or not.
func newExportsEnv(t *testing.T, d migrations.Dialect, work bool) *env {
	t.Helper()
	cfg := testConfig("development")
	cfg.UploadsDir = t.TempDir()
	cfg.JobPoll = 50 * time.Millisecond
	if !work {
		cfg.JobWorkers = 0
	}
	db := demoDB(t, d, cfg)
	smtp := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
	require.NoError(t, err)
	app, err := NewApp(cfg, db, testLogger(t), Options{Mail: sender, WorkJobs: true, ResultsExportLimit: exportsLimit})
	require.NoError(t, err)
	startJobs(t, app)
	e := &env{t: t, app: app, db: db, smtp: smtp, cfg: cfg}
	require.NoError(t, LoadDemoResults(t.Context(), app))
	return e
}

// eachExportsDialect runs fn on each dialect with its own newExportsEnv, side by side.
func eachExportsDialect(t *testing.T, work bool, fn func(t *testing.T, e *env)) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, newExportsEnv(t, d, work))
		})
	}
}

// exportJSON is an export job as the API shows it.
type exportJSON struct {
	ID        string  `json:"id"`
	Format    string  `json:"format"`
	Filter    string  `json:"filter"`
	Status    string  `json:"status"`
	RowsDone  int64   `json:"rowsDone"`
	RowsTotal int64   `json:"rowsTotal"`
	Bytes     int64   `json:"bytes"`
	Error     *string `json:"error"`
}

// createExport asks the API for an export job and gives it as the 202 shows it.
func createExport(t *testing.T, c *client, base, token, format, filter string) exportJSON {
	t.Helper()
	body, err := json.Marshal(map[string]string{"format": format, "filter": filter})
	require.NoError(t, err)
	return decodeJSON[struct {
		Export exportJSON `json:"export"`
	}](t, c.consoleCall(http.MethodPost, base+"/exports", token, string(body)), http.StatusAccepted).Export
}

// waitExport polls the API until the export job is done or failed (a bounded wait, not a
// timed assertion).
func waitExport(t *testing.T, c *client, base, token, id string) exportJSON {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		e := decodeJSON[struct {
			Export exportJSON `json:"export"`
		}](t, c.consoleCall(http.MethodGet, base+"/exports/"+id, token, ""), http.StatusOK).Export
		if e.Status == results.ExportDone || e.Status == results.ExportFailed {
			return e
		}
		if time.Now().After(deadline) {
			t.Fatalf("export %s is still %s", id, e.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// workbookRows are a workbook's sheets' rows.
func workbookRows(t *testing.T, body string) map[string][][]string {
	t.Helper()
	book, err := excelize.OpenReader(strings.NewReader(body))
	require.NoError(t, err)
	defer book.Close()
	out := map[string][][]string{}
	for _, name := range book.GetSheetList() {
		rows, err := book.GetRows(name)
		require.NoError(t, err)
		out[name] = rows
	}
	return out
}

var exportPageRE = regexp.MustCompile(`/results/exports/([0-9a-f-]{36})$`)

func TestAnExportJobOfAFilteredSummaryCompletesWithTheDirectExportsFileAndItsPageLinksIt(t *testing.T) {
	t.Parallel()
	eachExportsDialect(t, true, func(t *testing.T, e *env) {
		poll := e.campaignID("demo", "Quick poll")
		pages := "/console/panels/demo/campaigns/" + poll + "/results"
		api := "/console/api/panels/demo/campaigns/" + poll + "/results"
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
		c := e.editorClient(t)

		t.Run("a filter of at most the limit downloads at once, one above it is prepared", func(t *testing.T) {
			small := c.get(pages + "?" + exportsSmall)
			require.Equal(t, http.StatusOK, small.StatusCode)
			assert.Contains(t, small.Body, pages+"/export.csv?lang=es&amp;outcome=all")
			assert.NotContains(t, small.Body, `action="`+pages+`/exports"`)

			large := c.get(pages + "?" + exportsLarge)
			require.Equal(t, http.StatusOK, large.StatusCode)
			assert.Contains(t, large.Body, `action="`+pages+`/exports"`)
			assert.Contains(t, large.Body, "Prepare CSV (162 responses)")
			assert.Contains(t, large.Body, "Prepare workbook (162 responses)")
			assert.NotContains(t, large.Body, pages+"/export.csv?", "no direct download of them")
			assert.Contains(t, large.Body, pages+"/codebook.csv", "the codebook is small whatever the count")

			refused := c.get(pages + "/export.csv?" + exportsLarge)
			require.Equal(t, http.StatusSeeOther, refused.StatusCode, "never a download that outlasts the write timeout")
			back := refused.Header.Get("Location")
			assert.Contains(t, back, pages+"?")
			notice := c.get(back)
			require.Equal(t, http.StatusOK, notice.StatusCode)
			assert.Contains(t, notice.Body, "This filter keeps more than 100 responses")
			conflict := c.consoleCall(http.MethodGet, api+"/export.xlsx?"+exportsLarge, token, "")
			assert.Equal(t, http.StatusConflict, conflict.StatusCode)
			assert.Contains(t, conflict.Body, `"export_too_large"`)
		})

		audited := consoleAudits(t, e, "results.export", poll)
		for _, format := range []string{"csv", "xlsx"} {
			t.Run("the API's "+format+" job writes the direct export's file", func(t *testing.T) {
				direct := c.consoleCall(http.MethodGet, api+"/export."+format+"?"+exportsSmall, token, "")
				require.Equal(t, http.StatusOK, direct.StatusCode)
				job := createExport(t, c, api, token, format, exportsSmall)
				assert.Equal(t, results.ExportQueued, job.Status)
				assert.EqualValues(t, 77, job.RowsTotal, "counted when queued")
				assert.Equal(t, "lang=es&outcome=all", job.Filter)
				done := waitExport(t, c, api, token, job.ID)
				require.Equal(t, results.ExportDone, done.Status, "%v", done.Error)
				assert.EqualValues(t, 77, done.RowsDone, "the progress reaches its total")
				assert.Equal(t, done.RowsTotal, done.RowsDone)

				file := c.consoleCall(http.MethodGet, api+"/exports/"+job.ID+"/download", token, "")
				require.Equal(t, http.StatusOK, file.StatusCode)
				assert.Equal(t, direct.Header.Get("Content-Disposition"), file.Header.Get("Content-Disposition"), "the direct export's name")
				assert.Equal(t, direct.Header.Get("Content-Type"), file.Header.Get("Content-Type"))
				assert.EqualValues(t, len(file.Body), done.Bytes)
				if format == "csv" {
					assert.Equal(t, direct.Body, file.Body, "byte for byte")
				} else {
					assert.Equal(t, workbookRows(t, direct.Body), workbookRows(t, file.Body), "cell for cell")
				}
				assert.EqualValues(t, 1, consoleAudits(t, e, "results.export.download", job.ID), "each download is audited")
			})
		}

		t.Run("the summary's form prepares the large filter's CSV and its page links the file", func(t *testing.T) {
			res := c.consolePost(pages+"?"+exportsLarge, pages+"/exports", url.Values{"format": {"csv"}, "filter": {exportsLarge}})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
			m := exportPageRE.FindStringSubmatch(res.Header.Get("Location"))
			require.NotNil(t, m, res.Header.Get("Location"))
			id := m[1]
			page := c.get(pages + "/exports/" + id)
			require.Equal(t, http.StatusOK, page.StatusCode)
			assert.Contains(t, page.Body, "Language: English", "the filter in words")
			assert.Contains(t, page.Body, `<progress id="rv-job-progress"`)

			done := waitExport(t, c, api, token, id)
			require.Equal(t, results.ExportDone, done.Status)
			progress := decodeJSON[struct {
				Status string `json:"status"`
				Done   int64  `json:"done"`
				Total  int64  `json:"total"`
				Text   string `json:"text"`
			}](t, c.get(pages+"/exports/"+id+"/progress"), http.StatusOK)
			assert.Equal(t, results.ExportDone, progress.Status)
			assert.EqualValues(t, 162, progress.Done)
			assert.Equal(t, progress.Total, progress.Done)
			assert.Equal(t, "Ready: 162 responses written.", progress.Text)

			page = c.get(pages + "/exports/" + id)
			require.Equal(t, http.StatusOK, page.StatusCode)
			assert.Regexp(t, `<li id="rv-job-file"><a id="rv-job-download" href="`+regexp.QuoteMeta(pages+"/exports/"+id+"/download")+`" download>`, page.Body, "the link, shown")
			assert.Contains(t, page.Body, `<progress id="rv-job-progress" max="162" value="162"`)
			assert.NotContains(t, page.Body, "rv-job-check", "nothing left to check")
			assert.NotContains(t, page.Body, "data-poll", "nor to poll")

			file := c.get(pages + "/exports/" + id + "/download")
			require.Equal(t, http.StatusOK, file.StatusCode)
			assert.Equal(t, `attachment; filename="quick-poll-responses.csv"`, file.Header.Get("Content-Disposition"))
			rows, err := csv.NewReader(strings.NewReader(file.Body)).ReadAll()
			require.NoError(t, err)
			require.Len(t, rows, 163, "a row per response and the header")
			for _, r := range rows[1:] {
				assert.Equal(t, "en", r[5], "the filter holds")
			}

			summary := c.get(pages + "?" + exportsLarge)
			assert.Contains(t, summary.Body, `href="`+pages+"/exports/"+id+`"`, "the summary lists its recent exports")
		})
		assert.EqualValues(t, audited+2+3, consoleAudits(t, e, "results.export", poll), "each job is audited when it is asked for, like each direct export")

		t.Run("another panel's or campaign's export is a 404", func(t *testing.T) {
			job := createExport(t, c, api, token, "csv", exportsSmall)
			owner := e.client(consoleHost)
			require.Equal(t, http.StatusSeeOther, owner.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
			nw := e.campaignID("northwind", "Tea or coffee?")
			other := e.campaignID("demo", "Your coffee habits")
			for _, path := range []string{
				"/console/panels/northwind/campaigns/" + nw + "/results/exports/" + job.ID,
				"/console/panels/northwind/campaigns/" + nw + "/results/exports/" + job.ID + "/download",
				"/console/panels/demo/campaigns/" + other + "/results/exports/" + job.ID,
				"/console/panels/demo/campaigns/" + other + "/results/exports/" + job.ID + "/progress",
			} {
				assert.Equal(t, http.StatusNotFound, owner.get(path).StatusCode, path)
			}
			northwind := consoleAPIToken(t, e, "owner@ops.demo.test", "northwind", console.ActionReadResults)
			assert.Equal(t, http.StatusNotFound, owner.consoleCall(http.MethodGet,
				"/console/api/panels/northwind/campaigns/"+nw+"/results/exports/"+job.ID, northwind, "").StatusCode)
		})
	})
}

func TestAQueuedExportsPageShowsItsProgressAndWaitsWithoutAndWithJavaScript(t *testing.T) {
	t.Parallel()
	eachExportsDialect(t, false, func(t *testing.T, e *env) {
		poll := e.campaignID("demo", "Quick poll")
		pages := "/console/panels/demo/campaigns/" + poll + "/results"
		api := "/console/api/panels/demo/campaigns/" + poll + "/results"
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
		c := e.editorClient(t)
		job := createExport(t, c, api, token, "xlsx", exportsLarge)

		page := c.get(pages + "/exports/" + job.ID)
		require.Equal(t, http.StatusOK, page.StatusCode)
		for _, want := range []string{
			`aria-live="polite"`, "Waiting to start: 162 responses to write.", `<progress id="rv-job-progress" max="162" value="0"`,
			`id="rv-job-check" href="` + pages + "/exports/" + job.ID + `"`, `data-poll="` + pages + "/exports/" + job.ID + `/progress"`,
			`<script nonce=`, "Workbook (XLSX)",
		} {
			assert.Contains(t, page.Body, want)
		}
		assert.Regexp(t, `<li id="rv-job-file" hidden><a id="rv-job-download" href="[^"]+" download>`, page.Body, "the link waits, hidden, for the script")
		assert.NotContains(t, page.Body, `http-equiv="refresh"`)

		notReady := c.get(pages + "/exports/" + job.ID + "/download")
		assert.Equal(t, http.StatusConflict, notReady.StatusCode)
		apiNotReady := c.consoleCall(http.MethodGet, api+"/exports/"+job.ID+"/download", token, "")
		assert.Equal(t, http.StatusConflict, apiNotReady.StatusCode)
		assert.Contains(t, apiNotReady.Body, `"export_not_ready"`)

		for _, bad := range []struct{ body, field string }{
			{`{"format":"sav","filter":""}`, `"field":"format"`},
			{`{"format":"csv","filter":"lang=fr"}`, `"field":"lang"`},
			{`{"format":"csv","filter":"%zz"}`, `"field":"filter"`},
		} {
			res := c.consoleCall(http.MethodPost, api+"/exports", token, bad.body)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, bad.body)
			assert.Contains(t, res.Body, bad.field, bad.body)
		}
		var n int64
		require.NoError(t, e.db.Table("result_exports").Count(&n).Error)
		assert.EqualValues(t, 1, n, "a refused export is not stored")
	})
}

func TestAFailedExportSaysWhyAndCanBeTriedAgain(t *testing.T) {
	t.Parallel()
	eachExportsDialect(t, true, func(t *testing.T, e *env) {
		poll := e.campaignID("demo", "Quick poll")
		pages := "/console/panels/demo/campaigns/" + poll + "/results"
		api := "/console/api/panels/demo/campaigns/" + poll + "/results"
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
		c := e.editorClient(t)
		job := createExport(t, c, api, token, "csv", exportsLarge)
		require.Equal(t, results.ExportDone, waitExport(t, c, api, token, job.ID).Status)
		// What the task leaves of an export whose last attempt failed.
		require.NoError(t, e.db.Exec(`DELETE FROM result_export_chunks WHERE export_id = ?`, job.ID).Error)
		require.NoError(t, e.db.Exec(`UPDATE result_exports SET status = ?, error_code = 'failed', rows_done = 0, bytes = 0 WHERE id = ?`, results.ExportFailed, job.ID).Error)

		failed := waitExport(t, c, api, token, job.ID)
		require.NotNil(t, failed.Error)
		assert.Contains(t, *failed.Error, "Something went wrong while preparing the file.")
		page := c.get(pages + "/exports/" + job.ID)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "Something went wrong while preparing the file.")
		assert.Contains(t, page.Body, `id="rv-job-retry"`)
		assert.NotContains(t, page.Body, "rv-job-download")
		assert.Equal(t, http.StatusConflict, c.get(pages+"/exports/"+job.ID+"/download").StatusCode)

		form := url.Values{}
		for _, m := range regexp.MustCompile(`<input type="hidden" name="(format|filter)" value="([^"]*)"`).FindAllStringSubmatch(page.Body, -1) {
			form.Set(m[1], strings.ReplaceAll(m[2], "&amp;", "&"))
		}
		assert.Equal(t, url.Values{"format": {"csv"}, "filter": {"lang=en&outcome=all"}}, form, "the form asks for the same export")
		again := c.consolePost(pages+"/exports/"+job.ID, pages+"/exports", form)
		require.Equal(t, http.StatusSeeOther, again.StatusCode)
		m := exportPageRE.FindStringSubmatch(again.Header.Get("Location"))
		require.NotNil(t, m)
		assert.NotEqual(t, job.ID, m[1], "a new export")
		done := waitExport(t, c, api, token, m[1])
		require.Equal(t, results.ExportDone, done.Status)
		file := c.get(pages + "/exports/" + m[1] + "/download")
		require.Equal(t, http.StatusOK, file.StatusCode)
		assert.Equal(t, 163, bytes.Count([]byte(file.Body), []byte("\n")), "every response and the header")
	})
}

func TestExpiredExportsAndTheirFilesAreDeletedByThePeriodicTask(t *testing.T) {
	t.Parallel()
	eachExportsDialect(t, true, func(t *testing.T, e *env) {
		ctx := context.Background()
		poll := e.campaignID("demo", "Quick poll")
		api := "/console/api/panels/demo/campaigns/" + poll + "/results"
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionReadResults)
		c := e.client(consoleHost)
		job := createExport(t, c, api, token, "csv", exportsSmall)
		require.Equal(t, results.ExportDone, waitExport(t, c, api, token, job.ID).Status)
		chunks := func() int64 {
			var n int64
			require.NoError(t, e.db.Table("result_export_chunks").Where("export_id = ?", job.ID).Count(&n).Error)
			return n
		}
		require.Positive(t, chunks(), "its file is in the database")

		assert.Equal(t, results.SweepExportsEvery, e.app.Jobs.Sweeps()["result_exports"], "a periodic job")
		n, err := e.app.Jobs.RunSweep(ctx, "result_exports", time.Now().Add(results.ExportKept-time.Minute))
		require.NoError(t, err)
		assert.Zero(t, n, "kept for a day")
		assert.Equal(t, http.StatusOK, c.consoleCall(http.MethodGet, api+"/exports/"+job.ID+"/download", token, "").StatusCode)

		n, err = e.app.Jobs.RunSweep(ctx, "result_exports", time.Now().Add(results.ExportKept+time.Minute))
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.Zero(t, chunks(), "its file is deleted with it")
		assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodGet, api+"/exports/"+job.ID, token, "").StatusCode)
	})
}
