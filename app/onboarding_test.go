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

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/social"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Northwind's demo onboarding campaigns (app/demo/campaigns/northwind/05-*, 06-*).
const (
	nwHousehold = "3f6c2a8e-5b1d-4c7a-9e2f-0d8b4a6c1e57" // household_size (radio), pets (checkbox)
	nwFinal     = "8a1e4d7c-2f9b-4e63-b5a0-7c3d9e2f6b18" // heard_from (dropdown), invitations (radio); final
)

// where is where a GET of target is sent, one hop.
func (c *client) where(t *testing.T, target string) string {
	t.Helper()
	res := c.get(target)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, "%s: %s", target, res.Body)
	return res.Header.Get("Location")
}

// answerForm answers the current question of an onboarding campaign with its plain form.
func (c *client) answerForm(t *testing.T, campaign string, form url.Values) *response {
	t.Helper()
	return c.postForm("/onboarding/campaigns/"+campaign+"/answer", form)
}

// onboardingVia signs in with a provider identity that is new to the panel and returns the
// /onboarding address it comes back to.
func (c *client) onboardingVia(t *testing.T, lp interface {
	AuthorizeAs(string, string) (string, error)
}, provider social.Provider, subject string) string {
	t.Helper()
	back, err := lp.AuthorizeAs(c.startSignIn(t, "/sign-in/"+string(provider)), subject)
	require.NoError(t, err)
	u, err := url.Parse(back)
	require.NoError(t, err)
	res := c.get(u.RequestURI())
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	loc := res.Header.Get("Location")
	require.True(t, strings.HasPrefix(loc, "/onboarding?"), "a new identity enters onboarding, not %s", loc)
	q, _ := url.ParseQuery(strings.TrimPrefix(loc, "/onboarding?"))
	require.Equal(t, string(provider), q.Get("provider"))
	require.NotEmpty(t, q.Get("userId"))
	return loc
}

// answerAll answers both Northwind onboarding campaigns with their plain forms.
func (c *client) answerAll(t *testing.T) {
	t.Helper()
	for _, step := range []struct {
		campaign string
		form     url.Values
	}{
		{nwHousehold, url.Values{"qid": {"household_size"}, "answer": {"two"}}},
		{nwHousehold, url.Values{"qid": {"pets"}, "answer": {"dog", "cat"}}},
		{nwFinal, url.Values{"qid": {"heard_from"}, "answer": {"friend"}}},
		{nwFinal, url.Values{"qid": {"invitations"}, "answer": {"weekly"}}},
	} {
		res := c.answerForm(t, step.campaign, step.form)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		require.Equal(t, "/onboarding/campaigns/"+step.campaign, res.Header.Get("Location"))
	}
}

