package main

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/gallery"
	"github.com/canvass/canvass/views"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/require"
)

// feedFirstScreenJS tells whether a survey's Start button shows whole on the first screen:
// inside the viewport and above the bottom menu.
const feedFirstScreenJS = `() => {
	const nav = document.querySelector('nav.nav')
	const navTop = nav && getComputedStyle(nav).position === 'fixed' ? nav.getBoundingClientRect().top : innerHeight
	return [...document.querySelectorAll('.feed-card a.feed-card-start')].some((a) => {
		const r = a.getBoundingClientRect()
		return r.top >= 0 && r.bottom <= Math.min(innerHeight, navTop)
	})
}`

// galleryJS is every layout rule at the page's present width in one evaluation, once the
// page is laid out at it (two frames): the walk's layout rules and reflow check, and on a
// feed at 360 px its first screen.
var galleryJS = `async (firstScreen, width) => {
	// The new width is the root's once the renderer has it (innerWidth may be wider: a
	// phone's layout viewport grows to a page that scrolls sideways).
	for (let i = 0; i < 100 && document.documentElement.clientWidth !== width; i++) await new Promise((ok) => setTimeout(ok, 5))
	const found = (` + layoutJS + `)()
	for (const n of (` + reflowJS + `)()) found.push({rule: 'reflow', target: n.target, detail: n.detail})
	if (firstScreen && !(` + feedFirstScreenJS + `)()) {
		found.push({rule: 'feed-first-screen', target: '.feed', detail: "no survey's Start button shows on the first screen (360×740)"})
	}
	return found
}`

// galleryReadyJS waits for the page's fonts and islands, as a member sees the page.
const galleryReadyJS = `() => Promise.all([document.fonts.ready, new Promise((ok) => {
	const done = () => !document.querySelector('[data-island]:not([data-island-state=mounted]):not([data-island-state=failed])')
	if (done()) return ok()
	const t = setInterval(() => { if (done()) { clearInterval(t); ok() } }, 20)
	setTimeout(() => { clearInterval(t); ok() }, 5000)
})])`

type galleryStepFailed struct{ v any }

// galleryWidth is atWidth for a page of a worker goroutine: a failure is the state's finding.
func galleryWidth(p *rod.Page, width int) {
	if err := viewport(width).Call(p); err != nil {
		panic(galleryStepFailed{err})
	}
}

// galleryVisit is one gallery state in one panel, language and layout ("" for the panel's own).
type galleryVisit struct {
	ref                 gallery.Ref
	panel, lang, layout string
}

func (v galleryVisit) address(width int) string {
	q := url.Values{"panel": {v.panel}, "lang": {v.lang}}
	if v.layout != "" {
		q.Set("layout", v.layout)
	}
	if width > 0 {
		q.Set("w", fmt.Sprint(width))
	}
	return gallery.Path + "/" + v.ref.Module + "/" + v.ref.Name + "?" + q.Encode()
}

// galleryVisits are the visits of the states only matches. All: every state in every panel,
// each of its languages and each layout (make check-layout, about 4,700 visits). Otherwise
// (make test), each state once, the panel, then the layout, then the language taken in turn
// from state to state: neighbouring states (a module's) are seen in both panels and both
// layouts, and every panel, layout and language on a share of all states. A visit costs
// Chromium about half a second of CPU here, and the suite is bound by its two cores: the full
// walk would add some forty minutes to it, both panels for every state four (docs/designing.md).
func galleryVisits(refs []gallery.Ref, only *regexp.Regexp, all bool) []galleryVisit {
	var out []galleryVisit
	for i, ref := range refs {
		if !only.MatchString(ref.Module + "/" + ref.Name) {
			continue
		}
		if !all {
			p := ref.Panels[i%len(ref.Panels)]
			turn := i / len(ref.Panels)
			v := galleryVisit{ref: ref, panel: p.Key}
			if ref.Who != views.GalleryConsole { // the console's theme and shell whatever the panel
				v.layout = otherLayout(p, turn%len(p.Layouts))
				turn /= len(p.Layouts)
			}
			v.lang = p.Languages[turn%len(p.Languages)]
			out = append(out, v)
			continue
		}
		for _, p := range ref.Panels {
			for k := range p.Layouts {
				for _, lang := range p.Languages {
					out = append(out, galleryVisit{ref: ref, panel: p.Key, lang: lang, layout: otherLayout(p, k)})
				}
			}
		}
	}
	return out
}

