package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo panels' hosts in tests: Canvass Demo answers on localhost, Northwind on its own.
const (
	demoHost      = "localhost"
	northwindHost = "northwind.localhost"
)

// memberID is the participant id of a demo member, by panel and email.
func memberID(t testing.TB, e *env, panelKey, email string) string {
	t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), panelKey)
	require.NoError(t, err)
	pid, err := e.app.Accounts.Service().ParticipantByEmail(t.Context(), panel, email)
	require.NoError(t, err)
	return pid
}

// memberPath is a member's page in the console.
func memberPath(panelKey, pid string) string {
	return "/console/panels/" + panelKey + "/members/" + pid
}

// memberStatus reads an account's status as the accounts module keeps it.
func memberStatus(t *testing.T, e *env, panelKey, pid string) string {
	t.Helper()
	prof, err := e.app.Accounts.MemberProfile(t.Context(), panelID(t, e, panelKey), pid)
	require.NoError(t, err)
	return prof.Status
}

// consoleAs signs an operator in on the console host.
func consoleAs(t *testing.T, e *env, email, password string) *client {
	t.Helper()
	c := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, c.consoleLogin(email, password, "").StatusCode)
	return c
}

// lastAudit is the newest audit entry of a panel with the action.
func lastAudit(t *testing.T, e *env, panelKey, action string) *console.AuditEntry {
	t.Helper()
	entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{panelID(t, e, panelKey)}, Limit: 100})
	require.NoError(t, err)
	for i := range entries {
		if entries[i].Action == action {
			return &entries[i]
		}
	}
	return nil
}

func TestSupportFindsADemoMemberByEmailUsernameOrIDAndOnlyTheirPanelsMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	pid := memberID(t, e, "demo", DemoEmail)
	require.NoError(t, e.db.Exec("UPDATE account_holders SET username = 'DemoFan' WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)", pid).Error)
	c := consoleAs(t, e, "support@ops.demo.test", "console-support-1")

	cases := []struct{ name, q string }{
		{"the whole email", DemoEmail},
		{"the email's beginning, in capitals", "MEMBER@DEMO"},
		{"the username, in another case", "demofan"},
		{"the username's beginning", "Demo"},
		{"the whole member id", pid},
		{"the member id's beginning", pid[:8]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.get("/console/panels/demo/members?" + url.Values{"q": {tc.q}}.Encode())
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
			assert.Contains(t, res.Body, `href="`+memberPath("demo", pid)+`"`)
			assert.Contains(t, res.Body, DemoEmail)
			assert.Contains(t, res.Body, "25.00", "the member's balance")
		})
	}

	t.Run("a Northwind member is not found through Canvass Demo", func(t *testing.T) {
		res := c.get("/console/panels/demo/members?q=ana%40northwind.test")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, `id="members-none"`)
		assert.NotContains(t, res.Body, `id="members"`)
	})
	t.Run("an empty search lists the panel's members, and only theirs", func(t *testing.T) {
		res := c.get("/console/panels/demo/members")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, DemoEmail)
		assert.Contains(t, res.Body, "jamie@demo.test")
		assert.NotContains(t, res.Body, "northwind.test")
	})
	t.Run("support holds no role on Northwind: its members are not found", func(t *testing.T) {
		assert.Equal(t, http.StatusNotFound, c.get("/console/panels/northwind/members").StatusCode)
	})
}

func TestAMemberOfAnotherPanelIsNotFoundThroughThisPanelsMemberPage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ana := memberID(t, e, "northwind", "ana@northwind.test")
		owner := consoleAs(t, e, "owner@ops.demo.test", "console-owner-1")
		support := consoleAs(t, e, "support@ops.demo.test", "console-support-1")
		assert.Equal(t, http.StatusNotFound, support.get(memberPath("demo", ana)).StatusCode)
		assert.Equal(t, http.StatusNotFound, owner.get(memberPath("demo", ana)).StatusCode, "even for an owner of both panels")
		assert.Equal(t, http.StatusNotFound, owner.consolePost(memberPath("northwind", ana), memberPath("demo", ana)+"/suspend", url.Values{"reason": {"wrong panel"}}).StatusCode)
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "northwind", ana), "nothing changed")
		res := owner.get(memberPath("northwind", ana))
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, "ana@northwind.test")
		assert.Equal(t, http.StatusNotFound, owner.get(memberPath("demo", "00000000-0000-4000-8000-000000000000")).StatusCode)
	})
}

