package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inviteJSON is an invitation as the referrals calls answer it.
type inviteJSON struct {
	ID              string  `json:"id"`
	Email           string  `json:"email"`
	Message         string  `json:"message"`
	Status          string  `json:"status"`
	Sends           int     `json:"sends"`
	SentAt          string  `json:"sentAt"`
	ExpiresAt       *string `json:"expiresAt"`
	AcceptedAt      *string `json:"acceptedAt"`
	ArchivedAt      *string `json:"archivedAt"`
	ArchivedReason  string  `json:"archivedReason"`
	FriendName      string  `json:"friendName"`
	Reward          *string `json:"reward"`
	CurrencyCode    string  `json:"currency_code"`
	TransactionUUID *string `json:"transactionUuid"`
}

type bladeJSON struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Link   *struct{ Href, Label string }
	Action *struct{ Name, Method, Href, Label string }
}

// demoInvite is the id of the demo's invitation n (1 pending, 2 accepted, 3 archived by the
// member, 4 expired) on Canvass Demo.
func demoInvite(n int) string { return fmt.Sprintf("4f6c1d2e-8a0b-4c3d-9e5f-00000000010%d", n) }

// api is the member's client with their pp-token on every call, as the spec's clients send it.
func (c *client) api() *client {
	c.header.Set("Pp-Token", c.cookie("pp-token"))
	return c
}

// completeWelcome walks a member through Canvass Demo's welcome campaign through the API.
func (e *env) completeWelcome(t *testing.T, c *client) {
	t.Helper()
	welcome := e.campaignID("demo", "About you")
	base := "/api/v1/demo/campaigns/" + welcome
	g := decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
	for i := 0; g.Question != nil && i < 30; i++ {
		g = decodeJSON[goResultJSON](t, c.postJSON(base+"/question/"+g.Question.ID, answerFor(t, e, welcome, g.Question.ID)), http.StatusOK)
	}
	require.Equal(t, "completed", g.CampaignStatus)
}

func TestTheReferralCallsNeedAMemberToken(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		visitor := e.client("localhost")
		for _, call := range []struct{ method, path string }{
			{http.MethodPost, "/ah/api/v1/referrals/send"}, {http.MethodPost, "/ah/api/v1/referrals/resend/" + demoInvite(1)},
			{http.MethodGet, "/ah/api/v1/referrals/stats"}, {http.MethodGet, "/ah/api/v1/referrals/pending-invites"},
			{http.MethodGet, "/ah/api/v1/referrals/accepted-invites"}, {http.MethodGet, "/ah/api/v1/referrals/archived-invites?orderBy=email"},
			{http.MethodGet, "/ah/api/v1/user/blades"}, {http.MethodPost, "/ah/api/v1/blades/verify-mobile/dismiss"},
			{http.MethodPost, "/ah/api/v1/blades/thank-referrer." + demoInvite(2) + "/thank-referrer"},
			{http.MethodGet, "/ah/api/v1/affiliates/invite/ACME-CASHBACK"}, {http.MethodPost, "/ah/api/v1/affiliates/invite/ACME-CASHBACK/accept"},
		} {
			var res *response
			if call.method == http.MethodGet {
				res = visitor.get(call.path)
			} else {
				res = visitor.postJSON(call.path, `{"email":"friend@example.com"}`)
			}
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "%s %s", call.method, call.path)
			assert.Contains(t, res.Body, `"name":"ClientError"`)
		}
	})
}

