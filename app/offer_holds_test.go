package main

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Offer credits held above the panel's ceiling (issue 31, item 10).

const holdsPage = "/console/panels/demo/offer-holds"

// withOfferCeiling gives the demo panel an offers provider with a credit ceiling ("" for none)
// and returns the demo member's sub-id at it.
func (e *env) withOfferCeiling(t *testing.T, ceiling string) string {
	t.Helper()
	panel, pid := e.demoParticipant()
	require.NoError(t, e.app.Offers.ApplyIn(context.Background(), panel.ID, panel.CurrencyCode, &offers.Spec{
		BaseURL: "https://api.offers.example/v1", AppID: "demo-app", PostbackSecret: demoOffersSecret + "-demo", CreditCeiling: ceiling,
	}))
	sub, err := e.app.Offers.Service().SubID(context.Background(), panel.ID, pid)
	require.NoError(t, err)
	return sub
}

func creditParams(sub, transactionID, amount string) offerstest.PostbackParams {
	return offerstest.PostbackParams{SubID: sub, TransactionID: transactionID, OfferID: "survey-app", OfferName: "Survey App Pro", Amount: amount, Currency: "USD", Status: "credited"}
}

// offerCredit is the provider's postback crediting the demo member amount for a transaction,
// sent as its server would (its answer held to the OpenAPI document).
func (e *env) offerCredit(t *testing.T, sub, transactionID, amount string) *response {
	t.Helper()
	return e.sendPostback(t, "localhost", "demo", demoOffersSecret+"-demo", creditParams(sub, transactionID, amount))
}

// holdsOf are the holds of a provider's transaction.
func (e *env) holdsOf(t *testing.T, transactionID string) []offers.CreditHold {
	t.Helper()
	var out []offers.CreditHold
	require.NoError(t, e.db.Where("transaction_id = ?", transactionID).Find(&out).Error)
	return out
}

// heldCredit is the one hold of a transaction, made by a postback above the ceiling.
func (e *env) heldCredit(t *testing.T, sub, transactionID, amount string) offers.CreditHold {
	t.Helper()
	res := e.offerCredit(t, sub, transactionID, amount)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	require.Contains(t, res.Body, `"status":"held"`)
	holds := e.holdsOf(t, transactionID)
	require.Len(t, holds, 1)
	return holds[0]
}

// operatorClient is a demo operator signed in on the console host.
func (e *env) operatorClient(t *testing.T, email, password string) *client {
	t.Helper()
	c := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, c.consoleLogin(email, password, "").StatusCode)
	return c
}

func TestAnOfferCreditAtOrUnderTheCeilingIsPaidAtOnceAndAboveItIsHeldForReview(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, ceiling, amount string
		held                  bool
	}{
		{"under the ceiling", "25.00", "10.00", false},
		{"at the ceiling", "25.00", "25.00", false},
		{"a cent above the ceiling", "25.00", "25.01", true},
		{"far above the ceiling", "25", "500.00", true},
		{"with no ceiling set, as before", "", "500.00", false},
	}
	eachDialect(t, func(t *testing.T, e *env) {
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				sub := e.withOfferCeiling(t, tc.ceiling)
				tx := "ceiling-tx-" + string(rune('a'+i))
				before := e.demoBalance()
				var res *response
				if tc.held {
					res = e.offerCredit(t, sub, tx, tc.amount)
				} else {
					res = e.sendPostback(t, "localhost", "demo", demoOffersSecret+"-demo", creditParams(sub, tx, tc.amount))
				}
				require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
				page := e.financeClient().get(holdsPage + "?status=all")
				require.Equal(t, http.StatusOK, page.StatusCode)
				if !tc.held {
					assert.Contains(t, res.Body, `"status":"credited"`)
					assert.Greater(t, e.demoBalance(), before, "paid at once")
					assert.Empty(t, e.holdsOf(t, tx))
					return
				}
				assert.JSONEq(t, `{"status":"held","transactionId":"`+tx+`","amount":"`+tc.amount+`","currency_code":"USD"}`, res.Body)
				assert.Equal(t, before, e.demoBalance(), "a held credit pays nothing")
				holds := e.holdsOf(t, tx)
				require.Len(t, holds, 1)
				h := holds[0]
				assert.Equal(t, offers.HoldHeld, h.Status)
				assert.Contains(t, page.Body, `data-id="`+h.ID+`" data-status="held"`, "the console lists the hold")
				assert.Contains(t, page.Body, tx, "with the provider's transaction id")
				assert.Contains(t, page.Body, tc.amount+" USD")
				assert.Contains(t, page.Body, "Survey App Pro")

				again := e.offerCredit(t, sub, tx, tc.amount)
				assert.Equal(t, res.Body, again.Body, "the provider's retry gets the first answer")
				assert.Equal(t, before, e.demoBalance(), "a retry of a held credit pays nothing")
				assert.Len(t, e.holdsOf(t, tx), 1, "nor holds it twice")
			})
		}
		e.reconciledLedger()
	})
}