func TestANewIdentityAnswersTheOnboardingCampaignsBeforeItBecomesAMember(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("northwind.localhost")
		start := c.onboardingVia(t, lp, social.Google, newcomer.Subject)
		assert.Equal(t, start, c.where(t, strings.Replace(start, "/onboarding?", "/?", 1)), "a sign-in return at the root goes to onboarding")
		assert.Equal(t, "/onboarding", c.where(t, start), "the sign-in return's query is taken and dropped")
		assert.Equal(t, "/onboarding/campaigns/"+nwHousehold, c.where(t, "/onboarding"), "the first onboarding campaign")

		box := c.get("/onboarding/campaigns/" + nwHousehold)
		require.Equal(t, http.StatusOK, box.StatusCode, box.Body)
		assert.Contains(t, box.Body, "How many people live in your household?")
		assert.Contains(t, box.Body, `action="/onboarding/campaigns/`+nwHousehold+`/answer"`, "the plain form posts to onboarding")
		assert.NotContains(t, box.Body, "data-balance", "a visitor has no balance")
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email = ?", newcomer.Email), "no member before onboarding ends")

		refused := c.answerForm(t, nwHousehold, url.Values{"qid": {"household_size"}, "answer": {"eleven"}})
		assert.Equal(t, http.StatusBadRequest, refused.StatusCode, "an answer that is not an option is shown again")
		assert.Contains(t, refused.Body, "How many people live in your household?")

		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwHousehold, url.Values{"qid": {"household_size"}, "answer": {"two"}}).StatusCode)
		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwHousehold, url.Values{"qid": {"household_size"}, "answer": {"one"}}).StatusCode,
			"answering again replaces the earlier answer")
		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwHousehold, url.Values{"qid": {"pets"}, "answer": {"cat"}}).StatusCode)
		thanks := c.get("/onboarding/campaigns/" + nwHousehold)
		assert.Contains(t, thanks.Body, "Thanks! One more to go.")
		assert.Contains(t, thanks.Body, `href="/"`, "the onboarding thank-you goes to the home root")
		assert.NotContains(t, thanks.Body, `name="rating"`, "a walk has no rating")

		assert.Equal(t, "/onboarding", c.where(t, "/"), "a visitor with an onboarding in progress goes back to it from the root")
		assert.Equal(t, "/onboarding/campaigns/"+nwFinal, c.where(t, "/onboarding"), "then the final campaign")
		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwFinal, url.Values{"qid": {"heard_from"}, "answer": {"friend"}}).StatusCode)
		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwFinal, url.Values{"qid": {"invitations"}, "answer": {"weekly"}}).StatusCode)
		final := c.get("/onboarding/campaigns/" + nwFinal)
		assert.Contains(t, final.Body, "You&#39;re all set!")
		assert.Contains(t, final.Body, "Take me back to my feed")

		// The thank-you's button: the home root, then onboarding's end, which makes the member.
		assert.Equal(t, "/onboarding", c.where(t, "/"))
		assert.Equal(t, "/", c.where(t, "/onboarding"), "completed: signed in and off to the home root")
		p := c.profile(t)
		assert.Equal(t, newcomer.Email, p.Email)
		assert.True(t, p.EmailValidated, "Google vouched for the email")
		assert.Equal(t, []string{"google"}, p.OAuthConnections)
		assert.Equal(t, true, p.Metadata["onboardingCompleted"])
		assert.Equal(t, int64(2), e.count(t, "SELECT COUNT(*) FROM participations WHERE participant_id = ? AND status = 'completed'", p.PPUUID),
			"the answers became the member's own participations")
		assert.Equal(t, int64(4), e.count(t, "SELECT COUNT(*) FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.participant_id = ?", p.PPUUID))
		var household string
		require.NoError(t, e.db.Raw("SELECT a.value FROM answers a JOIN participations p ON p.id = a.participation_id WHERE p.participant_id = ? AND a.question_id = 'household_size'", p.PPUUID).Scan(&household).Error)
		assert.JSONEq(t, `"one"`, household, "the replaced answer is the one kept")
		balance := c.do(http.MethodGet, "/api/v3/user/balance", nil, http.Header{"pp-token": {c.cookie(accounts.TokenCookie)}})
		assert.Contains(t, balance.Body, `"balance":"0.25"`, "the final campaign's reward was paid once, through the ledger")
		assert.Equal(t, int64(0), e.count(t, "SELECT COUNT(*) FROM sign_in_pending"), "the identity's wait is over")

		assert.Contains(t, c.where(t, "/"), "/accept-terms-and-conditions", "a member now: Northwind's gates take over")
		assert.Equal(t, "/feed", c.where(t, "/onboarding"), "onboarding is over")
	})
}

