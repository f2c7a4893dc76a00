package main

import (
	"os"
	"testing"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answerPage answers the question on the page the way a member would, by clicking and
// typing: the first choice of every group, a number within range, distinct ranks.
func answerPage(p *rod.Page) {
	form := p.MustElement("form.survey-question")
	seen := map[string]bool{}
	for _, in := range form.MustElements("input[type=radio], input[type=checkbox]") {
		name := *in.MustAttribute("name")
		if seen[name] {
			continue
		}
		seen[name] = true
		click(in.MustParent())
	}
	for _, in := range form.MustElements("input[type=number]") {
		v := "1"
		if min := in.MustAttribute("min"); min != nil && *min != "" {
			v = *min
		}
		in.MustEval(`() => this.scrollIntoView({block: 'center'})`)
		in.MustSelectAllText().MustInput(v)
	}
	for _, in := range form.MustElements("input[type=text], textarea") {
		in.MustEval(`() => this.scrollIntoView({block: 'center'})`)
		in.MustInput("fine")
	}
	for i, sel := range form.MustElements("select") {
		// Dropdowns take their first real option; ranking selects each take their own rank.
		sel.MustEval(`function (i) { this.selectedIndex = this.name.startsWith('rank.') ? i + 1 : 1 }`, i)
	}
	wait := p.MustWaitNavigation()
	click(form.MustElement("button[type=submit]"))
	wait()
	p.MustWaitLoad()
}

func TestInChromiumWithoutJavaScriptAMemberFinishesASurveyAndIsPaidOnce(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	coffee := b.campaignID("demo", "Your coffee habits")
	p := b.signedInFeed(t, true)
	p.MustNavigate(b.url("localhost", "/survey/"+coffee)).MustWaitLoad()
	submit(p, `form[action$="/start"] button`)
	for i := 0; i < 10 && p.MustHas("form.survey-question"); i++ {
		answerPage(p)
	}
	if dir := os.Getenv("CANVASS_SCREENSHOTS"); dir != "" {
		p.MustScreenshotFullPage(dir + "/survey-done.png")
	}
	require.True(t, p.MustHas(".thank-you"), "the survey ends on its thank-you page")
	assert.Contains(t, p.MustElement(".thank-you").MustText(), "Thanks, coffee lover!")
	assert.Contains(t, p.MustElement(".payout").MustText(), "You earned $1.00.")
	assert.Equal(t, "$26.00", p.MustElement("[data-balance]").MustText())

	// Back and submit again: the member carries on, not paid twice.
	p.MustNavigateBack()
	p.MustReload().MustWaitLoad()
	p.MustNavigate(b.url("localhost", "/survey/"+coffee)).MustWaitLoad()
	assert.Equal(t, "$26.00", p.MustElement("[data-balance]").MustText())

	click(p.MustElement(`.star input[value="5"]`).MustParent())
	submit(p, ".rating button[type=submit]")
	assert.Contains(t, p.MustElement(".flashes, .flash").MustText(), "Thanks for your rating!")
}
