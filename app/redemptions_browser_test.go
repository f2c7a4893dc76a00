package main

import (
	"context"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flashText waits for the page's success message, as a toast (JavaScript; without its close
// button) or as the server's flash (without it), and returns it.
func flashText(p *rod.Page) string {
	text := p.MustElement(".toasts .toast--success, .flashes .flash-success").MustText()
	first, _, _ := strings.Cut(text, "\n")
	return strings.TrimSpace(first)
}

// historyStatuses are the statuses of the redemptions the page lists, newest first.
func historyStatuses(p *rod.Page) []string {
	var out []string
	for _, el := range p.MustElements(".redeem-history .tx-row") {
		out = append(out, *el.MustAttribute("data-status"))
	}
	return out
}

func TestInChromiumTheDemoMemberRedeemsToPayPalAndSeesTheBalanceAndHistoryChange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		noScript bool
	}{{"with JavaScript", false}, {"without JavaScript", true}} {
		t.Run(c.name, func(t *testing.T) {
			b := newBrowserEnv(t)
			p := b.signedInFeed(t, c.noScript)
			follow(p, p.MustElement(`.nav a[href="/redemptions"]`))
			require.Equal(t, "/redemptions", path(p))
			assert.Equal(t, "$25.00", p.MustElement("#redeem-balance").MustText())
			assert.Equal(t, "$25.00", p.MustElement("[data-balance]").MustText())
			assert.Equal(t, "m***@demo.test", p.MustElement(".paypal-current").MustText(), "the demo member's PayPal email, masked")
			assert.Equal(t, "true", *p.MustElement("#option-paypal").MustAttribute("data-available"))
			assert.Empty(t, historyStatuses(p))

			key := *p.MustElement(`input[name="idempotencyKey"]`).MustAttribute("value")
			redeemForm(p, "PayPal", "20.00")
			assert.Equal(t, "/redemptions", path(p))
			assert.Equal(t, "Your redemption request has been received.", flashText(p))
			assert.Equal(t, "$5.00", p.MustElement("#redeem-balance").MustText())
			assert.Equal(t, "$5.00", p.MustElement("[data-balance]").MustText())
			assert.Equal(t, []string{"pending"}, historyStatuses(p))
			row := p.MustElement(".redeem-history .tx-row")
			assert.Contains(t, row.MustText(), "PayPal")
			assert.Contains(t, row.MustText(), "$20.00")
			assert.Contains(t, row.MustText(), "To m***@demo.test")
			assert.Equal(t, "below_minimum", *p.MustElement("#option-paypal .redeem-reason").MustAttribute("data-reason"))
			assert.NotEqual(t, key, *p.MustElement(`input[name="idempotencyKey"]`).MustAttribute("value"), "the next form has a key of its own")

			// The same form sent again (a resubmission of the page as it was) redeems nothing more.
			p.MustElement(`input[name="idempotencyKey"]`).MustEval(`function (k) { this.value = k }`, key)
			redeemForm(p, "PayPal", "20.00")
			assert.Equal(t, "Your redemption request has been received.", flashText(p))
			assert.Equal(t, []string{"pending"}, historyStatuses(p))
			assert.Equal(t, "$5.00", p.MustElement("#redeem-balance").MustText())
			b.reconciledLedger()
		})
	}
}

// redeemForm fills and sends the page's redeem form.
func redeemForm(p *rod.Page, option, amount string) {
	p.MustElement("#f-redemptionId").MustSelect(option)
	fill(p, map[string]string{"#f-amount": amount})
	submit(p, ".redeem-form button[type=submit]")
}