func TestAnIdentityWithoutAnEmailGivesOneAtTheEndOfOnboarding(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("northwind.localhost")
		c.follow(c.onboardingVia(t, lp, social.Twitter, noEmail.Subject))
		c.answerAll(t)
		last, _ := c.follow("/onboarding")
		require.Equal(t, http.StatusOK, last.StatusCode, last.Body)
		assert.Contains(t, last.Body, `action="/onboarding/complete"`, "the last step asks for the email")
		assert.NotContains(t, last.Body, "Please enter the email address for your account.", "nothing refused yet")

		blank := c.postForm("/onboarding/complete", url.Values{"email": {"  "}})
		assert.Equal(t, http.StatusBadRequest, blank.StatusCode)
		assert.Contains(t, blank.Body, "Please enter the email address for your account.")
		bad := c.postForm("/onboarding/complete", url.Values{"email": {"not-an-email"}})
		assert.Equal(t, http.StatusBadRequest, bad.StatusCode)
		done := c.postForm("/onboarding/complete", url.Values{"email": {"sam@example.test"}})
		require.Equal(t, http.StatusSeeOther, done.StatusCode, done.Body)
		assert.Equal(t, "/", done.Header.Get("Location"))
		p := c.profile(t)
		assert.Equal(t, "sam@example.test", p.Email)
		assert.False(t, p.EmailValidated, "an email the provider did not vouch for is validated by mail as usual")
		assert.Equal(t, []string{"twitter"}, p.OAuthConnections)
	})
}

func TestAnEmailAlreadyUsedAtTheEndOfOnboardingIsAChoiceToLinkThatAccount(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		owner := e.client("northwind.localhost")
		owner.get("/join")
		require.Equal(t, http.StatusSeeOther, owner.postForm("/join", url.Values{"email": {"owner@example.test"}, "password": {"owner-password-1"}}).StatusCode)

		c := e.client("northwind.localhost")
		c.follow(c.onboardingVia(t, lp, social.Twitter, noEmail.Subject))
		c.answerAll(t)
		taken := c.postForm("/onboarding/complete", url.Values{"email": {"Owner@Example.test"}})
		require.Equal(t, http.StatusConflict, taken.StatusCode, taken.Body)
		assert.Contains(t, taken.Body, "An account with owner@example.test already exists.")
		assert.Contains(t, taken.Body, `href="/sign-in/link"`, "sign in to that account to link it")
		assert.Contains(t, taken.Body, `action="/onboarding/complete"`, "or use another email")
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email_normalized = 'owner@example.test'"))

		wrong := c.postForm("/sign-in/link", url.Values{"password": {"not-it-at-all"}})
		assert.Equal(t, http.StatusUnauthorized, wrong.StatusCode)
		linked := c.postForm("/sign-in/link", url.Values{"password": {"owner-password-1"}})
		require.Equal(t, http.StatusSeeOther, linked.StatusCode, linked.Body)
		assert.Equal(t, "/onboarding", linked.Header.Get("Location"), "linking returns to onboarding, which records the answers")
		assert.Equal(t, "/", c.where(t, "/onboarding"))
		p := c.profile(t)
		assert.Equal(t, "owner@example.test", p.Email)
		assert.Equal(t, []string{"twitter"}, p.OAuthConnections)
		assert.Equal(t, int64(2), e.count(t, "SELECT COUNT(*) FROM participations WHERE participant_id = ? AND status = 'completed'", p.PPUUID))
		assert.Equal(t, int64(0), e.count(t, "SELECT COUNT(*) FROM sign_in_pending"))
	})
}

// panelID is a demo panel's uuid.
func (e *env) panelID(t *testing.T, key string) string {
	t.Helper()
	p, err := e.app.Tenancy.PanelByKey(context.Background(), key)
	require.NoError(t, err)
	return p.ID
}

