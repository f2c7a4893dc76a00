package mobile

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReverifyingAnOldVerificationKeepsTheNumbersCoolingOffDone(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		first := f.verify(f.acme, pid, "202 555 0143")
		f.clock = f.clock.Add(181 * 24 * time.Hour)
		require.Equal(t, Reverify, f.eligibility(f.acme, pid))

		sent, err := f.svc.Reverify(f.ctx, f.acme, pid, "en")
		require.NoError(t, err)
		assert.Equal(t, "+12025550143", sent.MobileNumber, "the code goes to the verified number")
		code := f.sms.Code(t, "+12025550143")

		s, err := f.svc.Check(f.ctx, f.acme, pid, "+12025550143", code)
		require.NoError(t, err, "a due verification is not user_already_verified")
		assert.True(t, s.VerifiedAt.Equal(f.clock), "verifiedMobileNumberAt moves to now")
		assert.True(t, s.VerifiedAt.After(*first.VerifiedAt))
		assert.Equal(t, Yes, s.Eligibility, "the same number needs no new cooling-off")
	})
}

func TestReverifyingAReplacedNumberTextsTheNewNumber(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.verify(f.acme, pid, "202 555 0143")
		f.clock = f.clock.Add(10 * 24 * time.Hour)
		f.validate(pid, "202 555 0177")
		require.Equal(t, Reverify, f.eligibility(f.acme, pid))

		sent, err := f.svc.Reverify(f.ctx, f.acme, pid, "en")
		require.NoError(t, err)
		assert.Equal(t, "+12025550177", sent.MobileNumber)
		code := f.sms.Code(t, "+12025550177")
		s, err := f.svc.Check(f.ctx, f.acme, pid, "", code)
		require.NoError(t, err)
		assert.Equal(t, "+12025550177", s.VerifiedNumber)
		assert.Equal(t, VerifiedTooRecently, s.Eligibility, "a new number waits out the cooling-off")
	})
}

func TestReverifyIsRefusedWhenNothingIsDue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps func(f *fixture, pid string)
	}{
		{"a member without a number", func(*fixture, string) {}},
		{"a member with an unverified number", func(f *fixture, pid string) { f.validate(pid, "202 555 0143") }},
		{"a member verified recently", func(f *fixture, pid string) { f.verify(f.acme, pid, "202 555 0143") }},
		{"a member whose verification is current", func(f *fixture, pid string) {
			f.verify(f.acme, pid, "202 555 0143")
			f.clock = f.clock.Add(100 * 24 * time.Hour)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				pid := f.member(f.acme)
				tt.steps(f, pid)
				sentBefore := len(f.sms.Messages())
				_, err := f.svc.Reverify(f.ctx, f.acme, pid, "en")
				e := requireAPIError(t, err, http.StatusConflict, "reverify_not_needed")
				assert.Equal(t, "error.mobile_reverify_not_needed", e.ID)
				assert.Len(t, f.sms.Messages(), sentBefore)
			})
		})
	}
}

func TestReverifyKeepsToTheSendingLimits(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.verify(f.acme, pid, "202 555 0143")
		f.clock = f.clock.Add(200 * 24 * time.Hour)
		for range 2 {
			_, err := f.svc.Reverify(f.ctx, f.acme, pid, "en")
			require.NoError(t, err)
		}
		_, err := f.svc.Reverify(f.ctx, f.acme, pid, "en")
		requireAPIError(t, err, http.StatusTooManyRequests, "rate_limited")
	})
}
