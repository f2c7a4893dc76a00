package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mobileEnv is a whole Canvass whose CANVASS_SMS_URL points at a fake Twilio on loopback.
func mobileEnv(t testing.TB, d migrations.Dialect) (*env, *smstest.Server) {
	t.Helper()
	sms := smstest.Start(t)
	cfg := testConfig("development")
	cfg.SMSURL = sms.URL()
	return newEnvWith(t, d, cfg), sms
}

// eachMobileEnv runs fn on SQLite and, when configured, PostgreSQL.
func eachMobileEnv(t *testing.T, fn func(t *testing.T, e *env, sms *smstest.Server)) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			e, sms := mobileEnv(t, d)
			fn(t, e, sms)
		})
	}
}

// apiMember signs up a new member on a host through the API and sends their pp-token with
// every request, as the spec's clients do.
func (e *env) apiMember(host, email string) *client {
	e.t.Helper()
	c := e.client(host)
	res := c.postJSON("/ah/api/v2/user/register", fmt.Sprintf(`{"email":%q,"password":"mobile-pass-1","acceptedTermsConditions":true}`, email))
	require.Equal(e.t, http.StatusCreated, res.StatusCode, res.Body)
	var out struct {
		PPToken string `json:"ppToken"`
	}
	require.NoError(e.t, json.Unmarshal([]byte(res.Body), &out))
	c.header.Set("pp-token", out.PPToken)
	return c
}

type mobileJSON struct {
	MobileNumber           *string    `json:"mobileNumber"`
	VerificationStatus     string     `json:"verificationStatus"`
	VerifiedMobileNumber   *string    `json:"verifiedMobileNumber"`
	VerifiedMobileNumberAt *time.Time `json:"verifiedMobileNumberAt"`
	EligibleToRedeem       string     `json:"eligibleToRedeem"`
}

type apiErrorJSON struct {
	Name       string `json:"name"`
	Message    string `json:"message"`
	StatusCode int    `json:"statusCode"`
	Details    []struct {
		Message string `json:"message"`
		Field   string `json:"field"`
		Code    string `json:"code"`
	} `json:"details"`
	Data map[string]any `json:"data"`
}

func TestTheDemoMemberHasAMobileVerifiedAMonthAgoAndMayRedeem(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, _ *smstest.Server) {
		c := e.member()
		c.header.Set("X-XSRF-TOKEN", c.cookie("XSRF-TOKEN"))
		m := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/user/mobile"), http.StatusOK)
		require.NotNil(t, m.MobileNumber)
		assert.Equal(t, DemoMobile, *m.MobileNumber)
		assert.Equal(t, DemoMobile, *m.VerifiedMobileNumber)
		assert.Equal(t, "verified", m.VerificationStatus)
		assert.Equal(t, "yes", m.EligibleToRedeem)
		require.NotNil(t, m.VerifiedMobileNumberAt)
		assert.WithinDuration(t, time.Now().AddDate(0, 0, -30), *m.VerifiedMobileNumberAt, time.Minute)

		panel, pid := e.demoParticipant()
		v, err := e.app.Mobile.EligibleToRedeem(context.Background(), panel, pid)
		require.NoError(t, err)
		assert.Equal(t, mobile.Yes, v, "what redemptions will ask")

		require.NoError(t, LoadDemo(context.Background(), e.app), "loading the demo again")
		again := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/user/mobile"), http.StatusOK)
		assert.Equal(t, m, again, "changes nothing")
	})
}

