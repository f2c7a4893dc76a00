package main

import (
	"log/slog"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/modules/webhooks"
	"gorm.io/gorm"
)

// webhooksSealPurpose keys the seal of the webhooks' signing secrets at rest.
const webhooksSealPurpose = "webhooks-secrets"

// newWebhooks is the panels' webhooks (issue 34, point 5): their deliveries are tasks of the job
// queue with their own retry schedule (a day of backoff), queued by the survey engine's finish
// hook in the transaction that ends a run; the module is also the console's webhooks part.
// Loopback and private addresses are refused outside development unless opts allows them (tests
// whose receiver is on loopback); opts.WebhookClient, when set, sends the deliveries (tests:
// one that trusts their TLS receiver).
func newWebhooks(a *App, cfg Config, db *gorm.DB, log *slog.Logger, opts Options) (*webhooks.Module, error) {
	sealer, err := web.NewSealer(a.Kit.Secret(webhooksSealPurpose))
	if err != nil {
		return nil, err
	}
	m := webhooks.New(webhooks.Deps{
		DB: db, Log: log, Sealer: sealer, Tasks: a.Jobs, Responses: a.Surveys, Catalogue: a.Campaigns,
		Panel: panelByID(db, a.Tenancy), AllowPrivate: cfg.Env == "development" || opts.WebhooksAllowPrivate,
		Client: opts.WebhookClient,
	})
	a.Jobs.HandleTaskWith(webhooks.TaskDeliver, m.Deliver, jobs.TaskPolicy{Attempts: webhooks.TaskAttempts, Retry: webhooks.RetryAfter})
	a.Surveys.OnFinish(m.OnFinished)
	return m, nil
}
