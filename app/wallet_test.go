package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type transactionsJSON struct {
	Transactions []struct {
		TransactionUUID string    `json:"transactionUuid"`
		CreatedAt       time.Time `json:"createdAt"`
		Month           int       `json:"month"`
		Year            int       `json:"year"`
		Origin          string    `json:"origin"`
		Amount          string    `json:"amount"`
		Balance         string    `json:"balance"`
		CurrencyCode    string    `json:"currency_code"`
		Competition     bool      `json:"competition"`
		CampaignUUID    *string   `json:"campaignUuid"`
		Title           string    `json:"title"`
		Reason          string    `json:"reason"`
	} `json:"transactions"`
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
	HasMore  bool   `json:"hasMore"`
	Filter   string `json:"filter"`
}

func decodeJSON[T any](t *testing.T, res *response, status int) T {
	t.Helper()
	require.Equal(t, status, res.StatusCode, res.Body)
	var v T
	require.NoError(t, json.Unmarshal([]byte(res.Body), &v), res.Body)
	return v
}

// demoParticipant is the demo member's participant id and panel.
func (e *env) demoParticipant() (*web.Panel, string) {
	e.t.Helper()
	ctx := context.Background()
	panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(e.t, err)
	pid, err := e.app.Accounts.Service().ParticipantByEmail(ctx, panel, DemoEmail)
	require.NoError(e.t, err)
	return panel, pid
}

// credit pays the demo member as the survey engine will, once per campaign key.
func (e *env) credit(amount int64, key string, edit ...func(*wallet.Movement)) *wallet.Entry {
	e.t.Helper()
	panel, pid := e.demoParticipant()
	mv := wallet.Movement{Panel: panel, ParticipantID: pid, Amount: amount, Currency: "USD", Origin: wallet.OriginCampaign, Key: key, CampaignID: e.campaignID("demo", "Quick poll"), Title: "Quick poll"}
	for _, f := range edit {
		f(&mv)
	}
	entry, _, err := e.app.Wallet.Credit(context.Background(), mv)
	require.NoError(e.t, err)
	return entry
}

// northwindMember signs in a member of the other demo panel.
func (e *env) northwindMember() *client {
	e.t.Helper()
	ctx := context.Background()
	panel, err := e.app.Tenancy.PanelByKey(ctx, "northwind")
	require.NoError(e.t, err)
	require.NoError(e.t, e.app.Accounts.Service().EnsureMember(ctx, panel, accounts.RegisterInput{Email: "nw@northwind.test", Password: "northwind-pass-1", AcceptTerms: true, LanguageCode: "en"}, accounts.Metadata{"welcomeCampaignCompleted": true}))
	c := e.client("northwind.localhost")
	require.Equal(e.t, http.StatusSeeOther, c.login("nw@northwind.test", "northwind-pass-1").StatusCode)
	return c
}

func TestTheDemoMemberStartsWithTwentyFiveDollarsFromOneManualEntry(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		b := decodeJSON[map[string]string](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, map[string]string{"balance": "25.00", "currency_code": "USD", "formatted": "$25.00"}, b)

		tx := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged"), http.StatusOK)
		require.Len(t, tx.Transactions, 1)
		first := tx.Transactions[0]
		assert.Equal(t, "manual", first.Origin)
		assert.Equal(t, "25.00", first.Amount)
		assert.Equal(t, "25.00", first.Balance)
		assert.Equal(t, "Welcome bonus", first.Reason)
		assert.Equal(t, int(first.CreatedAt.Month()), first.Month)
		assert.Equal(t, first.CreatedAt.Year(), first.Year)

		require.NoError(t, LoadDemo(context.Background(), e.app), "loading the demo again")
		b = decodeJSON[map[string]string](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, "25.00", b["balance"], "the starting balance is paid once")
	})
}