func TestTheDemoReferrerSeesTheirInvitationsByStateAndStats(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member().api()
		stats := decodeJSON[map[string]any](t, c.get("/ah/api/v1/referrals/stats"), http.StatusOK)
		assert.Equal(t, map[string]any{"sent": 4.0, "accepted": 1.0, "pending": 1.0, "archived": 2.0, "earned": "0.00", "currency_code": "USD"}, stats)

		pending := decodeJSON[[]inviteJSON](t, c.get("/ah/api/v1/referrals/pending-invites"), http.StatusOK)
		require.Len(t, pending, 1)
		assert.Equal(t, "riley@example.com", pending[0].Email)
		assert.Equal(t, "pending", pending[0].Status)
		require.NotNil(t, pending[0].ExpiresAt)
		accepted := decodeJSON[[]inviteJSON](t, c.get("/ah/api/v1/referrals/accepted-invites"), http.StatusOK)
		require.Len(t, accepted, 1)
		assert.Equal(t, "Jamie", accepted[0].FriendName)
		assert.Nil(t, accepted[0].Reward, "Jamie has the welcome campaign still to do")
		archived := decodeJSON[[]inviteJSON](t, c.get("/ah/api/v1/referrals/archived-invites?orderBy=email"), http.StatusOK)
		require.Len(t, archived, 2)
		assert.Equal(t, []string{"casey@example.com", "morgan@example.com"}, []string{archived[0].Email, archived[1].Email})
		assert.Equal(t, []string{"member", "expired"}, []string{archived[0].ArchivedReason, archived[1].ArchivedReason})
		res := c.get("/ah/api/v1/referrals/archived-invites?orderBy=amount")
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, res.Body, `"field":"orderBy"`)
	})
}

func TestAFriendJoinsFromTheMailedLinkAndTheReferrerIsPaidOnceTheyCompleteTheWelcomeCampaign(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		member := e.member().api()
		sent := decodeJSON[inviteJSON](t, member.postJSON("/ah/api/v1/referrals/send", `{"email":"Pat@Example.com","message":"Come and join!"}`), http.StatusCreated)
		assert.Equal(t, "pending", sent.Status)
		assert.Equal(t, "USD", sent.CurrencyCode)

		mail := e.smtp.WaitFor(t, "Pat@Example.com", 30*time.Second)
		assert.Equal(t, "Demo invited you to Canvass Demo", mail.Subject)
		link := mailertest.FirstLink(mail.HTML, "http://localhost/join/invite/")
		require.Equal(t, "http://localhost/join/invite/"+sent.ID, link)

		friend := e.client("localhost")
		page := friend.get("/join/invite/" + sent.ID)
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "Demo invited you to Canvass Demo.")
		assert.Contains(t, page.Body, `value="Pat@Example.com"`, "the email is filled in")
		res := friend.postForm("/join/invite/"+sent.ID, url.Values{"email": {"Pat@Example.com"}, "password": {"pat-password-1"}, "firstName": {"Pat"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)

		accepted := decodeJSON[[]inviteJSON](t, member.get("/ah/api/v1/referrals/accepted-invites"), http.StatusOK)
		require.Len(t, accepted, 2)
		assert.Equal(t, "Pat", accepted[0].FriendName)
		assert.Equal(t, "25.00", e.balanceOf(member), "nothing yet: Pat has the welcome campaign to do")

		e.completeWelcome(t, friend.api())
		assert.Equal(t, "27.00", e.balanceOf(member), "the $2.00 reward")
		accepted = decodeJSON[[]inviteJSON](t, member.get("/ah/api/v1/referrals/accepted-invites"), http.StatusOK)
		require.NotNil(t, accepted[0].Reward)
		assert.Equal(t, "2.00", *accepted[0].Reward)
		stats := decodeJSON[map[string]any](t, member.get("/ah/api/v1/referrals/stats"), http.StatusOK)
		assert.Equal(t, "2.00", stats["earned"])

		blades := decodeJSON[[]bladeJSON](t, member.get("/ah/api/v1/user/blades"), http.StatusOK)
		require.NotEmpty(t, blades)
		assert.Equal(t, "friend-joined."+sent.ID, blades[0].ID)
		assert.Equal(t, "Pat joined!", blades[0].Title)
		assert.Equal(t, "Your invitation worked: you earned $2.00.", blades[0].Text)

		// Pat thanks the member from their own feed's card.
		pat := decodeJSON[[]bladeJSON](t, friend.get("/ah/api/v1/user/blades"), http.StatusOK)
		require.NotEmpty(t, pat)
		assert.Equal(t, "thank-referrer."+sent.ID, pat[0].ID)
		require.NotNil(t, pat[0].Action)
		assert.Equal(t, "/ah/api/v1/blades/thank-referrer."+sent.ID+"/thank-referrer", pat[0].Action.Href)
		assert.Equal(t, http.StatusOK, friend.postJSON(pat[0].Action.Href, `{}`).StatusCode)
		thanks := e.smtp.WaitFor(t, DemoEmail, 30*time.Second)
		assert.Equal(t, "Pat says thank you", thanks.Subject)
		again := friend.postJSON(pat[0].Action.Href, `{}`)
		assert.Equal(t, http.StatusConflict, again.StatusCode)
		assert.Contains(t, again.Body, "already_thanked")
	})
}