// A new member is shown why they can't redeem, verifies their mobile by SMS on the mobile
// page the notice links to, adds a PayPal email and redeems. The panel's cooling-off after a
// first verification is set to none, so the member may redeem at once.
func TestInChromiumANewMemberVerifiesTheirMobileAddsPayPalAndRedeems(t *testing.T) {
	t.Parallel()
	b, sms := newMobileBrowserEnv(t)
	ctx := context.Background()
	panel, err := b.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	st, err := b.app.Mobile.Service().Settings(ctx, panel.ID)
	require.NoError(t, err)
	st.CoolingOffHours = 0
	require.NoError(t, b.app.Mobile.Service().SaveSettings(ctx, st))
	require.NoError(t, b.app.Accounts.Service().EnsureMember(ctx, panel, accounts.RegisterInput{
		Email: "rosa@demo.test", Password: "rosa-password-1", AcceptTerms: true, LanguageCode: "en",
	}, accounts.Metadata{"welcomeCampaignCompleted": true}))
	pid, err := b.app.Accounts.Service().ParticipantByEmail(ctx, panel, "rosa@demo.test")
	require.NoError(t, err)
	_, _, err = b.app.Wallet.Adjust(ctx, panel, pid, "30.00", "Bonus", "test", "rosa-bonus")
	require.NoError(t, err)

	p := b.page(t, b.url("localhost", "/redemptions"))
	fill(p, map[string]string{"#f-email": "rosa@demo.test", "#f-password": "rosa-password-1"})
	submit(p, "button[type=submit]")
	require.Equal(t, "/redemptions", path(p), "the login leads back to the page")
	assert.Equal(t, mobile.NotVerified, *p.MustElement(".redeem-eligibility").MustAttribute("data-eligibility"))
	assert.Equal(t, redemptions.ReasonNotEligible, *p.MustElement("#option-paypal .redeem-reason").MustAttribute("data-reason"))

	submit(p, `.redeem-eligibility a[href="/settings/mobile"]`)
	require.Equal(t, "/settings/mobile", path(p))
	p.MustElement("#f-country").MustSelect("United Kingdom (+44)")
	fill(p, map[string]string{"#f-phone": "07700 900457"})
	submit(p, "#mobile-send")
	fill(p, map[string]string{"#f-code": sms.Code(t, "+447700900457")})
	submit(p, "#mobile-verify")
	require.Equal(t, "yes", mobileAttr(p, ".mobile-eligibility", "data-eligibility"))

	follow(p, p.MustElement(`.nav a[href="/redemptions"]`))
	assert.False(t, p.MustHas(".redeem-eligibility"), "nothing holds the member back any more")
	assert.Equal(t, redemptions.ReasonNeedsPayPalData, *p.MustElement("#option-paypal .redeem-reason").MustAttribute("data-reason"))

	fill(p, map[string]string{"#f-paypalEmail": "rosa.paid@example.com"})
	submit(p, `form[action="/redemptions/paypal-data"] button[type=submit]`)
	assert.Equal(t, "Your PayPal email address has been saved.", flashText(p))
	assert.Equal(t, "r***@example.com", p.MustElement(".paypal-current").MustText())

	redeemForm(p, "PayPal", "25")
	assert.Equal(t, "Your redemption request has been received.", flashText(p))
	assert.Equal(t, "$5.00", p.MustElement("#redeem-balance").MustText())
	assert.Equal(t, []string{"pending"}, historyStatuses(p))
	b.reconciledLedger()
}

func TestInChromiumARefusedRedeemComesBackOnTheRedemptionsPageWithWhatIsWrongInViewAndFocused(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, c := range []struct {
		name     string
		noScript bool
	}{{"with JavaScript", false}, {"without JavaScript", true}} {
		t.Run(c.name, func(t *testing.T) {
			p := b.signedInFeed(t, c.noScript)
			atWidth(t, p, 360)
			follow(p, p.MustElement(`.nav a[href="/redemptions"]`))
			for _, tc := range []struct{ option, amount, focused string }{
				{"PayPal", "999.00", ""},        // more than the balance
				{"PayPal", "lots", "#f-amount"}, // no amount at all: the field says so
			} {
				redeemForm(p, tc.option, tc.amount)
				assert.Equal(t, "/redemptions", path(p), "the address stays the page's")
				focused := p.MustEval(`() => { const el = document.activeElement, r = el.getBoundingClientRect()
					return {id: el.id, alert: el.getAttribute('role') === 'alert' || el.getAttribute('aria-invalid') === 'true',
						inView: r.top >= 0 && r.bottom <= innerHeight, text: el.textContent.trim()} }`)
				assert.True(t, focused.Get("alert").Bool(), "%s %s: the focus is on what is wrong (%s)", tc.option, tc.amount, focused.Get("id").Str())
				assert.True(t, focused.Get("inView").Bool(), "%s %s: in view on a phone", tc.option, tc.amount)
				if tc.focused != "" {
					assert.Equal(t, strings.TrimPrefix(tc.focused, "#"), focused.Get("id").Str())
				}
			}
			assert.Equal(t, "$25.00", p.MustElement("#redeem-balance").MustText(), "nothing was redeemed")
		})
	}
}