func TestAMemberVerifiesTheirMobileThroughTheAccountHostAPI(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		c := e.apiMember("northwind.localhost", "kit@northwind.test")
		fresh := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/user/mobile"), http.StatusOK)
		assert.Equal(t, mobileJSON{VerificationStatus: "not-verified", EligibleToRedeem: "not-verified"}, fresh, "the spec's initial value")

		res := c.get("/ah/api/v1/mobile/validate?phone=" + url.QueryEscape("07700 900123"))
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.JSONEq(t, `{"valid":true,"mobileNumber":"+447700900123","country":"GB"}`, res.Body, "national form in Northwind's country")
		pending := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/user/mobile"), http.StatusOK)
		assert.Equal(t, "pending", pending.VerificationStatus)
		assert.Equal(t, "not-verified-mobile", pending.EligibleToRedeem)
		assert.Nil(t, pending.VerifiedMobileNumber)

		res = c.postJSON("/ah/api/v1/verification/sms", `{"challenge":"any-captcha-response"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		var sent struct {
			Status       string    `json:"status"`
			MobileNumber string    `json:"mobileNumber"`
			ExpiresAt    time.Time `json:"expiresAt"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &sent))
		assert.Equal(t, "sent", sent.Status)
		assert.Equal(t, "+447700900123", sent.MobileNumber)
		assert.WithinDuration(t, time.Now().Add(10*time.Minute), sent.ExpiresAt, time.Minute)
		msg := sms.WaitFor(t, "+447700900123", 30*time.Second)
		assert.Regexp(t, `^\d{6} is your Northwind Rewards verification code\. It expires in 10 minutes\.$`, msg.Body)
		code := regexp.MustCompile(`\d{6}`).FindString(msg.Body)

		bad := decodeJSON[apiErrorJSON](t, c.get("/ah/api/v1/verification/sms?site=pp&phone=%2B447700900123&code="+otherCode(code)), http.StatusBadRequest)
		assert.Equal(t, "ClientError", bad.Name)
		assert.Equal(t, 400, bad.StatusCode)
		assert.Equal(t, "That code isn't right. Attempts left: 4.", bad.Message)
		require.Len(t, bad.Details, 1)
		assert.Equal(t, "code", bad.Details[0].Field)
		assert.Equal(t, "wrong_code", bad.Details[0].Code)
		assert.Equal(t, 4.0, bad.Data["attemptsLeft"])

		ok := decodeJSON[mobileJSON](t, c.get("/ah/api/v1/verification/sms?site=pp&phone=%2B447700900123&code="+code), http.StatusOK)
		assert.Equal(t, "verified", ok.VerificationStatus)
		assert.Equal(t, "+447700900123", *ok.VerifiedMobileNumber)
		assert.Equal(t, "verified-too-recently", ok.EligibleToRedeem, "a fresh number waits 24 hours")
		assert.WithinDuration(t, time.Now(), *ok.VerifiedMobileNumberAt, time.Minute)
		assert.Equal(t, ok, decodeJSON[mobileJSON](t, c.get("/ah/api/v1/user/mobile"), http.StatusOK))

		again := decodeJSON[apiErrorJSON](t, c.get("/ah/api/v1/verification/sms?site=pp&phone=%2B447700900123&code="+code), http.StatusConflict)
		assert.Equal(t, "user_already_verified", again.Details[0].Code, "which the spec's clients treat as success")
		assert.Equal(t, "This number is already verified.", again.Message)

		reverify := decodeJSON[apiErrorJSON](t, c.get("/ah/api/v1/mobile/reverify"), http.StatusConflict)
		assert.Equal(t, "reverify_not_needed", reverify.Details[0].Code)
	})
}

func TestMobileValidateNamesTheWrongField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query, field, message string
	}{
		{"a number too short", "phone=202555014", "phone", "This isn't a valid mobile number. Check the digits and the country."},
		{"no number", "phone=", "phone", "Enter your mobile number."},
		{"a UK landline", "phone=020+7946+0000&code=GB", "phone", "This isn't a valid mobile number. Check the digits and the country."},
		{"a national number of a country without national rules", "phone=0151+23456789&code=DE", "phone", "Enter the number with its country code, starting with +."},
		{"a country that is not a code", "phone=07700900123&code=Britain", "code", "Choose the country by its two-letter code, such as US or GB."},
	}
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			e, _ := mobileEnv(t, d)
			c := e.apiMember("localhost", "val@demo.test")
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got := decodeJSON[apiErrorJSON](t, c.get("/ah/api/v1/mobile/validate?"+tt.query), http.StatusBadRequest)
					assert.Equal(t, "ClientError", got.Name)
					assert.Equal(t, tt.message, got.Message)
					require.Len(t, got.Details, 1)
					assert.Equal(t, tt.field, got.Details[0].Field)
					assert.Equal(t, "invalid", got.Details[0].Code)
				})
			}
			res := c.get("/ah/api/v1/mobile/validate?phone=%2B1+416+555+0199&code=GB")
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
			assert.JSONEq(t, `{"valid":true,"mobileNumber":"+14165550199","country":"CA"}`, res.Body, "an international number keeps its own country")
		})
	}
}