func TestApprovingAHeldCreditPaysTheMemberOnceAndIsAudited(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		sub := e.withOfferCeiling(t, "20.00")
		h := e.heldCredit(t, sub, "approve-tx-1", "75.00")
		before := e.demoBalance()
		c := e.financeClient()
		approve := holdsPage + "/" + h.ID + "/approve"

		res := c.consolePost(holdsPage, approve, url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, holdsPage+"?done=approved", res.Header.Get("Location"))
		assert.Equal(t, before+7500, e.demoBalance(), "approving pays the member")
		got := e.holdsOf(t, "approve-tx-1")[0]
		assert.Equal(t, offers.HoldApproved, got.Status)
		assert.Equal(t, "finance@ops.demo.test", got.ResolvedBy)
		require.NotNil(t, got.EntryID)
		audits := e.audited("offer_hold.approve", h.ID)
		require.Len(t, audits, 1)
		assert.Equal(t, "finance@ops.demo.test", audits[0].OperatorEmail)
		assert.Contains(t, audits[0].AfterJSON, `"amount":"75.00"`)
		assert.Contains(t, audits[0].AfterJSON, *got.EntryID)

		res = c.consolePost(holdsPage, approve, url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, holdsPage+"?done=unchanged", res.Header.Get("Location"))
		assert.Equal(t, before+7500, e.demoBalance(), "approving twice pays once")
		assert.Len(t, e.audited("offer_hold.approve", h.ID), 1)

		retry := e.offerCredit(t, sub, "approve-tx-1", "75.00")
		require.Equal(t, http.StatusOK, retry.StatusCode)
		assert.Contains(t, retry.Body, `"status":"credited"`, "a retry after the approval hears it was credited")
		assert.Equal(t, before+7500, e.demoBalance(), "and pays nothing more")
		assert.Equal(t, http.StatusConflict, c.consolePost(holdsPage, holdsPage+"/"+h.ID+"/refuse", url.Values{"reason": {"too late"}}).StatusCode,
			"an approved credit cannot be refused")

		// Two approvals at once pay once.
		panel, _ := e.demoParticipant()
		twice := e.heldCredit(t, sub, "approve-tx-2", "40.00")
		before = e.demoBalance()
		var wg sync.WaitGroup
		changed := make([]bool, 4)
		for i := range changed {
			wg.Go(func() {
				_, ok, err := e.app.Offers.Service().ApproveHold(context.Background(), panel, twice.ID, "finance@ops.demo.test")
				assert.NoError(t, err)
				changed[i] = ok
			})
		}
		wg.Wait()
		n := 0
		for _, ok := range changed {
			if ok {
				n++
			}
		}
		assert.Equal(t, 1, n, "one approval changed it")
		assert.Equal(t, before+4000, e.demoBalance(), "paid once")
		e.reconciledLedger()
	})
}

