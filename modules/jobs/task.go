package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"gorm.io/gorm"
)

// KindTask is a module's own one-off work, done in the background: the request that causes it
// only queues it. A forgot-password request is one: looking the address up, and making and
// mailing a link when it is known, happen here, so the answer takes the same time whether the
// address is known or not. Each task has a name and one handler (HandleTask).
const KindTask = "task"

// TaskAttempts is how often a task is tried before it is discarded (kept for operators).
const TaskAttempts = 5

// TaskArgs is one queued task: its name and its payload, sealed (it may hold personal data,
// such as the address a reset link was asked for).
type TaskArgs struct {
	Name   string `json:"name"`
	Sealed string `json:"sealed"`
}

func (TaskArgs) Kind() string { return KindTask }

func (TaskArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: TaskAttempts} }

// TaskHandler does one task with its payload. A task may be tried again after a failure (or a
// crash after its work committed): a handler makes a second run harmless.
type TaskHandler func(ctx context.Context, payload []byte) error

func sealedTaskFor(name string) string { return "jobs:task:" + name }

// HandleTask registers the handler of the tasks named name: before Start. A task whose name
// has no handler fails (and is retried: a process of the version that knows it may take it).
func (q *Queue) HandleTask(name string, h TaskHandler) {
	q.HandleTaskWith(name, h, TaskPolicy{})
}

// TaskPolicy is a task's own retry schedule, for work with a timetable of its own (a webhook
// retried with backoff for a day). Its zero value is the queue's: TaskAttempts attempts and
// the queue's retry policy.
type TaskPolicy struct {
	// Attempts is how often the task is tried before it is discarded (0: TaskAttempts).
	Attempts int
	// Retry is the wait before the next attempt after attempt n (from 1) failed (nil: the
	// queue's policy).
	Retry func(attempt int) time.Duration
	// Timeout bounds one attempt (0: JobTimeout), for work that takes longer than a mail (a
	// large export). Keep it below RescueAfter: River's leader hands a job running longer to
	// another worker, and the first would still be at it.
	Timeout time.Duration
}

// HandleTaskWith is HandleTask with the task's own policy: every process that queues or works
// the task registers it (the app's wiring does both), before Start.
func (q *Queue) HandleTaskWith(name string, h TaskHandler, p TaskPolicy) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tasks[name] = h
	q.policies[name] = p
}

func (q *Queue) taskPolicy(name string) TaskPolicy {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.policies[name]
}

type attemptKey struct{}

// TaskAttempt is, inside a task's handler, the attempt it is (from 1) and how many the task
// may have; 0, 0 outside one. A handler that gives up on its own clock (a webhook past its day)
// compares them, and the wait before the next, with its deadline.
func TaskAttempt(ctx context.Context) (attempt, attempts int) {
	a, _ := ctx.Value(attemptKey{}).([2]int)
	return a[0], a[1]
}

// QueueTask inserts a task in tx, the caller's GORM transaction: committed with what causes
// it, or not at all.
func (q *Queue) QueueTask(tx *gorm.DB, name string, payload []byte) error {
	if name == "" {
		return errors.New("jobs: a task needs its name")
	}
	stx, err := sqlTx(tx)
	if err != nil {
		return err
	}
	sealed, err := q.sealer.Seal(payload, sealedTaskFor(name))
	if err != nil {
		return err
	}
	var opts *river.InsertOpts
	if p := q.taskPolicy(name); p.Attempts > 0 {
		opts = &river.InsertOpts{MaxAttempts: p.Attempts}
	}
	if _, err := q.client.InsertTx(tx.Statement.Context, stx, TaskArgs{Name: name, Sealed: sealed}, opts); err != nil {
		return fmt.Errorf("jobs: queue task %s: %w", name, err)
	}
	return nil
}

type taskWorker struct {
	river.WorkerDefaults[TaskArgs]
	q *Queue
}

func (w *taskWorker) Work(ctx context.Context, job *river.Job[TaskArgs]) error {
	name := job.Args.Name
	w.q.mu.Lock()
	h := w.q.tasks[name]
	w.q.mu.Unlock()
	if h == nil {
		return fmt.Errorf("no handler for task %q in this process (jobs.HandleTask)", name)
	}
	payload, err := w.q.sealer.Open(job.Args.Sealed, sealedTaskFor(name))
	if err != nil {
		return river.JobCancel(fmt.Errorf("task %s does not open (was CANVASS_SECRET changed?): %w", name, err))
	}
	ctx = context.WithValue(ctx, attemptKey{}, [2]int{job.Attempt, job.MaxAttempts})
	if err := h(ctx, payload); err != nil {
		return fmt.Errorf("task %s: %w", name, err)
	}
	return nil
}

// Timeout is the task's own bound on an attempt, when its policy has one (0: JobTimeout).
func (w *taskWorker) Timeout(job *river.Job[TaskArgs]) time.Duration {
	return w.q.taskPolicy(job.Args.Name).Timeout
}

// NextRetry is the task's own retry schedule, when its policy has one (the zero time: the
// queue's policy).
func (w *taskWorker) NextRetry(job *river.Job[TaskArgs]) time.Time {
	if p := w.q.taskPolicy(job.Args.Name); p.Retry != nil {
		return time.Now().Add(p.Retry(job.Attempt))
	}
	return time.Time{}
}
