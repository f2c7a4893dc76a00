package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// financeClient is the demo's finance operator, signed in on the console host.
func (e *env) financeClient() *client {
	e.t.Helper()
	c := e.client(consoleHost)
	require.Equal(e.t, http.StatusSeeOther, c.consoleLogin("finance@ops.demo.test", "console-finance-1", "").StatusCode)
	return c
}

// demoRedemption is a pending redemption of the demo member (topped up first when needed).
func (e *env) demoRedemption(amount, option string) *redemptions.Redemption {
	e.t.Helper()
	panel, pid := e.demoParticipant()
	minor, err := web.ParseMoney(amount, "USD")
	require.NoError(e.t, err)
	e.credit(minor, "campaign:top-up-"+uuid.NewString())
	r, created, err := e.app.Redemptions.Redeem(context.Background(), redemptions.RedeemInput{Panel: panel, ParticipantID: pid, Email: DemoEmail, OptionID: option, Amount: amount, Key: uuid.NewString()})
	require.NoError(e.t, err)
	require.True(e.t, created)
	return r
}

// northwindRedemption is a pending voucher redemption of a new Northwind member.
func (e *env) northwindRedemption() *redemptions.Redemption {
	e.t.Helper()
	_, pid := e.redeemingMember("northwind.localhost", "northwind", "payee@northwind.test", 3000, "+447700900461")
	r, created, err := e.app.Redemptions.Redeem(context.Background(), redemptions.RedeemInput{Panel: mustPanel(e.t.(*testing.T), e, "northwind"), ParticipantID: pid, Email: "payee@northwind.test", OptionID: "amazon-voucher", Amount: "10.00", Key: uuid.NewString()})
	require.NoError(e.t, err)
	require.True(e.t, created)
	return r
}

func (e *env) redemptionStatus(id string) redemptions.Status {
	e.t.Helper()
	var r redemptions.Redemption
	require.NoError(e.t, e.db.Where("id = ?", id).Take(&r).Error)
	return r.Status
}

// audited is the audit log's entries of an action on a target.
func (e *env) audited(action, target string) []console.AuditEntry {
	e.t.Helper()
	var out []console.AuditEntry
	require.NoError(e.t, e.db.Where("action = ? AND target = ?", action, target).Order("at").Find(&out).Error)
	return out
}

func (e *env) demoBalance() int64 {
	e.t.Helper()
	panel, pid := e.demoParticipant()
	b, err := e.app.Wallet.Balance(context.Background(), panel, pid)
	require.NoError(e.t, err)
	return b.Minor
}

var outcomeRE = regexp.MustCompile(`<tr data-outcome="([a-z_]+)"><th scope="row"><a href="[^"]*/redemptions/([0-9a-f-]+)"`)

// outcomes reads the bulk action's report: outcome by redemption id.
func outcomes(body string) map[string]string {
	out := map[string]string{}
	for _, m := range outcomeRE.FindAllStringSubmatch(body, -1) {
		out[m[2]] = m[1]
	}
	return out
}

