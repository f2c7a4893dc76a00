package jobs_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// texts is what the module that queued the texts is told, and a fake Twilio on loopback the
// real HTTP adapter sends them to.
type texts struct {
	sms    *smstest.Server
	mu     sync.Mutex
	sent   map[string]string // event -> provider id
	failed []string
	gone   map[string]bool // events whose cause is gone: not wanted
}

// smsQueue is a queue over db that texts the fake through mobile's Twilio adapter.
func smsQueue(t *testing.T, db *gorm.DB, workers int) (*jobs.Queue, *texts) {
	t.Helper()
	q, _ := queue(t, db, workers)
	tx := &texts{sms: smstest.Start(t), sent: map[string]string{}, gone: map[string]bool{}}
	sender, err := mobile.NewSender(tx.sms.URL(), nil)
	require.NoError(t, err)
	q.HandleSMS(jobs.SMSHandler{
		Send: sender.Send, Permanent: mobile.IsPermanent,
		Wanted: func(_ context.Context, event string) (bool, error) {
			tx.mu.Lock()
			defer tx.mu.Unlock()
			return !tx.gone[event], nil
		},
		Sent: func(_ *gorm.DB, event, providerID string) error {
			tx.mu.Lock()
			defer tx.mu.Unlock()
			tx.sent[event] = providerID
			return nil
		},
		Failed: func(_ context.Context, event string) error {
			tx.mu.Lock()
			defer tx.mu.Unlock()
			tx.failed = append(tx.failed, event)
			return nil
		},
	})
	return q, tx
}

func (x *texts) state() (map[string]string, []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	sent := map[string]string{}
	for k, v := range x.sent {
		sent[k] = v
	}
	return sent, append([]string(nil), x.failed...)
}

// queueText queues a text for event in a transaction with a cause, committed unless rollback.
func queueText(t *testing.T, db *gorm.DB, q *jobs.Queue, event, to string, until time.Time, rollback bool) error {
	t.Helper()
	return db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`INSERT INTO rate_limits (key, window_start, hits) VALUES (?, ?, 1)`, event, time.Now().UTC()).Error; err != nil {
			return err
		}
		if err := q.QueueSMS(tx, event, to, "123456 is your code", until); err != nil {
			return err
		}
		if rollback {
			return errors.New("the change failed")
		}
		return nil
	})
}

func TestATextJobIsInsertedWithItsCauseOrNotAtAll(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, _ := smsQueue(t, db, 0)
		for _, tc := range []struct {
			name     string
			event    string
			rollback bool
			rows     int64
		}{
			{name: "a committed cause has its text job", event: "mobile_code:committed", rows: 1},
			{name: "a cause rolled back leaves no job", event: "mobile_code:rolled-back", rollback: true, rows: 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				err := queueText(t, db, q, tc.event, "+12025550100", time.Now().Add(10*time.Minute), tc.rollback)
				assert.Equal(t, tc.rollback, err != nil, "%v", err)
				var causes, queued int64
				require.NoError(t, db.Raw(`SELECT COUNT(*) FROM rate_limits WHERE key = ?`, tc.event).Scan(&causes).Error)
				list, err := q.List(context.Background(), "available", 100)
				require.NoError(t, err)
				for _, j := range list {
					if j.Event == tc.event && j.Kind == jobs.KindSMS {
						queued++
					}
				}
				assert.Equal(t, tc.rows, causes, "the cause")
				assert.Equal(t, tc.rows, queued, "its text job")
			})
		}
		assert.Error(t, q.QueueSMS(db, "mobile_code:loose", "+12025550100", "x", time.Now()), "a text goes in with its cause")
	})
}

