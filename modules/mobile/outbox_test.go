package mobile

import (
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// recordingOutbox keeps what it is asked to queue, in the caller's transaction, or fails.
type recordingOutbox struct {
	fail   error
	events []string
	until  []time.Time
}

func (o *recordingOutbox) QueueSMS(tx *gorm.DB, event, to, body string, until time.Time) error {
	if o.fail != nil {
		return o.fail
	}
	o.events, o.until = append(o.events, event), append(o.until, until)
	return nil
}

func TestACodeIsStoredWithItsQueuedTextOrNotAtAll(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		for _, tc := range []struct {
			name  string
			fail  error
			codes int64
		}{
			{name: "a queued text keeps its code, marked queued", codes: 1},
			{name: "a text that cannot be queued leaves no code", fail: errors.New("the queue is unavailable"), codes: 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				outbox := &recordingOutbox{fail: tc.fail}
				m := New(Deps{DB: f.db, Kit: f.m.kit, Guard: testGuard{}, Limiter: ratelimit.New(f.db), Outbox: outbox})
				m.svc.now = func() time.Time { return f.clock }
				pid := f.member(f.acme)
				sent, err := m.svc.Send(f.ctx, f.acme, pid, "en", "202 555 0160", "", "country")
				var n int64
				require.NoError(t, f.db.Model(&Code{}).Where("participant_id = ?", pid).Count(&n).Error)
				assert.Equal(t, tc.codes, n)
				if tc.fail != nil {
					assert.ErrorIs(t, err, tc.fail)
					assert.Empty(t, outbox.events)
					return
				}
				require.NoError(t, err)
				var c Code
				require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&c).Error)
				assert.Equal(t, SMSQueued, c.SMSStatus)
				assert.Equal(t, []string{CodeEvent(c.ID)}, outbox.events, "the text's event is its code")
				assert.Equal(t, sent.ExpiresAt, outbox.until[0], "it is of no use after the code expires")
				s := f.status(f.acme, pid)
				assert.True(t, s.CodeQueued, "the page says the code is on its way")

				require.NoError(t, m.SMSFailed(f.ctx, CodeEvent(c.ID)))
				s = f.status(f.acme, pid)
				assert.True(t, s.SMSFailed, "a text that will never go shows")
				assert.Nil(t, s.CodeExpiresAt, "and its code is not offered for entry")
			})
		}
	})
}