// otherLayout is the k-th of the panel's layouts as the gallery's query names it: "" for the
// panel's own (the first).
func otherLayout(p gallery.PanelRef, k int) string {
	if k == 0 {
		return ""
	}
	return p.Layouts[k]
}

// TestInChromiumEveryGalleryStateFitsEveryWidthInEveryPanelAndLanguage walks every state the
// gallery lists, in both demo panels and each of their languages, at 1280, 360 and 320 px:
// nothing scrolls sideways, no text is cut or spills, every target is 24×24 px or spaced as if
// it were, the bottom menu fits, and a feed with surveys shows one's Start button on a
// phone's first screen (360×740). A finding names the state's gallery address at its width.
func TestInChromiumEveryGalleryStateFitsEveryWidthInEveryPanelAndLanguage(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	require.NotNil(t, b.app.Gallery, "the gallery is served outside production")
	// CANVASS_GALLERY_STATES (a regular expression over "module/name") narrows a local run to
	// the states being worked on.
	only, err := regexp.Compile(os.Getenv("CANVASS_GALLERY_STATES"))
	require.NoError(t, err, "CANVASS_GALLERY_STATES")
	visits := galleryVisits(b.app.Gallery.List(), only, os.Getenv("CANVASS_GALLERY_ALL") == "1")
	require.NotEmpty(t, visits)

	var (
		mu       sync.Mutex
		findings []string
		wg       sync.WaitGroup
	)
	next := make(chan galleryVisit, len(visits))
	for _, v := range visits {
		next <- v
	}
	close(next)
	// Two pages at once keep both cores busy; more only queue behind Chromium's renderer.
	for range 2 {
		// A failed browser step is that state's finding (the worker goes on with the next),
		// not t.Fatalf, which must not be called from a goroutine of the test's own.
		p := b.page(t, "about:blank").CancelTimeout().WithPanic(func(v any) { panic(galleryStepFailed{v}) })
		// Without motion: a spinner's endless animation would have Chromium paint frames for
		// as long as the page is open, which is most of the check's cost.
		require.NoError(t, proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}.Call(p))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range next {
				found := galleryCheck(t, b, p, v)
				mu.Lock()
				findings = append(findings, found...)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sort.Strings(findings)
	if len(findings) > 0 {
		t.Errorf("%d of %d gallery states (× widths %v) break the layout rules:\n%s", len(findings), len(visits), gallery.Widths, strings.Join(findings, "\n"))
	}
	t.Logf("%d gallery states checked at %d widths", len(visits), len(gallery.Widths))
}

// galleryCheck loads one state and checks it at each width, widest first (a resize reflows the
// page as a phone would lay it out, without loading it again).
func galleryCheck(t *testing.T, b *browserEnv, page *rod.Page, v galleryVisit) (out []string) {
	t.Helper()
	p := page.Timeout(browserStep) // each state its own deadline
	defer p.CancelTimeout()
	defer func() {
		if r := recover(); r != nil {
			failed, ok := r.(galleryStepFailed)
			if !ok {
				panic(r)
			}
			out = append(out, fmt.Sprintf("  %s  browser: %v", v.address(0), failed.v))
		}
	}()
	galleryWidth(p, 1280)
	p.MustNavigate(b.url("localhost", v.address(0))).MustWaitLoad()
	p.MustEval(galleryReadyJS)
	skipped := axeSkipped()
	widths := append([]int(nil), gallery.Widths...)
	sort.Sort(sort.Reverse(sort.IntSlice(widths)))
	for _, w := range widths {
		galleryWidth(p, w)
		var found []struct {
			Rule string `json:"rule"`
			axeNode
		}
		if err := p.MustEval(galleryJS, v.ref.FeedFirstScreen && w == 360, w).Unmarshal(&found); err != nil {
			panic(galleryStepFailed{err})
		}
		for _, f := range found {
			if !slices.Contains(skipped, f.Rule) {
				out = append(out, fmt.Sprintf("  %s  %s: %s", v.address(w), f.Rule, strings.TrimSpace(f.Target+" "+f.Detail)))
			}
		}
	}
	return out
}
