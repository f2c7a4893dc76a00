// Package webhooks sends a panel's participations to its operators' own systems (issue 34,
// point 5): each run that ends completed, screened or quota full is POSTed as JSON, with its
// answers, to every active https URL the panel's owners registered for that event, signed
// with the webhook's secret (HMAC-SHA256 over a timestamp and the body, Stripe's scheme; Verify
// is the receiver's side). Deliveries are River jobs (modules/jobs) inserted in the survey
// engine's transaction that ends the run, retried with backoff (30 s, 1 min, 2, 4, … at most
// an hour apart) for a day, each attempt logged with its HTTP status and latency; a delivery is
// marked delivered once, and an owner may send one again from the console.
//
// The module owns the webhooks and webhook_deliveries tables. It reads a run and its answers
// through the survey engine (Responses) and the campaign's name through the catalogue, when it
// delivers; it is also the console's webhooks part (modules/console), owners only.
package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Responses reads a run and its answers (the survey engine).
type Responses interface {
	Response(ctx context.Context, panelID, campaignID, participationID string) (*surveys.Response, []surveys.ResponseAnswer, error)
}

// Catalogue names a campaign (the campaign catalogue).
type Catalogue interface {
	Campaign(ctx context.Context, panel *web.Panel, id string) (*campaigns.Campaign, error)
}

// Tasks queues a delivery's job in the caller's transaction (the job queue).
type Tasks interface {
	QueueTask(tx *gorm.DB, name string, payload []byte) error
}

// Deps are what the module needs from the app.
type Deps struct {
	DB        *gorm.DB
	Log       *slog.Logger
	Sealer    *web.Sealer // seals the webhooks' secrets at rest
	Tasks     Tasks
	Responses Responses
	Catalogue Catalogue
	// Panel resolves a panel by id (its key for the payload, the catalogue's panel).
	Panel func(ctx context.Context, id string) (*web.Panel, error)
	// AllowPrivate lets webhooks reach loopback and private addresses (development, tests).
	AllowPrivate bool
	// Client sends the deliveries; nil: NewClient(AllowPrivate).
	Client *http.Client
	// Resolver looks up a URL's host when it is saved; nil: net.DefaultResolver.
	Resolver Resolver
	// Now is the clock (tests); nil: time.Now.
	Now func() time.Time
}

// Module is the panels' webhooks: their rows, the finish hook that queues deliveries, the
// delivery task, and the console's part.
type Module struct {
	d   Deps
	db  *gorm.DB
	log *slog.Logger
	now func() time.Time
	cm  *console.Module // set when the console mounts the part
}

func New(d Deps) *Module {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Client == nil {
		d.Client = NewClient(d.AllowPrivate)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Module{d: d, db: d.DB, log: d.Log, now: d.Now}
}

// Limits.
const (
	// MaxPerPanel bounds a panel's webhooks, and so the deliveries one finished run queues.
	MaxPerPanel = 10
	// RetryWindow is how long a delivery is retried after its event (or a "Send again").
	RetryWindow = 24 * time.Hour
	// TaskAttempts bounds a delivery job's attempts: more than RetryWindow holds with
	// RetryAfter, so the window, not the count, ends the retries.
	TaskAttempts = 48
	// maxError bounds an attempt's error as the log keeps it.
	maxError = 200
)

// TaskDeliver is the name of the delivery task (jobs.HandleTaskWith).
const TaskDeliver = "webhooks.deliver"

// RetryAfter is the wait before the next attempt after attempt n (from 1) failed: 30 s, 1 min,
// 2, 4, 8, 16, 32 min, then an hour each time.
func RetryAfter(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	if attempt > 8 {
		return time.Hour
	}
	return min(30*time.Second<<(attempt-1), time.Hour)
}

// Errors of the module's rules; the console maps each to its message.
var (
	ErrNotFound = errors.New("webhooks: no such webhook or delivery on this panel")
	ErrEvents   = errors.New("webhooks: choose at least one of the events, and only those")
	ErrTooMany  = errors.New("webhooks: the panel has as many webhooks as it may")
)

// eventOf is the event of a run's outcome; "" for an outcome no event names.
func eventOf(status string) string {
	switch status {
	case campaigns.StatusCompleted:
		return EventCompleted
	case campaigns.StatusScreened:
		return EventScreened
	case campaigns.StatusQuotaFull:
		return EventQuotaFull
	}
	return ""
}