func TestTransactionsPagedFiltersByTypeAndDatesAndPagesNewestFirst(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		for i := range 12 {
			e.credit(int64(10+i), fmt.Sprintf("k%d", i))
		}
		e.credit(500, "prize", func(mv *wallet.Movement) { mv.Competition = true; mv.Title = "Prize draw" })
		c := e.member()

		page1 := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged"), http.StatusOK)
		assert.Len(t, page1.Transactions, 10, "the spec's page size 10")
		assert.True(t, page1.HasMore)
		assert.Equal(t, "5.00", page1.Transactions[0].Amount, "newest first")
		assert.Equal(t, "MOST_RECENT", page1.Filter)
		page2 := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?page=2&pageSize=10&competitions=no&redemptions=no"), http.StatusOK)
		assert.Len(t, page2.Transactions, 4)
		assert.False(t, page2.HasMore)
		assert.Equal(t, "manual", page2.Transactions[3].Origin, "the starting balance is the oldest")

		comp := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?competitions=yes"), http.StatusOK)
		require.Len(t, comp.Transactions, 1)
		assert.True(t, comp.Transactions[0].Competition)
		assert.Equal(t, "Prize draw", comp.Transactions[0].Title)
		red := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?redemptions=yes"), http.StatusOK)
		assert.Empty(t, red.Transactions)

		today := time.Now().UTC().Format(time.DateOnly)
		tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
		in := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?pageSize=1000&after="+today+"&before="+tomorrow), http.StatusOK)
		assert.Len(t, in.Transactions, 14, "after is inclusive, before exclusive")
		none := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/paged?before="+today), http.StatusOK)
		assert.Empty(t, none.Transactions)

		full := decodeJSON[struct {
			Months []struct {
				Month, Year, Transactions int
				Credited                  string
			} `json:"months"`
		}](t, c.get("/api/v3/transactions/full"), http.StatusOK)
		require.Len(t, full.Months, 1)
		assert.Equal(t, 14, full.Months[0].Transactions)
		assert.Equal(t, "31.86", full.Months[0].Credited, "25.00 + 0.10..0.21 + 5.00")

		transfers := decodeJSON[transactionsJSON](t, c.get("/api/v3/transactions/fixed-balance-transfers"), http.StatusOK)
		require.Len(t, transfers.Transactions, 1)
		assert.Equal(t, "manual", transfers.Transactions[0].Origin)
	})
}

func TestBadTransactionsQueriesAre400sNamingTheField(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		cases := []struct{ query, field string }{
			{"pageSize=0", "pageSize"},
			{"pageSize=1001", "pageSize"},
			{"pageSize=ten", "pageSize"},
			{"page=0", "page"},
			{"competitions=maybe", "competitions"},
			{"competitions=yes&redemptions=yes", "redemptions"},
			{"after=2026-13-01", "after"},
			{"before=yesterday", "before"},
			{"after=2026-11-10&before=2026-11-10", "before"},
		}
		for _, tc := range cases {
			for _, path := range []string{"/api/v3/transactions/paged?", "/api/v3/transactions/full?"} {
				res := c.get(path + tc.query)
				require.Equal(t, http.StatusBadRequest, res.StatusCode, path+tc.query)
				var body struct {
					Name    string `json:"name"`
					Details []struct {
						Field string `json:"field"`
					} `json:"details"`
				}
				require.NoError(t, json.Unmarshal([]byte(res.Body), &body))
				assert.Equal(t, "ClientError", body.Name)
				require.NotEmpty(t, body.Details, res.Body)
				assert.Equal(t, tc.field, body.Details[0].Field, path+tc.query)
			}
		}
		res := c.get("/api/v3/transactions/fixed-balance-transfers?pageSize=5000")
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	})
}

func TestWalletCallsArePrivateAndBlindToOtherPanels(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		entry := e.credit(50, "mine")
		visitor := e.client("localhost")
		for _, path := range []string{"/api/v3/user/balance", "/api/v3/transactions/paged", "/api/v3/transactions/full", "/api/v3/transactions/fixed-balance-transfers"} {
			assert.Equal(t, http.StatusUnauthorized, visitor.get(path).StatusCode, path)
		}
		assert.Equal(t, http.StatusUnauthorized, visitor.postJSON("/api/v3/transactions/"+entry.ID+"/report-broken", `{"reasonCode":"wrong_amount"}`).StatusCode)
		res := visitor.get("/transactions")
		assert.Equal(t, http.StatusSeeOther, res.StatusCode, "the page sends visitors to log in")

		nw := e.northwindMember()
		b := decodeJSON[map[string]string](t, nw.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, map[string]string{"balance": "0.00", "currency_code": "GBP", "formatted": "£0.00"}, b, "a new member has nothing, in their panel's currency")
		tx := decodeJSON[transactionsJSON](t, nw.get("/api/v3/transactions/paged"), http.StatusOK)
		assert.Empty(t, tx.Transactions)
		res = nw.postJSON("/api/v3/transactions/"+entry.ID+"/report-broken", `{"reasonCode":"wrong_amount"}`)
		assert.Equal(t, http.StatusNotFound, res.StatusCode, "another member's transaction does not exist for them")
		assert.NotContains(t, nw.get("/transactions").Body, entry.ID)
	})
}