func TestTheMemberPageShowsProfileParticipationsLedgerRedemptionsMobileReferralsAndSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	pid := memberID(t, e, "demo", DemoEmail)
	m := e.client(demoHost)
	m.header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0")
	require.Equal(t, http.StatusSeeOther, m.login(DemoEmail, DemoPassword).StatusCode)
	poll := e.campaignID("demo", "Quick poll")
	m.get("/survey/" + poll)
	require.Equal(t, http.StatusSeeOther, m.postForm("/survey/"+poll+"/start", url.Values{}).StatusCode)
	res := consoleAs(t, e, "support@ops.demo.test", "console-support-1").get(memberPath("demo", pid))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	for _, want := range []string{
		DemoEmail, "Demo", "Email validated", "Yes, on", "Active", // profile
		"Quick poll", "Started", // participations
		"Balance: 25.00 USD", "Welcome bonus", // ledger
		"Redemptions", "Mobile", "Verified", "+1••••••••43", // mobile, masked
		"Invitations sent", // referrals
		"Firefox on Linux", // sessions
	} {
		assert.Contains(t, res.Body, want)
	}
	assert.NotContains(t, res.Body, DemoMobile, "the whole number is never shown")
	assert.NotContains(t, res.Body, "/close", "support is offered no closing")
	assert.Contains(t, res.Body, "/suspend")
}

func TestSupportSuspendsAMemberWhoIsShutOutAndUnsuspendsThem(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		pid := memberID(t, e, "demo", DemoEmail)
		page := memberPath("demo", pid)
		member := e.client(demoHost)
		require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
		require.Equal(t, http.StatusOK, member.get("/feed").StatusCode)
		token := member.cookie(accounts.TokenCookie)
		support := consoleAs(t, e, "support@ops.demo.test", "console-support-1")

		// No reason: refused on the page, nothing changes.
		res := support.consolePost(page, page+"/suspend", url.Values{"reason": {"  "}})
		require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "Give a reason.")
		assert.Contains(t, res.Body, `aria-invalid="true"`)
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid))

		res = support.consolePost(page, page+"/suspend", url.Values{"reason": {"chargeback fraud"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		done := support.get(res.Header.Get("Location"))
		assert.Contains(t, done.Body, "The member is suspended. Sessions ended: 1.")
		assert.Contains(t, done.Body, "Lift the suspension")
		assert.Equal(t, accounts.StatusSuspended, memberStatus(t, e, "demo", pid))
		entry := lastAudit(t, e, "demo", "member.suspend")
		require.NotNil(t, entry)
		assert.Equal(t, "support@ops.demo.test", entry.OperatorEmail)
		assert.Equal(t, pid, entry.Target)
		assert.JSONEq(t, `{"status":"active"}`, entry.BeforeJSON)
		assert.JSONEq(t, `{"status":"suspended","reason":"chargeback fraud","sessions_ended":1}`, entry.AfterJSON)

		// The member's session is gone: their next page asks for a sign-in, their token is
		// refused; signing in again lands on /suspended.
		next := member.get("/feed")
		assert.Equal(t, http.StatusSeeOther, next.StatusCode)
		assert.True(t, strings.HasPrefix(next.Header.Get("Location"), "/login"), next.Header.Get("Location"))
		api := e.client(demoHost)
		api.header.Set("pp-token", token)
		assert.Equal(t, http.StatusUnauthorized, api.get("/ah/api/v1/user/profile").StatusCode)
		require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
		shut := member.get("/feed")
		assert.Equal(t, http.StatusSeeOther, shut.StatusCode)
		assert.Equal(t, "/suspended", shut.Header.Get("Location"))
		assert.Contains(t, member.get("/suspended").Body, "suspended")

		// Again: nothing changes, and the page says so.
		res = support.consolePost(page, page+"/suspend", url.Values{"reason": {"again"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, support.get(res.Header.Get("Location")).Body, "Nothing changed: the member was already suspended.")

		res = support.consolePost(page, page+"/unsuspend", url.Values{"reason": {"cleared by the bank"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, support.get(res.Header.Get("Location")).Body, "The suspension is lifted")
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid))
		entry = lastAudit(t, e, "demo", "member.unsuspend")
		require.NotNil(t, entry)
		assert.JSONEq(t, `{"status":"suspended"}`, entry.BeforeJSON)
		assert.JSONEq(t, `{"status":"active","reason":"cleared by the bank"}`, entry.AfterJSON)
		res = support.consolePost(page, page+"/unsuspend", url.Values{"reason": {"again"}})
		assert.Contains(t, support.get(res.Header.Get("Location")).Body, "Nothing changed: the member was not suspended.")
		require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
		assert.Equal(t, http.StatusOK, member.get("/feed").StatusCode, "the member is back in")
	})
}

func TestSupportEndsEverySessionOfAMember(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	pid := memberID(t, e, "demo", DemoEmail)
	page := memberPath("demo", pid)
	phone, laptop := e.client(demoHost), e.client(demoHost)
	for _, m := range []*client{phone, laptop} {
		require.Equal(t, http.StatusSeeOther, m.login(DemoEmail, DemoPassword).StatusCode)
	}
	support := consoleAs(t, e, "support@ops.demo.test", "console-support-1")
	assert.Contains(t, support.get(page).Body, `id="member-sessions"`)

	res := support.consolePost(page, page+"/end-sessions", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.StatusCode)
	done := support.get(res.Header.Get("Location"))
	assert.Contains(t, done.Body, "Sessions ended: 2.")
	assert.Contains(t, done.Body, `id="member-no-sessions"`)
	for _, m := range []*client{phone, laptop} {
		assert.Equal(t, http.StatusSeeOther, m.get("/feed").StatusCode, "signed out")
	}
	assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid), "ending sessions suspends nobody")
	entry := lastAudit(t, e, "demo", "member.end_sessions")
	require.NotNil(t, entry)
	assert.JSONEq(t, `{"sessions":2}`, entry.BeforeJSON)

	res = support.consolePost(page, page+"/end-sessions", url.Values{})
	assert.Contains(t, support.get(res.Header.Get("Location")).Body, "Nothing changed: the member had no sessions.")
}

