package main

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoOffersSecret is the postback secret the tests give the demo panels' fake providers.
const demoOffersSecret = "demo-postback-secret-for-tests"

// withFakeOffers points a demo panel's offers provider at a fake on loopback serving a survey
// app offer and a puzzle game.
func (e *env) withFakeOffers(t *testing.T, panelKey string) *offerstest.Server {
	t.Helper()
	fake := offerstest.New(t, panelKey+"-app", panelKey+"-key")
	e.withFakeOffersAt(t, panelKey, fake)
	fake.SetOffers("", offers.Offer{ID: "survey-app", Name: "Survey App Pro", Description: "Install the app and answer its first survey.",
		Requirements: "New users only", Reward: "1.50", Minutes: 10})
	fake.SetGames("", offers.Offer{ID: "puzzle-quest", Name: "Puzzle Quest", Description: "Reach level 10.", Reward: "4.00", Minutes: 120})
	return fake
}

// withFakeOffersAt applies a demo panel's offers provider at fake.
func (e *env) withFakeOffersAt(t *testing.T, panelKey string, fake *offerstest.Server) {
	t.Helper()
	panel := mustPanel(t, e, panelKey)
	require.NoError(t, e.app.Offers.Apply(context.Background(), panel.ID, &offers.Spec{
		BaseURL: fake.URL, AppID: fake.AppID, APIKey: fake.APIKey, PostbackSecret: demoOffersSecret + "-" + panelKey,
	}))
}

// sendPostback sends a signed postback to a panel's host, as the provider's server would
// (no cookies, no session).
func (e *env) sendPostback(t *testing.T, host, instance, secret string, p offerstest.PostbackParams) *response {
	t.Helper()
	signed, err := offerstest.PostbackURL("/api/v1/"+instance+"/offers/postback", secret, p)
	require.NoError(t, err)
	return e.client(host).get(signed)
}

type startedJSON struct {
	RedirectURL string       `json:"redirectUrl"`
	Row         offerRowJSON `json:"row"`
}

// startOffer starts an offer through the API and returns the answer and the member's sub-id,
// which the provider's link carries.
func startOffer(t *testing.T, c *client, offerID string) (startedJSON, string) {
	t.Helper()
	started := decodeJSON[startedJSON](t, c.postJSON("/api/v3/offers_and_games/start-offer", `{"offerId":"`+offerID+`"}`), http.StatusOK)
	u, err := url.Parse(started.RedirectURL)
	require.NoError(t, err)
	sub := u.Query().Get("sub_id")
	require.NotEmpty(t, sub, "the member's link carries their sub-id")
	return started, sub
}

type offerRowJSON struct {
	ID              string  `json:"id"`
	OfferID         string  `json:"offerId"`
	Name            string  `json:"name"`
	Reward          string  `json:"reward"`
	Status          string  `json:"status"`
	TransactionUUID *string `json:"transactionUuid"`
}

type offerRowsJSON struct {
	Rows    []offerRowJSON `json:"rows"`
	Page    int            `json:"page"`
	HasMore bool           `json:"hasMore"`
}