func TestAMemberDismissesACardForGood(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member().api()
		ids := func() []string {
			var out []string
			for _, b := range decodeJSON[[]bladeJSON](t, c.get("/ah/api/v1/user/blades"), http.StatusOK) {
				out = append(out, b.ID)
			}
			return out
		}
		require.Equal(t, []string{"friend-joined." + demoInvite(2), "invite-waiting." + demoInvite(1), "complete-address"}, ids(),
			"the demo referrer's cards: the demo member has no postal address yet")
		res := c.postJSON("/ah/api/v1/blades/invite-waiting."+demoInvite(1)+"/dismiss", `{}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, []string{"friend-joined." + demoInvite(2), "complete-address"}, ids())
		res = c.postJSON("/ah/api/v1/profile/postal-address", `{"addressLine1":"742 Evergreen Terrace","postcode":"02108"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, []string{"friend-joined." + demoInvite(2)}, ids(), "an address given, its card goes")
		assert.Equal(t, http.StatusNotFound, c.postJSON("/ah/api/v1/blades/thank-referrer."+demoInvite(2)+"/dismiss", `{}`).StatusCode, "Jamie's card is not the member's")
		assert.Equal(t, http.StatusNotFound, c.postJSON("/ah/api/v1/blades/anything/dismiss", `{}`).StatusCode)
	})
}

func TestAMemberAcceptsAPartnerCodeOnceAndAnotherPanelsCodeIsNotFound(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member().api()
		type affiliate struct {
			Code, Partner, Bonus string
			CurrencyCode         string `json:"currency_code"`
			Accepted, Available  bool
		}
		a := decodeJSON[affiliate](t, c.get("/ah/api/v1/affiliates/invite/acme-cashback"), http.StatusOK)
		assert.Equal(t, affiliate{Code: "ACME-CASHBACK", Partner: "Acme Cashback", Bonus: "1.00", CurrencyCode: "USD", Available: true}, a)
		a = decodeJSON[affiliate](t, c.postJSON("/ah/api/v1/affiliates/invite/ACME-CASHBACK/accept", `{}`), http.StatusOK)
		assert.True(t, a.Accepted)
		assert.Equal(t, "26.00", e.balanceOf(c))
		decodeJSON[affiliate](t, c.postJSON("/ah/api/v1/affiliates/invite/ACME-CASHBACK/accept", `{}`), http.StatusOK)
		assert.Equal(t, "26.00", e.balanceOf(c), "paid once")
		for _, path := range []string{"/ah/api/v1/affiliates/invite/NW-DEALS", "/ah/api/v1/affiliates/invite/NO-SUCH"} {
			assert.Equal(t, http.StatusNotFound, c.get(path).StatusCode, path)
		}
		assert.Equal(t, http.StatusNotFound, c.postJSON("/ah/api/v1/affiliates/invite/NW-DEALS/accept", `{}`).StatusCode)
	})
}

func TestAnotherPanelsMemberFindsNoneOfTheDemoReferrersInvitations(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		nw := e.client("northwind.localhost")
		require.Equal(t, http.StatusSeeOther, nw.login("ana@northwind.test", DemoPassword).StatusCode)
		nw.api()
		before := tableRows(t, e.db)
		for _, path := range []string{
			"/ah/api/v1/referrals/resend/" + demoInvite(1), "/ah/api/v1/blades/friend-joined." + demoInvite(2) + "/dismiss",
			"/ah/api/v1/blades/thank-referrer." + demoInvite(2) + "/thank-referrer", "/ah/api/v1/affiliates/invite/ACME-CASHBACK/accept",
		} {
			res := nw.postJSON(path, `{}`)
			assert.Equal(t, http.StatusNotFound, res.StatusCode, "%s: %s", path, res.Body)
		}
		form := nw.postForm("/referrals/"+demoInvite(1)+"/archive", url.Values{})
		assert.Equal(t, http.StatusNotFound, form.StatusCode)
		assert.Equal(t, before, tableRows(t, e.db), "nothing written")
		// The demo member's token is nobody on Northwind.
		demo := e.member()
		res := e.client("northwind.localhost").do(http.MethodGet, "/ah/api/v1/referrals/stats", nil, http.Header{"Pp-Token": {demo.cookie("pp-token")}})
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	})
}

