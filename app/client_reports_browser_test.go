package main

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/clientreports"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenIsland puts an island whose props are not JSON into the page and lets the loader find
// it, as an htmx swap would: the loader's console.error is what the reporter forwards.
const brokenIsland = `() => {
  const el = document.createElement('div')
  el.dataset.island = 'survey-box'
  el.innerHTML = '<script type="application/json">{"broken": </script>'
  document.body.append(el)
  document.body.dispatchEvent(new Event('htmx:load', { bubbles: true }))
}`

// scriptError is what a browser tells of another origin's script: nothing.
const scriptError = `() => window.dispatchEvent(new ErrorEvent('error', { message: 'Script error.', filename: '', lineno: 0, colno: 0 }))`

func TestInChromiumAnIslandsErrorIsReportedOnceAndScriptErrorNever(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, tc := range []struct {
		panel, host string
		member      bool
	}{
		{"demo", "localhost", true},
		{"northwind", "northwind.localhost", false},
	} {
		t.Run(tc.panel, func(t *testing.T) {
			p := b.page(t, b.url(tc.host, "/login"))
			if tc.member {
				fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
				submit(p, "button[type=submit]")
				require.Equal(t, "/feed", path(p))
			}
			p.MustWaitIdle()
			wait := p.MustWaitRequestIdle()
			p.MustEval(scriptError)
			for range 2 { // the same failures twice: one report each
				p.MustEval(brokenIsland)
			}
			wait()

			var list []clientreports.ListedReport
			require.Eventually(t, func() bool {
				list = b.clientReports(t, tc.panel)
				return len(list) >= 1
			}, 10*time.Second, 100*time.Millisecond)
			p.MustWaitRequestIdle()() // anything else on its way has been sent and answered
			list = b.clientReports(t, tc.panel)

			require.Len(t, list, 1, "one report, and no \"Script error.\": %+v", list)
			thrown := list[0]
			assert.Equal(t, int64(1), thrown.Count, "sent once per page")
			assert.Contains(t, thrown.Arguments, "[island] survey-box: bad props JSON")
			assert.Contains(t, thrown.Arguments, "SyntaxError")
			assert.Contains(t, thrown.Href, tc.host)
			assert.Equal(t, "web", thrown.AppName)
			assert.Positive(t, thrown.ViewportWidth)
			assert.Positive(t, thrown.DPR)
			assert.Contains(t, thrown.UserAgent, "Chrome")
			assert.NotEmpty(t, thrown.RequestID)
			assert.Equal(t, tc.member, thrown.ParticipantID != nil, "the member's session came with the report")
		})
	}
}
