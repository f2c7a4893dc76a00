package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// atOnce sends n requests from the same moment (each goroutine waits at a closed gate) and
// returns their answers in order.
func atOnce(n int, send func(i int) *response) []*response {
	out := make([]*response, n)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-gate
			out[i] = send(i)
		})
	}
	close(gate)
	wg.Wait()
	return out
}

// tally counts answers by status; a nil answer (its goroutine failed) counts under 0.
func tally(rs []*response) map[int]int {
	n := map[int]int{}
	for _, r := range rs {
		if r == nil {
			n[0]++
			continue
		}
		n[r.StatusCode]++
	}
	return n
}

func TestWrongPasswordsSentAtOnceGetNoMoreChecksThanTheAccountsLimit(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		const tries = 40
		wrong := atOnce(tries, func(i int) *response {
			return e.client("localhost").postJSON("/ah/api/v2/user/login", fmt.Sprintf(`{"email":%q,"password":"wrong-password-%d"}`, DemoEmail, i))
		})
		// At most 5: one counted in flight past the IP's limit of 30 waits too.
		got := tally(wrong)
		assert.LessOrEqual(t, got[http.StatusUnauthorized], 5, "the account's limit of 5 failures holds for logins at once: %v", got)
		assert.Equal(t, tries, got[http.StatusUnauthorized]+got[http.StatusTooManyRequests], "every other one waits: %v", got)

		right := e.client("localhost").postJSON("/ah/api/v2/user/login", fmt.Sprintf(`{"email":%q,"password":%q}`, DemoEmail, DemoPassword))
		assert.Equal(t, http.StatusTooManyRequests, right.StatusCode, "the right password after them waits too")
	})
}

func TestARightPasswordAmongWrongOnesAtOnceIsNotCheckedPastTheLimit(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		// Seen from outside: 20 at once, the right password among them. A sign-in ends the
		// account's failures (a member who mistyped, then got in, starts afresh), so whatever
		// order they are handled in, no more than 5 wrong ones are checked before the right
		// one signs in and 5 after it; if it came too late it waits with the others (429) and
		// no more than 5 are checked in all. Never the 20th check.
		const tries = 20 // what SQLite's one writer serves within its busy timeout under -race on two busy cores
		rs := atOnce(tries, func(i int) *response {
			pw := fmt.Sprintf("wrong-password-%d", i)
			if i == tries-1 {
				pw = DemoPassword
			}
			return e.client("localhost").postJSON("/ah/api/v2/user/login", fmt.Sprintf(`{"email":%q,"password":%q}`, DemoEmail, pw))
		})
		got := tally(rs)
		checked := 5
		if got[http.StatusOK] == 1 {
			checked = 2 * 5
		}
		assert.LessOrEqual(t, got[http.StatusUnauthorized], checked, "%v", got)
		assert.Equal(t, tries, got[http.StatusUnauthorized]+got[http.StatusTooManyRequests]+got[http.StatusOK], "nothing else: %v", got)
		assert.LessOrEqual(t, got[http.StatusOK], 1)
	})
}

func TestLoginsAtOnceMeetTheCaptchaOnceTheFailuresBeforeThemReachItsThreshold(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withCaptcha(t, "after_failures") // after 3 failures
		const tries = 20
		rs := atOnce(tries, func(i int) *response {
			c := e.client("localhost")
			c.get("/login")
			return c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {fmt.Sprintf("wrong-password-%d", i)}})
		})
		// At most 3: an attempt counts the failures of its account and of its IP (those in flight
		// too), and another one may come before it in either count. The rest are asked for the
		// captcha, or, past the account's limit of 5 counted in flight, told to wait.
		got := tally(rs)
		assert.LessOrEqual(t, got[http.StatusUnauthorized], 3, "no more than 3 passwords checked without a captcha: %v", got)
		assert.Equal(t, tries, got[http.StatusUnauthorized]+got[http.StatusBadRequest]+got[http.StatusTooManyRequests], "%v", got)
		for _, r := range rs {
			if r != nil && r.StatusCode == http.StatusBadRequest {
				assert.Contains(t, r.Body, "confirm you")
			}
		}
	})
}

func TestRefusedSignUpsAtOnceMeetTheCaptchaOnceTheFailuresBeforeThemReachItsThreshold(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withCaptcha(t, "after_failures")
		const tries = 20
		rs := atOnce(tries, func(i int) *response {
			// An address already taken: refused, and counted against the IP.
			return e.client("localhost").postJSON("/ah/api/v2/user/register", fmt.Sprintf(`{"email":%q,"password":"robot-pass-%d","firstName":"Robot"}`, DemoEmail, i))
		})
		// Those past the panel's sign-ups of the hour (10) are told to wait; of the others, at
		// most 3 are refused on their own merits before the captcha is asked for.
		merits := 0
		for _, r := range rs {
			require.NotNil(t, r)
			require.Less(t, r.StatusCode, 500, r.Body)
			require.GreaterOrEqual(t, r.StatusCode, 400, r.Body)
			if r.StatusCode != http.StatusTooManyRequests && !strings.Contains(r.Body, `"captcha_failed"`) {
				merits++
			}
		}
		assert.LessOrEqual(t, merits, 3, "no more than 3 sign-ups checked without a captcha")
	})
}

func TestWrongPasswordsToCloseAnAccountAtOnceGetNoMoreChecksThanTheLimit(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		const tries = 20
		rs := atOnce(tries, func(i int) *response {
			return c.postJSON("/ah/api/v1/close-account", fmt.Sprintf(`{"reasonForClosing":"closed-by-user","password":"wrong-password-%d"}`, i))
		})
		got := tally(rs)
		assert.Equal(t, 5, got[http.StatusBadRequest], "5 wrong passwords checked: %v", got)
		assert.Equal(t, tries-5, got[http.StatusTooManyRequests], "%v", got)
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email = ? AND status <> ?", DemoEmail, accounts.StatusClosed),
			"the account is still open")
	})
}

func TestSignUpsAtOnceFromOneAddressStopAtThePanelsHourlyLimit(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		spec := demoPanels()[0]
		require.Equal(t, "demo", spec.Key)
		spec.AppSettings.SignUpsPerIPPerHour = 3
		_, err := e.app.Tenancy.Apply(context.Background(), spec)
		require.NoError(t, err)

		for range 2 { // refused (the address is taken): no place of the hour is used up
			taken := e.client("localhost").postJSON("/ah/api/v2/user/register", fmt.Sprintf(`{"email":%q,"password":"joiner-pass-x","firstName":"Joiner"}`, DemoEmail))
			require.Equal(t, http.StatusBadRequest, taken.StatusCode, taken.Body)
		}
		const tries = 8
		rs := atOnce(tries, func(i int) *response {
			return e.client("localhost").postJSON("/ah/api/v2/user/register", fmt.Sprintf(`{"email":"joiner-%d@example.test","password":"joiner-pass-%d","firstName":"Joiner"}`, i, i))
		})
		got := tally(rs)
		assert.Equal(t, 3, got[http.StatusCreated], "%v", got)
		assert.Equal(t, tries-3, got[http.StatusTooManyRequests], "%v", got)
		for _, r := range rs {
			if r != nil && r.StatusCode == http.StatusTooManyRequests {
				_, msg, _ := apiError(t, r)
				assert.Contains(t, msg, "Too many accounts")
			}
		}
		assert.Equal(t, int64(3), e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email LIKE 'joiner-%'"))
	})
}