func TestTheReferralsPageAndItsNavigationShowToMembersEligibleToRefer(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		member := e.member()
		feed := member.get("/feed")
		assert.Contains(t, feed.Body, `href="/referrals"`, "the demo member may refer")
		page := member.get("/referrals")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "You earn $2.00 for each friend who joins and completes their welcome survey.")
		assert.Contains(t, page.Body, `id="invite-`+demoInvite(1)+`"`)
		assert.NotEmpty(t, member.cookie("device"), "the browser invitations are sent from gets its device cookie")

		newcomer := e.client("localhost")
		require.Equal(t, http.StatusCreated, newcomer.postJSON("/ah/api/v2/user/register", `{"email":"nina@demo.test","password":"a-good-password"}`).StatusCode)
		assert.NotContains(t, newcomer.get("/feed").Body, `href="/referrals"`, "a newcomer may not refer yet")
		page = newcomer.get("/referrals")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, "completed your welcome survey")
		assert.Contains(t, page.Body, "validated your email address")
		assert.NotContains(t, page.Body, `action="/referrals"`, "no invitation form")
		res := newcomer.api().postJSON("/ah/api/v1/referrals/send", `{"email":"friend@example.com"}`)
		assert.Equal(t, http.StatusForbidden, res.StatusCode)
		assert.Contains(t, res.Body, "not_eligible_to_refer")
	})
}

