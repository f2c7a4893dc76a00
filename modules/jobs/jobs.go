// Package jobs is Canvass's durable background work, on River (riverqueue.com) over the app's
// own database: the same River client on SQLite (riversqlite) and on PostgreSQL (River's
// database/sql driver over the app's pgx pool, with a pgx pool of its own only to LISTEN), so
// a job is inserted in the very *sql.Tx of the GORM transaction that causes it.
//
// What runs here: mail (Queue, the mailer.Outbox of a running server) and text messages
// (QueueSMS, the mobile module's outbox), retried with backoff and sent once per event; and
// the periodic work other modules register with Every (expired
// sessions and tokens, spent login counters, due competition draws), which River's leader
// inserts once per period across every process. Operators list, retry and cancel jobs (the
// `canvass jobs` commands); the metrics count them; /readyz reports a queue nobody works.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/web"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"
	"gorm.io/gorm"
)

// Defaults of Config.
const (
	DefaultWorkers      = 4
	DefaultPollInterval = time.Second
	// JobTimeout bounds one attempt of any job: a mail that has not gone in a minute is retried.
	JobTimeout = time.Minute
	// RescueAfter is how long a job may stay running before River's leader makes it available
	// again (its process died with it). A restarted process takes back its own at once (rescue.go).
	RescueAfter = 5 * time.Minute
	// StuckAfter is how long a job may wait, available, before /readyz says the queue is stuck.
	StuckAfter = 5 * time.Minute
	// MailAttempts is how often a mail is tried before it is discarded (about 3 days of backoff).
	MailAttempts = 12
)

// Config is the queue's part of the server's configuration.
type Config struct {
	// Workers is how many jobs this process works at once (CANVASS_JOB_WORKERS); 0 runs none
	// (the process only inserts: another process works them).
	Workers int
	// PollInterval is how often an idle worker looks for jobs when nothing tells it of new ones
	// (SQLite always; PostgreSQL between notifications).
	PollInterval time.Duration
	// ID names this process's client in the jobs it works (attempted_by); it must be unique
	// among the live processes and the same after a restart (hostname and listen address).
	ID string
	// PostgresURL, on PostgreSQL, is the database's URL: a one-connection pgx pool LISTENs on it,
	// so a job inserted by any process is worked at once. Empty: poll only.
	PostgresURL string
	// RetryAfter, when set, is the wait before attempt n+1 (tests); River's default otherwise:
	// about n^4 seconds, so twelve attempts span three days.
	RetryAfter func(attempt int) time.Duration
}

type retryAfter func(attempt int) time.Duration

func (r retryAfter) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(r(job.Attempt))
}

// Deps are what the queue needs.
type Deps struct {
	DB     *gorm.DB
	Log    *slog.Logger
	Mail   mailer.Sender
	Sealer *web.Sealer // seals each queued message: a reset link in river_job is no use to a reader
	Config Config
	// Observe, when set, is told of every job that finished an attempt (metrics).
	Observe func(Finished)
}

// Finished is one attempt's end, as the metrics count it.
type Finished struct {
	Kind     string
	Result   string // completed, failed (retried), discarded (no attempts left), cancelled
	Duration time.Duration
	Wait     time.Duration // from available to started
}

// Queue is the River client and its workers over the app's database.
type Queue struct {
	db       *gorm.DB
	sqlDB    *sql.DB
	postgres bool
	log      *slog.Logger
	cfg      Config
	client   *river.Client[*sql.Tx]
	listener *pgxpool.Pool
	mail     mailer.Sender
	sealer   *web.Sealer
	observe  func(Finished)

	mu      sync.Mutex
	sms     *SMSHandler // how texts go (HandleSMS)
	tasks   map[string]TaskHandler
	sweeps  map[string]Sweep
	started bool
	stopSub func()
	subDone chan struct{}

	// policies are the tasks' own retry schedules (HandleTaskWith), under mu.
	policies map[string]TaskPolicy
}

// New builds the client (it inserts at once; it works jobs after Start).
func New(d Deps) (*Queue, error) {
	sqlDB, err := d.DB.DB()
	if err != nil {
		return nil, err
	}
	cfg := d.Config
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.ID == "" {
		cfg.ID = DefaultID("")
	}
	q := &Queue{
		db: d.DB, sqlDB: sqlDB, postgres: d.DB.Dialector.Name() == "postgres", log: d.Log, cfg: cfg,
		mail: d.Mail, sealer: d.Sealer, observe: d.Observe, sweeps: map[string]Sweep{}, tasks: map[string]TaskHandler{},
		policies: map[string]TaskPolicy{},
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &mailWorker{q: q})
	river.AddWorker(workers, &smsWorker{q: q})
	river.AddWorker(workers, &sweepWorker{q: q})
	river.AddWorker(workers, &taskWorker{q: q})
	var driver riverdriver.Driver[*sql.Tx]
	if q.postgres {
		if cfg.PostgresURL != "" {
			pc, err := pgxpool.ParseConfig(cfg.PostgresURL)
			if err != nil {
				return nil, fmt.Errorf("jobs: listener pool: %w", err)
			}
			pc.MinConns, pc.MaxConns = 0, 1
			if q.listener, err = pgxpool.NewWithConfig(context.Background(), pc); err != nil {
				return nil, fmt.Errorf("jobs: listener pool: %w", err)
			}
			driver = riverdatabasesql.NewWithPgxListener(sqlDB, q.listener)
		} else {
			driver = riverdatabasesql.New(sqlDB)
		}
	} else {
		driver = riversqlite.New(sqlDB)
	}
	rc := &river.Config{
		ID:                          cfg.ID,
		Logger:                      quiet(d.Log),
		Workers:                     workers,
		FetchPollInterval:           cfg.PollInterval,
		FetchCooldown:               min(cfg.PollInterval, 100*time.Millisecond),
		JobTimeout:                  JobTimeout,
		RescueStuckJobsAfter:        RescueAfter,
		MaxAttempts:                 MailAttempts,
		CompletedJobRetentionPeriod: 24 * time.Hour,
		// A discarded job is an operator's to see and retry (`canvass jobs list --state discarded`).
		DiscardedJobRetentionPeriod: 30 * 24 * time.Hour,
		CancelledJobRetentionPeriod: 30 * 24 * time.Hour,
		PollOnly:                    !q.postgres || q.listener == nil,
	}
	if cfg.RetryAfter != nil {
		rc.RetryPolicy = retryAfter(cfg.RetryAfter)
	}
	if cfg.Workers > 0 {
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}}
	}
	if q.client, err = river.NewClient[*sql.Tx](driver, rc); err != nil {
		q.closeListener()
		return nil, fmt.Errorf("jobs: %w", err)
	}
	return q, nil
}