func TestAMemberOpensStartsAndIsCreditedForAnOfferThroughTheAPI(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		fake := e.withFakeOffers(t, "demo")
		c := e.member().api()
		list := decodeJSON[struct {
			Offers []struct {
				ID, Name, Reward, Requirements string
				CurrencyCode                   string `json:"currency_code"`
				Minutes                        int
			} `json:"offers"`
		}](t, c.get("/api/v3/offers_and_games/offers"), http.StatusOK)
		require.Len(t, list.Offers, 1)
		assert.Equal(t, "Survey App Pro", list.Offers[0].Name)
		assert.Equal(t, "1.50", list.Offers[0].Reward)
		assert.Equal(t, "USD", list.Offers[0].CurrencyCode)
		games := decodeJSON[struct {
			Games []struct{ ID string } `json:"games"`
		}](t, c.get("/api/v3/offers_and_games/games"), http.StatusOK)
		require.Len(t, games.Games, 1)

		assert.Equal(t, http.StatusOK, c.postJSON("/api/v3/offers_and_games/view-offer", `{"offerId":"survey-app"}`).StatusCode)
		started, sub := startOffer(t, c, "survey-app")
		assert.Equal(t, "pending", started.Row.Status)
		assert.Equal(t, sub, fake.CallsTo(offerstest.EndpointViewOffer)[0].SubID)
		assert.Equal(t, sub, c.profile(t).TrackingIDs["hasOffersId"], "the profile's trackingIds.hasOffersId is the sub-id")

		res := e.sendPostback(t, "localhost", "demo", demoOffersSecret+"-demo", offerstest.PostbackParams{
			SubID: sub, TransactionID: "prov-tx-1", OfferID: "survey-app", OfferName: "Survey App Pro", Amount: "1.50", Currency: "USD", Status: "credited"})
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Contains(t, res.Body, `"status":"credited"`)
		again := e.sendPostback(t, "localhost", "demo", demoOffersSecret+"-demo", offerstest.PostbackParams{
			SubID: sub, TransactionID: "prov-tx-1", OfferID: "survey-app", OfferName: "Survey App Pro", Amount: "1.50", Currency: "USD", Status: "credited"})
		assert.Equal(t, res.Body, again.Body, "the provider's retry gets the first answer")

		rows := decodeJSON[offerRowsJSON](t, c.get("/api/v3/offers_and_games/paged?page=1&pageSize=10"), http.StatusOK)
		require.Len(t, rows.Rows, 1)
		assert.Equal(t, started.Row.ID, rows.Rows[0].ID)
		assert.Equal(t, "credited", rows.Rows[0].Status)
		require.NotNil(t, rows.Rows[0].TransactionUUID)

		balance := decodeJSON[map[string]any](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, "26.50", balance["balance"], "the demo member's 25.00 and the offer's 1.50")
		txs := decodeJSON[struct {
			Transactions []struct {
				TransactionUUID string `json:"transactionUuid"`
				Origin, Title   string
				Amount          string
			} `json:"transactions"`
		}](t, c.get("/api/v3/transactions/paged?page=1&pageSize=10"), http.StatusOK)
		require.NotEmpty(t, txs.Transactions)
		assert.Equal(t, *rows.Rows[0].TransactionUUID, txs.Transactions[0].TransactionUUID)
		assert.Equal(t, "offer", txs.Transactions[0].Origin)
		assert.Equal(t, "Survey App Pro", txs.Transactions[0].Title)
		assert.Equal(t, "1.50", txs.Transactions[0].Amount)
		comps := decodeJSON[struct {
			Transactions []struct{ Origin string } `json:"transactions"`
		}](t, c.get("/api/v3/transactions/paged?competitions=yes"), http.StatusOK)
		for _, tx := range comps.Transactions {
			assert.NotEqual(t, "offer", tx.Origin, "an offer is not a competition")
		}

		report := c.postJSON("/api/v3/offers_and_games/report-issue", `{"rowId":"`+started.Row.ID+`","message":"Credited late, all good now."}`)
		assert.Equal(t, http.StatusCreated, report.StatusCode, report.Body)
		assert.Len(t, fake.CallsTo(offerstest.EndpointReportIssue), 1)
	})
}

func TestOfferCallsAreForMembersOfPanelsWithAProvider(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withFakeOffers(t, "demo")
		visitor := e.client("localhost")
		for _, path := range []string{"/api/v3/offers_and_games/paged", "/api/v3/offers_and_games/offers", "/api/v3/offers_and_games/games"} {
			assert.Equal(t, http.StatusUnauthorized, visitor.get(path).StatusCode, path)
		}
		c := e.member().api()
		body := decodeJSON[apiErrorJSON](t, c.get("/api/v3/offers_and_games/paged?pageSize=0"), http.StatusBadRequest)
		assert.Equal(t, "pageSize", body.Details[0].Field)
		body = decodeJSON[apiErrorJSON](t, c.postJSON("/api/v3/offers_and_games/start-offer", `{"offerId":"no-such-offer"}`), http.StatusNotFound)
		assert.Equal(t, "This offer is no longer available.", body.Message)
		body = decodeJSON[apiErrorJSON](t, c.postJSON("/api/v3/offers_and_games/report-issue", `{"rowId":"nope","message":"x"}`), http.StatusNotFound)
		assert.Equal(t, "ClientError", body.Name)

		// Northwind has no provider: no page, no lists, no postbacks.
		nw := e.client("northwind.localhost")
		assert.Equal(t, http.StatusNotFound, e.sendPostback(t, "northwind.localhost", "northwind", "anything-at-all-0123", offerstest.PostbackParams{
			SubID: "x", TransactionID: "t", Amount: "1.00", Status: "credited"}).StatusCode)
		assert.Equal(t, http.StatusNotFound, e.sendPostback(t, "localhost", "northwind", demoOffersSecret+"-demo", offerstest.PostbackParams{
			SubID: "x", TransactionID: "t", Amount: "1.00", Status: "credited"}).StatusCode, "another instance's code on this panel's host")
		_ = nw
	})
}

