package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// KindMail is the kind of a mail job.
const KindMail = "mail"

// MailArgs is one queued mail: the event it is for (unique: River inserts one job per event
// while the job's row lives) and the message, sealed.
type MailArgs struct {
	Event  string `json:"event" river:"unique"`
	Sealed string `json:"sealed"`
}

func (MailArgs) Kind() string { return KindMail }

// InsertOpts: a mail is tried MailAttempts times, then discarded (kept for operators), and a
// second insert for the same event while the first job lives is skipped.
func (MailArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: MailAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// sealedFor binds a sealed message to its event: a sealed body copied to another job's args
// does not open.
func sealedFor(event string) string { return "jobs:mail:" + event }

// Queue inserts the mail job in tx, the caller's GORM transaction: committed with the change
// that causes it, or not at all. It is the mailer.Outbox of a running server.
func (q *Queue) Queue(tx *gorm.DB, event string, m mailer.Message) error {
	_, err := q.QueueOnce(tx, event, m)
	return err
}

// QueueOnce is Queue, and tells whether the job was inserted: false when a job for the event
// lives already (River keeps a completed one a day). A job inserted after that finds the
// event's sent-marker, if the mail went, and sends nothing.
func (q *Queue) QueueOnce(tx *gorm.DB, event string, m mailer.Message) (bool, error) {
	if event == "" {
		return false, errors.New("jobs: a mail needs its event's key")
	}
	stx, err := sqlTx(tx)
	if err != nil {
		return false, err
	}
	body, err := json.Marshal(m)
	if err != nil {
		return false, err
	}
	sealed, err := q.sealer.Seal(body, sealedFor(event))
	if err != nil {
		return false, err
	}
	res, err := q.client.InsertTx(tx.Statement.Context, stx, MailArgs{Event: event, Sealed: sealed}, nil)
	if err != nil {
		return false, fmt.Errorf("jobs: queue mail %s: %w", event, err)
	}
	return !res.UniqueSkippedAsDuplicate, nil
}

var _ mailer.OnceOutbox = (*Queue)(nil)

type mailWorker struct {
	river.WorkerDefaults[MailArgs]
	q *Queue
}

// Work sends the mail unless its event's sent-marker exists, then writes the marker and
// completes the job in one transaction. A message that cannot be opened or is invalid would
// never go: the job is cancelled at once, its error kept for operators.
func (w *mailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error {
	sent, err := w.q.delivered(ctx, job.Args.Event)
	if err != nil {
		return err
	}
	if !sent {
		body, err := w.q.sealer.Open(job.Args.Sealed, sealedFor(job.Args.Event))
		if err != nil {
			return river.JobCancel(fmt.Errorf("the message does not open (was CANVASS_SECRET changed?): %w", err))
		}
		var m mailer.Message
		if err := json.Unmarshal(body, &m); err != nil {
			return river.JobCancel(fmt.Errorf("the message does not read: %w", err))
		}
		if err := w.q.mail.Send(ctx, m); err != nil {
			if errors.Is(err, mailer.ErrInvalidMessage) {
				return river.JobCancel(err)
			}
			return err // retried with River's backoff (attempt^4 seconds)
		}
	}
	return w.q.markSent(ctx, job.ID, KindMail, job.Args.Event, "", func(tx *gorm.DB) error {
		stx, err := sqlTx(tx)
		if err != nil {
			return err
		}
		_, err = river.JobCompleteTx[riverdriver.Driver[*sql.Tx]](ctx, stx, job)
		return err
	})
}

// Delivery is the sent-marker of one event.
type Delivery struct {
	EventKey   string `gorm:"primaryKey"`
	Kind       string
	JobID      int64
	ProviderID string
	SentAt     time.Time
}

func (Delivery) TableName() string { return "job_deliveries" }

// Models are the module's tables (River's own are River's).
func Models() []any { return []any{&Delivery{}} }

// delivered tells whether the event's message went out already.
func (q *Queue) delivered(ctx context.Context, event string) (bool, error) {
	var n int64
	err := q.db.WithContext(ctx).Model(&Delivery{}).Where("event_key = ?", event).Count(&n).Error
	return n > 0, err
}

// markSent writes the event's sent-marker and runs complete (the job's completion) in one
// transaction. The transaction is a fresh one: the job's attempt context may be cancelled by
// a shutdown just after the provider took the message, and the marker must still be written.
func (q *Queue) markSent(ctx context.Context, jobID int64, kind, event, providerID string, complete func(tx *gorm.DB) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return migrations.InTx(ctx, q.db, func(tx *gorm.DB) error {
		d := Delivery{EventKey: event, Kind: kind, JobID: jobID, ProviderID: providerID, SentAt: time.Now().UTC()}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&d).Error; err != nil {
			return fmt.Errorf("jobs: record %s sent: %w", event, err)
		}
		return complete(tx)
	})
}

// SweepDeliveries deletes the sent-markers written before cutoff.
func (q *Queue) SweepDeliveries(ctx context.Context, cutoff time.Time) (int64, error) {
	res := q.db.WithContext(ctx).Where("sent_at < ?", cutoff.UTC()).Delete(&Delivery{})
	return res.RowsAffected, res.Error
}
