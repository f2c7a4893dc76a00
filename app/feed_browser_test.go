package main

import (
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// signedInFeed opens the demo member's feed in a fresh incognito page. noScript blocks the
// page's scripts at the network, as a failing connection would, so every page works without
// them (turning script execution off would also stop the test driver's own queries).
func (b *browserEnv) signedInFeed(t *testing.T, noScript bool) *rod.Page {
	t.Helper()
	// Start blank so that no script is in the page's cache before the block is in place.
	p := b.page(t, "about:blank")
	if noScript {
		router := p.HijackRequests()
		router.MustAdd("*/static/dist/*.js", func(h *rod.Hijack) { h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) })
		go router.Run()
		t.Cleanup(func() { _ = router.Stop() })
	}
	p.MustNavigate(b.url("localhost", "/login")).MustWaitLoad()
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	submit(p, "button[type=submit]")
	require.Equal(t, "/feed", path(p))
	return p
}

// click brings an element to the middle of the viewport, clear of the sticky top bar and the
// bottom navigation of small screens, and clicks it.
func click(el *rod.Element) {
	el.MustEval(`() => this.scrollIntoView({block: 'center'})`)
	el.MustClick()
}

// follow clicks a link and waits until the page it leads to has loaded (waiting for a load
// alone could see the page that was already there).
func follow(p *rod.Page, el *rod.Element) {
	wait := p.MustWaitNavigation()
	click(el)
	wait()
	p.MustWaitLoad()
}

func cardGUIDs(p *rod.Page) []string {
	var out []string
	for _, el := range p.MustElements("#feed-list li.feed-card") {
		out = append(out, *el.MustAttribute("data-guid"))
	}
	return out
}

func TestInChromiumTheFeedLoadsMoreHidesAndReportsInPlace(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	extra := b.addCampaigns(12)
	p := b.signedInFeed(t, false)
	first := cardGUIDs(p)
	require.Equal(t, extra[:10], first)

	click(p.MustElement("#feed-more a"))
	p.MustWait(`() => document.querySelectorAll('#feed-list li.feed-card').length > 10`)
	all := cardGUIDs(p)
	assert.Equal(t, first, all[:10], "loading more appends")
	seen := map[string]bool{}
	for _, id := range all {
		assert.False(t, seen[id], "guid %s twice", id)
		seen[id] = true
	}
	assert.Equal(t, "/feed", path(p), "an htmx swap, not a navigation")

	// Keep loading until the end of the feed: the end state replaces the link.
	for range 5 {
		if !p.MustHas("#feed-more a") {
			break
		}
		n := len(cardGUIDs(p))
		click(p.MustElement("#feed-more a"))
		p.MustWait(`(n) => document.querySelectorAll('#feed-list li.feed-card').length > n || !document.querySelector('#feed-more a')`, n)
	}
	p.MustElement("#feed-more .feed-end")

	hidden := first[0]
	click(p.MustElement("#c-" + hidden + " form[action$='/hide'] button"))
	p.MustWait(`(id) => !document.getElementById('c-' + id)`, hidden)
	assert.Contains(t, p.MustElement(".toasts").MustText(), "hidden from your feed")

	reported := first[1]
	card := p.MustElement("#c-" + reported)
	click(card.MustElement("summary"))
	card.MustElement("select[name=reasonCode]").MustSelect("The survey doesn't load")
	click(card.MustElement("form[action$='/report'] button[type=submit]"))
	p.MustWait(`(id) => !document.getElementById('c-' + id)`, reported)

	p.MustReload().MustWaitLoad()
	after := cardGUIDs(p)
	assert.NotContains(t, after, hidden, "hidden for good")
	assert.NotContains(t, after, reported, "reported campaigns leave the feed")
}

func TestInChromiumWithoutJavaScriptTheFeedStillPagesHidesAndReports(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	extra := b.addCampaigns(12)
	p := b.signedInFeed(t, true)
	require.Equal(t, extra[:10], cardGUIDs(p))

	submitLink := func(selector string) {
		// From the keyboard: Enter on a focused link or button, as a keyboard user would.
		wait := p.MustWaitNavigation()
		p.MustElement(selector).MustFocus()
		p.Keyboard.MustType(input.Enter)
		wait()
		p.MustWaitLoad()
	}
	submitLink("#feed-more a")
	assert.Equal(t, "/feed?page=2", path(p), "a plain link to the next page")
	two := cardGUIDs(p)
	assert.Equal(t, extra, two[:12], "page 2 lists pages 1 and 2")

	hidden := two[0]
	submitLink("#c-" + hidden + " form[action$='/hide'] button")
	assert.Equal(t, "/feed?page=2", path(p), "back where the member was")
	assert.NotContains(t, cardGUIDs(p), hidden)
	assert.Contains(t, p.MustElement(".flashes").MustText(), "hidden from your feed")

	reported := cardGUIDs(p)[0]
	card := p.MustElement("#c-" + reported)
	click(card.MustElement("summary"))
	card.MustElement("select[name=reasonCode]").MustSelect("Other")
	card.MustElement("textarea[name=reasonText]").MustInput("The first page is blank")
	submitLink("#c-" + reported + " form[action$='/report'] button[type=submit]")
	assert.NotContains(t, cardGUIDs(p), reported)
	assert.Contains(t, p.MustElement(".flashes").MustText(), "Thanks for telling us")
}