func TestTheOnboardingAPIsFollowTheSpec(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		panel := e.panelID(t, "northwind")
		c := e.client("northwind.localhost")
		start := c.onboardingVia(t, lp, social.Google, unproven.Subject)
		q, _ := url.ParseQuery(strings.TrimPrefix(start, "/onboarding?"))
		userID := q.Get("userId")
		jsonH := http.Header{"Content-Type": {"application/json"}}
		decode := func(res *response, v any) {
			t.Helper()
			require.NoError(t, json.Unmarshal([]byte(res.Body), v), res.Body)
		}

		data := c.get("/api/v1/onboarding?provider=google&userId=" + userID)
		require.Equal(t, http.StatusOK, data.StatusCode, data.Body)
		assert.JSONEq(t, fmt.Sprintf(`{"panelUuid":%q,"provider":"google","userId":%q,"email":%q,"completedCampaignUuids":[],"answers":[],"completed":false}`,
			panel, userID, unproven.Email), data.Body)

		base := "/panel/" + panel + "/onboarding/campaigns"
		var list struct {
			Data []struct {
				GUID     string `json:"guid"`
				IsFinal  bool   `json:"is_final_onboarding_campaign"`
				ThankYou struct {
					IsFinal bool `json:"is_final_onboarding_campaign"`
				} `json:"thank_you"`
			} `json:"data"`
		}
		decode(c.get(base), &list)
		require.Len(t, list.Data, 2)
		assert.Equal(t, nwHousehold, list.Data[0].GUID)
		assert.Equal(t, nwFinal, list.Data[1].GUID, "the final campaign comes last")
		assert.True(t, list.Data[1].IsFinal && list.Data[1].ThankYou.IsFinal)

		var one struct {
			Data struct {
				GUID string `json:"guid"`
			} `json:"data"`
		}
		decode(c.get(base+"/"+nwFinal), &one)
		assert.Equal(t, nwFinal, one.Data.GUID)

		var step struct {
			Data struct {
				Status   string `json:"campaign_status"`
				Question *struct {
					ID string `json:"id"`
				} `json:"question"`
			} `json:"data"`
		}
		decode(c.get(base+"/"+nwHousehold+"/go"), &step)
		require.NotNil(t, step.Data.Question)
		assert.Equal(t, "household_size", step.Data.Question.ID)

		null := c.do(http.MethodPost, base+"/"+nwHousehold+"/household_size", strings.NewReader(`{"data":{"answer":null}}`), jsonH)
		assert.Equal(t, http.StatusBadRequest, null.StatusCode)
		assert.Contains(t, null.Body, `"answer payload can't be null!"`)
		ahead := c.do(http.MethodPost, base+"/"+nwHousehold+"/pets", strings.NewReader(`{"data":{"answer":["dog"]}}`), jsonH)
		assert.Equal(t, http.StatusConflict, ahead.StatusCode, "a question not reached yet")

		post := func(campaign, qid, answer string) {
			t.Helper()
			res := c.do(http.MethodPost, base+"/"+campaign+"/"+qid, strings.NewReader(`{"data":{"answer":`+answer+`}}`), jsonH)
			require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
			decode(res, &step)
		}
		post(nwHousehold, "household_size", `"five_plus"`)
		assert.Equal(t, "pets", step.Data.Question.ID)
		post(nwHousehold, "pets", `["none"]`)
		assert.Equal(t, "completed", step.Data.Status)

		decode(c.get(base), &list)
		require.Len(t, list.Data, 1, "a completed campaign is dropped from the list unless final")
		assert.Equal(t, nwFinal, list.Data[0].GUID)

		body := fmt.Sprintf(`{"panelUuid":%q,"provider":"google","userId":%q,"completedCampaignUuids":[],"answers":[],"userProfile":null}`, panel, userID)
		early := c.do(http.MethodPost, "/api/v1/onboarding/completed", strings.NewReader(body), jsonH)
		assert.Equal(t, http.StatusConflict, early.StatusCode, "the final campaign is not completed yet")
		assert.Contains(t, early.Body, "onboarding_unfinished")

		post(nwFinal, "heard_from", `"search"`)
		post(nwFinal, "invitations", `"monthly"`)
		assert.Equal(t, "completed", step.Data.Status)

		decode(c.get("/api/v1/onboarding"), &struct{}{})
		mismatch := c.do(http.MethodPost, "/api/v1/onboarding/completed", strings.NewReader(strings.Replace(body, userID, "someone-else", 1)), jsonH)
		assert.Equal(t, http.StatusBadRequest, mismatch.StatusCode)
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email = ?", unproven.Email))

		done := c.do(http.MethodPost, "/api/v1/onboarding/completed", strings.NewReader(body), jsonH)
		require.Equal(t, http.StatusOK, done.StatusCode, done.Body)
		var result struct {
			Email, PanelUUID, Provider, UserID, PPToken string
		}
		decode(done, &result)
		assert.Equal(t, unproven.Email, result.Email)
		assert.Equal(t, panel, result.PanelUUID)
		assert.Equal(t, userID, result.UserID)
		require.True(t, accounts.ValidToken(result.PPToken))
		prof := c.do(http.MethodGet, "/ah/api/v1/user/profile", nil, http.Header{"pp-token": {result.PPToken}})
		require.Equal(t, http.StatusOK, prof.StatusCode)
		assert.Contains(t, prof.Body, unproven.Email)

		again := c.do(http.MethodPost, "/api/v1/onboarding/completed", strings.NewReader(body), jsonH)
		assert.Equal(t, http.StatusOK, again.StatusCode, "completing again answers the same")
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email = ?", unproven.Email))

		resend := c.do(http.MethodPost, "/api/v1/onboarding/resend", strings.NewReader(fmt.Sprintf(`{"provider":"google","userId":%q,"email":%q}`, userID, unproven.Email)), jsonH)
		require.Equal(t, http.StatusOK, resend.StatusCode, resend.Body)
		assert.Contains(t, e.smtp.WaitFor(t, unproven.Email, 30*time.Second).Text, "/validate-email/confirm?token=", "the validation mail went out again")
	})
}

