package jobs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// queue is a queue over db that mails to a loopback SMTP server, retrying at once.
func queue(t *testing.T, db *gorm.DB, workers int) (*jobs.Queue, *mailertest.Server) {
	t.Helper()
	smtp := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
	require.NoError(t, err)
	sealer, err := web.NewSealer(make([]byte, 32))
	require.NoError(t, err)
	q, err := jobs.New(jobs.Deps{DB: db, Mail: sender, Sealer: sealer, Config: jobs.Config{
		Workers: workers, PollInterval: 20 * time.Millisecond, ID: "test_" + t.Name(),
		RetryAfter: func(int) time.Duration { return 10 * time.Millisecond },
	}})
	require.NoError(t, err)
	return q, smtp
}

func start(t *testing.T, q *jobs.Queue) {
	t.Helper()
	require.NoError(t, q.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = q.Stop(ctx)
	})
}

func message(to string) mailer.Message {
	return mailer.Message{To: to, Subject: "Reset your password", Text: "Follow the link: https://example.test/reset?token=secret"}
}

// queueIn runs fn's change and queues a mail for event in one transaction, committed unless
// fn fails.
func queueIn(t *testing.T, db *gorm.DB, q *jobs.Queue, event, to string, fn func(tx *gorm.DB) error) error {
	t.Helper()
	return db.Transaction(func(tx *gorm.DB) error {
		if err := fn(tx); err != nil {
			return err
		}
		if err := q.Queue(tx, event, message(to)); err != nil {
			return err
		}
		return nil
	})
}

func noChange(*gorm.DB) error { return nil }

// waitState polls until the job of the event is in state (a bounded wait, not a timed assertion).
func waitState(t *testing.T, q *jobs.Queue, event, state string) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := q.List(context.Background(), "", 100)
		require.NoError(t, err)
		for _, j := range list {
			if j.Event == event && j.State == state {
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job of %s never reached %s: %+v", event, state, list)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAMailJobIsInsertedWithItsCauseOrNotAtAll(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, _ := queue(t, db, 0)
		cause := func(key string) func(tx *gorm.DB) error {
			return func(tx *gorm.DB) error {
				return tx.Exec(`INSERT INTO rate_limits (key, window_start, hits) VALUES (?, ?, 1)`, key, time.Now().UTC()).Error
			}
		}
		for _, tc := range []struct {
			name     string
			event    string
			rollback bool
			jobs     int
		}{
			{name: "a committed cause has its mail job", event: "committed", jobs: 1},
			{name: "a cause rolled back leaves no job", event: "rolled-back", rollback: true, jobs: 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := queueIn(t, db, q, tc.event, "ann@example.test", func(tx *gorm.DB) error {
					if err := cause(tc.event)(tx); err != nil {
						return err
					}
					if tc.rollback {
						return errors.New("the change failed")
					}
					return nil
				})
				if tc.rollback {
					require.Error(t, err)
				} else {
					require.NoError(t, err)
				}
				var causes, queued int64
				require.NoError(t, db.Raw(`SELECT COUNT(*) FROM rate_limits WHERE key = ?`, tc.event).Scan(&causes).Error)
				list, err := q.List(context.Background(), "available", 100)
				require.NoError(t, err)
				for _, j := range list {
					if j.Event == tc.event {
						queued++
					}
				}
				assert.Equal(t, int64(tc.jobs), causes, "the cause")
				assert.Equal(t, int64(tc.jobs), queued, "its mail job")
			})
		}
	})
}

func TestAMailOutsideATransactionIsRefused(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, _ := queue(t, db, 0)
		assert.Error(t, q.Queue(db, "loose", message("ann@example.test")), "a job goes in with its cause")
	})
}

func TestAMailTheServerRefusesIsRetriedAndSentOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, smtp := queue(t, db, 2)
		smtp.RefuseNext(2)
		require.NoError(t, queueIn(t, db, q, "reset:1", "ann@example.test", noChange))
		start(t, q)

		j := waitState(t, q, "reset:1", "completed")
		assert.Equal(t, 3, j.Attempt, "two refusals, then sent")
		assert.Len(t, j.Errors, 2, "each refusal is kept on the job")
		assert.Contains(t, j.Errors[0], "451")
		assert.Equal(t, 2, smtp.Refused())
		assert.Len(t, smtp.Messages(), 1, "one mail arrived")
		assert.Equal(t, "Reset your password", smtp.Messages()[0].Subject)
	})
}

func TestAMailThatCanNeverGoIsDiscardedAndKeptForOperators(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, smtp := queue(t, db, 2)
		require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
			return q.Queue(tx, "bad", mailer.Message{To: "not an address", Subject: "x", Text: "y"})
		}))
		start(t, q)
		j := waitState(t, q, "bad", "cancelled")
		require.Len(t, j.Errors, 1)
		assert.Contains(t, j.Errors[0], "invalid message")
		assert.Empty(t, smtp.Messages())
		list, err := q.List(context.Background(), "cancelled", 10)
		require.NoError(t, err)
		assert.Len(t, list, 1, "listed by state")
	})
}

func TestAMailJobRunTwiceSendsOneMail(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, smtp := queue(t, db, 2)
		require.NoError(t, queueIn(t, db, q, "invite:1", "bob@example.test", noChange))
		require.NoError(t, queueIn(t, db, q, "invite:1", "bob@example.test", noChange), "a second insert for the event is skipped")
		start(t, q)
		first := waitState(t, q, "invite:1", "completed")
		list, err := q.List(context.Background(), "", 100)
		require.NoError(t, err)
		assert.Len(t, list, 1, "one job for the event")

		// An operator runs the completed job again: it finds its sent-marker.
		_, err = q.Retry(context.Background(), first.ID)
		require.NoError(t, err)
		waitRetried(t, q, first.Attempt)
		assert.Len(t, smtp.Messages(), 1, "one mail for the event, though its job ran twice")
	})
}

func TestACancelledJobNeverRuns(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, smtp := queue(t, db, 0)
		require.NoError(t, queueIn(t, db, q, "never", "cy@example.test", noChange))
		cancelTheWaitingJob(t, q)
		assert.Empty(t, smtp.Messages())
	})
}

// cancelTheWaitingJob cancels the one job waiting for a worker, as an operator would.
func cancelTheWaitingJob(t *testing.T, q *jobs.Queue) {
	t.Helper()
	list, err := q.List(context.Background(), "available", 1)
	require.NoError(t, err)
	require.Len(t, list, 1)
	j, err := q.Cancel(context.Background(), list[0].ID)
	require.NoError(t, err)
	assert.Equal(t, "cancelled", j.State)
}

// waitRetried waits until the newest job has completed again after an operator's retry (an
// attempt past the one it had).
func waitRetried(t *testing.T, q *jobs.Queue, attempt int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := q.List(context.Background(), "", 1)
		require.NoError(t, err)
		if list[0].State == "completed" && list[0].Attempt > attempt {
			return
		}
		require.True(t, time.Now().Before(deadline), "the retried job completes")
		time.Sleep(10 * time.Millisecond)
	}
}