func TestFinanceApprovesRejectsAndPaysRedemptionsEachOnceAndAudited(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		a := e.demoRedemption("20.00", "paypal")
		b := e.demoRedemption("20.00", "paypal")
		c := e.financeClient()
		base := "/console/panels/demo/redemptions/"

		queue := c.get("/console/panels/demo/redemptions?status=pending")
		require.Equal(t, http.StatusOK, queue.StatusCode)
		assert.Contains(t, queue.Body, `data-id="`+a.ID+`"`)
		assert.Contains(t, queue.Body, `data-id="`+b.ID+`"`)
		assert.Contains(t, queue.Body, "m***@demo.test")
		assert.NotContains(t, queue.Body, DemoEmail, "the queue shows destinations masked")
		assert.Less(t, strings.Index(queue.Body, b.ID), strings.Index(queue.Body, a.ID), "newest first")

		act := func(id, action, reason string) *response {
			return c.consolePost(base+id, base+id+"/act", url.Values{"action": {action}, "reason": {reason}})
		}
		res := act(a.ID, "approve", "")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, "Now approved (was pending).")
		assert.Equal(t, redemptions.StatusApproved, e.redemptionStatus(a.ID))
		require.Len(t, e.audited("redemption.approve", a.ID), 1)
		assert.JSONEq(t, `{"status":"pending"}`, e.audited("redemption.approve", a.ID)[0].BeforeJSON)
		events := len(e.events(a.ID))

		res = act(a.ID, "approve", "")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, "Already approved: nothing changed.")
		assert.Len(t, e.audited("redemption.approve", a.ID), 1, "the second approval changed nothing")
		assert.Len(t, e.events(a.ID), events)

		before := e.demoBalance()
		res = act(b.ID, "reject", " ")
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "a rejection needs a reason")
		assert.Equal(t, redemptions.StatusPending, e.redemptionStatus(b.ID))
		res = act(b.ID, "reject", "the account looks fraudulent")
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, "20.00 USD refunded to the member.")
		assert.Equal(t, before+2000, e.demoBalance(), "the member is refunded")
		rejected := e.audited("redemption.reject", b.ID)
		require.Len(t, rejected, 1)
		assert.Contains(t, rejected[0].AfterJSON, "the account looks fraudulent")
		assert.Equal(t, "finance@ops.demo.test", rejected[0].OperatorEmail)
		act(b.ID, "reject", "again")
		assert.Equal(t, before+2000, e.demoBalance(), "refunded once")
		e.reconciledLedger()

		res = act(a.ID, "mark-paid", "sent by PayPal")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, redemptions.StatusPaid, e.redemptionStatus(a.ID))
		res = act(b.ID, "mark-paid", "")
		assert.Equal(t, http.StatusConflict, res.StatusCode, "a rejected redemption is never paid")

		detail := c.get(base + a.ID)
		require.Equal(t, http.StatusOK, detail.StatusCode)
		for _, s := range []string{"sent by PayPal", "approved in the console", "finance@ops.demo.test"} {
			assert.Contains(t, detail.Body, s, "the history")
		}
	})
}

// events is a redemption's status changes.
func (e *env) events(id string) []redemptions.Event {
	e.t.Helper()
	_, evs, err := e.app.Redemptions.Redemption(context.Background(), id)
	require.NoError(e.t, err)
	return evs
}

func TestABulkActionReportsWhatHappenedToEachRedemption(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		pending := e.demoRedemption("20.00", "paypal")
		approved := e.demoRedemption("20.00", "paypal")
		paid := e.demoRedemption("20.00", "paypal")
		ctx := context.Background()
		for _, r := range []*redemptions.Redemption{approved, paid} {
			_, err := e.app.Redemptions.Approve(ctx, r.ID, "ops", "setup")
			require.NoError(t, err)
		}
		_, err := e.app.Redemptions.MarkPaid(ctx, paid.ID, "ops", "setup")
		require.NoError(t, err)
		foreign := e.northwindRedemption()
		c := e.financeClient()
		from := "/console/panels/demo/redemptions"

		res := c.consolePost(from, from+"/bulk", url.Values{"action": {"approve"}, "ids": {pending.ID, approved.ID, paid.ID, foreign.ID}})
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, map[string]string{pending.ID: "changed", approved.ID: "unchanged", paid.ID: "refused", foreign.ID: "not_found"}, outcomes(res.Body))
		assert.Contains(t, res.Body, "Changed: 1. Unchanged: 1. Refused: 2.")
		assert.Equal(t, redemptions.StatusApproved, e.redemptionStatus(pending.ID))
		assert.Equal(t, redemptions.StatusPending, e.redemptionStatus(foreign.ID), "another panel's redemption is untouched")
		assert.Len(t, e.audited("redemption.approve", pending.ID), 1)
		assert.Empty(t, e.audited("redemption.approve", approved.ID))

		res = c.consolePost(from, from+"/bulk", url.Values{"action": {"reject"}, "ids": {pending.ID}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "a bulk rejection needs a reason")
		res = c.consolePost(from, from+"/bulk", url.Values{"action": {"approve"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "nothing selected")

		// One row's own button: the same form, that row only.
		res = c.consolePost(from, from+"/bulk", url.Values{"row": {"mark-paid:" + pending.ID}, "ids": {approved.ID}})
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, map[string]string{pending.ID: "changed"}, outcomes(res.Body))
		assert.Equal(t, redemptions.StatusPaid, e.redemptionStatus(pending.ID))
		assert.Equal(t, redemptions.StatusApproved, e.redemptionStatus(approved.ID))
	})
}

