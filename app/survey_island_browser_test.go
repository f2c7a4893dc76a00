package main

import (
	"os"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const surveyIsland = `[data-island="survey-box"][data-island-state="mounted"]`

// startSurvey opens a campaign's invitation and presses Start; the survey box island mounts.
func (b *browserEnv) startSurvey(t *testing.T, p *rod.Page, campaignID string) {
	t.Helper()
	p.MustNavigate(b.url("localhost", "/survey/"+campaignID)).MustWaitLoad()
	submit(p, `form[action$="/start"] button`)
	p.MustElement(surveyIsland)
}

func TestInChromiumTheSurveyBoxTakesAnAnswerAndPaysOnceEvenOnADoubleClick(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	poll := b.campaignID("demo", "Quick poll")
	p := b.signedInFeed(t, false)
	b.startSurvey(t, p, poll)
	box := p.MustElement(surveyIsland)
	p.MustWait(`() => !!document.querySelector('[data-island="survey-box"] input[type=radio]')`)
	if dir := os.Getenv("CANVASS_SCREENSHOTS"); dir != "" {
		p.MustScreenshot(dir + "/survey-island.png")
	}
	next := box.MustElement("button.sb-next")
	assert.True(t, next.MustProperty("disabled").Bool(), "Next waits for an answer")

	click(box.MustElement(`input[type=radio][value="tea"]`).MustParent())
	p.MustWait(`() => !document.querySelector('button.sb-next').disabled`)
	next.MustEval(`() => { this.click(); this.click() }`) // a double click
	p.MustWait(`() => document.querySelector('[data-island="survey-box"]').textContent.includes('You earned $0.50.')`)
	if dir := os.Getenv("CANVASS_SCREENSHOTS"); dir != "" {
		p.MustScreenshot(dir + "/survey-island-done.png")
	}

	p.MustWait(`() => document.querySelector('[data-balance]').textContent === '$25.50'`) // the top bar follows
	p.MustReload().MustWaitLoad()
	assert.Equal(t, "$25.50", p.MustElement("[data-balance]").MustText(), "paid exactly once")
	p.MustElement(surveyIsland)

	// Rate the survey on the thank-you page.
	click(p.MustElement(`[data-island="survey-box"] input[name*="rating"][value="4"], [data-island="survey-box"] input[type=radio][value="4"]`).MustParent())
	click(p.MustElementR(`[data-island="survey-box"] button`, "Send rating"))
	p.MustWait(`() => document.querySelector('[data-island="survey-box"]').textContent.includes('Thanks for your rating!')`)
}

func TestInChromiumTheSurveyBoxWorksByKeyboardAndResumesAfterAReload(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	coffee := b.campaignID("demo", "Your coffee habits")
	p := b.signedInFeed(t, false)
	b.startSurvey(t, p, coffee)
	p.MustWait(`() => !!document.querySelector('[data-island="survey-box"] input[type=radio][value="yes"]')`)

	// Focus the first choice, choose it with Space, then Tab to Next and press Enter.
	p.MustElement(`[data-island="survey-box"] input[type=radio][value="yes"]`).MustFocus()
	p.Keyboard.MustType(input.Space)
	p.MustWait(`() => !document.querySelector('button.sb-next').disabled`)
	for i := 0; i < 10; i++ {
		if p.MustEval(`() => document.activeElement && document.activeElement.matches('button.sb-next')`).Bool() {
			break
		}
		p.Keyboard.MustType(input.Tab)
	}
	require.True(t, p.MustEval(`() => document.activeElement.matches('button.sb-next')`).Bool(), "Next is reachable by Tab")
	p.Keyboard.MustType(input.Enter)
	p.MustWait(`() => document.querySelector('[data-island="survey-box"]').textContent.includes('How many cups of coffee do you drink?')`)

	p.MustReload().MustWaitLoad()
	p.MustElement(surveyIsland)
	p.MustWait(`() => document.querySelector('[data-island="survey-box"]').textContent.includes('How many cups of coffee do you drink?')`)
	assert.Equal(t, "14", *p.MustElement(`[data-island="survey-box"] [role=progressbar]`).MustAttribute("aria-valuenow"), "1 of 7 answered")
}

func TestInChromiumAPreviewLinkGoesForwardAndBackAndRecordsNothing(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	panel, err := b.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	poll := b.campaignID("demo", "Your coffee habits")
	p := b.page(t, b.url("localhost", b.app.Surveys.PreviewLink(panel, poll, "es", time.Now().Add(time.Hour), "")))
	p.MustElement(surveyIsland)
	p.MustWait(`() => !!document.querySelector('[data-island="survey-box"] input[type=radio][value="yes"]')`)
	assert.Contains(t, p.MustElement(".sb-preview").MustText(), "(es)")
	assert.Contains(t, p.MustElement(".question-text").MustText(), "¿Tomas café?")

	click(p.MustElement(`[data-island="survey-box"] input[type=radio][value="no"]`).MustParent())
	click(p.MustElement("button.sb-next"))
	p.MustWait(`() => document.querySelector('.question-text').textContent.includes('bebidas calientes')`)
	click(p.MustElementR(".sb-preview button", ".+"))
	p.MustWait(`() => document.querySelector('.question-text').textContent.includes('¿Tomas café?')`)
	assert.True(t, p.MustElement(`[data-island="survey-box"] input[type=radio][value="no"]`).MustProperty("checked").Bool(), "Back keeps the answer")

	var n int64
	require.NoError(t, b.db.Table("participations").Where("campaign_id = ?", poll).Count(&n).Error)
	assert.Zero(t, n)
}
