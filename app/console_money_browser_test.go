package main

import (
	"context"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	consoleParts["money"] = consolePart{
		pages: []string{
			"/console/panels/:panel/redemptions", "/console/panels/:panel/redemptions/:id",
			"/console/panels/:panel/ledger", "/console/panels/:panel/competitions",
			"/console/panels/:panel/competitions/:id", "/console/panels/:panel/summary",
			"/console/panels/:panel/offer-holds",
		},
		skipped: map[string]string{"/console/panels/:panel/summary.csv": "CSV, not a page"},
		visit:   moneyA11yVisit,
	}
}

// moneyA11yVisit walks the money pages and their refusals, as an owner of both demo panels.
func moneyA11yVisit(t *testing.T, w *a11yWalk, s *a11ySession) {
	ctx := context.Background()
	app := w.b.app
	panel, err := app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	pid, err := app.Accounts.Service().ParticipantByEmail(ctx, panel, DemoEmail)
	require.NoError(t, err)
	_, _, err = app.Wallet.Credit(ctx, wallet.Movement{Panel: panel, ParticipantID: pid, Amount: 2000, Currency: "USD", Origin: wallet.OriginCampaign, Key: "campaign:" + uuid.NewString(), CampaignID: uuid.NewString(), Title: "Survey"})
	require.NoError(t, err)
	r, _, err := app.Redemptions.Redeem(ctx, redemptions.RedeemInput{Panel: panel, ParticipantID: pid, Email: DemoEmail, OptionID: "paypal", Amount: "20.00", Key: uuid.NewString()})
	require.NoError(t, err)
	// shown waits for what only the answer to a form has: the walk checks that page, not the
	// one the form was sent from while the answer still loads.
	shown := func(selector string) { s.p().MustElement(selector) }
	noValidate := func() {
		s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
	}

	w.open(s, "/console/panels/demo/redemptions")
	w.check(s, "console: money, redemption queue")
	w.submit(s, "#bulk fieldset button[type=submit]")
	shown("#main .form-error")
	w.check(s, "console: money, bulk action refused")
	s.p().MustElement("#sel-" + r.ID).MustClick()
	w.submit(s, "#bulk fieldset button[type=submit]")
	shown("#action-results")
	w.check(s, "console: money, bulk action reported")
	w.open(s, "/console/panels/demo/redemptions?status=rejected&from=2020-13-01")
	w.check(s, "console: money, redemption queue filtered, refused")

	w.open(s, "/console/panels/demo/redemptions/"+r.ID)
	w.check(s, "console: money, redemption")
	w.submit(s, "#main form[action$='/payout-details'] button[type=submit]")
	shown("#payout-details")
	w.check(s, "console: money, redemption with payout details revealed")
	w.submit(s, "button[name=action][value=reject]")
	shown("#main .form-error")
	w.check(s, "console: money, redemption rejection refused")

	w.open(s, "/console/panels/demo/ledger")
	w.check(s, "console: money, ledger")
	w.open(s, "/console/panels/demo/ledger?member=nobody@demo.test")
	w.check(s, "console: money, ledger, no such member")
	w.open(s, "/console/panels/demo/ledger?member="+DemoEmail)
	w.check(s, "console: money, ledger of a member")
	fill(s.p(), map[string]string{"#f-amount": "five"})
	noValidate()
	w.submit(s, "#adjust button[type=submit]")
	shown("#main .form-error")
	w.check(s, "console: money, ledger adjustment refused")

	demoComp := campaigns.CompetitionID(w.b.campaignID("demo", "Summer travel prize draw"))
	w.open(s, "/console/panels/demo/competitions")
	w.check(s, "console: money, competitions")
	w.open(s, "/console/panels/demo/competitions/"+demoComp)
	w.check(s, "console: money, competition before its draw")
	noValidate()
	w.submit(s, "#draw button[type=submit]")
	shown("#main .form-error")
	w.check(s, "console: money, draw refused")
	// Northwind's competition, drawn (once, by the first language's visit), shows its proof.
	nw, err := app.Tenancy.PanelByKey(ctx, "northwind")
	require.NoError(t, err)
	spring := campaigns.CompetitionID(w.b.campaignID("northwind", "Spring prize draw"))
	if _, err := app.Competitions.Draw(ctx, nw, spring, "axe", "the walk", true); err != nil {
		require.ErrorIs(t, err, competitions.ErrAlreadyDrawn)
	}
	w.open(s, "/console/panels/northwind/competitions/"+spring)
	w.check(s, "console: money, competition drawn and verified")

	w.open(s, "/console/panels/demo/summary")
	w.check(s, "console: money, daily summary")
	w.open(s, "/console/panels/northwind/summary?from=2026-12-31&to=2026-01-01")
	w.check(s, "console: money, daily summary, period refused")

	// An offer credit above the panel's ceiling, held: the list, and a refusal without a reason.
	require.NoError(t, app.Offers.ApplyIn(ctx, panel.ID, panel.CurrencyCode, &offers.Spec{
		BaseURL: "https://api.offers.example/v1", AppID: "walk-app", PostbackSecret: "walk-postback-secret-1", CreditCeiling: "10.00"}))
	sub, err := app.Offers.Service().SubID(ctx, panel.ID, pid)
	require.NoError(t, err)
	signed, err := offerstest.PostbackURL("/api/v1/demo/offers/postback", "walk-postback-secret-1", offerstest.PostbackParams{
		SubID: sub, TransactionID: "walk-" + uuid.NewString(), OfferID: "survey-app", OfferName: "Survey App Pro", Amount: "50.00", Currency: "USD", Status: "credited"})
	require.NoError(t, err)
	_, err = app.Offers.Service().Receive(ctx, offers.PostbackRequest{Panel: panel, PathAndQuery: signed})
	require.NoError(t, err)
	w.open(s, "/console/panels/demo/offer-holds")
	w.check(s, "console: money, held offer credits")
	noValidate()
	w.submit(s, "#holds form[action$='/refuse'] button[type=submit]")
	shown("#holds-error")
	w.check(s, "console: money, held credit refusal refused")
}

