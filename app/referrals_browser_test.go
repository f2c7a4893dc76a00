package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blankPage is a fresh incognito page; without JavaScript its scripts are blocked at the
// network before anything loads.
func (b *browserEnv) blankPage(t *testing.T, noScript bool) *rod.Page {
	t.Helper()
	p := b.page(t, "about:blank")
	if noScript {
		router := p.HijackRequests()
		router.MustAdd("*/static/dist/*.js", func(h *rod.Hijack) { h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) })
		go router.Run()
		t.Cleanup(func() { _ = router.Stop() })
	}
	return p
}

// completeWelcomeFrom answers the welcome campaign with the page's own session, through the
// member API (what the survey box sends), and checks it completed.
func (b *browserEnv) completeWelcomeFrom(t *testing.T, p *rod.Page) {
	t.Helper()
	welcome := b.campaignID("demo", "About you")
	base := "/api/v1/demo/campaigns/" + welcome
	next := p.MustEval(`async (url) => (await (await fetch(url)).json()).question?.id || ''`, base+"/go").String()
	for i := 0; next != "" && i < 30; i++ {
		res := p.MustEval(`async (url, body) => { const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body})
			const g = await r.json(); return {status: r.status, next: (g.question && g.question.id) || '', state: g.campaign_status || ''} }`,
			base+"/question/"+next, answerFor(t, b.env, welcome, next))
		require.Equal(t, http.StatusOK, res.Get("status").Int(), next)
		next = res.Get("next").String()
		if next == "" {
			require.Equal(t, "completed", res.Get("state").String())
		}
	}
}

func TestInChromiumAMemberInvitesAFriendWhoJoinsFromTheMailAndTheMemberIsCreditedAndSeesIt(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, tc := range []struct {
		name, friend, firstName string
		noScript                bool
		balance                 string // the referrer's after the friend's welcome campaign
	}{
		{"with JavaScript", "pat@example.com", "Pat", false, "$27.00"},
		{"without JavaScript", "quinn@example.com", "Quinn", true, "$29.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The member invites a friend from the referrals page, found in the navigation.
			m := b.blankPage(t, tc.noScript)
			m.MustNavigate(b.url("localhost", "/login")).MustWaitLoad()
			fill(m, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
			submit(m, "button[type=submit]")
			require.Equal(t, "/feed", path(m))
			submit(m, "nav.nav a[href='/referrals']")
			require.Equal(t, "/referrals", path(m))
			fill(m, map[string]string{"#f-email": tc.friend, "#f-message": "Come and answer surveys with me!"})
			submit(m, "#referral-send")
			assert.Equal(t, "Your invitation is on its way.", flashText(m))
			assert.Contains(t, m.MustElement("#pending-h + .referral-list").MustText(), tc.friend)

			// The friend opens the mailed link on their own browser and joins.
			mail := b.smtp.WaitFor(t, tc.friend, 30*time.Second)
			assert.Contains(t, mail.Text, "Come and answer surveys with me!")
			link := mailertest.FirstLink(mail.HTML, b.url("localhost", "/join/invite/"))
			require.NotEmpty(t, link, mail.HTML)
			card := "[id='blade-friend-joined." + strings.TrimPrefix(link, b.url("localhost", "/join/invite/")) + "']"
			f := b.blankPage(t, tc.noScript)
			f.MustNavigate(link).MustWaitLoad()
			assert.Equal(t, "Demo invited you to Canvass Demo. Join below and your invitation is linked to them.", f.MustElement(".join-invitation").MustText())
			assert.Equal(t, tc.friend, f.MustElement("#f-email").MustProperty("value").String(), "the email is filled in")
			fill(f, map[string]string{"#f-firstName": tc.firstName, "#f-password": "friend-password-1"})
			submit(f, "form[action^='/join/invite/'] button[type=submit]")
			require.Equal(t, "/feed", path(f))
			b.completeWelcomeFrom(t, f)

			// The member is credited, and sees the accepted invitation and a card.
			m.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
			blade := m.MustElement(card)
			assert.Equal(t, tc.firstName+" joined!", blade.MustElement(".blade-title").MustText())
			assert.Equal(t, "Your invitation worked: you earned $2.00.", blade.MustElement(".blade-text").MustText())
			assert.Equal(t, tc.balance, m.MustElement("[data-balance]").MustText())
			m.MustNavigate(b.url("localhost", "/referrals")).MustWaitLoad()
			accepted := m.MustElement("#accepted-h + .referral-list .referral").MustText()
			assert.Contains(t, accepted, tc.firstName+" · "+tc.friend)
			assert.Contains(t, accepted, "$2.00")

			// The friend thanks them from their own feed's card; the member gets the mail.
			f.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
			thank := f.MustElement("[data-blade='thank-referrer'] .blade-action")
			assert.Equal(t, "Thank Demo", thank.MustText())
			if tc.noScript {
				wait := f.MustWaitNavigation()
				click(thank)
				wait()
				assert.Equal(t, "Your thank-you is on its way.", flashText(f))
			} else {
				click(thank)
				f.MustWait(`() => !document.querySelector("[data-blade='thank-referrer']")`)
				assert.Equal(t, "Demo will get your thank-you by email.", flashText(f))
			}
			assert.False(t, f.MustHas("[data-blade='thank-referrer']"), "the card has gone")
			thanks := b.smtp.WaitFor(t, DemoEmail, 30*time.Second)
			assert.Equal(t, tc.firstName+" says thank you", thanks.Subject)

			// The member dismisses the friend's card.
			m.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
			dismiss := m.MustElement(card + " .blade-dismiss")
			if tc.noScript {
				wait := m.MustWaitNavigation()
				click(dismiss)
				wait()
			} else {
				click(dismiss)
				m.MustWait(`(card) => !document.querySelector(card)`, card)
			}
			m.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
			assert.False(t, m.MustHas(card), "dismissed for good")
		})
	}
}

