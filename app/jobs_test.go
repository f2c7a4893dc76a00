package main

import (
	"bytes"
	"context"
	"github.com/canvass/canvass/modules/results"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drainJobs waits (bounded) until no job is left to run: every queued mail has been sent.
func (e *env) drainJobs(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var open int64
		// A task may queue a mail (a forgot-password request's task mails the link): both count.
		require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'running', 'retryable', 'scheduled', 'pending') AND kind IN (?, ?)`, jobs.KindMail, jobs.KindTask).Scan(&open).Error)
		if open == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d mail and task jobs still waiting", open)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAPasswordResetMailIsAJobOfItsTokenAndGoesOutOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		res := c.postJSON("/ah/api/v2/user/forgot-password", `{"email":"member@demo.test"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		mail := e.smtp.WaitFor(t, DemoEmail, 20*time.Second)
		assert.Contains(t, mail.Subject, "password")
		e.drainJobs(t)

		var tokenID string
		require.NoError(t, e.db.Raw(`SELECT id FROM account_tokens WHERE purpose = ? ORDER BY created_at DESC LIMIT 1`, accounts.PurposePasswordReset).Scan(&tokenID).Error)
		list, err := e.app.Jobs.List(context.Background(), "completed", 10)
		require.NoError(t, err)
		// The leader's periodic jobs complete too, whenever their time comes: the mail is the
		// newest completed job of its kind.
		list = slices.DeleteFunc(list, func(j jobs.Job) bool { return j.Kind != jobs.KindMail })
		require.NotEmpty(t, list, "a completed mail job")
		assert.Equal(t, "account_token:"+tokenID, list[0].Event, "the mail's event is its token")

		var sealed string
		require.NoError(t, e.db.Raw(`SELECT CAST(args AS TEXT) FROM river_job WHERE id = ?`, list[0].ID).Scan(&sealed).Error)
		if e.app.Jobs != nil && !strings.Contains(sealed, "sealed") {
			// SQLite keeps args as JSONB: read it back as JSON.
			require.NoError(t, e.db.Raw(`SELECT json(args) FROM river_job WHERE id = ?`, list[0].ID).Scan(&sealed).Error)
		}
		assert.NotContains(t, sealed, "token=", "the link is sealed in the queue")
		assert.NotContains(t, sealed, DemoEmail, "and so is the address")

		// An operator's retry of the sent mail sends nothing more.
		var out bytes.Buffer
		jc, err := prepareJobsCommand([]string{"retry", strconv.FormatInt(list[0].ID, 10)})
		require.NoError(t, err)
		require.NoError(t, jc.run(context.Background(), e.app, &out))
		assert.Contains(t, out.String(), "runs again")
		e.drainJobs(t)
		for _, m := range e.smtp.Messages()[1:] {
			assert.NotEqual(t, DemoEmail, m.To[0], "no second reset mail")
		}
	})
}

