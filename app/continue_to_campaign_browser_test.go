package main

import (
	"net/http"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInChromiumTheWelcomeCampaignsThankYouButtonReportsContinueToMyCampaign(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	setDemoTags(t, b.env, "G-TEST1234", "")

	// A newcomer finishes the welcome campaign (through the API, as the survey box would).
	c := b.client("localhost")
	require.Equal(t, http.StatusCreated, c.postJSON("/ah/api/v2/user/register", `{"email":"new@demo.test","password":"a-good-password"}`).StatusCode)
	welcome := b.campaignID("demo", "About you")
	base := "/api/v1/demo/campaigns/" + welcome
	g := decodeJSON[goResultJSON](t, c.get(base+"/go"), http.StatusOK)
	for i := 0; g.Question != nil && i < 30; i++ {
		g = decodeJSON[goResultJSON](t, c.postJSON(base+"/question/"+g.Question.ID, answerFor(t, b.env, welcome, g.Question.ID)), http.StatusOK)
	}
	require.Equal(t, "completed", g.CampaignStatus)
	token := c.cookie("pp-token")
	require.NotEmpty(t, token)

	incognito, err := b.browser.Incognito()
	require.NoError(t, err)
	t.Cleanup(func() { _ = incognito.Close() })
	p, err := incognito.Page(proto.TargetCreateTarget{URL: "about:blank"})
	require.NoError(t, err)
	p = p.Timeout(browserStep)
	router := p.HijackRequests() // no Google here: gtag.js is answered empty
	router.MustAdd("https://www.googletagmanager.com/*", func(h *rod.Hijack) {
		h.Response.SetHeader("Content-Type", "text/javascript")
		h.Response.SetBody("")
	})
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })

	p.MustNavigate(b.url("localhost", "/survey/"+welcome+"?pp-token="+token)).MustWaitLoad()
	assert.Equal(t, "/survey/"+welcome, path(p))
	const reported = `() => (window.dataLayer || []).map((a) => Array.from(a)).filter((a) => a[0] === 'event').map((a) => ({ name: a[1], params: a[2] }))`
	assert.Empty(t, p.MustEval(reported).Arr(), "nothing on the welcome campaign itself")

	wait := p.MustWaitNavigation()
	p.MustElement(`a[href$="/leave"]`).MustClick() // 'Take me back to my feed': the first campaign of the feed
	wait()
	p.MustWaitLoad()
	require.Regexp(t, `^/survey/[0-9a-f-]+$`, path(p))
	require.NotEqual(t, "/survey/"+welcome, path(p))
	events := p.MustEval(reported).Arr()
	require.Len(t, events, 1)
	assert.Equal(t, "continue_to_my_campaign", events[0].Get("name").Str())
	assert.Equal(t, "Continue to my campaign", events[0].Get("params.event_label").Str())
	assert.Equal(t, "survey/"+welcome, events[0].Get("params.previous_path").Str())
}