func TestMobileCallsNeedASignedInMember(t *testing.T) {
	t.Parallel()
	e, _ := mobileEnv(t, "sqlite")
	c := e.client("localhost")
	for _, call := range []struct{ method, path string }{
		{http.MethodGet, "/ah/api/v1/user/mobile"},
		{http.MethodGet, "/ah/api/v1/mobile/validate?phone=2025550143"},
		{http.MethodPost, "/ah/api/v1/verification/sms"},
		{http.MethodGet, "/ah/api/v1/verification/sms?code=123456"},
		{http.MethodGet, "/ah/api/v1/mobile/reverify"},
	} {
		res := c.do(call.method, call.path, nil, http.Header{"Content-Type": {"application/json"}})
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "%s %s: %s", call.method, call.path, res.Body)
	}
	assert.Equal(t, http.StatusSeeOther, c.get("/settings/mobile").StatusCode, "the page sends a visitor to log in")
}

func TestTheStateChangingGETsRefuseRequestsAnotherSiteCouldMake(t *testing.T) {
	t.Parallel()
	e, _ := mobileEnv(t, "sqlite")
	c := e.member() // signed in by the session cookie only, as a browser is
	const path = "/ah/api/v1/mobile/validate?phone=2025550177"
	for _, p := range []string{path, "/ah/api/v1/verification/sms?code=123456", "/ah/api/v1/mobile/reverify"} {
		res := c.get(p)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, "%s: a link on another site carries the cookie", p)
	}
	assert.Equal(t, http.StatusForbidden, c.do(http.MethodGet, path, nil, http.Header{"X-XSRF-TOKEN": {"forged"}}).StatusCode)
	assert.Equal(t, http.StatusForbidden, c.do(http.MethodGet, path, nil, http.Header{"Sec-Fetch-Site": {"cross-site"}}).StatusCode)
	assert.Equal(t, http.StatusOK, c.do(http.MethodGet, path, nil, http.Header{"X-XSRF-TOKEN": {c.cookie("XSRF-TOKEN")}}).StatusCode, "our own scripts send the XSRF header")
	assert.Equal(t, http.StatusOK, c.do(http.MethodGet, path, nil, http.Header{"Sec-Fetch-Site": {"same-origin"}}).StatusCode, "the browser vouches for our own origin")
	assert.Equal(t, http.StatusOK, c.get("/ah/api/v1/user/mobile").StatusCode, "reading changes nothing and needs no proof")
}