func TestOnlyFinanceAndOwnersReachMoneyAndAnotherPanelsRedemptionIsNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	foreign := e.northwindRedemption()
	pages := []string{"/console/panels/demo/redemptions", "/console/panels/demo/ledger", "/console/panels/demo/competitions", "/console/panels/demo/summary", "/console/panels/demo/summary.csv"}
	for _, who := range []struct{ email, password string }{{"support@ops.demo.test", "console-support-1"}, {"editor@ops.demo.test", "console-editor-1"}} {
		c := e.client(consoleHost)
		require.Equal(t, http.StatusSeeOther, c.consoleLogin(who.email, who.password, "").StatusCode)
		for _, p := range pages {
			assert.Equal(t, http.StatusForbidden, c.get(p).StatusCode, "%s %s", who.email, p)
		}
	}
	fin := e.financeClient()
	for _, p := range pages {
		assert.Equal(t, http.StatusOK, fin.get(p).StatusCode, p)
	}
	through := "/console/panels/demo/redemptions/" + foreign.ID
	assert.Equal(t, http.StatusNotFound, fin.get(through).StatusCode)
	assert.Equal(t, http.StatusNotFound, fin.consolePost("/console/panels/demo/redemptions", through+"/act", url.Values{"action": {"approve"}}).StatusCode)
	assert.Equal(t, http.StatusNotFound, fin.consolePost("/console/panels/demo/redemptions", through+"/payout-details", url.Values{}).StatusCode)
	assert.Equal(t, http.StatusNotFound, fin.get("/console/panels/northwind/redemptions").StatusCode, "finance holds no role on Northwind")

	owner := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, owner.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
	assert.Equal(t, http.StatusNotFound, owner.get(through).StatusCode, "an owner of both reaches Northwind's redemption only through Northwind")
	assert.Equal(t, http.StatusOK, owner.get("/console/panels/northwind/redemptions/"+foreign.ID).StatusCode)
	assert.Equal(t, redemptions.StatusPending, e.redemptionStatus(foreign.ID))
}

func TestARevealShowsPayoutDetailsInItsAnswerOnlyAndIsAudited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	r := e.demoRedemption("20.00", "paypal")
	c := e.financeClient()
	page := "/console/panels/demo/redemptions/" + r.ID
	before := c.get(page)
	require.Equal(t, http.StatusOK, before.StatusCode)
	assert.NotContains(t, before.Body, DemoEmail, "hidden by default")
	assert.Contains(t, before.Body, "Reveal payout details")

	res := c.consolePost(page, page+"/payout-details", url.Values{})
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Contains(t, res.Body, `<dd class="console-wrap">`+html.EscapeString(DemoEmail)+`</dd>`)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	assert.NotContains(t, c.get(page).Body, DemoEmail, "shown in that answer only")

	entries := e.audited("redemption.reveal_payout", r.ID)
	require.Len(t, entries, 1)
	assert.Equal(t, "finance@ops.demo.test", entries[0].OperatorEmail)
	var all []console.AuditEntry
	require.NoError(t, e.db.Find(&all).Error)
	for _, a := range all {
		assert.NotContains(t, a.BeforeJSON+a.AfterJSON+a.Target, DemoEmail, "the audit log never holds payout details")
	}
}

var adjustKeyRE = regexp.MustCompile(`name="key" value="([^"]+)"`)