func TestATextTheProviderFailsIsRetriedAndSentOnce(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, x := smsQueue(t, db, 2)
		// A 500 may have sent the text: the adapter does not try again itself, the job does.
		x.sms.FailNext(smstest.Failure{Status: 500, Code: 20500, Message: "Internal Server Error"})
		require.NoError(t, queueText(t, db, q, "mobile_code:1", "+12025550101", time.Now().Add(10*time.Minute), false))
		start(t, q)

		j := waitState(t, q, "mobile_code:1", "completed")
		assert.Equal(t, 2, j.Attempt, "one failed attempt, then sent")
		require.Len(t, j.Errors, 1, "the failure is kept on the job")
		assert.Contains(t, j.Errors[0], "20500")
		assert.Equal(t, 2, x.sms.Requests())
		require.Len(t, x.sms.Messages(), 1, "one text arrived")
		sent, failed := x.state()
		assert.Equal(t, map[string]string{"mobile_code:1": x.sms.Messages()[0].SID}, sent, "the module is told, with the provider's id")
		assert.Empty(t, failed)
	})
}

func TestATextJobRunTwiceSendsOneText(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, x := smsQueue(t, db, 2)
		until := time.Now().Add(10 * time.Minute)
		require.NoError(t, queueText(t, db, q, "mobile_code:2", "+12025550102", until, false))
		require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
			return q.QueueSMS(tx, "mobile_code:2", "+12025550102", "123456 is your code", until)
		}), "a second insert for the event is skipped")
		start(t, q)
		first := waitState(t, q, "mobile_code:2", "completed")
		list, err := q.List(context.Background(), "", 100)
		require.NoError(t, err)
		assert.Len(t, list, 1, "one job for the event")

		_, err = q.Retry(context.Background(), first.ID)
		require.NoError(t, err)
		waitRetried(t, q, first.Attempt)
		assert.Len(t, x.sms.Messages(), 1, "one text for the event, though its job ran twice")
	})
}

func TestATextThatWillNeverGoIsRecordedFailed(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, x := smsQueue(t, db, 2)
		x.sms.Refuse("+12025550103", 21614) // a landline
		x.mu.Lock()
		x.gone["mobile_code:replaced"] = true
		x.mu.Unlock()
		later := time.Now().Add(10 * time.Minute)
		require.NoError(t, queueText(t, db, q, "mobile_code:landline", "+12025550103", later, false))
		require.NoError(t, queueText(t, db, q, "mobile_code:expired", "+12025550104", time.Now().Add(-time.Second), false))
		require.NoError(t, queueText(t, db, q, "mobile_code:replaced", "+12025550105", later, false))
		start(t, q)
		for _, tc := range []struct {
			name, event, reason string
			failed              bool
		}{
			{"a number the provider refuses is failed at once, not retried", "mobile_code:landline", "21614", true},
			{"a text whose code expired first is failed", "mobile_code:expired", "expired", true},
			{"a text whose code was replaced ends quietly", "mobile_code:replaced", "no longer wanted", false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				j := waitState(t, q, tc.event, "cancelled")
				assert.Equal(t, 1, j.Attempt)
				require.Len(t, j.Errors, 1)
				assert.Contains(t, j.Errors[0], tc.reason)
				_, failed := x.state()
				assert.Equal(t, tc.failed, contains(failed, tc.event), "the module is told it failed: %v", failed)
			})
		}
		assert.Equal(t, 1, x.sms.Requests(), "only the landline reached the provider, once")
		assert.Empty(t, x.sms.Messages())
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestAnOperatorCancellingATextTellsItsModuleItWillNeverGo(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		q, tx := smsQueue(t, db, 0) // no worker: the text waits
		require.NoError(t, queueText(t, db, q, "mobile_code:9", "+15005550006", time.Now().Add(10*time.Minute), false))
		cancelTheWaitingJob(t, q)
		sent, failed := tx.state()
		assert.Empty(t, sent)
		assert.Equal(t, []string{"mobile_code:9"}, failed, "the member is told the text is not coming")
		assert.Empty(t, tx.sms.Messages(), "nothing reached the provider")
	})
}