func TestAReportedTransactionIsListedWithTheCampaignReportsOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		entry := e.credit(50, "reported")
		c := e.member()
		path := "/api/v3/transactions/" + entry.ID + "/report-broken"
		first := decodeJSON[web.ReportJSON](t, c.postJSON(path, `{"reasonCode":"wrong_amount","reasonText":"  I was promised more  "}`), http.StatusCreated)
		assert.Equal(t, entry.ID, *first.TransactionUUID)
		require.NotNil(t, first.CampaignUUID)
		assert.Equal(t, *entry.CampaignID, *first.CampaignUUID)
		assert.Equal(t, "I was promised more", first.ReasonText)
		assert.True(t, first.Recent)
		again := decodeJSON[web.ReportJSON](t, c.postJSON(path, `{"reasonCode":"other","reasonText":"still wrong"}`), http.StatusOK)
		assert.Equal(t, first.ID, again.ID, "a second report within 61 days returns the first")

		quick := e.campaignID("demo", "Quick poll")
		require.Equal(t, http.StatusCreated, c.postJSON("/api/v1/demo/campaigns/"+quick+"/report-broken", `{"reasonCode":"not_loading"}`).StatusCode)
		reports := decodeJSON[struct {
			Reports []web.ReportJSON `json:"reports"`
		}](t, c.get("/api/v3/user/reports"), http.StatusOK)
		require.Len(t, reports.Reports, 2)
		var withTx, withoutTx int
		for _, r := range reports.Reports {
			if r.TransactionUUID != nil {
				withTx++
				assert.Equal(t, entry.ID, *r.TransactionUUID)
			} else {
				withoutTx++
				assert.Equal(t, quick, *r.CampaignUUID)
			}
		}
		assert.Equal(t, []int{1, 1}, []int{withTx, withoutTx})

		for body, want := range map[string]int{
			`{"reasonCode":"bored"}`: http.StatusBadRequest,
			`{"reasonCode":`:         http.StatusBadRequest,
		} {
			assert.Equal(t, want, c.postJSON(path, body).StatusCode, body)
		}
		assert.Equal(t, http.StatusNotFound, c.postJSON("/api/v3/transactions/not-a-transaction/report-broken", `{"reasonCode":"other","reasonText":"x"}`).StatusCode)
	})
}

func TestTheBalanceIsInTheHeaderOfEveryPrivatePage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		for _, path := range []string{"/feed", "/settings", "/transactions"} {
			res := c.get(path)
			require.Equal(t, http.StatusOK, res.StatusCode, path)
			assert.Contains(t, res.Body, `data-balance>$25.00</strong>`, path)
		}
		c.get("/?lang=es")
		assert.Contains(t, c.get("/feed").Body, "data-balance>25,00\u00a0$</strong>", "formatted in the member's language")
		assert.NotContains(t, e.client("localhost").get("/login").Body, "data-balance", "visitors have no balance")
	})
}

