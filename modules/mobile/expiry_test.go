package mobile

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACodeExpiresTenMinutesAfterItWasSent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		after time.Duration
		works bool
	}{
		{"a second before ten minutes it works", 10*time.Minute - time.Second, true},
		{"at ten minutes it has expired", 10 * time.Minute, false},
		{"an hour later it has expired", time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				pid := f.member(f.acme)
				code := f.send(f.acme, pid, "202 555 0143")
				f.clock = f.clock.Add(tt.after)
				_, err := f.svc.Check(f.ctx, f.acme, pid, "", code)
				if tt.works {
					require.NoError(t, err)
					assert.Equal(t, StatusVerified, f.status(f.acme, pid).VerificationStatus)
					return
				}
				requireAPIError(t, err, http.StatusGone, "code_expired")
				s := f.status(f.acme, pid)
				assert.Equal(t, StatusPending, s.VerificationStatus, "nothing changes")
				assert.Nil(t, s.CodeExpiresAt, "the page offers a new code instead of the form")
				var c Code
				require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&c).Error)
				assert.Zero(t, c.Attempts, "an expired code costs no attempt")
			})
		})
	}
}

func TestANewCodeReplacesTheOldOne(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		first := f.send(f.acme, pid, "202 555 0143")
		f.clock = f.clock.Add(time.Minute)
		second := f.send(f.acme, pid, "")
		if first == second {
			t.Skip("the two random codes happen to be equal")
		}
		_, err := f.svc.Check(f.ctx, f.acme, pid, "", first)
		requireAPIError(t, err, http.StatusBadRequest, "wrong_code")
		_, err = f.svc.Check(f.ctx, f.acme, pid, "", second)
		require.NoError(t, err)
		var n int64
		require.NoError(t, f.db.Model(&Code{}).Where("participant_id = ?", pid).Count(&n).Error)
		assert.EqualValues(t, 1, n, "the replaced code is gone")
	})
}