func TestAForgedOrForeignPostbackIsRefusedInTheSpecsErrorShapeAndChangesNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withFakeOffers(t, "demo")
		e.withFakeOffers(t, "northwind")
		c := e.member().api()
		_, sub := startOffer(t, c, "survey-app")
		p := offerstest.PostbackParams{SubID: sub, TransactionID: "t-1", OfferID: "survey-app", Amount: "1.50", Currency: "USD", Status: "credited"}

		forged := e.sendPostback(t, "localhost", "demo", "someone-elses-secret-0123", p)
		body := decodeJSON[apiErrorJSON](t, forged, http.StatusForbidden)
		assert.Equal(t, "ClientError", body.Name)
		assert.Equal(t, 403, body.StatusCode)
		assert.Equal(t, "The postback's signature does not match.", body.Message)

		p.Currency = "GBP"
		foreign := e.sendPostback(t, "northwind.localhost", "northwind", demoOffersSecret+"-northwind", p)
		body = decodeJSON[apiErrorJSON](t, foreign, http.StatusNotFound)
		assert.Equal(t, "sub_id names no member of this panel.", body.Message, "the demo member's sub-id means nothing on Northwind")

		balance := decodeJSON[map[string]any](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, "25.00", balance["balance"])
	})
}

func TestTheOffersPageWorksWithoutJavaScriptAndSendsTheMemberToTheProvider(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		fake := e.withFakeOffers(t, "demo")
		c := e.member()
		feed := c.get("/feed")
		assert.Contains(t, feed.Body, `href="/offers"`, "the offers section is in the navigation")
		page := c.get("/offers")
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		for _, want := range []string{"Survey App Pro", "$1.50", "About 10 min", "New users only", "Puzzle Quest", "$4.00", `href="/offers/view/survey-app"`} {
			assert.Contains(t, page.Body, want)
		}
		view := c.get("/offers/view/survey-app")
		require.Equal(t, http.StatusOK, view.StatusCode)
		assert.Contains(t, view.Body, `href="/offers/start/survey-app"`)
		require.Len(t, fake.CallsTo(offerstest.EndpointViewOffer), 1)

		crossSite := c.do(http.MethodGet, "/offers/start/survey-app", nil, http.Header{"Sec-Fetch-Site": {"cross-site"}})
		assert.Equal(t, http.StatusForbidden, crossSite.StatusCode, "another site cannot start offers for the member")
		start := c.do(http.MethodGet, "/offers/start/survey-app", nil, http.Header{"Sec-Fetch-Site": {"same-origin"}})
		require.Equal(t, http.StatusSeeOther, start.StatusCode, start.Body)
		assert.True(t, strings.HasPrefix(start.Header.Get("Location"), fake.URL+"/go/survey-app"), start.Header.Get("Location"))

		page = c.get("/offers")
		assert.Contains(t, page.Body, `data-status="pending"`)
		assert.Contains(t, page.Body, "I completed it but wasn&#39;t credited")
		rows := decodeJSON[offerRowsJSON](t, c.api().get("/api/v3/offers_and_games/paged"), http.StatusOK)
		require.Len(t, rows.Rows, 1)

		empty := c.postForm("/offers/rows/"+rows.Rows[0].ID+"/report", url.Values{"message": {"  "}})
		assert.Equal(t, http.StatusUnprocessableEntity, empty.StatusCode)
		assert.Contains(t, empty.Body, "Please tell us what happened.")
		sent := c.postForm("/offers/rows/"+rows.Rows[0].ID+"/report", url.Values{"message": {"Installed it yesterday, nothing yet."}})
		require.Equal(t, http.StatusSeeOther, sent.StatusCode, sent.Body)
		assert.Contains(t, c.get("/offers").Body, "we&#39;ve received your report")

		fake.SetDown(true)
		e.withFakeOffersAt(t, "demo", fake) // applied again: the kept lists go with the old setting
		down := c.get("/offers")
		assert.Equal(t, http.StatusOK, down.StatusCode)
		assert.Contains(t, down.Body, "can&#39;t be loaded right now")
		assert.Contains(t, down.Body, `data-status="pending"`, "the member still sees their own offers")
	})
}