func TestAnotherUserIdResetsTheOnboardingAndInvalidDataIsCleared(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("northwind.localhost")
		c.follow(c.onboardingVia(t, lp, social.Google, newcomer.Subject))
		require.Equal(t, http.StatusSeeOther, c.answerForm(t, nwHousehold, url.Values{"qid": {"household_size"}, "answer": {"two"}}).StatusCode)
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM onboarding_states"))

		// Signing in again with another new identity in the same browser: a different userId.
		c.follow(c.onboardingVia(t, lp, social.Facebook, fbFriend.Subject))
		var data struct {
			Provider string            `json:"provider"`
			Answers  []json.RawMessage `json:"answers"`
		}
		require.NoError(t, json.Unmarshal([]byte(c.get("/api/v1/onboarding").Body), &data))
		assert.Equal(t, "facebook", data.Provider)
		assert.Empty(t, data.Answers, "the earlier identity's answers are gone")
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM onboarding_states"))

		// Data the spec would not keep (neither a provider identity nor a member) is cleared.
		require.NoError(t, e.db.Exec("UPDATE onboarding_states SET provider = '', user_id = ''").Error)
		assert.JSONEq(t, `{}`, c.get("/api/v1/onboarding").Body)
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM onboarding_states"))
		assert.Empty(t, c.cookie("onboarding"))
	})
}

func TestOnboardingRefusalsChangeNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		members := func() int64 { return e.count(t, "SELECT COUNT(*) FROM account_holders") }
		owner := e.client("northwind.localhost")
		start := owner.onboardingVia(t, lp, social.Google, newcomer.Subject)
		before := members()

		t.Run("another browser with the same userId", func(t *testing.T) {
			thief := e.client("northwind.localhost")
			res := thief.get(start)
			assert.Equal(t, http.StatusBadRequest, res.StatusCode)
			assert.Contains(t, res.Body, "That sign-in has expired or was already used.")
			assert.Empty(t, thief.cookie("onboarding"))
			assert.Equal(t, http.StatusUnauthorized, thief.do(http.MethodPost, "/api/v1/onboarding/completed",
				strings.NewReader(`{"panelUuid":"x"}`), http.Header{"Content-Type": {"application/json"}}).StatusCode)
		})
		t.Run("another panel", func(t *testing.T) {
			demo := e.client("localhost")
			demo.jar.SetCookies(&url.URL{Scheme: "http", Host: "localhost", Path: "/"}, owner.jar.Cookies(&url.URL{Scheme: "http", Host: owner.host, Path: "/"}))
			assert.Equal(t, http.StatusBadRequest, demo.get(start).StatusCode, "the identity waits on Northwind only")
			other := owner.get("/panel/" + e.panelID(t, "demo") + "/onboarding/campaigns")
			assert.Equal(t, http.StatusNotFound, other.StatusCode, "another panel's uuid on this host")
		})
		t.Run("a redirect to another domain", func(t *testing.T) {
			owner.get(start + "&redirect=" + url.QueryEscape("https://evil.example/after"))
			owner.answerAll(t)
			assert.Equal(t, "/", owner.where(t, "/onboarding"), "not honoured: the home root")
		})
		assert.Equal(t, before+1, members(), "only the owner's onboarding made a member")
	})
}