func TestALedgerAdjustmentSentTwiceAdjustsOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.financeClient()
		_, pid := e.demoParticipant()
		page := c.get("/console/panels/demo/ledger?member=" + url.QueryEscape(DemoEmail))
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, "25.00 USD")
		assert.Contains(t, page.Body, pid)
		key := adjustKeyRE.FindStringSubmatch(page.Body)
		require.NotNil(t, key)
		assert.Equal(t, http.StatusOK, c.get("/console/panels/demo/ledger?member="+pid).StatusCode, "by participant id too")

		form := url.Values{"member": {pid}, "amount": {"5.00"}, "reason": {"goodwill for a late payout"}, "key": {key[1]}}
		target := "/console/panels/demo/ledger"
		from := target + "?member=" + pid
		first := c.consolePost(from, target, form)
		require.Equal(t, http.StatusOK, first.StatusCode, first.Body)
		assert.Contains(t, first.Body, "Recorded 5.00 USD. The balance is now 30.00 USD.")
		second := c.consolePost(from, target, form)
		require.Equal(t, http.StatusOK, second.StatusCode)
		assert.Contains(t, second.Body, "was already recorded: nothing changed")
		assert.Equal(t, int64(3000), e.demoBalance(), "adjusted once")
		var n int64
		require.NoError(t, e.db.Model(&wallet.Entry{}).Where("participant_id = ? AND natural_key = ?", pid, "manual:"+key[1]).Count(&n).Error)
		assert.Equal(t, int64(1), n)
		audit := e.audited("ledger.adjust", pid)
		require.Len(t, audit, 1)
		assert.JSONEq(t, `{"balance":"25.00"}`, audit[0].BeforeJSON)
		assert.Contains(t, audit[0].AfterJSON, `"amount":"5.00"`)
		e.reconciledLedger()

		refusals := []struct {
			name   string
			form   url.Values
			status int
			says   string
		}{
			{"no reason", url.Values{"amount": {"1.00"}, "reason": {" "}}, http.StatusUnprocessableEntity, "an adjustment needs a reason"},
			{"not an amount", url.Values{"amount": {"five"}, "reason": {"r"}}, http.StatusUnprocessableEntity, "Enter an amount"},
			{"zero", url.Values{"amount": {"0.00"}, "reason": {"r"}}, http.StatusUnprocessableEntity, "zero changes nothing"},
			{"more than the balance", url.Values{"amount": {"-100.00"}, "reason": {"r"}}, http.StatusConflict, "does not cover"},
			{"the spent key with another amount", url.Values{"amount": {"7.00"}, "reason": {"r"}, "key": {key[1]}}, http.StatusConflict, "already used for another adjustment"},
		}
		for _, tc := range refusals {
			t.Run(tc.name, func(t *testing.T) {
				tc.form.Set("member", pid)
				if tc.form.Get("key") == "" {
					tc.form.Set("key", uuid.NewString())
				}
				res := c.consolePost(from, target, tc.form)
				assert.Equal(t, tc.status, res.StatusCode)
				assert.Contains(t, html.UnescapeString(res.Body), tc.says)
				assert.Equal(t, int64(3000), e.demoBalance())
			})
		}
		e.northwindRedemption()
		assert.Equal(t, http.StatusNotFound, c.get("/console/panels/demo/ledger?member=payee@northwind.test").StatusCode, "another panel's member is none of demo's")
		assert.Equal(t, http.StatusNotFound, c.get("/console/panels/demo/ledger?member=nobody@demo.test").StatusCode)
	})
}