func TestTheInvitationFormWorksWithoutJavaScriptAndSaysWhatWasRefused(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/referrals")
		res := c.postForm("/referrals", url.Values{"email": {DemoEmail}, "message": {"hi"}})
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		assert.Contains(t, res.Body, "That&#39;s your own email address.")
		assert.Contains(t, res.Body, ">hi</textarea>", "the message is kept")
		res = c.postForm("/referrals", url.Values{"email": {"jamie@demo.test"}})
		assert.Equal(t, http.StatusConflict, res.StatusCode)
		assert.Contains(t, res.Body, "This person is already a member.")

		res = c.postForm("/referrals", url.Values{"email": {"quinn@example.com"}, "message": {"See you there"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/referrals", res.Header.Get("Location"))
		page := c.get("/referrals")
		assert.Contains(t, page.Body, "Your invitation is on its way.")
		assert.Contains(t, page.Body, "quinn@example.com")
		e.smtp.WaitFor(t, "quinn@example.com", 30*time.Second)

		id := regexp.MustCompile(`id="invite-([0-9a-f-]{36})" data-status="pending"`).FindStringSubmatch(page.Body)
		require.NotNil(t, id)
		res = c.postForm("/referrals/"+id[1]+"/resend", url.Values{"return": {"/referrals"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		res = c.postForm("/referrals/"+id[1]+"/resend", url.Values{"return": {"/referrals"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, "refused, and back to the page")
		assert.Contains(t, c.get("/referrals").Body, "You sent this invitation again recently.")
		res = c.postForm("/referrals/"+id[1]+"/archive", url.Values{})
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		archived := decodeJSON[[]inviteJSON](t, c.api().get("/ah/api/v1/referrals/archived-invites"), http.StatusOK)
		assert.Equal(t, id[1], archived[0].ID, "the newest archived first")
	})
}

func TestAnInvitationOpenedOnTheBrowserItWasSentFromCannotBeUsedToJoin(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/referrals") // the device cookie
		require.Equal(t, http.StatusSeeOther, c.postForm("/referrals", url.Values{"email": {"alt@example.com"}}).StatusCode)
		link := mailertest.FirstLink(e.smtp.WaitFor(t, "alt@example.com", 30*time.Second).HTML, "http://localhost/join/invite/")
		path := strings.TrimPrefix(link, "http://localhost")
		require.Equal(t, http.StatusOK, c.get("/logout").StatusCode)
		page := c.get(path)
		require.Equal(t, http.StatusOK, page.StatusCode)
		res := c.postForm(path, url.Values{"email": {"alt@example.com"}, "password": {"alt-password-1"}})
		assert.Equal(t, http.StatusConflict, res.StatusCode)
		assert.Contains(t, res.Body, "This invitation was sent from this account or this device")
		ok, err := e.app.Accounts.IsMember(context.Background(), mustPanel(t, e, "demo"), "alt@example.com")
		require.NoError(t, err)
		assert.False(t, ok)
	})
}

func TestTheFeedShowsTheCardsAndDismissesThemWithAndWithoutHtmx(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		feed := c.get("/feed")
		assert.Contains(t, feed.Body, `id="blade-friend-joined.`+demoInvite(2)+`"`)
		assert.Contains(t, feed.Body, "Jamie joined!")
		assert.Contains(t, feed.Body, "You&#39;ll earn $2.00 once they complete their welcome survey.")
		assert.Contains(t, feed.Body, `action="/referrals/`+demoInvite(1)+`/resend"`, "the waiting card sends the invitation again")

		res := c.do(http.MethodPost, "/blades/friend-joined."+demoInvite(2)+"/dismiss",
			strings.NewReader(url.Values{"_csrf": {c.cookie("XSRF-TOKEN")}, "return": {"/feed"}}.Encode()),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Hx-Request": {"true"}})
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Empty(t, res.Body, "htmx swaps the card out")
		assert.Contains(t, res.Header.Get("Hx-Trigger"), "Dismissed.")
		for _, id := range []string{"invite-waiting." + demoInvite(1), "complete-address"} {
			res = c.postForm("/blades/"+id+"/dismiss", url.Values{"return": {"/feed"}})
			require.Equal(t, http.StatusSeeOther, res.StatusCode, id)
			assert.Equal(t, "/feed", res.Header.Get("Location"), id)
		}
		assert.NotContains(t, c.get("/feed").Body, `class="blade card"`, "every card has gone")
	})
}

// a11yReferral is a demo tenant's pending invitation and partner code, for the accessibility walk.
func a11yReferral(tenant string) (invite, code string) {
	if tenant == "northwind" {
		return "4f6c1d2e-8a0b-4c3d-9e5f-000000000201", "NW-DEALS"
	}
	return demoInvite(1), "ACME-CASHBACK"
}

// accountsInput is a member who passed every gate, with a password, for EnsureMember.
func accountsInput(email string) accounts.RegisterInput {
	return accounts.RegisterInput{Email: email, Password: "member-password-1", FirstName: "Mo", AcceptTerms: true, LanguageCode: "en"}
}

func TestAFriendWhoJoinsWithAProviderFromTheInvitationOrPartnerPageIsLinkedToo(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		member := e.member().api()
		sent := decodeJSON[inviteJSON](t, member.postJSON("/ah/api/v1/referrals/send", `{"email":"`+newcomer.Email+`"}`), http.StatusCreated)

		friend := e.client("localhost")
		require.Equal(t, http.StatusOK, friend.get("/join/invite/"+sent.ID).StatusCode)
		res := friend.signInWith(t, lp, "google", newcomer.Subject)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		accepted := decodeJSON[[]inviteJSON](t, member.get("/ah/api/v1/referrals/accepted-invites"), http.StatusOK)
		require.Len(t, accepted, 2)
		assert.Equal(t, sent.ID, accepted[0].ID, "the provider's return carried the invitation the join page was opened with")
		assert.Equal(t, "Nia Newcomer", accepted[0].FriendName)

		visitor := e.client("localhost")
		require.Equal(t, http.StatusOK, visitor.get("/join?affiliate=ACME-CASHBACK").StatusCode)
		res = visitor.signInWith(t, lp, "facebook", fbFriend.Subject)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "1.00", e.balanceOf(visitor), "the partner's bonus")
	})
}