func TestRefusingAHeldCreditPaysNothingAndKeepsWhoRefusedAndWhy(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		sub := e.withOfferCeiling(t, "20.00")
		h := e.heldCredit(t, sub, "refuse-tx-1", "90.00")
		before := e.demoBalance()
		c := e.operatorClient(t, "owner@ops.demo.test", "console-owner-1")
		refuse := holdsPage + "/" + h.ID + "/refuse"

		res := c.consolePost(holdsPage, refuse, url.Values{"reason": {"  "}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "a refusal needs a reason")
		assert.Contains(t, res.Body, `aria-invalid="true"`)
		assert.Equal(t, offers.HoldHeld, e.holdsOf(t, "refuse-tx-1")[0].Status)

		res = c.consolePost(holdsPage, refuse, url.Values{"reason": {"the provider flagged this install as fraud"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		got := e.holdsOf(t, "refuse-tx-1")[0]
		assert.Equal(t, offers.HoldRefused, got.Status)
		assert.Equal(t, "owner@ops.demo.test", got.ResolvedBy)
		assert.Equal(t, "the provider flagged this install as fraud", got.Reason)
		assert.Nil(t, got.EntryID)
		assert.Equal(t, before, e.demoBalance(), "refusing pays nothing")
		audits := e.audited("offer_hold.refuse", h.ID)
		require.Len(t, audits, 1)
		assert.Contains(t, audits[0].AfterJSON, "the provider flagged this install as fraud")

		page := c.get(holdsPage + "?status=refused")
		assert.Contains(t, page.Body, `data-id="`+h.ID+`" data-status="refused"`)
		assert.Contains(t, page.Body, "the provider flagged this install as fraud")
		assert.NotContains(t, c.get(holdsPage).Body, `data-id="`+h.ID+`"`, "the default list is what waits for review")

		assert.Equal(t, http.StatusConflict, c.consolePost(holdsPage, holdsPage+"/"+h.ID+"/approve", url.Values{}).StatusCode, "a refused credit cannot be approved")
		retry := e.offerCredit(t, sub, "refuse-tx-1", "90.00")
		require.Equal(t, http.StatusOK, retry.StatusCode)
		assert.Contains(t, retry.Body, `"status":"held"`)
		assert.Equal(t, before, e.demoBalance(), "a provider's retry of a refused credit pays nothing")
		assert.Len(t, e.holdsOf(t, "refuse-tx-1"), 1)

		// The provider reversing a credit still held refuses it: nothing was paid, nothing is
		// taken back, and no operator can pay it afterwards.
		reversed := e.heldCredit(t, sub, "refuse-tx-2", "60.00")
		params := creditParams(sub, "refuse-tx-2", "60.00")
		params.Status = "reversed"
		res = e.sendPostback(t, "localhost", "demo", demoOffersSecret+"-demo", params)
		assert.Equal(t, http.StatusConflict, res.StatusCode, res.Body)
		got = e.holdsOf(t, "refuse-tx-2")[0]
		assert.Equal(t, offers.HoldRefused, got.Status)
		assert.Equal(t, "provider", got.ResolvedBy)
		assert.Equal(t, http.StatusConflict, c.consolePost(holdsPage, holdsPage+"/"+reversed.ID+"/approve", url.Values{}).StatusCode)
		assert.Equal(t, before, e.demoBalance())
		e.reconciledLedger()
	})
}

func TestOnlyOwnersAndFinanceMayApproveOrRefuseHeldCredits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		email, password string
		status          int
	}{
		{"owner@ops.demo.test", "console-owner-1", http.StatusSeeOther},
		{"finance@ops.demo.test", "console-finance-1", http.StatusSeeOther},
		{"editor@ops.demo.test", "console-editor-1", http.StatusForbidden},
		{"support@ops.demo.test", "console-support-1", http.StatusForbidden},
	}
	eachDialect(t, func(t *testing.T, e *env) {
		sub := e.withOfferCeiling(t, "5.00")
		for i, tc := range cases {
			t.Run(tc.email, func(t *testing.T) {
				h := e.heldCredit(t, sub, "role-tx-"+string(rune('a'+i)), "6.00")
				before := e.demoBalance()
				c := e.operatorClient(t, tc.email, tc.password)
				assert.Equal(t, tc.status == http.StatusSeeOther, c.get(holdsPage).StatusCode == http.StatusOK, "the list is theirs to see or not")
				res := c.consolePost("/console/", holdsPage+"/"+h.ID+"/approve", url.Values{})
				assert.Equal(t, tc.status, res.StatusCode)
				if tc.status == http.StatusSeeOther {
					assert.Equal(t, before+600, e.demoBalance())
					return
				}
				assert.Equal(t, tc.status, c.consolePost("/console/", holdsPage+"/"+h.ID+"/refuse", url.Values{"reason": {"no"}}).StatusCode)
				assert.Equal(t, before, e.demoBalance())
				assert.Equal(t, offers.HoldHeld, e.holdsOf(t, h.TransactionID)[0].Status)
			})
		}
		e.reconciledLedger()
	})
}

