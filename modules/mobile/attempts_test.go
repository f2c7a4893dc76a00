package mobile

import (
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACodeDiesAfterFiveAttempts(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		code := f.send(f.acme, pid, "202 555 0143")
		for left := 4; left >= 1; left-- {
			_, err := f.svc.Check(f.ctx, f.acme, pid, "", wrong(code))
			e := requireAPIError(t, err, http.StatusBadRequest, "wrong_code")
			assert.Equal(t, "code", e.Details[0].Field)
			assert.Equal(t, map[string]any{"Left": left}, e.Data, "the member is told how many tries are left")
			assert.Equal(t, map[string]any{"attemptsLeft": left}, e.Body)
		}
		_, err := f.svc.Check(f.ctx, f.acme, pid, "", wrong(code))
		requireAPIError(t, err, http.StatusTooManyRequests, "too_many_attempts")

		_, err = f.svc.Check(f.ctx, f.acme, pid, "", code)
		requireAPIError(t, err, http.StatusTooManyRequests, "too_many_attempts")
		assert.Equal(t, NotVerifiedMobile, f.eligibility(f.acme, pid), "even the right code does not work on a dead code")
		assert.Nil(t, f.status(f.acme, pid).CodeExpiresAt, "the page no longer offers the code form")

		fresh := f.send(f.acme, pid, "")
		_, err = f.svc.Check(f.ctx, f.acme, pid, "", fresh)
		require.NoError(t, err, "a new code starts again")
	})
}

func TestTheFifthAttemptMayBeTheRightOne(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		code := f.send(f.acme, pid, "202 555 0143")
		for range 4 {
			_, err := f.svc.Check(f.ctx, f.acme, pid, "", wrong(code))
			requireAPIError(t, err, http.StatusBadRequest, "wrong_code")
		}
		s, err := f.svc.Check(f.ctx, f.acme, pid, "", code)
		require.NoError(t, err)
		assert.Equal(t, StatusVerified, s.VerificationStatus)
	})
}

func TestConcurrentGuessesNeverGetMoreThanFiveAttempts(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		code := f.send(f.acme, pid, "202 555 0143")
		errs := make(chan error, 12)
		for range 12 {
			go func() {
				_, err := f.svc.Check(f.ctx, f.acme, pid, "", wrong(code))
				errs <- err
			}()
		}
		wrongs := 0
		for range 12 {
			var e *web.Error
			require.ErrorAs(t, <-errs, &e)
			switch {
			case e.Status == http.StatusBadRequest && e.Details[0].Code == "wrong_code":
				wrongs++
			case e.Status == http.StatusTooManyRequests && e.Details[0].Code == "too_many_attempts":
			default:
				t.Errorf("unexpected %d %v", e.Status, e.Details)
			}
		}
		assert.LessOrEqual(t, wrongs, maxAttempts-1, "at most four are told to try again")
		var c Code
		require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&c).Error)
		assert.Equal(t, maxAttempts, c.Attempts, "the database holds the line")
	})
}
