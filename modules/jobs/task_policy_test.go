package jobs_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// waitTask polls until the task job is in state (a bounded wait, not a timed assertion).
func waitTask(t *testing.T, q *jobs.Queue, name, state string) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, err := q.List(context.Background(), state, 100)
		require.NoError(t, err)
		for _, j := range list {
			if j.Kind == jobs.KindTask && j.Event == name {
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task %s never reached %s", name, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestATaskWithItsOwnPolicyIsTriedItsAttemptsOnItsOwnSchedule(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, _ := queue(t, db, 2) // the queue's own retries come after 10 ms
		var mu sync.Mutex
		var seen [][2]int
		fail := func(ctx context.Context, _ []byte) error {
			attempt, attempts := jobs.TaskAttempt(ctx)
			mu.Lock()
			seen = append(seen, [2]int{attempt, attempts})
			mu.Unlock()
			return errors.New("the receiver is down")
		}
		// A task with a schedule of its own: seven attempts, an hour after the first failure.
		q.HandleTaskWith("slow", fail, jobs.TaskPolicy{Attempts: 7, Retry: func(attempt int) time.Duration { return time.Duration(attempt) * time.Hour }})
		// One with only its attempts: the queue's schedule, and discarded after the second.
		q.HandleTaskWith("brief", fail, jobs.TaskPolicy{Attempts: 2})
		// And one with the queue's defaults.
		q.HandleTask("plain", func(context.Context, []byte) error { return nil })
		require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
			for _, name := range []string{"slow", "brief", "plain"} {
				if err := q.QueueTask(tx, name, []byte(`{}`)); err != nil {
					return err
				}
			}
			return nil
		}))
		start(t, q)

		slow := waitTask(t, q, "slow", "retryable")
		assert.Equal(t, 7, slow.MaxAttempts, "the task's own attempts")
		assert.Equal(t, 1, slow.Attempt)
		assert.WithinDuration(t, time.Now().Add(time.Hour), slow.ScheduledAt, 5*time.Minute, "retried on the task's own schedule, not the queue's 10 ms")

		brief := waitTask(t, q, "brief", "discarded")
		assert.Equal(t, 2, brief.MaxAttempts)
		assert.Equal(t, 2, brief.Attempt, "retried on the queue's schedule, then discarded")

		plain := waitTask(t, q, "plain", "completed")
		assert.Equal(t, jobs.TaskAttempts, plain.MaxAttempts, "the queue's defaults")

		mu.Lock()
		defer mu.Unlock()
		assert.Contains(t, seen, [2]int{1, 7}, "a handler is told its attempt and how many it may have")
		assert.Contains(t, seen, [2]int{2, 2})
		a, n := jobs.TaskAttempt(context.Background())
		assert.Zero(t, a+n, "outside a task")
	})
}

func TestATaskWithItsOwnTimeoutIsBoundByItAndOthersByTheQueues(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, _ := queue(t, db, 2)
		var mu sync.Mutex
		left := map[string]time.Duration{} // how long each handler had left when it began
		note := func(name string) jobs.TaskHandler {
			return func(ctx context.Context, _ []byte) error {
				deadline, ok := ctx.Deadline()
				require.True(t, ok, "every attempt has a deadline")
				mu.Lock()
				left[name] = time.Until(deadline)
				mu.Unlock()
				return nil
			}
		}
		q.HandleTaskWith("long", note("long"), jobs.TaskPolicy{Timeout: 4 * time.Minute})
		q.HandleTask("plain", note("plain"))
		require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
			return errors.Join(q.QueueTask(tx, "long", []byte(`{}`)), q.QueueTask(tx, "plain", []byte(`{}`)))
		}))
		start(t, q)
		waitTask(t, q, "long", "completed")
		waitTask(t, q, "plain", "completed")

		mu.Lock()
		defer mu.Unlock()
		assert.InDelta(t, (4 * time.Minute).Seconds(), left["long"].Seconds(), 30, "the task's own bound")
		assert.InDelta(t, jobs.JobTimeout.Seconds(), left["plain"].Seconds(), 30, "the queue's")
	})
}
