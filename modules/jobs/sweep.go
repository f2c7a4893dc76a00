package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
)

// KindSweep is the kind of a periodic job: one registered Sweep, by name.
const KindSweep = "sweep"

// Sweep is periodic work another module owns: Run does one round at now and says how many
// rows it changed. It must be safe to run twice, and at once in two processes (River's leader
// inserts one job per period, but an operator's retry or a rescue may run one again).
type Sweep struct {
	Every time.Duration
	Run   func(ctx context.Context, now time.Time) (int64, error)
}

// SweepArgs names the sweep a job runs.
type SweepArgs struct {
	Name string `json:"name" river:"unique"`
}

func (SweepArgs) Kind() string { return KindSweep }

// InsertOpts: a sweep that fails is tried a few times; the next period runs it anyway.
func (SweepArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3}
}

// Every registers a sweep under name, run every period from Start on (and once at Start), by
// whichever process leads. Register before Start.
func (q *Queue) Every(name string, every time.Duration, run func(ctx context.Context, now time.Time) (int64, error)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sweeps[name] = Sweep{Every: every, Run: run}
}

// Sweeps lists the registered sweeps' names and periods (docs/running.md's list, tests).
func (q *Queue) Sweeps() map[string]time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := map[string]time.Duration{}
	for n, s := range q.sweeps {
		out[n] = s.Every
	}
	return out
}

// periodic is the sweep's periodic job: unique by name within its period, so processes that
// lead in turn (or a leader that restarts) never queue two rounds for one period.
func periodic(name string, every time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return SweepArgs{Name: name}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByPeriod: every}}
	}, &river.PeriodicJobOpts{RunOnStart: true, ID: "sweep:" + name})
}

type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	q *Queue
}

func (w *sweepWorker) Work(ctx context.Context, job *river.Job[SweepArgs]) error {
	_, err := w.q.RunSweep(ctx, job.Args.Name, time.Now().UTC())
	return err
}

// RunSweep runs one round of the named sweep now (the worker, and tests inline).
func (q *Queue) RunSweep(ctx context.Context, name string, now time.Time) (int64, error) {
	q.mu.Lock()
	s, ok := q.sweeps[name]
	q.mu.Unlock()
	if !ok {
		return 0, river.JobCancel(fmt.Errorf("no sweep named %q in this version", name))
	}
	n, err := s.Run(ctx, now)
	if err != nil {
		return n, fmt.Errorf("sweep %s: %w", name, err)
	}
	if n > 0 && q.log != nil {
		q.log.Info("jobs: sweep", "name", name, "rows", n)
	}
	return n, nil
}
