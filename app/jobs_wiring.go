package main

import (
	"context"
	"fmt"
	"github.com/canvass/canvass/migrations"
	"log/slog"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/metrics"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// jobsSealPurpose keys the seal of queued mail and texts (the reset links and verification
// codes in river_job's args). Its value predates the texts: changing it would strand queued mail.
const jobsSealPurpose = "jobs-mail"

// Sweep periods: how often each clean-up runs (by one process: River's leader inserts it).
const (
	sweepSessionsEvery   = 15 * time.Minute
	sweepTokensEvery     = time.Hour
	sweepRateLimitsEvery = time.Hour
	sweepDeliveriesEvery = 24 * time.Hour
	// drawCompetitionsEvery is how often the competitions that ask for an automatic draw
	// (auto_draw) are drawn once their draw date has come: at most this late.
	drawCompetitionsEvery = 5 * time.Minute
	// deliveriesKept is how long a sent-marker outlives its job (River keeps a completed job a
	// day): an operator's retry of an old mail within it still sends nothing.
	deliveriesKept = 30 * 24 * time.Hour
)

// newJobs builds the queue over the app's database: it works jobs only when work is set
// (`canvass serve`), and LISTENs for new ones on PostgreSQL then.
func newJobs(cfg Config, db *gorm.DB, log *slog.Logger, kit *web.Kit, mail mailer.Sender, m *metrics.Metrics, work bool) (*jobs.Queue, error) {
	sealer, err := web.NewSealer(kit.Secret(jobsSealPurpose))
	if err != nil {
		return nil, err
	}
	collector := jobs.NewCollector(metrics.Namespace)
	jc := jobs.Config{PollInterval: cfg.JobPoll, ID: jobs.DefaultID(cfg.Addr)}
	if work {
		jc.Workers = cfg.JobWorkers
		if !strings.HasPrefix(cfg.DatabaseURL, "sqlite://") {
			// The queue LISTENs for new jobs on a direct connection: the listen URL, else the
			// database URL unless a transaction pooler stands in front (then it polls).
			listen, pooled, err := migrations.PostgresDSN(cfg.DatabaseURL)
			if err != nil {
				return nil, err
			}
			if cfg.DatabaseListenURL != "" {
				listen = cfg.DatabaseListenURL
			} else if pooled {
				listen = ""
			}
			jc.PostgresURL = listen
		}
	}
	q, err := jobs.New(jobs.Deps{DB: db, Log: log, Mail: mail, Sealer: sealer, Config: jc, Observe: collector.Observe})
	if err != nil {
		return nil, err
	}
	collector.Watch(q)
	if err := m.Register(collector); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	return q, nil
}

// sendSMSAsJobs makes the queue send the mobile module's texts (its codes) through the SMS
// provider, and tell the module what became of each.
func sendSMSAsJobs(a *App, sender mobile.Sender) {
	a.Jobs.HandleSMS(jobs.SMSHandler{
		Send: sender.Send, Permanent: mobile.IsPermanent,
		Wanted: a.Mobile.SMSWanted, Sent: a.Mobile.SMSSent, Failed: a.Mobile.SMSFailed,
	})
}

// sweepPeriodically registers the periodic clean-ups and the automatic competition draws,
// and the queue's readiness check.
// Idempotency keys need none: each is a column of the record it made happen (a ledger entry's
// natural key, a redemption's Idempotency-Key), kept as long as that record is.
func sweepPeriodically(a *App, limiter *ratelimit.Limiter) {
	a.Jobs.Every("sessions", sweepSessionsEvery, a.Accounts.SweepSessions)
	a.Jobs.Every("operator_sessions", sweepSessionsEvery, a.Console.Service().SweepSessions)
	a.Jobs.Every("account_tokens", sweepTokensEvery, a.Accounts.SweepTokens)
	a.Jobs.Every("rate_limits", sweepRateLimitsEvery, limiter.Sweep)
	a.Jobs.Every("job_deliveries", sweepDeliveriesEvery, func(ctx context.Context, now time.Time) (int64, error) {
		return a.Jobs.SweepDeliveries(ctx, now.Add(-deliveriesKept))
	})
	a.Jobs.Every("competition_draws", drawCompetitionsEvery, a.Competitions.DrawDue)
	a.Home.AddCheck(a.Jobs.StuckCheck)
}
