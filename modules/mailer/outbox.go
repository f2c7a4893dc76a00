package mailer

import (
	"gorm.io/gorm"
)

// Outbox queues a message in the caller's transaction: it goes out after the transaction
// commits, and never when it rolls back. key names the event the mail is for (a reset token's
// id, an invitation's id and send): one mail goes out per key, however often the sending is
// retried. The job queue (modules/jobs) is the Outbox of a running server.
type Outbox interface {
	Queue(tx *gorm.DB, key string, m Message) error
}

// OnceOutbox is an Outbox that also tells whether it queued the message, or skipped it because
// a message for the same key is queued or sent already (a re-run of the same bulk send).
type OnceOutbox interface {
	Outbox
	QueueOnce(tx *gorm.DB, key string, m Message) (queued bool, err error)
}

// SendNow is the Outbox of modules' own tests and of tools without a job queue: it sends at
// once, inside the transaction, so a mail can go for a change that then rolls back.
type SendNow struct{ Sender Sender }

// Queue sends m now.
func (s SendNow) Queue(tx *gorm.DB, _ string, m Message) error {
	return s.Sender.Send(tx.Statement.Context, m)
}