func TestTheRedirectQueryIsHonouredOnlyOnTheProvidersOwnDomain(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		domain := lp.Configs("test-client", "test-secret")[social.Google].Domain() // the local provider's host
		require.NotEmpty(t, domain)
		c := e.client("northwind.localhost")
		start := c.onboardingVia(t, lp, social.Google, newcomer.Subject)
		c.get(start + "&redirect=" + url.QueryEscape("http://"+domain+"/plain-http"))
		c.get(start + "&redirect=" + url.QueryEscape("https://"+domain+"/welcome-back"))
		c.answerAll(t)
		assert.Equal(t, "https://"+domain+"/welcome-back", c.where(t, "/onboarding"))
	})
}

func TestAPanelWithDirectOnboardingSendsVisitorsAndUnvalidatedMembersToIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withLocalSignIn(t)
		spec := demoPanels()[1]
		spec.AppSettings.DirectOnboarding = true
		_, err := e.app.Tenancy.Apply(context.Background(), spec)
		require.NoError(t, err)

		c := e.client("northwind.localhost")
		assert.Equal(t, "/onboarding", c.where(t, "/"), "a visitor at the root")
		landing := c.get("/onboarding")
		require.Equal(t, http.StatusOK, landing.StatusCode)
		assert.Contains(t, landing.Body, `href="/join"`)
		assert.Contains(t, landing.Body, `href="/sign-in/google"`)

		c.get("/join")
		require.Equal(t, http.StatusSeeOther, c.postForm("/join", url.Values{"email": {"direct@example.test"}, "password": {"direct-password-1"}}).StatusCode)
		c.follow("/feed")
		require.Equal(t, http.StatusSeeOther, c.postForm("/accept-terms-and-conditions", url.Values{}).StatusCode)
		assert.Equal(t, "/onboarding", c.where(t, "/feed"), "the email is not validated: onboarding first, with the profile")
		var data struct {
			UserProfile struct {
				PanelKey string `json:"panelKey"`
			} `json:"userProfile"`
			Email string `json:"email"`
		}
		require.NoError(t, json.Unmarshal([]byte(c.get("/api/v1/onboarding").Body), &data))
		assert.Equal(t, "northwind", data.UserProfile.PanelKey)
		assert.Equal(t, "direct@example.test", data.Email)

		c.answerAll(t)
		assert.Equal(t, "/", c.where(t, "/onboarding"))
		assert.Contains(t, c.where(t, "/feed"), "/validate-email", "then the usual email validation gate")
		p := c.profile(t)
		assert.Equal(t, true, p.Metadata["onboardingCompleted"])
		assert.Equal(t, int64(2), e.count(t, "SELECT COUNT(*) FROM participations WHERE participant_id = ? AND status = 'completed'", p.PPUUID))
	})
}