func TestSendingCodesIsRateLimitedWithA429(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		c := e.apiMember("localhost", "rate@demo.test")
		for range 3 {
			res := c.postJSON("/ah/api/v1/verification/sms", `{"challenge":"","phone":"+1 202 555 0188"}`)
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		}
		res := c.postJSON("/ah/api/v1/verification/sms", `{"challenge":""}`)
		got := decodeJSON[apiErrorJSON](t, res, http.StatusTooManyRequests)
		e.drainSMS(t)
		assert.Equal(t, "Too many codes were sent to this number. Please wait 10 minutes and try again.", got.Message)
		assert.Equal(t, "rate_limited", got.Details[0].Code)
		assert.NotEmpty(t, res.Header.Get("Retry-After"))
		var queued int64
		require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM river_job WHERE kind = 'sms'`).Scan(&queued).Error)
		assert.Equal(t, int64(3), queued, "a text job per code; none for the refused fourth")
		// A code replaced before its job ran is not texted: the newest always is.
		assert.LessOrEqual(t, len(sms.Messages()), 3)
		assert.Equal(t, mobile.SMSSent, e.codeRow(t, "+12025550188").SMSStatus)

		none := e.apiMember("localhost", "none@demo.test")
		got = decodeJSON[apiErrorJSON](t, none.postJSON("/ah/api/v1/verification/sms", `{"challenge":""}`), http.StatusBadRequest)
		assert.Equal(t, "Add your mobile number first.", got.Message)
		assert.Equal(t, "phone", got.Details[0].Field)
	})
}

func TestANumberVerifiedByAnotherMemberIsRefusedWithMobileInUse(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, _ *smstest.Server) {
		c := e.apiMember("localhost", "copycat@demo.test")
		got := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/verification/sms", `{"phone":"`+DemoMobile+`"}`), http.StatusConflict)
		assert.Equal(t, "mobile_in_use", got.Details[0].Code)
		assert.Equal(t, "This number is already verified on another account.", got.Message)

		nw := e.apiMember("northwind.localhost", "other-panel@northwind.test")
		res := nw.postJSON("/ah/api/v1/verification/sms", `{"phone":"`+DemoMobile+`"}`)
		assert.Equal(t, http.StatusOK, res.StatusCode, "another panel's member may: %s", res.Body)
	})
}

func TestTheMobilePageVerifiesANumberWithPlainForms(t *testing.T) {
	t.Parallel()
	eachMobileEnv(t, func(t *testing.T, e *env, sms *smstest.Server) {
		c := e.client("localhost")
		c.postJSON("/ah/api/v2/user/register", `{"email":"forms@demo.test","password":"mobile-pass-1"}`)
		page := c.get("/settings/mobile")
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, "Add and verify your mobile number to redeem your rewards.")
		assert.Contains(t, page.Body, `<option value="US" selected>`, "the panel's country is chosen")
		assert.NotContains(t, page.Body, `action="/settings/mobile/code"`, "no code form before a code")

		bad := c.postForm("/settings/mobile/number", url.Values{"country": {"US"}, "phone": {"555 0143"}})
		assert.Equal(t, http.StatusBadRequest, bad.StatusCode)
		assert.Contains(t, bad.Body, `id="e-phone"`)
		assert.Contains(t, bad.Body, "This isn&#39;t a valid mobile number.")
		assert.Contains(t, bad.Body, `value="555 0143"`, "the typed number is kept")

		res := c.postForm("/settings/mobile/number", url.Values{"country": {"US"}, "phone": {"(202) 555-0166"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/settings/mobile", res.Header.Get("Location"))
		page = c.get("/settings/mobile")
		assert.Contains(t, page.Body, `data-toast="success"`)
		assert.Contains(t, page.Body, "Your code is on its way by text message.")
		assert.Regexp(t, `(Your 6-digit code is on its way to|We texted a 6-digit code to) \+12025550166`, page.Body, "queued or already sent by the job")
		assert.Contains(t, page.Body, `action="/settings/mobile/code"`)
		code := sms.Code(t, "+12025550166")

		wrong := c.postForm("/settings/mobile/code", url.Values{"phone": {"+12025550166"}, "code": {otherCode(code)}})
		assert.Equal(t, http.StatusBadRequest, wrong.StatusCode)
		assert.Contains(t, wrong.Body, "That code isn&#39;t right. Attempts left: 4.")

		resend := c.postForm("/settings/mobile/resend", url.Values{})
		require.Equal(t, http.StatusSeeOther, resend.StatusCode, resend.Body)
		code = sms.Code(t, "+12025550166")

		ok := c.postForm("/settings/mobile/code", url.Values{"phone": {"+12025550166"}, "code": {code}})
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		page = c.get("/settings/mobile")
		assert.Contains(t, page.Body, "Your mobile number is verified.")
		assert.Contains(t, page.Body, `data-status="verified"`)
		assert.Contains(t, page.Body, `data-eligibility="verified-too-recently"`)
		assert.Regexp(t, `you can redeem from [A-Z][a-z]{2} \d+, \d{4} at \d\d:\d\d UTC`, page.Body)

		twice := c.postForm("/settings/mobile/code", url.Values{"phone": {"+12025550166"}, "code": {code}})
		assert.Equal(t, http.StatusSeeOther, twice.StatusCode, "user_already_verified is success on the page too")

		noToken := c.do(http.MethodPost, "/settings/mobile/resend", nil, http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Equal(t, http.StatusForbidden, noToken.StatusCode, "forms carry the CSRF token")
	})
}

func TestTheMobilePageOffersToVerifyAgainWhenDue(t *testing.T) {
	t.Parallel()
	e, sms := mobileEnv(t, "sqlite")
	panel, pid := e.demoParticipant()
	// The demo member's verification, made 181 days ago.
	require.NoError(t, e.db.Exec("UPDATE mobile_numbers SET verified_at = ?, verified_since = ? WHERE participant_id = ?",
		time.Now().AddDate(0, 0, -181).UTC(), time.Now().AddDate(0, 0, -181).UTC(), pid).Error)
	v, err := e.app.Mobile.EligibleToRedeem(context.Background(), panel, pid)
	require.NoError(t, err)
	require.Equal(t, mobile.Reverify, v)

	c := e.member()
	page := c.get("/settings/mobile")
	assert.Contains(t, page.Body, "Please verify your number again to keep redeeming your rewards.")
	assert.Contains(t, page.Body, `action="/settings/mobile/reverify"`)
	res := c.postForm("/settings/mobile/reverify", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	code := sms.Code(t, DemoMobile)
	require.Equal(t, http.StatusSeeOther, c.postForm("/settings/mobile/code", url.Values{"phone": {DemoMobile}, "code": {code}}).StatusCode)
	v, err = e.app.Mobile.EligibleToRedeem(context.Background(), panel, pid)
	require.NoError(t, err)
	assert.Equal(t, mobile.Yes, v, "verified again, and the same number needs no cooling-off")
}

// otherCode is a six-digit code that is not code.
func otherCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}