func TestHeldCreditsAreListedApprovedAndRefusedThroughTheConsoleAPI(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		sub := e.withOfferCeiling(t, "20.00")
		a := e.heldCredit(t, sub, "api-tx-1", "30.00")
		b := e.heldCredit(t, sub, "api-tx-2", "45.50")
		token := consoleAPIToken(t, e, "finance@ops.demo.test", "demo", console.ActionLedger)
		c := e.client(consoleHost)
		api := "/console/api/panels/demo/offer-holds"

		type holdBody struct {
			ID, Member, OfferID, OfferName, TransactionID, Amount, Ceiling, Status string
			Currency                                                               string  `json:"currency_code"`
			ResolvedBy                                                             *string `json:"resolvedBy"`
			Reason                                                                 *string `json:"reason"`
			TransactionUUID                                                        *string `json:"transactionUuid"`
		}
		type listBody struct {
			Holds         []holdBody
			CreditCeiling *string
			HasMore       bool
		}
		list := decodeJSON[listBody](t, c.consoleCall(http.MethodGet, api, token, ""), http.StatusOK)
		require.Len(t, list.Holds, 2)
		require.NotNil(t, list.CreditCeiling)
		assert.Equal(t, "20.00", *list.CreditCeiling)
		assert.Equal(t, b.ID, list.Holds[0].ID, "newest first")
		_, pid := e.demoParticipant()
		assert.Equal(t, holdBody{ID: b.ID, Member: pid, OfferID: "survey-app", OfferName: "Survey App Pro", TransactionID: "api-tx-2",
			Amount: "45.50", Ceiling: "20.00", Status: "held", Currency: "USD"}, list.Holds[0])
		assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodGet, api+"?status=lost", token, "").StatusCode)

		type acted struct {
			Hold    holdBody
			Changed bool
		}
		before := e.demoBalance()
		first := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/"+a.ID+"/approve", token, ""), http.StatusOK)
		assert.True(t, first.Changed)
		assert.Equal(t, "approved", first.Hold.Status)
		require.NotNil(t, first.Hold.TransactionUUID)
		again := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/"+a.ID+"/approve", token, ""), http.StatusOK)
		assert.False(t, again.Changed, "approving twice changes nothing")
		assert.Equal(t, before+3000, e.demoBalance(), "and pays once")

		assert.Equal(t, http.StatusBadRequest, c.consoleCall(http.MethodPost, api+"/"+b.ID+"/refuse", token, `{}`).StatusCode, "a refusal needs a reason")
		refused := decodeJSON[acted](t, c.consoleCall(http.MethodPost, api+"/"+b.ID+"/refuse", token, `{"reason":"duplicate install"}`), http.StatusOK)
		assert.True(t, refused.Changed)
		require.NotNil(t, refused.Hold.Reason)
		assert.Equal(t, "duplicate install", *refused.Hold.Reason)
		require.NotNil(t, refused.Hold.ResolvedBy)
		assert.Contains(t, *refused.Hold.ResolvedBy, "finance@ops.demo.test")
		assert.Equal(t, http.StatusConflict, c.consoleCall(http.MethodPost, api+"/"+b.ID+"/approve", token, "").StatusCode)
		assert.Equal(t, http.StatusConflict, c.consoleCall(http.MethodPost, api+"/"+a.ID+"/refuse", token, `{"reason":"late"}`).StatusCode)
		assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodPost, api+"/00000000-0000-4000-8000-000000000000/approve", token, "").StatusCode)
		assert.Equal(t, before+3000, e.demoBalance())

		narrow := consoleAPIToken(t, e, "finance@ops.demo.test", "demo", console.ActionRedemptions)
		assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, api, narrow, "").StatusCode, "a token without the ledger scope")
		e.reconciledLedger()
	})
}

