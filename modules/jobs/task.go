package jobs

import (
	"context"
	"errors"
	"fmt"

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
	q.mu.Lock()
	defer q.mu.Unlock()
	q.tasks[name] = h
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
	if _, err := q.client.InsertTx(tx.Statement.Context, stx, TaskArgs{Name: name, Sealed: sealed}, nil); err != nil {
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
	if err := h(ctx, payload); err != nil {
		return fmt.Errorf("task %s: %w", name, err)
	}
	return nil
}
