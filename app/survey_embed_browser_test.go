package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInChromiumATenantsPageEmbedsTheWidgetAndHearsItsStatusAndClose serves a tenant's page
// from another site (127.0.0.1, not localhost) that frames the widget with the member's
// token: the frame signs in with its partitioned cookie, the member answers the one question
// with Submit, the parent page hears each status and the Close, and the balance rises once.
func TestInChromiumATenantsPageEmbedsTheWidgetAndHearsItsStatusAndClose(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	member := b.member()
	token := member.cookie("pp-token")
	poll := b.campaignID("demo", "Quick poll")
	frame := b.url("localhost", "/embed/widget/"+poll+"?token="+token)
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Tenant</title><script>window.msgs = [];
			addEventListener('message', (e) => { if (e.origin === %q) window.msgs.push(e.data.type + ':' + e.data.status) })</script>
			<iframe id="w" src=%q width="400" height="250" title="Survey"></iframe>`, b.url("localhost", ""), frame)
	}))
	t.Cleanup(host.Close)

	p := b.page(t, host.URL)
	p.MustWait(`() => window.msgs.includes('canvass:status:started')`)
	f := p.MustElement("#w").MustFrame()
	f.MustElement(`[data-island="survey-box"] .sb-widget`)
	submitButton := f.MustElement("button.sb-next")
	assert.Equal(t, "Submit", submitButton.MustElement(".visually-hidden").MustText(), "one question: Submit")
	frameClick(f.MustElement(`input[type=radio][value="tea"]`).MustParent())
	f.MustWait(`() => !document.querySelector('button.sb-next').disabled`)
	frameClick(submitButton)
	f.MustElement(".thank-you")
	p.MustWait(`() => window.msgs.includes('canvass:status:completed')`)
	frameClick(f.MustElementR("button", "^Close$"))
	p.MustWait(`() => window.msgs.includes('canvass:close:completed')`)
	require.Equal(t, "25.50", b.balanceOf(member), "paid once, through the frame's own session")
	assert.False(t, f.MustHas(`a[href="/feed"]`), "nothing in the frame leads to the app")
}

// frameClick clicks an element of the cross-site (out-of-process) frame from the page's own
// script: Chromium now and then drops the DevTools mouse events rod sends into such a frame,
// and what this test is about is the frame's session and messages, not the pointer (the
// journeys in survey_journey_browser_test.go click with the real mouse).
func frameClick(el *rod.Element) {
	el.MustEval(`() => this.click()`)
}