func TestFinanceDrawsACompetitionEarlyOnlyWhenConfirmedAndVerifiesItsProof(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		m := e.member()
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		m.completeCompetition(t, "/api/v1/demo/campaigns/"+id)
		require.Equal(t, http.StatusOK, m.decide("/api/v1/demo/campaigns/"+id+"/enter-competition/"+x).StatusCode)
		_, pid := e.demoParticipant()

		c := e.financeClient()
		list := c.get("/console/panels/demo/competitions")
		require.Equal(t, http.StatusOK, list.StatusCode)
		assert.Contains(t, list.Body, "Summer travel prize draw")
		assert.Contains(t, list.Body, `data-id="`+x+`"`)
		assert.NotContains(t, list.Body, "Spring prize draw", "Northwind's competition is not demo's")

		page := "/console/panels/demo/competitions/" + x
		draw := page + "/draw"
		res := c.consolePost(page, draw, url.Values{"reason": {""}, "early": {"yes"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		res = c.consolePost(page, draw, url.Values{"reason": {"the sponsor asked"}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "an early draw needs its confirmation")
		assert.Contains(t, res.Body, "tick the box to draw early")
		assert.Empty(t, e.audited("competition.draw", x))

		res = c.consolePost(page, draw, url.Values{"reason": {"the sponsor asked"}, "early": {"yes"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, page+"?drawn=1", res.Header.Get("Location"))
		shown := c.get(page + "?drawn=1")
		require.Equal(t, http.StatusOK, shown.StatusCode)
		assert.Contains(t, shown.Body, "Verified: the recorded seed and entrants give the recorded winners.")
		assert.Regexp(t, `<dd class="console-wrap">[0-9a-f]{64}</dd>`, shown.Body, "the seed")
		assert.Contains(t, shown.Body, pid)
		assert.NotContains(t, shown.Body, `id="draw"`, "drawn once: no form")
		assert.Equal(t, "75.25", e.balanceOf(m), "25.00 + 0.25 for the survey + the 50.00 prize")

		res = c.consolePost(page, draw, url.Values{"reason": {"again"}, "early": {"yes"}})
		assert.Equal(t, http.StatusConflict, res.StatusCode)
		assert.Equal(t, "75.25", e.balanceOf(m), "the prize is credited once")
		audit := e.audited("competition.draw", x)
		require.Len(t, audit, 1)
		assert.Contains(t, audit[0].AfterJSON, "the sponsor asked")

		spring := campaigns.CompetitionID(e.campaignID("northwind", "Spring prize draw"))
		assert.Equal(t, http.StatusNotFound, c.get("/console/panels/demo/competitions/"+spring).StatusCode)
		assert.Equal(t, http.StatusNotFound, c.consolePost(page, "/console/panels/demo/competitions/"+spring+"/draw", url.Values{"reason": {"r"}, "early": {"yes"}}).StatusCode)
		e.reconciledLedger()
	})
}

// sumCSV adds the amounts of a summary CSV's rows of a kind, and returns its total row's.
func sumCSV(t *testing.T, body, kind string) (rows, total int64) {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"day", "kind", "name", "count", "amount", "fee", "net", "currency"}, records[0])
	for _, r := range records[1:] {
		if r[1] != kind {
			continue
		}
		minor, err := web.ParseMoney(r[4], "USD")
		require.NoError(t, err)
		if r[0] == "total" {
			total = minor
		} else {
			rows += minor
		}
	}
	return rows, total
}

func TestTheDailySummaryCSVTotalsAreTheLedgers(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		paid := e.demoRedemption("20.00", "paypal")
		_, err := e.app.Redemptions.Approve(ctx, paid.ID, "ops", "ok")
		require.NoError(t, err)
		_, err = e.app.Redemptions.MarkPaid(ctx, paid.ID, "ops", "sent")
		require.NoError(t, err)
		rejected := e.demoRedemption("20.00", "paypal")
		_, err = e.app.Redemptions.Reject(ctx, rejected.ID, "ops", "no") // a refund is a credit
		require.NoError(t, err)
		panel, pid := e.demoParticipant()
		_, _, err = e.app.Wallet.Adjust(ctx, panel, pid, "3.50", "goodwill", "ops", "k")
		require.NoError(t, err)
		e.northwindRedemption() // another panel's credits

		today := time.Now().UTC().Format("2006-01-02")
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
		c := e.financeClient()
		res := c.get("/console/panels/demo/summary.csv?from=" + yesterday + "&to=" + today)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, "text/csv; charset=utf-8", res.Header.Get("Content-Type"))

		start, _ := time.Parse("2006-01-02", yesterday)
		var credited int64
		require.NoError(t, e.db.Raw(`SELECT COALESCE(SUM(amount_minor), 0) FROM ledger_entries WHERE panel_id = ? AND amount_minor > 0 AND created_at >= ?`, panel.ID, start).Scan(&credited).Error)
		rows, total := sumCSV(t, res.Body, "credit")
		assert.Equal(t, credited, total, "the credits total is the ledger's")
		assert.Equal(t, total, rows, "and the sum of its rows")
		assert.GreaterOrEqual(t, total, int64(2000+350+2000), "the top-ups, the refund and the adjustment at least")
		rows, total = sumCSV(t, res.Body, "payout")
		assert.Equal(t, int64(2000), total, "one redemption of 20.00 paid")
		assert.Equal(t, total, rows)
		assert.Contains(t, res.Body, today+",payout,paypal,1,20.00,0.00,20.00,USD\n")

		page := c.get("/console/panels/demo/summary?from=" + yesterday + "&to=" + today)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `id="credited-total">`+web.MoneyString(credited, "USD")+` USD<`)
		assert.Equal(t, http.StatusUnprocessableEntity, c.get("/console/panels/demo/summary?from="+today+"&to="+yesterday).StatusCode, "a period that ends before it starts")
		assert.Equal(t, http.StatusOK, c.get("/console/panels/demo/summary").StatusCode, "the last 30 days by default")
	})
}

