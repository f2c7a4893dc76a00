package mobile

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestACodeWorksOnce(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		first := f.verify(f.acme, pid, "202 555 0143").VerifiedAt
		// A stale code of a number that is no longer the verified one says it was used.
		usedCode := func() string {
			var c Code
			require.NoError(t, f.db.Where("participant_id = ? AND used_at IS NOT NULL", pid).Take(&c).Error)
			return c.ID
		}()
		f.clock = f.clock.Add(time.Hour)
		f.verify(f.acme, pid, "202 555 0144")
		before := f.status(f.acme, pid)

		for _, c := range f.sms.Messages() {
			if c.To != "+12025550143" {
				continue
			}
			_, err := f.svc.Check(f.ctx, f.acme, pid, "202 555 0143", c.Body[:6])
			requireAPIError(t, err, http.StatusGone, "code_used")
			_, err = f.svc.Check(f.ctx, f.acme, pid, "202 555 0143", wrong(c.Body[:6]))
			requireAPIError(t, err, http.StatusBadRequest, "code_not_requested")
		}
		assert.Equal(t, before, f.status(f.acme, pid), "nothing changes")
		assert.NotEqual(t, first, before.VerifiedAt)
		var c Code
		require.NoError(t, f.db.Where("id = ?", usedCode).Take(&c).Error)
		assert.Equal(t, 1, c.Attempts, "a used code counts no more attempts")
	})
}

func TestTwoChecksOfOneCodeAtOnceVerifyOnce(t *testing.T) {
	t.Parallel()
	for _, wrongFirst := range []int{0, maxAttempts - 1} {
		t.Run(fmt.Sprintf("after %d wrong tries", wrongFirst), func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				pid := f.member(f.acme)
				code := f.send(f.acme, pid, "202 555 0143")
				for range wrongFirst {
					_, err := f.svc.Check(f.ctx, f.acme, pid, "", wrong(code))
					requireAPIError(t, err, http.StatusBadRequest, "wrong_code")
				}
				const n = 8
				var wg sync.WaitGroup
				errs := make([]error, n)
				for i := range n {
					wg.Go(func() { _, errs[i] = f.svc.Check(f.ctx, f.acme, pid, "", code) })
				}
				wg.Wait()
				ok := 0
				for _, err := range errs {
					if err == nil {
						ok++
						continue
					}
					var e *web.Error
					require.ErrorAs(t, err, &e)
					// Whoever comes after the winner finds the number verified or the code spent,
					// never "too many attempts": a twin of the right code takes no attempt from it.
					assert.Contains(t, []string{"user_already_verified", "code_used"}, e.Details[0].Code)
				}
				assert.Equal(t, 1, ok)
				assert.Equal(t, StatusVerified, f.status(f.acme, pid).VerificationStatus)
			})
		})
	}
}
