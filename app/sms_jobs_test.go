package main

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drainSMS waits (bounded) until no text job is left to run.
func (e *env) drainSMS(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var open int64
		require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'running', 'retryable', 'scheduled', 'pending') AND kind = ?`, jobs.KindSMS).Scan(&open).Error)
		if open == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d text jobs still waiting", open)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// codeRow is the member's latest code for a number, as stored.
func (e *env) codeRow(t testing.TB, phone string) mobile.Code {
	t.Helper()
	var c mobile.Code
	require.NoError(t, e.db.Where("phone = ?", phone).Order("created_at DESC").Take(&c).Error)
	return c
}

// smsJob is the job of a code's text.
func (e *env) smsJob(t testing.TB, codeID string) jobs.Job {
	t.Helper()
	list, err := e.app.Jobs.List(context.Background(), "", 100)
	require.NoError(t, err)
	for _, j := range list {
		if j.Event == mobile.CodeEvent(codeID) {
			require.Equal(t, jobs.KindSMS, j.Kind)
			return j
		}
	}
	t.Fatalf("no job for code %s", codeID)
	return jobs.Job{}
}

func TestAVerificationCodeIsTextedByAJobOfItsCodeOnce(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		const phone = "+12025550171"
		reg := e.app.Metrics.Registry()
		sentBefore := metricValue(t, reg, "canvass_messages_total", map[string]string{"channel": "sms", "result": "sent"})
		c := e.apiMember("localhost", "queued@demo.test")
		res := c.postJSON("/ah/api/v1/verification/sms", `{"challenge":"","phone":"`+phone+`"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"status":"sent"`, "the spec's answer: the code is stored and its text queued")
		code := sms.Code(t, phone)
		e.drainSMS(t)

		row := e.codeRow(t, phone)
		assert.Equal(t, mobile.SMSSent, row.SMSStatus, "the job recorded the text sent")
		require.Len(t, sms.Messages(), 1)
		assert.Equal(t, sms.Messages()[0].SID, row.ProviderID, "with the provider's id")
		job := e.smsJob(t, row.ID)
		assert.Equal(t, "completed", job.State)
		assert.Equal(t, sentBefore+1, metricValue(t, reg, "canvass_messages_total", map[string]string{"channel": "sms", "result": "sent"}), "the text is counted")

		// An operator runs the completed job again: it finds its sent-marker.
		jc, err := prepareJobsCommand([]string{"retry", strconv.FormatInt(job.ID, 10)})
		require.NoError(t, err)
		require.NoError(t, jc.run(context.Background(), e.app, &bytes.Buffer{}))
		deadline := time.Now().Add(20 * time.Second)
		for j := e.smsJob(t, row.ID); j.State != "completed" || j.Attempt == job.Attempt; j = e.smsJob(t, row.ID) {
			require.True(t, time.Now().Before(deadline), "the retried job completes")
			time.Sleep(10 * time.Millisecond)
		}
		assert.Len(t, sms.Messages(), 1, "one text for the code, though its job ran twice")

		ok := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/verification/sms?site=pp&phone="+url.QueryEscape(phone)+"&code="+code), http.StatusOK)
		assert.Equal(t, "verified", ok.VerificationStatus, "the texted code verifies the number")
	})
}

func TestATextTheProviderFailsIsRetriedAndTheCodeArrivesOnce(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		const phone = "+12025550172"
		reg := e.app.Metrics.Registry()
		failedBefore := metricValue(t, reg, "canvass_messages_total", map[string]string{"channel": "sms", "result": "failed"})
		sms.FailNext(smstest.Failure{Status: 500, Code: 20500, Message: "Internal Server Error"})
		c := e.apiMember("localhost", "retried@demo.test")
		res := c.postJSON("/ah/api/v1/verification/sms", `{"challenge":"","phone":"`+phone+`"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, "the provider's failure is the job's to retry: %s", res.Body)
		code := sms.Code(t, phone)
		e.drainSMS(t)

		row := e.codeRow(t, phone)
		job := e.smsJob(t, row.ID)
		assert.Equal(t, "completed", job.State)
		assert.Equal(t, 2, job.Attempt, "one failed attempt, then sent")
		require.Len(t, job.Errors, 1)
		assert.Contains(t, job.Errors[0], "20500")
		assert.Equal(t, 2, sms.Requests())
		assert.Len(t, sms.Messages(), 1, "one text arrived")
		assert.Equal(t, mobile.SMSSent, row.SMSStatus)
		assert.Equal(t, failedBefore+1, metricValue(t, reg, "canvass_messages_total", map[string]string{"channel": "sms", "result": "failed"}), "the failed try is counted")
		ok := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/verification/sms?site=pp&phone="+url.QueryEscape(phone)+"&code="+code), http.StatusOK)
		assert.Equal(t, "verified", ok.VerificationStatus)
	})
}

func TestATextThatCannotBeSentShowsOnTheMobilePageAndTheMemberMayAskAgain(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		const landline, mobileNumber = "+12025550173", "+12025550174"
		sms.Refuse(landline, 21614)
		c := e.client("localhost")
		c.postJSON("/ah/api/v2/user/register", `{"email":"landline@demo.test","password":"mobile-pass-1"}`)
		require.Equal(t, http.StatusOK, c.get("/settings/mobile").StatusCode)
		res := c.postForm("/settings/mobile/number", url.Values{"country": {"US"}, "phone": {landline}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, "the code is stored and its text queued: %s", res.Body)
		e.drainSMS(t)
		first := e.codeRow(t, landline)
		assert.Equal(t, mobile.SMSFailed, first.SMSStatus, "the job recorded the refusal")
		assert.Equal(t, "cancelled", e.smsJob(t, first.ID).State, "a number that cannot take texts is not retried")

		for _, tc := range []struct {
			name string
			ask  func() *response
		}{
			{"the first text's failure shows on the page", nil},
			{"asking again is allowed, and its failure shows too", func() *response { return c.postForm("/settings/mobile/resend", url.Values{}) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.ask != nil {
					require.Equal(t, http.StatusSeeOther, tc.ask().StatusCode)
					e.drainSMS(t)
				}
				page := c.get("/settings/mobile")
				require.Equal(t, http.StatusOK, page.StatusCode)
				assert.Contains(t, page.Body, `id="mobile-sms-failed"`)
				assert.Contains(t, page.Body, "We couldn&#39;t send your code to "+landline+". Check the number, or ask for a new code.")
				assert.NotContains(t, page.Body, `action="/settings/mobile/code"`, "no code to enter")
				assert.Contains(t, page.Body, `id="mobile-resend"`, "the member may ask again")
			})
		}
		assert.Equal(t, 2, sms.Requests(), "each code's text was tried once")

		res = c.postForm("/settings/mobile/number", url.Values{"country": {"US"}, "phone": {mobileNumber}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		code := sms.Code(t, mobileNumber)
		e.drainSMS(t)
		page := c.get("/settings/mobile")
		assert.NotContains(t, page.Body, `id="mobile-sms-failed"`, "another number's code went")
		assert.Contains(t, page.Body, "We texted a 6-digit code to "+mobileNumber)
		require.Equal(t, http.StatusSeeOther, c.postForm("/settings/mobile/code", url.Values{"phone": {mobileNumber}, "code": {code}}).StatusCode)
		assert.Contains(t, c.get("/settings/mobile").Body, `data-status="verified"`)
	})
}