// DefaultID is the client id of a process listening on addr: the host's name and the address,
// the same after a restart and different for every process on the host.
func DefaultID(addr string) string {
	host, _ := os.Hostname()
	id := strings.TrimSpace(host + "_" + strings.TrimPrefix(addr, ":"))
	return strings.Trim(strings.Map(func(r rune) rune {
		if r == ':' || r == '/' || r == ' ' {
			return '_'
		}
		return r
	}, id), "_")
}

// quiet keeps River's own info lines (start, stop, leadership) out of the server's log.
func quiet(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(levelAtLeast{log.Handler(), slog.LevelWarn})
}

type levelAtLeast struct {
	slog.Handler
	min slog.Level
}

func (h levelAtLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// Client is the River client (tests and the operators' commands).
func (q *Queue) Client() *river.Client[*sql.Tx] { return q.client }

// Working tells whether this process works jobs (Start ran).
func (q *Queue) Working() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.started
}

// Start takes back the jobs this client left running when its process died, then works jobs
// until Stop. A queue of no workers (Config.Workers 0) starts nothing.
func (q *Queue) Start(ctx context.Context) error {
	if q.cfg.Workers <= 0 {
		return nil
	}
	if n, err := q.rescueOwn(ctx); err != nil {
		return fmt.Errorf("jobs: take back this process's running jobs: %w", err)
	} else if n > 0 && q.log != nil {
		q.log.Info("jobs: took back the jobs a previous run of this process left running", "jobs", n, "client", q.cfg.ID)
	}
	q.mu.Lock()
	for name, s := range q.sweeps {
		q.client.PeriodicJobs().Add(periodic(name, s.Every))
	}
	q.mu.Unlock()
	events, cancel := q.client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled)
	q.stopSub, q.subDone = cancel, make(chan struct{})
	go q.count(events)
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		cancel()
		return fmt.Errorf("jobs: start: %w", err)
	}
	q.mu.Lock()
	q.started = true
	q.mu.Unlock()
	return nil
}

func (q *Queue) count(events <-chan *river.Event) {
	defer close(q.subDone)
	for ev := range events {
		if q.observe == nil || ev.Job == nil {
			continue
		}
		f := Finished{Kind: ev.Job.Kind}
		switch {
		case ev.Kind == river.EventKindJobCompleted:
			f.Result = "completed"
		case ev.Kind == river.EventKindJobCancelled:
			f.Result = "cancelled"
		case ev.Job.State == "discarded":
			f.Result = "discarded"
		default:
			f.Result = "failed"
		}
		if ev.JobStats != nil {
			f.Duration, f.Wait = ev.JobStats.RunDuration, ev.JobStats.QueueWaitDuration
		}
		q.observe(f)
	}
}

// Stop stops fetching, lets the jobs in hand finish until ctx ends, then cancels them (they
// are retried: each job is safe to run again). It closes the listener's pool.
func (q *Queue) Stop(ctx context.Context) error {
	defer q.closeListener()
	q.mu.Lock()
	started := q.started
	q.started = false
	q.mu.Unlock()
	if !started {
		return nil
	}
	err := q.client.Stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		hard, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = errors.Join(err, q.client.StopAndCancel(hard))
	}
	if q.stopSub != nil {
		q.stopSub()
		<-q.subDone
	}
	return err
}

func (q *Queue) closeListener() {
	if q.listener != nil {
		q.listener.Close()
		q.listener = nil
	}
}

// sqlTx is the *sql.Tx behind a GORM transaction (River inserts in it), through GORM's
// prepared-statement wrapper when the connection has one.
func sqlTx(tx *gorm.DB) (*sql.Tx, error) {
	switch p := tx.Statement.ConnPool.(type) {
	case *sql.Tx:
		return p, nil
	case *gorm.PreparedStmtTX:
		if t, ok := p.Tx.(*sql.Tx); ok {
			return t, nil
		}
	}
	return nil, fmt.Errorf("jobs: not in a transaction (%T): a job goes in with the change that causes it", tx.Statement.ConnPool)
}