func TestCompletingAnOnboardingTwiceAtOnceMakesOneMember(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("northwind.localhost")
		c.follow(c.onboardingVia(t, lp, social.Google, newcomer.Subject))
		c.answerAll(t)
		// A double click on the last thank-you's button: two completions with the same cookies.
		statuses := make(chan int, 2)
		for range 2 {
			go func() {
				req, _ := http.NewRequest(http.MethodGet, "http://northwind.localhost/onboarding", nil)
				for _, ck := range c.jar.Cookies(&url.URL{Scheme: "http", Host: c.host, Path: "/"}) {
					req.AddCookie(ck)
				}
				res, err := e.app.Fiber.Test(req, fiber.TestConfig{Timeout: 20 * time.Second})
				if err != nil {
					statuses <- 0
					return
				}
				res.Body.Close()
				statuses <- res.StatusCode
			}()
		}
		for range 2 {
			status := <-statuses
			assert.Less(t, status, 500, "neither completion fails")
			assert.NotZero(t, status)
		}
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM account_holders WHERE email = ?", newcomer.Email))
		assert.Equal(t, int64(2), e.count(t, "SELECT COUNT(*) FROM participations p JOIN participants pp ON pp.id = p.participant_id JOIN account_holders ah ON ah.id = pp.account_holder_id WHERE ah.email = ? AND p.status = 'completed'", newcomer.Email))
		assert.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM ledger_entries le JOIN participants pp ON pp.id = le.participant_id JOIN account_holders ah ON ah.id = pp.account_holder_id WHERE ah.email = ?", newcomer.Email),
			"the final campaign's reward is paid once")
	})
}

// TestAnOnboardingStepStaysWithinItsRoundTripBudget holds onboarding's requests, once warm, to
// the database round trips they need today (as TestEveryHotRouteStaysWithinItsRoundTripBudget
// does for the hot routes): lowering one is progress, exceeding one fails. No job worker runs:
// its polling would count as the request's.
func TestAnOnboardingStepStaysWithinItsRoundTripBudget(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		lp := e.withLocalSignIn(t)
		c := e.client("northwind.localhost")
		c.follow(c.onboardingVia(t, lp, social.Google, newcomer.Subject))
		api := "/panel/" + e.panelID(t, "northwind") + "/onboarding/campaigns/" + nwHousehold
		answers := []string{`"one"`, `"two"`}
		for _, step := range []struct {
			name   string
			send   func(i int) *response
			budget int64
		}{
			{"onboarding survey page", func(int) *response { return c.get("/onboarding/campaigns/" + nwHousehold) }, 2},
			{"onboarding go", func(int) *response { return c.get(api + "/go") }, 2},
			{"onboarding answer", func(i int) *response {
				return c.postJSON(api+"/household_size", `{"data":{"answer":`+answers[i]+`}}`)
			}, 3},
		} {
			require.Equal(t, http.StatusOK, step.send(0).StatusCode, step.name) // warms the caches
			before := migrations.RoundTrips(e.db)
			res := step.send(1)
			n := migrations.RoundTrips(e.db) - before
			require.Equal(t, http.StatusOK, res.StatusCode, step.name)
			t.Logf("%-24s %d round trips (budget %d)", step.name, n, step.budget)
			assert.LessOrEqual(t, n, step.budget, "%s made %d database round trips; its budget is %d", step.name, n, step.budget)
		}
	})
}

func TestClosingAnAccountErasesWhatItsOnboardingKept(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withLocalSignIn(t)
		spec := demoPanels()[1]
		spec.AppSettings.DirectOnboarding = true
		_, err := e.app.Tenancy.Apply(context.Background(), spec)
		require.NoError(t, err)
		c := e.client("northwind.localhost")
		c.get("/join")
		require.Equal(t, http.StatusSeeOther, c.postForm("/join", url.Values{"email": {"leaving@example.test"}, "password": {"leaving-password-1"}}).StatusCode)
		c.follow("/feed")
		require.Equal(t, http.StatusSeeOther, c.postForm("/accept-terms-and-conditions", url.Values{}).StatusCode)
		c.answerAll(t)
		require.Equal(t, "/", c.where(t, "/onboarding"))
		pid := c.profile(t).PPUUID
		require.Equal(t, int64(1), e.count(t, "SELECT COUNT(*) FROM onboarding_states WHERE participant_id = ?", pid))

		res := c.do(http.MethodPost, "/ah/api/v1/close-account", strings.NewReader(`{"reasonForClosing":"closed-by-user","password":"leaving-password-1"}`),
			http.Header{"Content-Type": {"application/json"}, "pp-token": {c.cookie(accounts.TokenCookie)}})
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Zero(t, e.count(t, "SELECT COUNT(*) FROM onboarding_states WHERE participant_id = ?", pid), "the onboarding's answers and email are gone")
	})
}