func TestTheCreditCeilingIsSetWithTheOffersProviderAsAPositiveAmountOfThePanelsCurrency(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withOfferCeiling(t, "")
		token := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionEditPanel)
		c := e.client(consoleHost)
		api := "/console/api/panels/demo/providers"
		for _, bad := range []string{"ten", "-5.00", "0", "1.234", "1e3"} {
			res := c.consoleCall(http.MethodPut, api, token, `{"offers":{"credit_ceiling":"`+bad+`"}}`)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode, bad)
			assert.Contains(t, res.Body, "offers_credit_ceiling", bad)
		}
		spec, err := e.app.Offers.SpecOf(t.Context(), mustPanel(t, e, "demo").ID)
		require.NoError(t, err)
		assert.Empty(t, spec.CreditCeiling, "a refused ceiling is not kept")

		res := c.consoleCall(http.MethodPut, api, token, `{"offers":{"credit_ceiling":"50"}}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"credit_ceiling":"50`)
		spec, err = e.app.Offers.SpecOf(t.Context(), mustPanel(t, e, "demo").ID)
		require.NoError(t, err)
		assert.Equal(t, "50.00", spec.CreditCeiling)
		assert.Equal(t, "demo-app", spec.AppID, "the provider's other settings are kept")
		audits := e.audited("panel.providers", "demo")
		require.NotEmpty(t, audits)
		assert.Contains(t, audits[len(audits)-1].AfterJSON, `"after":"50"`)
		owner := e.operatorClient(t, "owner@ops.demo.test", "console-owner-1")
		assert.Contains(t, owner.get("/console/panels/demo/providers").Body, `name="offers_credit_ceiling"`, "the providers page has the field")
		assert.Contains(t, e.financeClient().get(holdsPage).Body, "50.00 USD", "the holds page names the ceiling")

		// Cleared, every credit is paid at once again.
		res = c.consoleCall(http.MethodPut, api, token, `{"offers":{"credit_ceiling":""}}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		spec, err = e.app.Offers.SpecOf(t.Context(), mustPanel(t, e, "demo").ID)
		require.NoError(t, err)
		assert.Empty(t, spec.CreditCeiling)

		// The tenant file's offers block carries it too, read in the panel's currency.
		assert.Error(t, (&offers.Spec{BaseURL: "https://x.example", AppID: "a", PostbackSecret: "0123456789abcdef", CreditCeiling: "5.5"}).ValidateIn("JPY"))
		assert.NoError(t, (&offers.Spec{BaseURL: "https://x.example", AppID: "a", PostbackSecret: "0123456789abcdef", CreditCeiling: "5.50"}).ValidateIn("GBP"))
		assert.Error(t, e.app.Offers.Apply(t.Context(), mustPanel(t, e, "demo").ID, &offers.Spec{BaseURL: "https://x.example", AppID: "a", PostbackSecret: "0123456789abcdef", CreditCeiling: "5.50"}),
			"without the panel's currency a ceiling cannot be read")
	})
}
