package mobile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Outbox queues a code's text message in the transaction that stores the code: it goes out
// after the transaction commits, and never when it rolls back. event names the code
// (CodeEvent): one text goes out per event, however often the sending is retried; until is
// when the text stops being of use (the code expires). The job queue (modules/jobs) is the
// Outbox of a running server; it reports what became of the text through the module's
// SMSSent and SMSFailed.
type Outbox interface {
	QueueSMS(tx *gorm.DB, event, to, body string, until time.Time) error
}

// codeEventPrefix starts the event key of a code's text.
const codeEventPrefix = "mobile_code:"

// CodeEvent is the event key of a code's text message.
func CodeEvent(codeID string) string { return codeEventPrefix + codeID }

func codeOf(event string) (string, bool) {
	return strings.CutPrefix(event, codeEventPrefix)
}

// errNotOurs: an event that is not a code's.
var errNotOurs = errors.New("mobile: not a verification code's text")

// SMSWanted tells the queue whether a code's text should still go: false once the code was
// replaced by a newer one or used.
func (m *Module) SMSWanted(ctx context.Context, event string) (bool, error) {
	id, ok := codeOf(event)
	if !ok {
		return false, fmt.Errorf("%w: %s", errNotOurs, event)
	}
	return m.svc.store.SMSWanted(ctx, id)
}

// SMSSent records, in the queue's transaction, that a code's text went.
func (m *Module) SMSSent(tx *gorm.DB, event, providerID string) error {
	id, ok := codeOf(event)
	if !ok {
		return fmt.Errorf("%w: %s", errNotOurs, event)
	}
	return m.svc.store.SMSSent(tx, id, providerID)
}

// SMSFailed records that a code's text will never go: the mobile settings page says so, and
// the member may ask for a new code (the code itself cannot be entered).
func (m *Module) SMSFailed(ctx context.Context, event string) error {
	id, ok := codeOf(event)
	if !ok {
		return fmt.Errorf("%w: %s", errNotOurs, event)
	}
	return m.svc.store.SMSFailed(ctx, id)
}

// IsPermanent tells whether a Sender's error will never go away: the number cannot receive
// text messages.
func IsPermanent(err error) bool { return errors.Is(err, ErrUndeliverable) }

// sendNow is the Outbox without a job queue: it sends at once, inside the transaction, so a
// refused text rolls its code back and the request answers with the provider's refusal.
type sendNow struct {
	sender Sender
	store  *Store
}

// sendError is a Sender's failure, told apart from the database's.
type sendError struct{ err error }

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

func (s sendNow) QueueSMS(tx *gorm.DB, event, to, body string, _ time.Time) error {
	id, err := s.sender.Send(tx.Statement.Context, to, body)
	if err != nil {
		return &sendError{err: err}
	}
	code, _ := codeOf(event)
	return s.store.SMSSent(tx, code, id)
}