func TestSupportResendsTheValidationMailOnlyWhileTheEmailIsNotValidated(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	const jamie = "jamie@demo.test"
	pid := memberID(t, e, "demo", jamie)
	require.NoError(t, e.db.Exec("UPDATE account_holders SET email_validated_at = NULL WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)", pid).Error)
	page := memberPath("demo", pid)
	support := consoleAs(t, e, "support@ops.demo.test", "console-support-1")
	assert.Contains(t, support.get(page).Body, "Send the validation email again")

	res := support.consolePost(page, page+"/resend-validation", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	assert.Contains(t, support.get(res.Header.Get("Location")).Body, "The validation email is sent.")
	mail := e.smtp.WaitFor(t, jamie, 30*time.Second)
	u, err := url.Parse(mailertest.FirstLink(mail.Text, ""))
	require.NoError(t, err)
	demo, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	assert.Contains(t, demo.Hosts, u.Hostname(), "the link opens the member's panel")
	assert.Equal(t, "/validate-email/confirm", u.Path, mail.Text)
	require.NotNil(t, lastAudit(t, e, "demo", "member.resend_validation"))

	// The member follows it; then there is nothing to send.
	m := e.client(u.Host)
	m.get(u.RequestURI())
	prof, err := e.app.Accounts.MemberProfile(t.Context(), panelID(t, e, "demo"), pid)
	require.NoError(t, err)
	require.NotNil(t, prof.EmailValidatedAt, "the mailed link validates the email")
	assert.NotContains(t, support.get(page).Body, "Send the validation email again")
	res = support.consolePost(page, page+"/resend-validation", url.Values{})
	assert.Contains(t, support.get(res.Header.Get("Location")).Body, "Nothing sent: the member&#39;s email is already validated.")
}

func TestOnlyAnOwnerClosesAMembersAccountAndOnlyWithTheirEmailTyped(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		pid := memberID(t, e, "demo", DemoEmail)
		page := memberPath("demo", pid)
		support := consoleAs(t, e, "support@ops.demo.test", "console-support-1")
		res := support.consolePost(page, page+"/close", url.Values{"confirm_email": {DemoEmail}, "reason": {"asked by phone"}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid))

		owner := consoleAs(t, e, "owner@ops.demo.test", "console-owner-1")
		res = owner.consolePost(page, page+"/close", url.Values{"confirm_email": {"someone@else.test"}, "reason": {"asked by phone"}})
		require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "Type the member&#39;s email exactly as shown to confirm.")
		assert.Contains(t, res.Body, "Nothing was done")
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid), "a wrong confirmation changes nothing")
		assert.Contains(t, owner.get(page).Body, "Balance: 25.00 USD")
		res = owner.consolePost(page, page+"/close", url.Values{"confirm_email": {DemoEmail}})
		require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "Give a reason.")

		res = owner.consolePost(page, page+"/close", url.Values{"confirm_email": {strings.ToUpper(DemoEmail)}, "reason": {"asked by phone"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		done := owner.get(res.Header.Get("Location"))
		assert.Contains(t, done.Body, "The account is closed")
		assert.Contains(t, done.Body, "Balance: 0.00 USD", "the balance is forfeited")
		assert.Contains(t, done.Body, "Balance forfeited: account closed", "as a ledger debit")
		assert.NotContains(t, done.Body, DemoEmail, "the email is erased")
		assert.Equal(t, accounts.StatusClosed, memberStatus(t, e, "demo", pid))
		entry := lastAudit(t, e, "demo", "member.close")
		require.NotNil(t, entry)
		assert.JSONEq(t, `{"status":"active","balance":"25.00"}`, entry.BeforeJSON)
		assert.JSONEq(t, `{"status":"closed","forfeited":"25.00","currency_code":"USD","reason":"asked by phone"}`, entry.AfterJSON)
		assert.NotContains(t, entry.BeforeJSON+entry.AfterJSON, DemoEmail, "the audit log keeps no erased address")

		m := e.client(demoHost)
		res = m.login(DemoEmail, DemoPassword)
		assert.NotEqual(t, "/feed", res.Header.Get("Location"), "the closed account signs in no more")
	})
}

