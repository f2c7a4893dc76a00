package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/stretchr/testify/require"
)

// resultsScaleCampaign is the campaign the results' scale run measures: "Your coffee habits"
// (seven questions: choices, a ranking, scales, amounts per period).
const resultsScaleCampaign = "3fd78ba0-b995-4303-9e75-b523dd8d40e9"

// TestResultsScaleRun measures a campaign's results at a panel's size (issue 34, make bench):
// the summary page with no filter and with one answer filter (p50 and p95 over 20 requests),
// the responses' first and last pages, and a CSV export of every response with the process's
// memory above idle while it streams. Against a database already seeded with `canvass seed
// scale` (CANVASS_RESULTS_SCALE_URL=postgres://…, a million participations in the note), or
// else a fresh one it seeds with CANVASS_RESULTS_SCALE_N participations (100,000 by default)
// on PostgreSQL when configured.
func TestResultsScaleRun(t *testing.T) {
	scaleURL := os.Getenv("CANVASS_RESULTS_SCALE_URL")
	if os.Getenv("CANVASS_BENCH") != "1" && scaleURL == "" {
		t.Skip("set CANVASS_BENCH=1 (make bench) or CANVASS_RESULTS_SCALE_URL to run the results' scale run")
	}
	ctx := context.Background()
	var e *env
	if scaleURL != "" {
		cfg := testConfig("development")
		cfg.DatabaseURL = scaleURL
		db, err := openMigrated(ctx, cfg, testLogger(t))
		require.NoError(t, err)
		t.Cleanup(func() { closeDB(db) })
		app, err := NewApp(cfg, db, testLogger(t), Options{WorkJobs: true})
		require.NoError(t, err)
		startJobs(t, app)
		e = &env{t: t, app: app, db: db, cfg: cfg}
	} else {
		dialect := migrations.SQLite
		if os.Getenv("CANVASS_TEST_POSTGRES_URL") != "" {
			dialect = migrations.Postgres
		}
		e = newEnv(t, dialect)
		n := 100000
		if s := os.Getenv("CANVASS_RESULTS_SCALE_N"); s != "" {
			var err error
			n, err = strconv.Atoi(s)
			require.NoError(t, err)
		}
		began := time.Now()
		require.NoError(t, (&seedScale{panelKey: "demo", campaignID: resultsScaleCampaign, participations: n}).run(ctx, e.app, io.Discard))
		t.Logf("seeded %d participations on %s in %s", n, dialect, time.Since(began).Round(time.Second))
	}
	var runs int64
	require.NoError(t, e.db.Table("participations").Where("campaign_id = ? AND started_at IS NOT NULL", resultsScaleCampaign).Count(&runs).Error)
	token := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionReadResults, console.ActionReadResponses)
	base := listenLoopback(t, e)
	results := base + "/console/api/panels/demo/campaigns/" + resultsScaleCampaign + "/results"
	get := func(path string) (*http.Response, error) {
		req, err := http.NewRequest(http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		req.Host = consoleHost
		req.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultClient.Do(req)
	}
	timed := func(name, path string, n int) {
		var took []time.Duration
		for range n {
			began := time.Now()
			res, err := get(path)
			require.NoError(t, err)
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			require.Equal(t, http.StatusOK, res.StatusCode, name)
			took = append(took, time.Since(began))
		}
		sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
		t.Logf("results at %d participations: %-30s p50 %8s  p95 %8s  (%d requests)", runs, name,
			ms(took[len(took)/2]), ms(took[(len(took)*95+99)/100-1]), n)
	}
	// The first summary of a campaign whose counts are not ready yet (seeded before the counts
	// existed) counts it once.
	began := time.Now()
	res, err := get(results)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	t.Logf("results at %d participations: first summary (counts the campaign if not counted yet) %s", runs, time.Since(began).Round(time.Millisecond))
	timed("summary, no filter", results, 20)
	timed("summary, all outcomes", results+"?outcome=all", 20)
	timed("summary, one answer filter", results+"?answer="+url.QueryEscape("drinks_coffee=yes"), 20)
	timed("responses, first page", results+"/responses", 20)
	last := lastPageCursor(t, e, resultsScaleCampaign)
	timed("responses, last page", results+"/responses?after="+url.QueryEscape(last), 20)

	// The export of every response: a job (above the limit of a download at once) that writes
	// the file while the process's resident memory is sampled, then the file's download.
	idle := rssBytes(t)
	var peak atomic.Int64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if r := rssBytes(t); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	began = time.Now()
	req, err := http.NewRequest(http.MethodPost, results+"/exports", strings.NewReader(`{"format":"csv","filter":"outcome=all"}`))
	require.NoError(t, err)
	req.Host = consoleHost
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	var job struct {
		Export struct {
			ID, Status          string
			RowsDone, RowsTotal int64
			Bytes               int64
		} `json:"export"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&job))
	res.Body.Close()
	require.Equal(t, http.StatusAccepted, res.StatusCode)
	for job.Export.Status != "done" {
		require.NotEqual(t, "failed", job.Export.Status)
		time.Sleep(250 * time.Millisecond)
		res, err = get(results + "/exports/" + job.Export.ID)
		require.NoError(t, err)
		require.NoError(t, json.NewDecoder(res.Body).Decode(&job))
		res.Body.Close()
	}
	written := time.Since(began)
	close(stop)
	<-done
	began = time.Now()
	res, err = get(results + "/exports/" + job.Export.ID + "/download")
	require.NoError(t, err)
	rows := 0
	sc := bufio.NewReaderSize(res.Body, 1<<16)
	for {
		line, err := sc.ReadString('\n')
		if strings.HasSuffix(line, "\n") {
			rows++
		}
		if err != nil {
			break
		}
	}
	res.Body.Close()
	t.Logf("results at %d participations: CSV export of every response: %d rows, %.1f MB, written by its job in %s (RSS %.0f MB idle, %.0f MB above it at most), downloaded in %s",
		runs, rows-1, float64(job.Export.Bytes)/1e6, written.Round(time.Millisecond), float64(idle)/1e6, float64(peak.Load()-idle)/1e6, time.Since(began).Round(time.Millisecond))
}

// lastPageCursor is the cursor whose next page is the responses' last (the 50 oldest).
func lastPageCursor(t *testing.T, e *env, campaignID string) string {
	var row struct {
		ID        string
		StartedAt time.Time
	}
	require.NoError(t, e.db.Table("participations").Select("id, started_at").Where("campaign_id = ? AND status = ?", campaignID, "completed").
		Order("started_at ASC, id ASC").Offset(50).Limit(1).Scan(&row).Error)
	return (&surveys.Cursor{At: row.StartedAt, ID: row.ID}).String()
}

// rssBytes is this process's resident memory (Linux), 0 elsewhere.
func rssBytes(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb * 1024
		}
	}
	return 0
}