func TestThePaymentNotificationShowsNewCreditsUntilDismissed(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/transactions") // the member has looked at the starting balance
		assert.NotContains(t, c.get("/feed").Body, "payment-notice")

		e.credit(50, "a")
		e.credit(125, "b")
		_, pid := e.demoParticipant()
		panel, _ := e.demoParticipant()
		_, _, err := e.app.Wallet.Debit(context.Background(), wallet.Movement{Panel: panel, ParticipantID: pid, Amount: 100, Currency: "USD", Origin: wallet.OriginRedeem, Key: "r1"})
		require.NoError(t, err)
		body := c.get("/feed").Body
		assert.Contains(t, body, "payment-notice")
		assert.Contains(t, body, "You&#39;ve been paid $1.75.", "the credits since the member looked; a debit does not count")
		upTo := between(body, `name="upTo" value="`, `"`)

		// A credit after the page was shown is not dismissed with it.
		e.credit(30, "c")
		res := c.postForm("/transactions/payment-notification/dismiss", url.Values{"upTo": {upTo}, "redirect": {"/feed"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/feed", res.Header.Get("Location"))
		assert.Contains(t, c.get("/feed").Body, "You&#39;ve been paid $0.30.")

		res = c.do(http.MethodPost, "/transactions/payment-notification/dismiss", strings.NewReader("upTo=999"), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "HX-Request": {"true"}, "X-XSRF-TOKEN": {c.cookie("XSRF-TOKEN")}})
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, c.get("/feed").Body, "payment-notice", "an upTo beyond the ledger changes nothing")
		c.get("/transactions")
		assert.NotContains(t, c.get("/feed").Body, "payment-notice", "visiting the transactions marks everything seen")

		res = c.postForm("/transactions/payment-notification/dismiss", url.Values{"upTo": {"x"}})
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		res = c.do(http.MethodPost, "/transactions/payment-notification/dismiss", strings.NewReader("upTo=1"), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode, "a form post needs its CSRF token")
	})
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}

func TestTheTransactionsPageWorksWithoutJavaScript(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		for i := range 11 {
			e.credit(int64(100+i), fmt.Sprintf("k%d", i))
		}
		c := e.member()
		res := c.get("/transactions")
		require.Equal(t, http.StatusOK, res.StatusCode)
		body := res.Body
		assert.Contains(t, body, `data-island="transaction-filters"`)
		assert.Contains(t, body, `<form class="tx-filters" method="get" action="/transactions">`, "the fallback form")
		assert.Equal(t, 10, strings.Count(body, `class="tx-row`), "page size 10")
		assert.Contains(t, body, `data-tx-page="next"`)
		assert.NotContains(t, body, `data-tx-page="prev"`)
		assert.Contains(t, body, "+$1.10")
		now := time.Now().UTC()
		monthKey := now.Format("2006-01")
		assert.Contains(t, body, `id="m-`+monthKey+`"`, "the month list")
		assert.Contains(t, body, "12 transactions")

		page2 := c.get("/transactions?page=2").Body
		assert.Equal(t, 2, strings.Count(page2, `class="tx-row`))
		assert.Contains(t, page2, `data-tx-page="prev"`)
		assert.Contains(t, c.get("/transactions?page=-3").Body, "Page 1", "the page floor is 1")

		open := c.get("/transactions?month=" + monthKey).Body
		assert.Contains(t, open, `id="m-`+monthKey+`" open`)
		assert.Equal(t, 10+12, strings.Count(open, `class="tx-row`), "the open month lists all its transactions")

		partial := c.do(http.MethodGet, fmt.Sprintf("/transactions/months/%d/%d", now.Year(), int(now.Month())), nil, http.Header{"HX-Request": {"true"}})
		require.Equal(t, http.StatusOK, partial.StatusCode)
		assert.NotContains(t, partial.Body, "<html")
		assert.Equal(t, 12, strings.Count(partial.Body, `class="tx-row`))
		assert.Equal(t, http.StatusNotFound, c.get("/transactions/months/2026/13").StatusCode)

		results := c.do(http.MethodGet, "/transactions?filter=redemptions", nil, http.Header{"HX-Request": {"true"}})
		assert.NotContains(t, results.Body, "<html", "the island gets the results only")
		assert.Contains(t, results.Body, "No transactions here yet.")

		today := now.Format(time.DateOnly)
		assert.Equal(t, 10, strings.Count(c.get("/transactions?before="+today).Body, `class="tx-row`), "before includes its own day")
		yesterday := now.AddDate(0, 0, -1).Format(time.DateOnly)
		assert.Contains(t, c.get("/transactions?before="+yesterday).Body, "No transactions here yet.")
		bad := c.get("/transactions?after=soon&before=" + today)
		assert.Contains(t, bad.Body, "Please enter a date as YYYY-MM-DD.", "a bad date is said, not ignored silently")
		order := c.get("/transactions?after=" + today + "&before=" + yesterday)
		assert.Contains(t, order.Body, "The end date must not be before the start date.")
		assert.Equal(t, http.StatusBadRequest, c.get("/transactions?filter=everything").StatusCode)

		es := e.member()
		es.get("/?lang=es")
		assert.Contains(t, es.get("/transactions").Body, "+1,10\u00a0$")
	})
}