func TestInChromiumAMemberAcceptsAPartnersInvitationAndAVisitorJoinsWithIt(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, noScript := range []bool{false, true} {
		name := map[bool]string{false: "with JavaScript", true: "without JavaScript"}[noScript]
		t.Run(name, func(t *testing.T) {
			// A visitor: the partner's page leads to joining with its code, and the bonus is paid.
			v := b.blankPage(t, noScript)
			v.MustNavigate(b.url("localhost", "/affiliates/acme-cashback")).MustWaitLoad()
			assert.Equal(t, "Join Canvass Demo through Acme Cashback and get a $1.00 welcome bonus.", v.MustElement(".affiliate .lead").MustText())
			submit(v, ".affiliate a[href^='/join']")
			assert.Equal(t, "You're joining through Acme Cashback: you'll get a $1.00 welcome bonus.", v.MustElement(".join-partner").MustText())
			email := strings.ReplaceAll(strings.ToLower(name), " ", "-") + "@example.com"
			fill(v, map[string]string{"#f-firstName": "Val", "#f-email": email, "#f-password": "val-password-1"})
			submit(v, "form[action='/join'] button[type=submit]")
			require.Equal(t, "/feed", path(v))
			assert.Equal(t, "$1.00", v.MustElement("[data-balance]").MustText())

			// A member accepts it on the partner's page.
			m := b.blankPage(t, noScript)
			m.MustNavigate(b.url("localhost", "/affiliates/ACME-CASHBACK")).MustWaitLoad()
			submit(m, ".affiliate a[href^='/login']")
			member := "acme-" + email
			require.NoError(t, b.app.Accounts.Service().EnsureMember(t.Context(), mustPanel(t, b.env, "demo"), accountsInput(member), nil))
			fill(m, map[string]string{"#f-email": member, "#f-password": "member-password-1"})
			submit(m, "button[type=submit]")
			require.Equal(t, "/affiliates/ACME-CASHBACK", path(m), "back to the partner's page")
			submit(m, "#affiliate-accept")
			assert.Equal(t, "You joined through Acme Cashback.", m.MustElement(".affiliate-state").MustText())
			assert.Equal(t, "$1.00", m.MustElement("[data-balance]").MustText())
			m.MustNavigate(b.url("localhost", "/affiliates/ACME-CASHBACK")).MustWaitLoad()
			assert.False(t, m.MustHas("#affiliate-accept"), "accepted once")
		})
	}
}
