package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"gorm.io/gorm"
)

// KindSMS is the kind of a text message job.
const KindSMS = "sms"

// SMSAttempts is how often a text is tried before it is discarded. With River's backoff
// (attempt⁴ seconds: 1 s, 16 s, 81 s, 256 s) the last try is about six minutes after the
// first: a verification code lives ten.
const SMSAttempts = 5

// SMSArgs is one queued text message: the event it is for (unique, as a mail's), the number
// and body, sealed (a body carries a verification code), and when it stops being of use.
type SMSArgs struct {
	Event  string    `json:"event" river:"unique"`
	Sealed string    `json:"sealed"`
	Until  time.Time `json:"until"`
}

func (SMSArgs) Kind() string { return KindSMS }

// InsertOpts: a text is tried SMSAttempts times, and a second insert for the same event while
// the first job lives is skipped.
func (SMSArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: SMSAttempts, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// SMSHandler is how queued texts are sent and what is told of them; the module whose events
// they are (mobile, for its codes) provides all but Send, which is the SMS provider.
type SMSHandler struct {
	// Send hands the text to the SMS provider and returns the provider's message id.
	Send func(ctx context.Context, to, body string) (providerID string, err error)
	// Permanent tells whether a Send error will never go away (the number cannot receive
	// texts): the job is cancelled at once instead of retried.
	Permanent func(err error) bool
	// Wanted tells whether the event's text should still go: false when its cause is gone or
	// spent (a code replaced by a newer one, or used). The job then ends without sending.
	Wanted func(ctx context.Context, event string) (bool, error)
	// Sent records, in tx, the transaction that writes the sent-marker, that the text went.
	Sent func(tx *gorm.DB, event, providerID string) error
	// Failed records that the text will never go (the member is told).
	Failed func(ctx context.Context, event string) error
}

// HandleSMS sets how texts are sent: before Start. Until it is set, a text job fails (and is
// retried).
func (q *Queue) HandleSMS(h SMSHandler) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sms = &h
}

func (q *Queue) smsHandler() *SMSHandler {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.sms
}

type smsMessage struct {
	To   string `json:"to"`
	Body string `json:"body"`
}

// sealedSMSFor binds a sealed text to its event.
func sealedSMSFor(event string) string { return "jobs:sms:" + event }

// QueueSMS inserts the text's job in tx, the caller's GORM transaction: committed with the
// change that causes it (a code's row), or not at all. until is when the text stops being of
// use (its code expires): a job still trying then gives up and reports it failed.
func (q *Queue) QueueSMS(tx *gorm.DB, event, to, body string, until time.Time) error {
	if event == "" {
		return errors.New("jobs: a text message needs its event's key")
	}
	stx, err := sqlTx(tx)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(smsMessage{To: to, Body: body})
	if err != nil {
		return err
	}
	sealed, err := q.sealer.Seal(raw, sealedSMSFor(event))
	if err != nil {
		return err
	}
	_, err = q.client.InsertTx(tx.Statement.Context, stx, SMSArgs{Event: event, Sealed: sealed, Until: until.UTC()}, nil)
	if err != nil {
		return fmt.Errorf("jobs: queue text %s: %w", event, err)
	}
	return nil
}

type smsWorker struct {
	river.WorkerDefaults[SMSArgs]
	q *Queue
}

// Work sends the text unless its event's sent-marker exists, then writes the marker, tells the
// handler it went and completes the job in one transaction. A text past its use, or one the
// provider refuses for good, is reported failed and cancelled; one that fails its last attempt
// is reported failed and discarded (kept for operators). A text no longer wanted ends quietly.
func (w *smsWorker) Work(ctx context.Context, job *river.Job[SMSArgs]) error {
	h := w.q.smsHandler()
	if h == nil {
		return errors.New("no SMS sender in this process (jobs.HandleSMS)")
	}
	event := job.Args.Event
	sent, err := w.q.delivered(ctx, event)
	if err != nil {
		return err
	}
	var providerID string
	if !sent {
		wanted, err := h.Wanted(ctx, event)
		if err != nil {
			return err
		}
		if !wanted {
			return river.JobCancel(errors.New("no longer wanted: its code was replaced or used"))
		}
		if !job.Args.Until.IsZero() && !time.Now().Before(job.Args.Until) {
			return w.failed(ctx, h, event, river.JobCancel(errors.New("not sent before its code expired")))
		}
		raw, err := w.q.sealer.Open(job.Args.Sealed, sealedSMSFor(event))
		if err != nil {
			return w.failed(ctx, h, event, river.JobCancel(fmt.Errorf("the message does not open (was CANVASS_SECRET changed?): %w", err)))
		}
		var m smsMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return w.failed(ctx, h, event, river.JobCancel(fmt.Errorf("the message does not read: %w", err)))
		}
		if providerID, err = h.Send(ctx, m.To, m.Body); err != nil {
			switch {
			case h.Permanent != nil && h.Permanent(err):
				return w.failed(ctx, h, event, river.JobCancel(err))
			case job.Attempt >= job.MaxAttempts:
				return w.failed(ctx, h, event, err) // discarded: no attempts left
			}
			return err // retried with River's backoff
		}
	}
	return w.q.markSent(ctx, job.ID, KindSMS, event, providerID, func(tx *gorm.DB) error {
		if !sent {
			if err := h.Sent(tx, event, providerID); err != nil {
				return err
			}
		}
		stx, err := sqlTx(tx)
		if err != nil {
			return err
		}
		_, err = river.JobCompleteTx[riverdriver.Driver[*sql.Tx]](ctx, stx, job)
		return err
	})
}

// failed tells the handler the text will never go, then ends the attempt with err. Should the
// record fail, the attempt fails (a cancel becomes a plain failure): its retry records it.
func (w *smsWorker) failed(ctx context.Context, h *SMSHandler, event string, err error) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if ferr := h.Failed(rctx, event); ferr != nil {
		return fmt.Errorf("%v; and recording text %s failed: %w", err, event, ferr)
	}
	return err
}