// The member redeems in the member app; finance approves and pays it on the console host;
// the member's redemptions show it paid.
func TestInChromiumFinanceApprovesAndPaysARedemptionAndTheMemberSeesItPaid(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	member := b.signedInFeed(t, true)
	member.MustNavigate(b.url("localhost", "/redemptions")).MustWaitLoad()
	redeemForm(member, "PayPal", "20.00")
	require.Equal(t, []string{"pending"}, historyStatuses(member))

	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "finance@ops.demo.test", "console-finance-1")
	require.Equal(t, "/console/", path(p))
	follow(p, p.MustElement("a[href='/console/panels/demo/redemptions']"))
	row := p.MustElement("#queue tbody tr[data-status=pending]")
	id := *row.MustAttribute("data-id")
	assert.Contains(t, row.MustText(), "20.00 USD")
	assert.Contains(t, row.MustText(), "m***@demo.test", "masked in the queue")

	submit(p, "#queue button[value='approve:"+id+"']")
	assert.Equal(t, "changed", *p.MustElement("#action-results tbody tr").MustAttribute("data-outcome"))
	assert.Equal(t, "approved", *p.MustElement("#queue tr[data-id='" + id + "']").MustAttribute("data-status"))

	follow(p, p.MustElement("#queue tr[data-id='"+id+"'] th a"))
	assert.Equal(t, "/console/panels/demo/redemptions/"+id, path(p))
	submit(p, "form[action$='/payout-details'] button[type=submit]")
	assert.Contains(t, p.MustElement("#payout-details").MustText(), DemoEmail, "revealed on request")
	fill(p, map[string]string{"#f-reason": "Sent by PayPal, batch 42"})
	submit(p, "button[name=action][value=mark-paid]")
	assert.Contains(t, p.MustElement("#main .notice").MustText(), "Now paid (was approved).")
	assert.Contains(t, p.MustElement("#history").MustText(), "Sent by PayPal, batch 42")

	member.MustReload().MustWaitLoad()
	assert.Equal(t, []string{"paid"}, historyStatuses(member))
	r, _, err := b.app.Redemptions.Redemption(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, redemptions.StatusPaid, r.Status)
}