func TestThePeriodicCleanUpRemovesOnlyExpiredRows(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		now := time.Now().UTC()
		var participant, holder string
		require.NoError(t, e.db.Raw(`SELECT p.id, p.account_holder_id FROM participants p JOIN account_holders a ON a.id = p.account_holder_id WHERE a.email = ?`, DemoEmail).Row().Scan(&participant, &holder))
		session := func(expires time.Time) string {
			id := uuid.NewString()
			require.NoError(t, e.db.Exec(`INSERT INTO sessions (id, token_hash, participant_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
				id, "h-"+id, participant, now.Add(-48*time.Hour), now.Add(-time.Hour), expires).Error)
			return id
		}
		token := func(expires time.Time) string {
			id := uuid.NewString()
			require.NoError(t, e.db.Exec(`INSERT INTO account_tokens (id, token_hash, account_holder_id, purpose, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				id, "h-"+id, holder, accounts.PurposePasswordReset, expires, now.Add(-48*time.Hour)).Error)
			return id
		}
		limit := func(start time.Time) string {
			key := "test:" + uuid.NewString()
			require.NoError(t, e.db.Exec(`INSERT INTO rate_limits (key, window_start, hits) VALUES (?, ?, 3)`, key, start).Error)
			return key
		}
		for _, tc := range []struct {
			name, sweep, table, column string
			expired, live              string
		}{
			{"an expired session goes and a live one stays", "sessions", "sessions", "id", session(now.Add(-time.Minute)), session(now.Add(time.Hour))},
			{"an expired reset token goes and a live one stays", "account_tokens", "account_tokens", "id", token(now.Add(-time.Minute)), token(now.Add(time.Hour))},
			{"a login counter older than the longest window goes and a recent one stays", "rate_limits", "rate_limits", "key",
				limit(now.Add(-ratelimit.LongestWindow - time.Minute)), limit(now.Add(-ratelimit.LongestWindow + time.Hour))},
		} {
			t.Run(tc.name, func(t *testing.T) {
				removed, err := e.app.Jobs.RunSweep(ctx, tc.sweep, now)
				require.NoError(t, err)
				assert.GreaterOrEqual(t, removed, int64(1))
				count := func(id string) int64 {
					var n int64
					require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM `+tc.table+` WHERE `+tc.column+` = ?`, id).Scan(&n).Error)
					return n
				}
				assert.Zero(t, count(tc.expired), "the expired row is gone")
				assert.Equal(t, int64(1), count(tc.live), "the live row is kept")
			})
		}
		assert.Equal(t, map[string]time.Duration{
			"sessions": sweepSessionsEvery, "operator_sessions": sweepSessionsEvery, "account_tokens": sweepTokensEvery,
			"rate_limits": sweepRateLimitsEvery, "job_deliveries": sweepDeliveriesEvery, "competition_draws": drawCompetitionsEvery,
			"result_exports": results.SweepExportsEvery,
		}, e.app.Jobs.Sweeps(), "every periodic job is scheduled")
	})
}

func TestJobsCommandsListRetryAndCancelForOperators(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		e.smtp.RefuseNext(1000) // every mail is refused: the reset mail stays retryable
		require.Equal(t, http.StatusOK, e.client("localhost").postJSON("/ah/api/v2/user/forgot-password", `{"email":"member@demo.test"}`).StatusCode)
		var id int64
		deadline := time.Now().Add(20 * time.Second)
		for id == 0 {
			list, err := e.app.Jobs.List(ctx, "retryable", 10)
			require.NoError(t, err)
			if len(list) > 0 {
				id = list[0].ID
			}
			require.True(t, time.Now().Before(deadline), "the refused mail becomes retryable")
			time.Sleep(10 * time.Millisecond)
		}
		run := func(args ...string) (string, error) {
			var out bytes.Buffer
			jc, err := prepareJobsCommand(args)
			if err != nil {
				return "", err
			}
			err = jc.run(ctx, e.app, &out)
			return out.String(), err
		}
		for _, tc := range []struct {
			name     string
			args     []string
			contains []string
			fails    bool
		}{
			{name: "list by state shows the kind, state, attempts and the error", args: []string{"list", "--state", "retryable"},
				contains: []string{"mail", "retryable", "/12", "account_token:", "451"}},
			{name: "list of a state with no jobs says so", args: []string{"list", "--state", "discarded"}, contains: []string{"no jobs"}},
			{name: "cancel stops the job for good", args: []string{"cancel", strconv.FormatInt(id, 10)}, contains: []string{"cancelled"}},
			{name: "the cancelled job is listed with its error", args: []string{"list", "--state", "cancelled"}, contains: []string{"cancelled", "error 1:"}},
			{name: "an unknown job is refused", args: []string{"retry", "999999"}, fails: true},
			{name: "an unknown state is refused", args: []string{"list", "--state", "lost"}, fails: true},
			{name: "a missing id is refused", args: []string{"cancel"}, fails: true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				out, err := run(tc.args...)
				if tc.fails {
					assert.Error(t, err)
					return
				}
				require.NoError(t, err)
				for _, want := range tc.contains {
					assert.Contains(t, out, want)
				}
			})
		}
		e.smtp.RefuseNext(0)
		out, err := run("retry", strconv.FormatInt(id, 10))
		require.NoError(t, err)
		assert.Contains(t, out, "available")
		mail := e.smtp.WaitFor(t, DemoEmail, 20*time.Second)
		assert.Contains(t, mail.Subject, "password", "a retried mail goes out")
	})
}

func TestTheQueueIsCountedInTheMetrics(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		require.Equal(t, http.StatusOK, e.client("localhost").postJSON("/ah/api/v2/user/forgot-password", `{"email":"member@demo.test"}`).StatusCode)
		e.smtp.WaitFor(t, DemoEmail, 20*time.Second)
		e.drainJobs(t)
		reg := e.app.Metrics.Registry()
		deadline := time.Now().Add(30 * time.Second)
		for metricValue(t, reg, "canvass_jobs_finished_total", map[string]string{"kind": "mail", "result": "completed"}) < 1 {
			require.True(t, time.Now().Before(deadline), "the completed mail is counted")
			time.Sleep(10 * time.Millisecond)
		}
		assert.GreaterOrEqual(t, metricValue(t, reg, "canvass_jobs", map[string]string{"state": "completed", "kind": "mail"}), 1.0, "depth by state and kind")
		// A periodic job may be due for a moment while the machine is busy, so the queue is
		// watched until it is empty of due jobs rather than read once.
		for metricValue(t, reg, "canvass_jobs_oldest_available_age_seconds", nil) != 0 {
			require.True(t, time.Now().Before(deadline), "nothing waits once the workers catch up")
			time.Sleep(10 * time.Millisecond)
		}
		waiting, err := e.app.Jobs.Client().Insert(context.Background(), jobs.SweepArgs{Name: "sessions"},
			&river.InsertOpts{Queue: "unworked", ScheduledAt: time.Now().Add(-time.Hour)})
		require.NoError(t, err)
		assert.GreaterOrEqual(t, metricValue(t, reg, "canvass_jobs_oldest_available_age_seconds", nil), 3590.0, "a job due an hour ago has waited an hour")
		_, err = e.app.Jobs.Client().JobCancel(context.Background(), waiting.Job.ID)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, metricValue(t, reg, "canvass_job_duration_seconds", map[string]string{"kind": "mail"}), 1.0, "the attempt's run time is observed")
		assert.Equal(t, http.StatusOK, e.client("localhost").get("/readyz").StatusCode, "a moving queue is ready")
	})
}

func TestReadyzSaysSoWhenAJobHasWaitedTooLongForAWorker(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		// A job in a queue no process works, available for longer than jobs.StuckAfter.
		_, err := e.app.Jobs.Client().Insert(context.Background(), jobs.SweepArgs{Name: "sessions"},
			&river.InsertOpts{Queue: "unworked", ScheduledAt: time.Now().Add(-jobs.StuckAfter - time.Minute)})
		require.NoError(t, err)
		res := e.client("localhost").get("/readyz")
		assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
		assert.Contains(t, res.Body, "job queue stuck")
	})
}
