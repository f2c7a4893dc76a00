package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleIDs are the rules a layout check found broken.
func ruleIDs(vs []axeViolation) []string {
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID)
	}
	return ids
}

func TestInChromiumTheBottomMenuOfANarrowScreenKeepsFourSectionsThreeBelow360PxAndMovesTheRestUnderMore(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, noScript := range []bool{false, true} {
		name := "with JavaScript"
		if noScript {
			name = "without JavaScript"
		}
		t.Run(name, func(t *testing.T) {
			p := b.signedInFeed(t, noScript)
			sheetLabels := `() => [...document.querySelectorAll('.nav-sheet .nav-item')].filter((a) => a.getClientRects().length > 0).map((a) => a.textContent.trim())`
			for width, want := range map[int][]string{360: {"Home", "Redeem", "Transactions", "Invite friends", "More"}, 320: {"Home", "Redeem", "Transactions", "More"}} {
				atWidth(t, p, width)
				shown := p.MustEval(`() => [...document.querySelectorAll('nav.nav > ul > li')].filter((li) => li.getBoundingClientRect().width > 0).map((li) => li.querySelector('.nav-item').textContent.trim())`).Arr()
				var labels []string
				for _, s := range shown {
					labels = append(labels, s.String())
				}
				assert.Equal(t, want, labels, "at %d px: 80 px an item below 360 px, 72 above", width)
				assert.Empty(t, layoutRun(t, p), "at %d px nothing is cut", width)
				p.MustElement(".nav-more summary").MustClick()
				inSheet := p.MustEval(sheetLabels).Arr()
				require.NotEmpty(t, inSheet)
				assert.Equal(t, width == 320, inSheet[0].String() == "Invite friends", "at %d px the fourth section leads the sheet", width)
				p.MustElement(".nav-more summary").MustClick()
			}
			atWidth(t, p, 360)

			// More opens a sheet with the rest, Log out last, and leads there.
			p.MustElement(".nav-more summary").MustClick()
			sheet := p.MustElement(".nav-sheet")
			require.True(t, sheet.MustVisible())
			labels := p.MustEval(sheetLabels).Arr()
			require.NotEmpty(t, labels)
			assert.Equal(t, "Log out", labels[len(labels)-1].String())
			assert.Contains(t, sheet.MustText(), "Settings")
			follow(p, p.MustElement(".nav-sheet a[href='/settings']"))
			assert.Equal(t, "/settings", path(p))
			assert.True(t, p.MustHas(".nav-more summary.nav-item.active"), "More is marked while one of its sections is shown")

			// A wide screen's side menu lists every section and Log out; More is not there.
			atWidth(t, p, 1280)
			side := p.MustEval(`() => { const items = [...document.querySelectorAll('nav.nav > ul > li:not(.nav-more)')]
				return {all: items.length, shown: items.filter((li) => li.getBoundingClientRect().width > 0).length} }`)
			assert.Equal(t, 6, side.Get("all").Int(), "the demo member's five sections and Log out")
			assert.Equal(t, side.Get("all").Int(), side.Get("shown").Int())
			assert.False(t, p.MustElement(".nav-more").MustVisible())
		})
	}
}

func TestInChromiumTheLayoutCheckFindsAMenuOfSevenAcrossANarrowScreenAndClippedText(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.signedInFeed(t, false)
	atWidth(t, p, 360)
	require.Empty(t, layoutRun(t, p), "the feed as it is")

	// The bottom menu as it was: seven items across the screen (the demo member's six and the
	// offers and games of a panel with an offers provider), each as wide as its label wants.
	// Set through the elements' styles: the page's CSP refuses a style sheet without its nonce.
	p.MustEval(`() => {
		const list = document.querySelector('nav.nav > ul'), extra = list.querySelector('li.nav-extra'), seventh = extra.cloneNode(true)
		seventh.querySelector('span').textContent = 'Offers and games'
		extra.before(seventh)
		for (const li of list.children) {
			li.style.display = li.classList.contains('nav-more') ? 'none' : 'block'
			li.style.flex = '0 1 auto'
			li.style.minWidth = 'auto'
			const item = li.querySelector('.nav-item')
			item.style.padding = '.4rem .5rem'
			item.style.overflowWrap = 'normal'
			item.style.lineHeight = 'normal'
			item.style.textAlign = 'start'
		}
	}`)
	seven := layoutRun(t, p)
	require.Len(t, seven, 1, "%v", seven)
	assert.Equal(t, "bottom-menu", seven[0].ID)
	what := ""
	for _, n := range seven[0].Nodes {
		what += n.Detail + "\n"
	}
	// As the menu was measured before: 381 px wide, "Offers and games" on three lines.
	assert.Regexp(t, `the bottom menu is 3[6-9][0-9] px wide on a 360 px screen`, what)
	assert.Contains(t, what, `"Offers and games" takes 3 lines`)
	p.MustReload().MustWaitLoad()
	atWidth(t, p, 360)
	require.Empty(t, layoutRun(t, p), "the feed as it is again")

	// A heading clipped to a box too small for it.
	p.MustEval(`() => { const h = document.querySelector('main h1, main h2'); h.style.cssText = 'width:60px;white-space:nowrap;overflow:hidden' }`)
	assert.Contains(t, ruleIDs(layoutRun(t, p)), "text-cut")
}