func TestEditorAndFinanceMayNotReadOrActOnMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	pid := memberID(t, e, "demo", DemoEmail)
	for _, op := range []struct{ email, password string }{
		{"editor@ops.demo.test", "console-editor-1"}, {"finance@ops.demo.test", "console-finance-1"},
	} {
		t.Run(op.email, func(t *testing.T) {
			c := consoleAs(t, e, op.email, op.password)
			assert.Equal(t, http.StatusForbidden, c.get("/console/panels/demo/members").StatusCode)
			assert.Equal(t, http.StatusForbidden, c.get(memberPath("demo", pid)).StatusCode)
			res := c.consolePost("/console/", memberPath("demo", pid)+"/suspend", url.Values{"reason": {"no"}})
			assert.Equal(t, http.StatusForbidden, res.StatusCode)
			assert.NotContains(t, c.get("/console/").Body, "/console/panels/demo/members", "the home page offers no members link")
		})
	}
	assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid))
}

// decode reads a JSON answer.
func decode[T any](t *testing.T, res *response) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(res.Body), &v), res.Body)
	return v
}

type memberActionJSON struct {
	Action, UUID, Status, Message string
	Changed, MailSent             bool
	SessionsEnded                 int
	BalanceForfeited              string
}

func TestEveryMembersOperationIsAlsoAJSONAPICallWithAToken(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		pid := memberID(t, e, "demo", DemoEmail)
		api := e.client(consoleHost)
		base := "/console/api/panels/demo/members"
		support := consoleAPIToken(t, e, "support@ops.demo.test", "demo",
			console.ActionReadMembers, console.ActionSuspendMembers, console.ActionEndSessions, console.ActionResendMail)

		res := api.consoleCall(http.MethodGet, base+"?q="+url.QueryEscape("member@demo"), support, "")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		found := decode[struct {
			Members []struct{ UUID, Email, Status, Balance string }
			More    bool
		}](t, res)
		require.Len(t, found.Members, 1)
		assert.Equal(t, pid, found.Members[0].UUID)
		assert.Equal(t, "25.00", found.Members[0].Balance)

		res = api.consoleCall(http.MethodGet, base+"/"+pid, support, "")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		one := decode[struct {
			Profile struct {
				Email          string
				EmailValidated bool
				Status         string
			}
			Ledger struct{ Balance string }
			Mobile struct {
				Verified     bool
				MaskedNumber string
			}
		}](t, res)
		assert.Equal(t, DemoEmail, one.Profile.Email)
		assert.True(t, one.Profile.EmailValidated)
		assert.Equal(t, "25.00", one.Ledger.Balance)
		assert.True(t, one.Mobile.Verified)
		assert.NotContains(t, res.Body, DemoMobile)
		ana := memberID(t, e, "northwind", "ana@northwind.test")
		assert.Equal(t, http.StatusNotFound, api.consoleCall(http.MethodGet, base+"/"+ana, support, "").StatusCode)

		member := e.client(demoHost)
		require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
		res = api.consoleCall(http.MethodPost, base+"/"+pid+"/suspend", support, `{}`)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, "a reason is required")
		res = api.consoleCall(http.MethodPost, base+"/"+pid+"/suspend", support, `{"reason":"api test"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		act := decode[memberActionJSON](t, res)
		assert.True(t, act.Changed)
		assert.Equal(t, "suspended", act.Status)
		assert.Equal(t, 1, act.SessionsEnded)
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/suspend", support, `{"reason":"api test"}`))
		assert.False(t, act.Changed, "a second call changes nothing")
		assert.Contains(t, act.Message, "already suspended")
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/unsuspend", support, `{"reason":"api test"}`))
		assert.True(t, act.Changed)
		assert.Equal(t, "active", act.Status)

		require.Equal(t, http.StatusSeeOther, member.login(DemoEmail, DemoPassword).StatusCode)
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/end-sessions", support, ""))
		assert.True(t, act.Changed)
		assert.Equal(t, 1, act.SessionsEnded)
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/end-sessions", support, ""))
		assert.False(t, act.Changed)

		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/resend-validation", support, ""))
		assert.False(t, act.Changed, "the email is validated: nothing to send")
		assert.False(t, act.MailSent)
		jamie := memberID(t, e, "demo", "jamie@demo.test")
		require.NoError(t, e.db.Exec("UPDATE account_holders SET email_validated_at = NULL WHERE id = (SELECT account_holder_id FROM participants WHERE id = ?)", jamie).Error)
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+jamie+"/resend-validation", support, ""))
		assert.True(t, act.MailSent)
		e.smtp.WaitFor(t, "jamie@demo.test", 30*time.Second)

		res = api.consoleCall(http.MethodPost, base+"/"+pid+"/close", support, `{"confirm_email":"`+DemoEmail+`","reason":"api"}`)
		assert.Equal(t, http.StatusForbidden, res.StatusCode, "support may not close")
		owner := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionReadMembers, console.ActionCloseMembers)
		res = api.consoleCall(http.MethodPost, base+"/"+pid+"/close", owner, `{"confirm_email":"not@this.test","reason":"api"}`)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"field":"confirm_email"`)
		assert.Equal(t, accounts.StatusActive, memberStatus(t, e, "demo", pid))
		res = api.consoleCall(http.MethodPost, base+"/"+pid+"/close", owner, `{"confirm_email":"`+DemoEmail+`","reason":"api"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		act = decode[memberActionJSON](t, res)
		assert.True(t, act.Changed)
		assert.Equal(t, "closed", act.Status)
		assert.Equal(t, "25.00", act.BalanceForfeited)
		act = decode[memberActionJSON](t, api.consoleCall(http.MethodPost, base+"/"+pid+"/close", owner, `{"confirm_email":"`+DemoEmail+`","reason":"api"}`))
		assert.False(t, act.Changed, "closing twice forfeits nothing more")
		assert.Equal(t, http.StatusConflict, api.consoleCall(http.MethodPost, base+"/"+pid+"/suspend", support, `{"reason":"closed"}`).StatusCode)
	})
}
