package main

import (
	"testing"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Onboarding in Chromium, as a new visitor tries it on Northwind (whose demo data has two
// onboarding campaigns): with the survey-box island, and with plain forms.

// answerOnboardingInTheBox answers Northwind's onboarding campaigns in the survey-box island,
// following each thank-you's button, and leaves the page on the final thank-you.
func answerOnboardingInTheBox(t *testing.T, p *rod.Page) {
	t.Helper()
	d := driver{t: t, p: p}
	d.chooseAndNext("How many people live in your household?", "two")
	d.chooseAndNext("Which pets live with you?", "cat")
	d.waitText("Thanks! One more to go.")
	assert.False(t, p.MustHas(inBox+" .rating"), "a walk has no rating")
	assert.False(t, p.MustHas(".sb-balance, [data-balance]"), "a visitor has no balance")
	crossSubmit(t, p, inBox+" a.button[href='/']") // Continue: the home root leads to what is next
	require.Equal(t, "/onboarding/campaigns/"+nwFinal, path(p))
	d.waitQuestion("How did you hear about Northwind Rewards?")
	p.MustElement(inBox + " select").MustSelect("From a friend")
	d.nextByMouse()
	d.chooseAndNext("How often would you like survey invitations?", "weekly")
	d.waitText("You're all set!")
}

func TestInChromiumANewVisitorJoinsThroughOnboardingToTheFeed(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	b.withLocalSignIn(t)

	t.Run("with the survey box island, signing in with Google", func(t *testing.T) {
		p := b.page(t, b.url("northwind.localhost", "/join"))
		crossSubmit(t, p, ".sign-in-google")
		pickIdentity(t, p, newcomer.Subject)
		require.Equal(t, "/onboarding/campaigns/"+nwHousehold, path(p), "onboarding before membership")
		p.MustElement(inBox + `[data-island-state="mounted"]`)
		answerOnboardingInTheBox(t, p)
		crossSubmit(t, p, inBox+" a.button[href='/']") // Take me back to my feed
		// A member now, signed in: Northwind's terms come first, then the feed (Google vouched
		// for the email, so no validation is due).
		require.Equal(t, "/accept-terms-and-conditions", path(p))
		submit(p, "form button[type=submit]")
		assert.Equal(t, "/feed", path(p))
		assert.Contains(t, p.MustElement("[data-balance]").MustText(), "£0.25", "the final onboarding campaign's reward")
	})

	t.Run("without JavaScript, signing in with X, which gives no email", func(t *testing.T) {
		p := b.page(t, "about:blank")
		withoutJavaScript(t, p)
		p.MustNavigate(b.url("northwind.localhost", "/login")).MustWaitLoad()
		crossSubmit(t, p, ".sign-in-twitter")
		pickIdentity(t, p, noEmail.Subject)
		require.Equal(t, "/onboarding/campaigns/"+nwHousehold, path(p))
		for _, step := range []struct{ question, choose string }{
			{"How many people live in your household?", "input[value=one]"},
			{"Which pets live with you?", "input[value=none]"},
		} {
			assert.Equal(t, step.question, p.MustElement("form.survey-question legend, form.survey-question label").MustText())
			p.MustElement(step.choose).MustClick()
			submit(p, "form.survey-question button[type=submit]")
		}
		crossSubmit(t, p, "a.button[href='/']")
		require.Equal(t, "/onboarding/campaigns/"+nwFinal, path(p))
		p.MustElement("form.survey-question select").MustSelect("A search engine")
		submit(p, "form.survey-question button[type=submit]")
		p.MustElement("input[value=monthly]").MustClick()
		submit(p, "form.survey-question button[type=submit]")
		crossSubmit(t, p, "a.button[href='/']")
		require.Equal(t, "/onboarding", path(p), "the last step: X gave no email")
		fill(p, map[string]string{"#f-email": "sam@northwind.test"})
		submit(p, "form[action='/onboarding/complete'] button[type=submit]")
		assert.Equal(t, "/accept-terms-and-conditions", path(p), "a member now: Northwind's gates take over")
	})
}
