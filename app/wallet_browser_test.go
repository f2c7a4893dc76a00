package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
)

// setDate sets a date input the way a member's picker does (React reads the input event).
func setDate(p *rod.Page, selector, value string) {
	p.MustElement(selector).MustEval(`function (v) {
		Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(this, v)
		this.dispatchEvent(new Event('input', {bubbles: true}))
	}`, value)
}

func rowCount(p *rod.Page) int {
	return p.MustEval(`() => document.querySelectorAll('#tx-results > .tx-list .tx-row').length`).Int()
}

// waitRows waits until the page's results list n transactions and no load is in flight.
func waitRows(p *rod.Page, n int) {
	p.MustWait(fmt.Sprintf(`() => !document.getElementById('tx-results').hasAttribute('aria-busy') && document.querySelectorAll('#tx-results > .tx-list .tx-row').length === %d`, n))
}

func TestInChromiumTheTransactionFiltersChangeTheResultsInPlace(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for i := range 12 {
		b.credit(int64(100+i), fmt.Sprintf("k%d", i))
	}
	b.credit(500, "prize", func(mv *wallet.Movement) { mv.Competition = true; mv.Title = "Prize draw" })
	p := b.signedInFeed(t, false)
	assert.Equal(t, "$42.66", p.MustElement("[data-balance]").MustText(), "25.00 + 1.00..1.11 + 5.00 in the header")

	// A month fails to load once: the loading flag goes off and the member is told.
	var monthCalls atomic.Int32
	router := p.HijackRequests()
	router.MustAdd("*/transactions/months/*", func(h *rod.Hijack) {
		if monthCalls.Add(1) == 1 {
			h.Response.SetHeader("Content-Type", "text/html").SetBody("nope")
			h.Response.Payload().ResponseCode = http.StatusInternalServerError
			return
		}
		h.MustLoadResponse()
	})
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })

	follow(p, p.MustElement(`.nav a[href="/transactions"]`))
	p.MustElement(`[data-island="transaction-filters"][data-island-state="mounted"]`)
	p.MustEval(`() => { window.samePage = true }`)
	if dir := os.Getenv("CANVASS_SCREENSHOTS"); dir != "" {
		p.MustScreenshotFullPage(dir + "/transactions.png")
		p.MustSetViewport(360, 740, 2, true)
		p.MustScreenshot(dir + "/transactions-phone.png")
		p.MustSetViewport(1265, 900, 1, false)
	}
	assert.Equal(t, 10, rowCount(p), "the spec's page size 10")

	click(p.MustElement(`.tx-tab input[value="competitions"]`))
	waitRows(p, 1)
	assert.Contains(t, path(p), "filter=competitions")
	assert.Contains(t, p.MustElement("#tx-results").MustText(), "Prize draw")

	click(p.MustElement(`.tx-tab input[value="MOST_RECENT"]`))
	waitRows(p, 10)
	click(p.MustElement(`a[data-tx-page="next"]`))
	waitRows(p, 4)
	assert.Equal(t, "/transactions?page=2", path(p))
	click(p.MustElement(`a[data-tx-page="prev"]`))
	waitRows(p, 10)

	// A before date filters up to and including that day; a date change resets the page.
	yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
	setDate(p, "#tx-before", yesterday)
	p.MustWait(`() => document.getElementById('tx-results').textContent.includes('No transactions here yet.')`)
	assert.Equal(t, "/transactions?before="+yesterday, path(p))
	setDate(p, "#tx-before", time.Now().UTC().Format(time.DateOnly))
	waitRows(p, 10)
	// Changing the filter clears the dates.
	click(p.MustElement(`.tx-tab input[value="redemptions"]`))
	p.MustWait(`() => document.getElementById('tx-results').textContent.includes('No transactions here yet.')`)
	assert.Equal(t, "/transactions?filter=redemptions", path(p))
	assert.Equal(t, "", p.MustElement("#tx-before").MustProperty("value").Str())
	click(p.MustElement(`.tx-filters button.button-link:last-of-type`))
	waitRows(p, 10)
	assert.Equal(t, "/transactions", path(p), "reset filters")

	// The month list: the first load fails, the second fills the month in place.
	summary := p.MustElement(".tx-month summary")
	click(summary)
	p.MustWait(`() => [...document.querySelectorAll('.toast')].some(t => t.textContent.includes('could not be loaded'))`)
	p.MustWait(`() => !document.querySelector('.tx-month').classList.contains('htmx-request')`)
	click(p.MustElement(".tx-month summary")) // tries again; the loaded month comes back open
	p.MustWait(`() => document.querySelectorAll('.tx-month .tx-row').length === 14`)
	assert.True(t, p.MustEval(`() => document.querySelector('.tx-month').open`).Bool())
	assert.EqualValues(t, 2, monthCalls.Load())

	assert.True(t, p.MustEval(`() => window.samePage === true`).Bool(), "every change happened without leaving the page")
	p.MustNavigateBack()
	p.MustWait(`() => location.search === '?filter=redemptions'`)
}

func TestInChromiumThePaymentNotificationIsDismissedInPlace(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.signedInFeed(t, false)
	p.MustNavigate(b.url("localhost", "/transactions")).MustWaitLoad() // seen the starting balance
	b.credit(75, "paid")
	p.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
	notice := p.MustElement("#payment-notice")
	assert.Contains(t, notice.MustText(), "You've been paid $0.75.")
	p.MustEval(`() => { window.samePage = true }`)
	click(notice.MustElement("button"))
	p.MustWait(`() => !document.getElementById('payment-notice')`)
	assert.True(t, p.MustEval(`() => window.samePage === true`).Bool())
	p.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
	assert.False(t, p.MustHas("#payment-notice"), "dismissed for good")
}

func TestInChromiumWithoutJavaScriptTheTransactionFiltersStillWork(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	b.credit(500, "prize", func(mv *wallet.Movement) { mv.Competition = true; mv.Title = "Prize draw" })
	p := b.signedInFeed(t, true)
	p.MustNavigate(b.url("localhost", "/transactions")).MustWaitLoad()
	assert.Equal(t, 2, rowCount(p))
	click(p.MustElement(`.tx-tab input[value="competitions"]`))
	submit(p, `.tx-filters button[type=submit]`)
	assert.Equal(t, "/transactions?filter=competitions&after=&before=", path(p))
	assert.Equal(t, 1, rowCount(p))
	click(p.MustElement(".tx-month summary"))
	link := p.MustElement(".tx-month-detail a")
	wait := p.MustWaitNavigation()
	link.MustClick()
	wait()
	p.MustWaitLoad()
	assert.True(t, strings.HasPrefix(path(p), "/transactions?filter=competitions&month="), path(p))
	assert.Equal(t, 1, p.MustEval(`() => document.querySelectorAll('.tx-month[open] .tx-row').length`).Int())
}