func TestEveryMoneyActionIsAnAPICallWithAToken(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		a := e.demoRedemption("20.00", "paypal")
		b := e.demoRedemption("20.00", "paypal")
		token := consoleAPIToken(t, e, "finance@ops.demo.test", "demo", console.ActionRedemptions, console.ActionRevealPayout, console.ActionLedger, console.ActionCompetitions)
		c := e.client(consoleHost)
		api := "/console/api/panels/demo"
		type list struct {
			Redemptions []struct{ ID, Status, Destination string }
			More        bool
		}
		got := decodeJSON[list](t, c.consoleCall(http.MethodGet, api+"/redemptions?status=pending", token, ""), http.StatusOK)
		require.Len(t, got.Redemptions, 2)
		assert.Equal(t, b.ID, got.Redemptions[0].ID, "newest first")
		assert.Equal(t, "m***@demo.test", got.Redemptions[0].Destination)
		assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodGet, api+"/redemptions?status=lost", token, "").StatusCode)
		assert.Equal(t, http.StatusOK, c.consoleCall(http.MethodGet, api+"/redemptions/"+a.ID, token, "").StatusCode)

		type acted struct {
			Changed    bool
			From       string
			Redemption struct{ Status string }
		}
		first := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/redemptions/"+a.ID+"/approve", token, `{"reason":"checked"}`), http.StatusOK)
		assert.True(t, first.Changed)
		assert.Equal(t, "approved", first.Redemption.Status)
		again := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/redemptions/"+a.ID+"/approve", token, `{"reason":"checked"}`), http.StatusOK)
		assert.False(t, again.Changed, "approving twice changes nothing")
		assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodPost, api+"/redemptions/"+b.ID+"/reject", token, `{}`).StatusCode, "a rejection needs a reason")
		before := e.demoBalance()
		rej := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/redemptions/"+b.ID+"/reject", token, `{"reason":"duplicate"}`), http.StatusOK)
		assert.True(t, rej.Changed)
		assert.Equal(t, before+2000, e.demoBalance())

		type bulk struct {
			Results []struct{ ID, Outcome string }
		}
		res := decodeJSON[bulk](t, c.consoleCall(http.MethodPost, api+"/redemptions/bulk", token, fmt.Sprintf(`{"ids":[%q,%q],"action":"mark-paid"}`, a.ID, b.ID)), http.StatusOK)
		require.Len(t, res.Results, 2)
		assert.Equal(t, "changed", res.Results[0].Outcome)
		assert.Equal(t, "refused", res.Results[1].Outcome)
		assert.Equal(t, http.StatusConflict, c.consoleCall(http.MethodPost, api+"/redemptions/"+b.ID+"/mark-paid", token, `{}`).StatusCode)

		reveal := c.consoleCall(http.MethodPost, api+"/redemptions/"+a.ID+"/payout-details", token, "")
		require.Equal(t, http.StatusOK, reveal.StatusCode, reveal.Body)
		assert.Contains(t, reveal.Body, `"paypalEmail":"`+DemoEmail+`"`)
		assert.Len(t, e.audited("redemption.reveal_payout", a.ID), 1)

		ledger := decodeJSON[struct{ Balance, Member string }](t, c.consoleCall(http.MethodGet, api+"/ledger?member="+url.QueryEscape(DemoEmail), token, ""), http.StatusOK)
		_, pid := e.demoParticipant()
		assert.Equal(t, pid, ledger.Member)
		body := fmt.Sprintf(`{"member":%q,"amount":"-1.25","reason":"fee correction","key":"api-key-1"}`, DemoEmail)
		made := c.consoleCall(http.MethodPost, api+"/ledger/adjustments", token, body)
		require.Equal(t, http.StatusCreated, made.StatusCode, made.Body)
		replay := decodeJSON[struct{ Created bool }](t, c.consoleCall(http.MethodPost, api+"/ledger/adjustments", token, body), http.StatusOK)
		assert.False(t, replay.Created, "the same key adjusts once")
		assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodPost, api+"/ledger/adjustments", token, `{"member":"nobody@demo.test","amount":"1.00","reason":"r","key":"k"}`).StatusCode)

		m := e.member()
		id := e.campaignID("demo", "Summer travel prize draw")
		x := campaigns.CompetitionID(id)
		m.completeCompetition(t, "/api/v1/demo/campaigns/"+id)
		require.Equal(t, http.StatusOK, m.decide("/api/v1/demo/campaigns/"+id+"/enter-competition/"+x).StatusCode)
		comps := decodeJSON[struct{ Competitions []struct{ ID, State string } }](t, c.consoleCall(http.MethodGet, api+"/competitions", token, ""), http.StatusOK)
		require.Len(t, comps.Competitions, 1)
		assert.Equal(t, "open", comps.Competitions[0].State)
		assert.Equal(t, http.StatusConflict, c.consoleCall(http.MethodGet, api+"/competitions/"+x+"/verification", token, "").StatusCode, "nothing to verify yet")
		assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodPost, api+"/competitions/"+x+"/draw", token, `{"reason":"now"}`).StatusCode, "early needs confirming")
		drawn := c.consoleCall(http.MethodPost, api+"/competitions/"+x+"/draw", token, `{"reason":"the sponsor asked","early":true}`)
		require.Equal(t, http.StatusCreated, drawn.StatusCode, drawn.Body)
		assert.Equal(t, http.StatusConflict, c.consoleCall(http.MethodPost, api+"/competitions/"+x+"/draw", token, `{"reason":"again","early":true}`).StatusCode)
		ver := decodeJSON[struct {
			OK       bool
			Problems []string
		}](t, c.consoleCall(http.MethodGet, api+"/competitions/"+x+"/verification", token, ""), http.StatusOK)
		assert.True(t, ver.OK, "%v", ver.Problems)

		var summary struct {
			Totals struct {
				Payouts struct{ Count int }
			}
		}
		sres := c.consoleCall(http.MethodGet, api+"/summary", token, "")
		require.Equal(t, http.StatusOK, sres.StatusCode, sres.Body)
		require.NoError(t, json.Unmarshal([]byte(sres.Body), &summary))
		assert.Equal(t, 1, summary.Totals.Payouts.Count)

		narrow := consoleAPIToken(t, e, "finance@ops.demo.test", "demo", console.ActionRedemptions)
		assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodPost, api+"/redemptions/"+a.ID+"/payout-details", narrow, "").StatusCode, "a token without the reveal scope")
		e.reconciledLedger()
	})
}