func TestTenantApplySealsTheOffersProvidersSecrets(t *testing.T) {
	e := newEnv(t, "sqlite")
	fake := offerstest.New(t, "acme-offers", "acme-api-key-123")
	dir := t.TempDir()
	file := filepath.Join(dir, "acme.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`key: acme
name: Acme Rewards
currency_code: EUR
hosts: [acme.localhost]
languages: [en]
instance: {code: acme, key: acme, name: Acme}
offers:
  base_url: `+fake.URL+`
  app_id: acme-offers
  api_key: env:ACME_OFFERS_KEY
  postback_secret: env:ACME_POSTBACK_SECRET
`), 0o600))
	t.Setenv("ACME_OFFERS_KEY", "acme-api-key-123")
	t.Setenv("ACME_POSTBACK_SECRET", "acme-postback-secret-0123456789")
	require.NoError(t, applyTenantFiles(context.Background(), e.app, []string{file}, testLogger(t), &strings.Builder{}))
	var row offers.ProviderRow
	require.NoError(t, e.db.Where("app_id = ?", "acme-offers").Take(&row).Error)
	assert.NotContains(t, row.PostbackSecretSealed, "acme-postback-secret")
	assert.NotContains(t, row.APIKeySealed, "acme-api-key")

	t.Setenv("ACME_POSTBACK_SECRET", "short")
	err := applyTenantFiles(context.Background(), e.app, []string{file}, testLogger(t), &strings.Builder{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "offers.postback_secret: at least 16 characters")
}

func TestAReversalAfterARealRedemptionLeavesADebtThatBlocksRedeemingUntilEarningsCoverIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withFakeOffers(t, "demo")
		c := e.member().api()
		_, sub := startOffer(t, c, "survey-app")
		secret := demoOffersSecret + "-demo"
		credit := offerstest.PostbackParams{SubID: sub, TransactionID: "big-1", OfferID: "survey-app", OfferName: "Survey App Pro", Amount: "10.00", Status: "credited"}
		require.Equal(t, http.StatusOK, e.sendPostback(t, "localhost", "demo", secret, credit).StatusCode)
		assert.Equal(t, "35.00", e.balanceOf(c))

		res := c.redeemCall(uuid.NewString(), `{"redemptionId":"paypal","amount":"30.00"}`)
		require.Equal(t, http.StatusCreated, res.StatusCode, res.Body)
		assert.Equal(t, "5.00", e.balanceOf(c))

		reversal := credit
		reversal.Status = "reversed"
		rev := e.sendPostback(t, "localhost", "demo", secret, reversal)
		require.Equal(t, http.StatusOK, rev.StatusCode, rev.Body)
		assert.Contains(t, rev.Body, `"owed":"5.00"`)
		assert.Equal(t, "0.00", e.balanceOf(c), "the balance never goes below zero")
		balance := decodeJSON[map[string]any](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.Equal(t, "5.00", balance["owed"])
		refused := c.redeemCall(uuid.NewString(), `{"redemptionId":"amazon-voucher","amount":"10.00"}`)
		assert.Equal(t, http.StatusUnprocessableEntity, refused.StatusCode, "nothing to redeem while the debt is open")
		assert.Contains(t, c.get("/transactions").Body, "5.00")
		e.reconciledLedger()

		// The next earnings repay the debt first.
		next := offerstest.PostbackParams{SubID: sub, TransactionID: "next-1", OfferID: "puzzle-quest", OfferName: "Puzzle Quest", Amount: "7.00", Status: "credited"}
		require.Equal(t, http.StatusOK, e.sendPostback(t, "localhost", "demo", secret, next).StatusCode)
		assert.Equal(t, "2.00", e.balanceOf(c))
		balance = decodeJSON[map[string]any](t, c.get("/api/v3/user/balance"), http.StatusOK)
		assert.NotContains(t, balance, "owed")
		e.reconciledLedger()
	})
}
