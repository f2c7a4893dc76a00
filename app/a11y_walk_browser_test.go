package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/canvass/canvass/modules/web"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The accessibility walk: axe-core over every page a visitor or a member can reach, on both
// demo tenants, in every language of each panel, at a phone's and a laptop's width in the
// panel's default language and at the phone's in the others (a11yWidthsIn). A page
// route that is neither walked nor skipped (with its reason) fails the walk, so a page added
// later joins it.

// a11yTags are WCAG 2.0, 2.1 and 2.2 at levels A and AA, as axe-core tags its rules.
var a11yTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"}

// a11yWidths are a small phone and a laptop, in CSS pixels. Colour contrast, target sizes and
// the layout's breakpoints follow the theme and the width, not the language, so every state is
// checked at both widths in its panel's default language; a text's length, its overflow and its
// lang attribute follow the language, so every other language is checked at the narrowest
// width, where a longer text breaks the layout first.
var a11yWidths = []int{360, 1280}

// a11yWidthsIn are the widths a walk in lang checks, the panel's default language being def.
func a11yWidthsIn(lang, def string) []int {
	if lang == def {
		return a11yWidths
	}
	return a11yWidths[:1]
}

// axeSource is axe-core as npm installed it; the tests inject it outside the page's CSP.
func axeSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (npm install): %v", err)
	}
	return string(src)
}

// axeSkipped are the rules CANVASS_A11Y_SKIP names (comma-separated axe rule ids, and
// "reflow" for the walk's own reflow check), for a local run while someone else fixes them;
// by default every rule runs.
func axeSkipped() []string {
	out := []string{}
	for _, id := range strings.Split(os.Getenv("CANVASS_A11Y_SKIP"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// axeViolation is one rule axe-core found broken, with the elements that break it.
type axeViolation struct {
	ID     string    `json:"id"`
	Impact string    `json:"impact"`
	Help   string    `json:"help"`
	Nodes  []axeNode `json:"nodes"`
}

// axeNode is one failing element: its selector, and for colour contrast the numbers.
type axeNode struct {
	Target string `json:"target"`
	Detail string `json:"detail"`
}

// axeRunJS runs axe-core over the element a selector names (the whole document for "") after
// two frames, so a viewport change has been laid out and islands have re-rendered.
const axeRunJS = `async (selector, tags, skip) => {
	await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
	const rules = {}
	const known = new Set(axe.getRules().map((r) => r.ruleId))
	for (const id of skip) if (known.has(id)) rules[id] = {enabled: false}
	const context = selector ? document.querySelector(selector) : document
	const r = await axe.run(context, {runOnly: {type: 'tag', values: tags}, rules, resultTypes: ['violations'], iframes: false})
	const detail = (n) => {
		for (const c of [...n.any, ...n.all, ...n.none]) {
			const d = c.data
			if (d && d.contrastRatio !== undefined) {
				return d.contrastRatio + ':1, ' + d.fgColor + ' on ' + d.bgColor + ' (' + d.fontSize + ' ' + d.fontWeight + '; needs ' + d.expectedContrastRatio + ')'
			}
		}
		return ''
	}
	return r.violations.map((v) => ({id: v.id, impact: v.impact || '', help: v.help,
		nodes: v.nodes.map((n) => ({target: n.target.map(String).join(' '), detail: detail(n)}))}))
}`

// axeStep bounds one axe-core pass. It is a hang guard, longer than browserStep: a pass over
// the longest page (the API document, some 150 operations) is real work, and with the other
// tests at work beside it on two cores it has taken over 90 s.
const axeStep = 5 * time.Minute

// axeRun injects axe-core into the page's document (once) and lists what it finds for WCAG
// 2.0-2.2 A and AA within the selector ("" for the whole document). A pass that does not end
// fails the test, not the whole package (rod's Must calls panic).
func axeRun(t *testing.T, p *rod.Page, src, selector string) []axeViolation {
	t.Helper()
	p = p.Timeout(axeStep)
	loaded, err := p.Eval(`() => typeof window.axe === 'object'`)
	require.NoError(t, err, "axe-core: look for it in the page")
	if !loaded.Value.Bool() {
		_, err := proto.RuntimeEvaluate{Expression: src}.Call(p)
		require.NoError(t, err, "axe-core: inject it")
	}
	res, err := p.Eval(axeRunJS, selector, a11yTags, axeSkipped())
	require.NoError(t, err, "axe-core: run it (within %v)", axeStep)
	var out []axeViolation
	require.NoError(t, res.Value.Unmarshal(&out))
	return out
}

// reflowJS finds what makes the page scroll sideways (WCAG 1.4.10 Reflow; axe-core has no
// rule for it): the innermost elements that reach past the viewport and no clipping or
// scrolling box of theirs holds in. Empty when the page fits its width.
const reflowJS = `() => {
	const root = document.documentElement, vw = root.clientWidth
	if (root.scrollWidth <= vw + 1) return []
	// Held in: inside a box that clips or scrolls within the viewport, or that is fixed to it.
	const held = (el) => {
		for (let a = el; a && a !== root && a !== document.body; a = a.parentElement) {
			const st = getComputedStyle(a)
			if (st.position === 'fixed') return true
			if (a !== el && st.overflowX !== 'visible' && a.getBoundingClientRect().right <= vw + 1) return true
		}
		return false
	}
	const over = [...document.body.querySelectorAll('*')].filter((el) => {
		const r = el.getBoundingClientRect()
		return r.width > 1 && r.right > vw + 1 && !held(el)
	})
	const name = (el) => el.localName + (el.id ? '#' + el.id : '') + [...el.classList].map((c) => '.' + c).join('') +
		(el.getAttribute('name') ? '[name="' + el.getAttribute('name') + '"]' : '')
	const page = {target: 'html', detail: root.scrollWidth + 'px wide in a ' + vw + 'px viewport'}
	return [page, ...over.filter((el) => !over.some((o) => o !== el && el.contains(o))).slice(0, 8).map((el) => ({target: name(el), detail: ''}))]
}`

// reflowRun is the reflow check as an axe-style violation, or nil when the page fits.
func reflowRun(t *testing.T, p *rod.Page) *axeViolation {
	t.Helper()
	if slices.Contains(axeSkipped(), "reflow") {
		return nil
	}
	var nodes []axeNode
	require.NoError(t, p.MustEval(reflowJS).Unmarshal(&nodes))
	if len(nodes) == 0 {
		return nil
	}
	return &axeViolation{ID: "reflow", Impact: "serious", Help: "Content must fit the viewport's width without scrolling sideways (WCAG 1.4.10)", Nodes: nodes}
}

// layoutJS finds what a narrow screen cuts short, which neither axe-core nor the reflow check
// sees: text clipped or spilling out of its box (an element whose content is wider or taller
// than its box, its own text among that content), and, on the bottom menu of a narrow screen,
// a label on more than two lines or a menu wider than the screen. It also finds targets under
// 24×24 CSS px (WCAG 2.2, 2.5.8) as the rule words them, which axe-core checks too but only
// where the walk runs it: the gallery's layout checks run this alone. Each finding names its rule.
const layoutJS = `() => {
	const out = []
	const name = (el) => el.localName + (el.id ? '#' + el.id : '') + [...el.classList].map((c) => '.' + c).join('')
	const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '')
	const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1 && el.checkVisibility({visibilityProperty: true}) }
	for (const el of document.body.querySelectorAll('*')) {
		if (!ownText(el) || el.closest('svg, [aria-hidden=true], input, select, textarea, pre, code, .skip, .visually-hidden, .sr-only') || !shown(el)) continue
		const st = getComputedStyle(el)
		if (st.display === 'inline' || st.position === 'absolute' && st.clip !== 'auto') continue
		const wide = el.scrollWidth - el.clientWidth, tall = el.scrollHeight - el.clientHeight
		const clips = (o) => o === 'hidden' || o === 'clip'
		if (wide > 2 && (clips(st.overflowX) || st.textOverflow === 'ellipsis') || tall > 2 && clips(st.overflowY)) {
			out.push({rule: 'text-cut', target: name(el), detail: 'text clipped: ' + el.scrollWidth + '×' + el.scrollHeight + ' px of text in a ' + el.clientWidth + '×' + el.clientHeight + ' px box'})
		} else if (wide > 2 && st.overflowX === 'visible') {
			out.push({rule: 'text-cut', target: name(el), detail: 'text spills out: ' + el.scrollWidth + ' px of text in a ' + el.clientWidth + ' px box'})
		} else if (st.position !== 'absolute' && st.position !== 'fixed' && el.parentElement) {
			// A box of text wider than the box it sits in (a label that cannot wrap in a narrow
			// column), where that box and its own box show it spilling over its neighbours.
			const r = el.getBoundingClientRect(), pr = el.parentElement.getBoundingClientRect()
			if (r.right > pr.right + 2 || r.left < pr.left - 2) {
				out.push({rule: 'text-cut', target: name(el), detail: 'text spills out of its ' + Math.round(pr.width) + ' px box: ' + Math.round(r.width) + ' px wide'})
			}
		}
	}
	const nav = document.querySelector('nav.nav')
	if (nav && getComputedStyle(nav).position === 'fixed') {
		const list = nav.querySelector(':scope > ul')
		if (list && list.scrollWidth > list.clientWidth + 1) {
			out.push({rule: 'bottom-menu', target: name(list), detail: 'the bottom menu is ' + list.scrollWidth + ' px wide on a ' + list.clientWidth + ' px screen'})
		}
		for (const label of nav.querySelectorAll(':scope > ul > li > .nav-item > span, :scope > ul > li > details > summary > span')) {
			if (!shown(label)) continue
			const st = getComputedStyle(label), line = parseFloat(st.lineHeight) || parseFloat(st.fontSize) * 1.2 // "normal"
			const lines = Math.round(label.getBoundingClientRect().height / line)
			if (lines > 2) out.push({rule: 'bottom-menu', target: name(label.parentElement) + ' span', detail: '"' + label.textContent.trim() + '" takes ' + lines + ' lines'})
		}
	}
	// A target under 24×24 px passes inline in a sentence, or when a 24 px circle centred on
	// it meets no other target and no other small target's circle (2.5.8's spacing exception).
	const targets = [...document.body.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab]')]
		.filter((el) => !el.disabled && !el.closest('[aria-hidden=true], [inert], .skip, .visually-hidden') && el.checkVisibility({visibilityProperty: true, opacityProperty: true}) && el.getBoundingClientRect().width > 1)
	const boxes = targets.map((el) => el.getBoundingClientRect())
	const small = boxes.map((r) => r.width < 23.5 || r.height < 23.5)
	const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2]
	// A target in a fixed or sticky bar (the bottom menu) and one the page scrolls beneath it
	// are never beside each other for a finger: only targets of the same layer are compared.
	const layer = (el) => { for (let a = el; a; a = a.parentElement) { const p = getComputedStyle(a).position; if (p === 'fixed' || p === 'sticky') return a } return null }
	const layers = targets.map(layer)
	const inSentence = (el) => getComputedStyle(el).display === 'inline' && el.parentElement && [...el.parentElement.childNodes].some((n) => n !== el && n.textContent.trim() !== '')
	targets.forEach((el, i) => {
		if (!small[i] || inSentence(el)) return
		const [cx, cy] = centre(boxes[i])
		const near = targets.findIndex((o, j) => {
			if (j === i || o.contains(el) || el.contains(o) || layers[j] !== layers[i]) return false
			const r = boxes[j], dx = Math.max(r.left - cx, 0, cx - r.right), dy = Math.max(r.top - cy, 0, cy - r.bottom)
			if (Math.hypot(dx, dy) < 12) return true
			const [ox, oy] = centre(r)
			return small[j] && Math.hypot(ox - cx, oy - cy) < 24
		})
		if (near >= 0) out.push({rule: 'target-size', target: name(el), detail: Math.round(boxes[i].width) + '×' + Math.round(boxes[i].height) + ' px, within 24 px of ' + name(targets[near])})
	})
	return out.slice(0, 12)
}`

// layoutRun is the layout check as axe-style violations, one per rule broken.
func layoutRun(t *testing.T, p *rod.Page) []axeViolation {
	t.Helper()
	var found []struct {
		Rule string `json:"rule"`
		axeNode
	}
	require.NoError(t, p.MustEval(layoutJS).Unmarshal(&found))
	help := map[string]string{
		"text-cut":    "Text must fit its box: nothing clipped or spilling out at this width",
		"bottom-menu": "The bottom menu must fit a narrow screen, each label on one or two lines",
		"target-size": "Targets must be at least 24×24 CSS px, or spaced as if they were (WCAG 2.2, 2.5.8)",
	}
	var out []axeViolation
	for _, rule := range []string{"text-cut", "bottom-menu", "target-size"} {
		if slices.Contains(axeSkipped(), rule) {
			continue
		}
		v := axeViolation{ID: rule, Impact: "serious", Help: help[rule]}
		for _, f := range found {
			if f.Rule == rule {
				v.Nodes = append(v.Nodes, f.axeNode)
			}
		}
		if len(v.Nodes) > 0 {
			out = append(out, v)
		}
	}
	return out
}

// Who a page is seen by: each is one signed-in (or not) browser page per tenant.
const (
	a11yVisitor   = "visitor"
	a11yMember    = "member"    // past every gate, welcome campaign done
	a11yNewcomer  = "newcomer"  // just joined: terms not accepted, email not validated, welcome campaign due
	a11ySuspended = "suspended" // suspended by an operator
	// a11yOnboarding is a visitor of their own (their onboarding's cookies apart from the
	// other visitor pages') who signs in with a new identity and answers the onboarding.
	a11yOnboarding = "onboarding"
	// a11yWidget is a visitor of their own who logs in as the member through the login widget
	// (a session in the widget's cookies only) and logs out of it again.
	a11yWidget = "widget"
)

// a11yVisit brings one page, or a series of states of it, to where axe checks it.
type a11yVisit struct {
	name string
	// routes are the registered GET routes (as Fiber lists them) whose pages the visit renders.
	routes []string
	who    string
	// embed: the page is one other sites frame. Its cookies (the language among them) are
	// partitioned and SameSite=None, and would shadow the app's own, so it has its own session.
	embed bool
	// noScript: the page's scripts are blocked at the network, so axe checks what the server
	// renders for a browser without JavaScript (the islands' fallbacks).
	noScript bool
	// only names the one tenant the visit applies to, "" for both.
	only string
	run  func(w *a11yWalk, s *a11ySession)
}

// a11ySkipped are the GET routes outside /api/ and /ah/api/ that render no page of their own.
var a11ySkipped = map[string]string{
	"/healthz":                          "plain-text probe",
	"/readyz":                           "plain-text probe",
	"/":                                 "redirects to /feed (or, for a visitor, /onboarding or /login)",
	"/survey/:campaignUuid/leave":       "redirects to the feed or the stored return address",
	"/embed/survey/:campaignUuid/leave": "redirects like /survey/:campaignUuid/leave",
	"/embed/widget/:campaignUuid/leave": "redirects like /survey/:campaignUuid/leave",
	"/survey/:campaignUuid/preview/:lang/:exp/:sig/go": "JSON for the preview's survey box",
	"/settings/connections/:provider":                  "redirects to the provider (its page is walked in \"sign in with a provider\")",
	"/media/profile-pics/:key":                         "an image (the member's own picture), not a page",
	"/offers/start/:id":                                "redirects to the offers provider (the local one's page is its own)",
	"/_dev/gallery":                                    "the development gallery's index (not in production); its states are the walked pages' views, laid out by TestInChromiumEveryGalleryState",
	"/_dev/gallery/:module/:state":                     "a gallery state (not in production): checked by TestInChromiumEveryGalleryState",
	"/_dev/gallery/states.json":                        "JSON: the gallery's list of states",
}

// a11yVisits are every page the app renders, in the states worth checking. The 404 page has
// no route of its own (the fallback renders it); the "Unexpected Application Error!" page,
// written without templates after a panic or a failed render, cannot be reached on purpose.
func a11yVisits() []a11yVisit {
	page := func(name, route, who, path string) a11yVisit {
		return a11yVisit{name: name, routes: []string{route}, who: who, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, path)
			w.check(s, name)
		}}
	}
	return []a11yVisit{
		// Visitors.
		page("login", "/login", a11yVisitor, "/login"),
		{name: "API docs", routes: []string{"/api/docs"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			if w.lang != "en" {
				return // the API document is for developers and written in English only (lang="en")
			}
			w.open(s, "/api/docs")
			w.check(s, "API docs")
		}},
		{name: "login, refused", routes: []string{"/login"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/login")
			w.submit(s, "form[action='/login'] button[type=submit]") // empty: the fields' errors
			w.check(s, "login, refused")
		}},
		page("join", "/join", a11yVisitor, "/join"),
		{name: "join, refused", routes: []string{"/join"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/join")
			fill(s.p(), map[string]string{"#f-email": "not-an-email", "#f-password": "short"})
			w.submit(s, "form button[type=submit]")
			w.check(s, "join, refused")
		}},
		page("join by invitation", "/join/invite/:inviteId", a11yVisitor, "/join/invite/a11y-invitation"),
		page("forgot password", "/forgot-password", a11yVisitor, "/forgot-password"),
		{name: "forgot password, sent", routes: []string{"/password-recovery"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/password-recovery")
			fill(s.p(), map[string]string{"#f-email": "nobody-" + w.lang + "@" + s.tenant.key + ".test"})
			w.submit(s, "form button[type=submit]")
			w.check(s, "forgot password, sent")
		}},
		{name: "reset password", routes: []string{"/reset-password"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/reset-password?token="+url.QueryEscape(s.tenant.resetToken))
			w.check(s, "reset password")
			w.open(s, "/reset-password?token=not-a-token")
			w.check(s, "reset password, link spent")
		}},
		{name: "sign in with a provider", routes: []string{"/sign-in/:provider", "/sign-in/:provider/return", "/sign-in/complete", "/sign-in/link"}, who: a11yVisitor,
			only: "demo", // on Northwind a new identity enters onboarding (walked below)
			run: func(w *a11yWalk, s *a11ySession) {
				// The local provider's page (what `make run` shows for Google), then a new identity
				// without a proven email: the email to join, that email already used, linking it.
				w.open(s, "/login")
				crossSubmit(w.t, s.p(), ".sign-in-google")
				w.check(s, "local development sign-in")
				crossSubmit(w.t, s.p(), "button[name=subject][value='"+unproven.Subject+"']")
				w.settle(s)
				w.check(s, "sign-in, complete joining")
				fill(s.p(), map[string]string{"#f-email": s.tenant.emails[a11yMember]})
				s.p().MustElement("form[action='/sign-in/complete'] button[type=submit]").MustClick()
				s.p().MustElement(".notice[role=alert] a[href='/sign-in/link']")
				s.p().MustWaitLoad()
				w.check(s, "sign-in, email already used")
				crossSubmit(w.t, s.p(), ".notice a[href='/sign-in/link']")
				w.check(s, "sign-in, link account")
			}},
		{name: "onboarding", routes: []string{"/onboarding", "/onboarding/campaigns/:campaignUuid"}, who: a11yOnboarding, only: "northwind", run: (*a11yWalk).onboarding},
		{name: "onboarding without JavaScript", routes: []string{"/onboarding", "/onboarding/campaigns/:campaignUuid"}, who: a11yOnboarding, only: "northwind", noScript: true,
			run: (*a11yWalk).onboarding},
		page("signed out", "/logout", a11yVisitor, "/logout"),
		page("email validated", "/email-validation-done", a11yVisitor, "/email-validation-done"),
		page("email validation failed", "/validate-email/confirm", a11yVisitor, "/validate-email/confirm?token=not-a-token"),
		page("error", "/error", a11yVisitor, "/error"),
		page("maintenance", "/maintenance", a11yVisitor, "/maintenance"),
		{name: "not found", who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/no-such-page")
			w.check(s, "not found")
		}},
		{name: "embed, sign in first", routes: []string{"/embed/survey/:campaignUuid/*"}, who: a11yVisitor, embed: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/embed/survey/"+s.tenant.ids["invitation"])
			w.check(s, "embed, sign in first")
		}},
		{name: "widgets", routes: []string{"/widgets/login", "/widgets/join"}, who: a11yVisitor, embed: true, run: func(w *a11yWalk, s *a11ySession) {
			for _, kind := range []string{"login", "join"} {
				w.open(s, "/widgets/"+kind+"?parentFrameUrl="+url.QueryEscape(demoPartnerOrigin+"/"))
				w.check(s, "widget, "+kind)
				// Empty: the API refuses it and the island says so above the form, in place.
				s.p().MustElement("form[action='/widgets/" + kind + "'] button[type=submit]").MustClick()
				s.p().MustElement(".form-error[role=alert]")
				w.check(s, "widget, "+kind+", refused")
			}
		}},
		{name: "widget, logged in", routes: []string{"/widgets/login"}, who: a11yWidget, embed: true, noScript: true,
			run: func(w *a11yWalk, s *a11ySession) {
				// Canvass Demo keeps the member in the frame; Northwind's card opens Northwind.
				widget := "/widgets/login?parentFrameUrl=" + url.QueryEscape(demoPartnerOrigin+"/")
				w.open(s, widget)
				fill(s.p(), map[string]string{"#f-email": s.tenant.emails[a11yMember], "#f-password": s.tenant.password})
				w.submit(s, "form[action='/widgets/login'] button[type=submit]")
				s.p().MustElement("form[action='/widgets/logout']")
				w.check(s, "widget, logged in")
				w.open(s, widget)
				w.submit(s, "form[action='/widgets/logout'] button[type=submit]") // a visitor again in the next language
				s.p().MustElement("form[action='/widgets/login']")
			}},
		// The hand-off is a page of the panel itself, never framed.
		page("widget hand-off, link spent", "/widgets/continue", a11yVisitor, "/widgets/continue?code=spent"),
		{name: "join through a friend or a partner", routes: []string{"/join/invite/:inviteId", "/join"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			invite, code := a11yReferral(s.tenant.key)
			w.open(s, "/join/invite/"+invite)
			s.p().MustElement(".join-invitation")
			w.check(s, "join by a friend's invitation")
			w.open(s, "/join?affiliate="+code)
			s.p().MustElement(".join-partner")
			w.check(s, "join with a partner's code")
		}},
		{name: "a partner's code", routes: []string{"/affiliates/:code"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			_, code := a11yReferral(s.tenant.key)
			w.open(s, "/affiliates/"+code)
			w.check(s, "a partner's code")
		}},
		{name: "survey preview", routes: []string{"/survey/:campaignUuid/preview/:lang/:exp/:sig/"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			panel, err := w.b.app.Tenancy.PanelByKey(context.Background(), s.tenant.key)
			require.NoError(w.t, err)
			w.open(s, w.b.app.Surveys.PreviewLink(panel, s.tenant.ids["invitation"], w.lang, time.Now().Add(time.Hour), ""))
			w.waitSurveyBox(s)
			w.check(s, "survey preview")
		}},

		// Members.
		{name: "feed", routes: []string{"/feed"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/feed")
			w.check(s, "feed")
			p := s.p()
			if p.MustHas(".feed-card-report summary") {
				if p.MustHas(".cx-card-menu summary") {
					p.MustElement(".cx-card-menu summary").MustClick() // the compact layout's card menu holds it
				}
				p.MustElement(".feed-card-report summary").MustClick()
				// The click scrolled the page (the cards above the feed push the first card down);
				// checked from the top like every other page, so the sticky top bar does not cover
				// a control by half, which axe's target-size counts as too small.
				p.MustEval(`() => window.scrollTo(0, 0)`)
				w.check(s, "feed, report form open")
			}
		}},
		{name: "survey invitation", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/survey/"+s.tenant.ids["invitation"])
			w.check(s, "survey invitation")
			w.open(s, "/survey/"+s.tenant.ids["draw"])
			w.check(s, "survey invitation, competition")
		}},
		{name: "survey box", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, run: (*a11yWalk).everyControl},
		{name: "thank-you", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/survey/"+s.tenant.ids["thanks"])
			w.waitSurveyBox(s)
			w.check(s, "thank-you")
			w.open(s, "/survey/"+s.tenant.ids["drawDone"])
			w.waitSurveyBox(s)
			w.check(s, "thank-you, competition")
			w.open(s, "/survey/"+s.tenant.ids["drawEntered"])
			w.waitSurveyBox(s)
			w.check(s, "thank-you, competition entered")
		}},
		{name: "survey box without JavaScript", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, noScript: true, run: (*a11yWalk).everyPlainControl},
		{name: "survey box without JavaScript, refused", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, noScript: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/survey/"+s.tenant.ids["refused"])
			w.submit(s, "form.survey-question button[type=submit]") // no answer chosen
			s.p().MustElement(".survey-question .form-error")
			w.check(s, "survey box without JavaScript, refused")
		}},
		{name: "thank-you without JavaScript", routes: []string{"/survey/:campaignUuid/*"}, who: a11yMember, noScript: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/survey/"+s.tenant.ids["thanks"])
			w.check(s, "thank-you without JavaScript")
			w.open(s, "/survey/"+s.tenant.ids["drawDone"])
			w.check(s, "thank-you, competition without JavaScript")
		}},
		{name: "transactions without JavaScript", routes: []string{"/transactions"}, who: a11yMember, noScript: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/transactions")
			w.check(s, "transactions without JavaScript")
			if s.p().MustHas("details.tx-month:not([open]) .tx-month-detail a") {
				// Without JavaScript a month opens through its link, on the server.
				href := *s.p().MustElement("details.tx-month:not([open]) .tx-month-detail a").MustAttribute("href")
				w.open(s, href)
				w.check(s, "transactions, month open without JavaScript")
			}
		}},
		{name: "embedded survey", routes: []string{"/embed/survey/:campaignUuid/*"}, who: a11yMember, embed: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/embed/survey/"+s.tenant.ids["invitation"])
			w.check(s, "embedded survey invitation")
			w.open(s, "/embed/survey/"+s.tenant.ids["thanks"])
			w.waitSurveyBox(s)
			w.check(s, "embedded survey thank-you")
		}},
		{name: "widget", routes: []string{"/embed/widget/:campaignUuid/*"}, who: a11yMember, embed: true, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/embed/widget/"+s.tenant.ids["widget"])
			w.waitSurveyBox(s)
			w.check(s, "widget")
		}},
		{name: "transactions", routes: []string{"/transactions", "/transactions/months/:year<int>/:month<int>"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/transactions")
			w.check(s, "transactions")
			p := s.p()
			if p.MustHas("details.tx-month:not([open]) summary") {
				// Opening a month swaps in /transactions/months/Y/M (htmx).
				p.MustElement("details.tx-month:not([open]) summary").MustClick()
				p.MustWait(`() => !!document.querySelector('details.tx-month[open] .tx-list, details.tx-month[open] .tx-empty')`)
				w.check(s, "transactions, month open")
			}
			// The filters island swaps the results in place.
			p.MustElement(`[data-island="transaction-filters"] input[name=filter][value=competitions]`).MustParent().MustClick()
			p.MustWait(`() => new URL(location.href).searchParams.get('filter') === 'competitions' && !document.querySelector('#tx-results[aria-busy]')`)
			w.check(s, "transactions, competitions")
		}},
		{name: "redemptions", routes: []string{"/redemptions"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/redemptions")
			w.check(s, "redemptions")
			if s.p().MustHas(".redeem-form") {
				fill(s.p(), map[string]string{"#f-amount": "lots"})
				w.submit(s, ".redeem-form button[type=submit]")
				w.check(s, "redemptions, refused")
			}
		}},
		{name: "settings", routes: []string{"/settings"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/settings")
			w.check(s, "settings")
			w.submit(s, "form[action='/settings'] button[type=submit]") // saved as it was: the toast
			s.p().MustElement(".toasts .toast")
			w.check(s, "settings, saved")
		}},
		{name: "settings, every section", routes: []string{"/settings"}, who: a11yMember, run: (*a11yWalk).settingsSections},
		{name: "settings, every section without JavaScript", routes: []string{"/settings"}, who: a11yMember, noScript: true, run: (*a11yWalk).settingsSections},
		{name: "unsubscribe", routes: []string{"/unsubscribe/:panelUuid/:accountHolderUuid/:hash"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			panel, holder := w.memberHolder(s)
			w.open(s, w.b.app.Profile.Service().UnsubscribePath(panel.ID, holder, profile.KindNewsletters))
			w.check(s, "unsubscribe")
			w.submit(s, "#unsubscribe-submit")
			s.p().MustElement(".notice[role=status]")
			w.check(s, "unsubscribe, done")
		}},
		{name: "close the account by the mailed link", routes: []string{"/close-account"}, who: a11yVisitor, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/close-account?token=not-a-token")
			w.check(s, "close the account, link spent")
			panel, holder := w.memberHolder(s)
			require.NoError(w.t, w.b.app.Accounts.Service().RequestCloseLink(context.Background(), panel, &web.Member{AccountHolderID: holder}, w.lang,
				accounts.Link{Origin: w.b.url(s.tenant.host, "")}))
			link := w.b.lastLinkTo(w.t, s.tenant.emails[a11yMember], w.b.url(s.tenant.host, "/close-account?token="))
			u, err := url.Parse(link)
			require.NoError(w.t, err)
			w.open(s, u.RequestURI())
			s.p().MustElement("#close-submit")
			w.check(s, "close the account") // and not closed: the walk's member walks on
		}},
		{name: "mobile", routes: []string{"/settings/mobile"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/settings/mobile")
			w.check(s, "mobile")
			fill(s.p(), map[string]string{"#f-phone": "12"})
			w.submit(s, "#mobile-send")
			s.p().MustElement("#f-phone[aria-invalid=true]")
			w.check(s, "mobile, refused")
		}},
		page("terms, accepted", "/terms", a11yMember, "/terms"),
		{name: "referrals", routes: []string{"/referrals"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/referrals")
			w.check(s, "referrals")
			w.submit(s, "form[action='/referrals'] button[type=submit]") // no address: refused
			s.p().MustElement("#f-email[aria-invalid=true]")
			w.check(s, "referrals, refused")
		}},
		{name: "offers and games", routes: []string{"/offers", "/offers/view/:id"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			w.open(s, "/offers")
			w.check(s, "offers and games")
			w.open(s, *s.p().MustElement(".offer-card a.button").MustAttribute("href"))
			s.p().MustElement("#offer-start")
			w.check(s, "an offer")
		}},
		{name: "a partner's code, member", routes: []string{"/affiliates/:code"}, who: a11yMember, run: func(w *a11yWalk, s *a11ySession) {
			_, code := a11yReferral(s.tenant.key)
			w.open(s, "/affiliates/"+code)
			if s.p().MustHas("#affiliate-accept") { // the first language: accepted here, so the next ones show it accepted
				w.check(s, "a partner's code, to accept")
				w.submit(s, "#affiliate-accept")
			}
			s.p().MustElement(".affiliate-state")
			w.check(s, "a partner's code, accepted")
		}},

		// A member who has just joined.
		{name: "feed, welcome campaign first", routes: []string{"/feed"}, who: a11yNewcomer, only: "demo", // Northwind holds the newcomer at its terms gate
			run: func(w *a11yWalk, s *a11ySession) {
				w.open(s, "/feed")
				w.check(s, "feed, welcome campaign first")
			}},
		page("accept terms", "/accept-terms-and-conditions", a11yNewcomer, "/accept-terms-and-conditions"),
		{name: "referrals, not eligible yet", routes: []string{"/referrals"}, who: a11yNewcomer, only: "demo", // Northwind holds the newcomer at its terms gate
			run: func(w *a11yWalk, s *a11ySession) {
				w.open(s, "/referrals")
				s.p().MustElement(".referral-not-eligible")
				w.check(s, "referrals, not eligible yet")
			}},
		page("validate email", "/validate-email", a11yNewcomer, "/validate-email"),

		// A suspended member.
		page("suspended", "/suspended", a11ySuspended, "/suspended"),
	}
}

// onboarding walks Northwind's onboarding as a new identity: its start without one, each
// campaign in the survey box (a question, a refused plain answer, the thank-you), and its last
// step asking for the email X did not give. It signs in anew in each language (another userId
// resets the onboarding) and never finishes, so the identity stays new.
func (w *a11yWalk) onboarding(s *a11ySession) {
	t, p, suffix := w.t, s.p(), ""
	if s.noScript {
		suffix = " without JavaScript"
	}
	p.MustSetCookies() // the last language's onboarding is still in progress: start afresh
	w.open(s, "/onboarding")
	w.check(s, "onboarding, start"+suffix)
	crossSubmit(t, p, ".sign-in-twitter")
	crossSubmit(t, p, "button[name=subject][value='"+noEmail.Subject+"']")
	require.Equal(t, "/onboarding/campaigns/"+nwHousehold, path(p))
	if s.noScript {
		w.submit(s, "form.survey-question button[type=submit]") // nothing chosen: refused
		p.MustElement(".survey-question .form-error")
		w.check(s, "onboarding, answer refused"+suffix)
	} else {
		w.waitSurveyBox(s)
		w.check(s, "onboarding, survey box")
	}
	// The rest is answered through the panel host's API, from the page (its cookies).
	panel, err := w.b.app.Tenancy.PanelByKey(t.Context(), s.tenant.key)
	require.NoError(t, err)
	for _, a := range [][3]string{
		{nwHousehold, "household_size", `"two"`}, {nwHousehold, "pets", `["dog"]`},
		{nwFinal, "heard_from", `"social"`}, {nwFinal, "invitations", `"daily"`},
	} {
		status := p.MustEval(`async (url, body) => (await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body})).status`,
			"/panel/"+panel.ID+"/onboarding/campaigns/"+a[0]+"/"+a[1], `{"data":{"answer":`+a[2]+`}}`).Int()
		require.Equal(t, http.StatusOK, status, "%s %s", a[0], a[1])
	}
	w.open(s, "/onboarding/campaigns/"+nwFinal)
	if !s.noScript {
		w.waitSurveyBox(s)
	}
	w.check(s, "onboarding, thank-you"+suffix)
	w.open(s, "/onboarding")
	p.MustElement("form[action='/onboarding/complete'] #f-email")
	w.check(s, "onboarding, last step"+suffix)
}

// settingsSections walks the settings page's sections in their refused and filled states: a
// username refused, "about you" refused, the postcodes the Find button found (an htmx swap with
// JavaScript, the whole page without), a picture uploaded (then deleted again), and closing
// refused without the tick.
func (w *a11yWalk) settingsSections(s *a11ySession) {
	t, suffix := w.t, ""
	if s.noScript {
		suffix = " without JavaScript"
	}
	w.open(s, "/settings")
	fill(s.p(), map[string]string{"#f-username": "a b"})
	w.submit(s, "form[action='/settings/username'] button[type=submit]")
	s.p().MustElement("#f-username[aria-invalid=true]")
	w.check(s, "settings, username refused"+suffix)

	w.open(s, "/settings")
	fill(s.p(), map[string]string{"#f-householdSize": "0", "#f-smartFuelCard": "<b>"})
	w.submit(s, "form[action='/settings/about'] button[type=submit]")
	s.p().MustElement("#f-householdSize[aria-invalid=true]")
	w.check(s, "settings, about you refused"+suffix)

	w.open(s, "/settings")
	fill(s.p(), map[string]string{"#f-postcode": s.tenant.postcode})
	if s.noScript {
		w.submit(s, "#postcode-find")
	} else {
		s.p().MustElement("#postcode-find").MustClick()
	}
	s.p().MustElement("fieldset.postcode-results input[type=radio]")
	w.check(s, "settings, postcodes found"+suffix)

	w.open(s, "/settings")
	photo := filepath.Join(t.TempDir(), "me.jpg")
	require.NoError(t, os.WriteFile(photo, imagetest.JPEG(imagetest.Quadrants(120, 90)), 0o600))
	s.p().MustElement("#f-file").MustSetFiles(photo)
	w.submit(s, "form[action='/settings/pictures'] button[type=submit]")
	s.p().MustElement(".topbar-pic img")
	w.check(s, "settings, with a picture"+suffix)
	w.submit(s, ".picture-delete")

	fill(s.p(), map[string]string{"#close #f-password": "not-the-password-1"})
	w.submit(s, "#close-submit") // not ticked: refused before the password is even read
	s.p().MustElement("#f-confirm[aria-invalid=true]")
	w.check(s, "settings, closing refused"+suffix)
}

// memberHolder is the tenant's panel and its walking member's account holder id.
func (w *a11yWalk) memberHolder(s *a11ySession) (*web.Panel, string) {
	panel, err := w.b.app.Tenancy.PanelByKey(context.Background(), s.tenant.key)
	require.NoError(w.t, err)
	var ids []string
	require.NoError(w.t, w.b.db.Model(&accounts.AccountHolder{}).Where("panel_id = ? AND email_normalized = ?", panel.ID, accounts.NormalizeEmail(s.tenant.emails[a11yMember])).Pluck("id", &ids).Error)
	require.Len(w.t, ids, 1)
	return panel, ids[0]
}

// lastLinkTo is the first link starting with prefix in the newest mail to an address that has one.
func (b *browserEnv) lastLinkTo(t *testing.T, to, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		msgs := b.smtp.Messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			if len(msgs[i].To) == 1 && strings.EqualFold(msgs[i].To[0], to) {
				if link := mailertest.FirstLink(msgs[i].HTML, prefix); link != "" {
					return link
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no mail to %s with a link to %s", to, prefix)
	return ""
}

// a11yTenant is a demo tenant with the members and campaigns the walk needs.
type a11yTenant struct {
	key, code, host, name string
	langs                 []string
	emails                map[string]string // by who
	password              string
	ids                   map[string]string // campaign uuids by role
	resetToken            string
	postcode              string  // the start of one of the panel's postcodes
	api                   *client // the member's API client
	sessions              map[string]*a11ySession
}

// a11ySession is one browser page (its own cookies) seen by one kind of person on one tenant.
type a11ySession struct {
	tenant   *a11yTenant
	who      string
	noScript bool
	page     *rod.Page
}

// p is the session's page with a fresh browserStep deadline (a deadline is fixed when it is set).
func (s *a11ySession) p() *rod.Page { return s.page.Timeout(browserStep) }

// a11yFinding is one rule broken on one page state, tenant, language and width.
type a11yFinding struct {
	axeViolation
	page, tenant, lang string
	width              int
}

// a11yWalk is the walk under way: the language it is in, and what axe found so far.
type a11yWalk struct {
	t        *testing.T
	b        *browserEnv
	src      string
	lang     string
	widths   []int // a11yWidthsIn the walk's language
	findings []a11yFinding
	runs     int
	axeTime  time.Duration            // in axe-core and the reflow check
	took     map[string]time.Duration // by visit
	states   map[string]bool          // page state × tenant × language
	pages    map[string]bool          // page states
}

// open navigates the session's page to a path in the walk's language (?lang= becomes a cookie
// and, for a member, their language, and is removed by a redirect) and waits for its islands.
func (w *a11yWalk) open(s *a11ySession, path string) {
	w.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	p := s.p()
	p.MustNavigate(w.b.url(s.tenant.host, path+sep+"lang="+w.lang)).MustWaitLoad()
	w.settle(s)
	require.Equal(w.t, w.lang, p.MustEval(`() => document.documentElement.lang`).String(), "%s on %s", path, s.tenant.key)
}

// submit presses a form's button and waits for the page it leads to.
func (w *a11yWalk) submit(s *a11ySession, selector string) {
	w.t.Helper()
	submit(s.p(), selector)
	w.settle(s)
}

// settle waits until every island on the page has mounted (or given up).
func (w *a11yWalk) settle(s *a11ySession) {
	if s.noScript {
		return
	}
	s.p().MustWait(`() => [...document.querySelectorAll('[data-island]')].every((el) => ['mounted', 'failed'].includes(el.dataset.islandState))`)
}

// waitSurveyBox waits until the survey box shows its question or outcome, not its spinner.
func (w *a11yWalk) waitSurveyBox(s *a11ySession) {
	s.p().MustWait(`() => { const box = document.querySelector('[data-island="survey-box"][data-island-state="mounted"]')
		return !!box && !box.querySelector('.spinner') && !!box.querySelector('.survey-question, .thank-you, .sb-widget, [role=status]') }`)
}

// check runs axe over the whole document at each width and keeps what it finds.
func (w *a11yWalk) check(s *a11ySession, page string) {
	w.t.Helper()
	for _, width := range w.widths {
		atWidth(w.t, s.p(), width) // each width its own deadline; axeRun sets its own
		began := time.Now()
		found := axeRun(w.t, s.page, w.src, "")
		if v := reflowRun(w.t, s.p()); v != nil {
			found = append(found, *v)
		}
		found = append(found, layoutRun(w.t, s.p())...)
		w.axeTime += time.Since(began)
		if dir := os.Getenv("CANVASS_SCREENSHOTS"); dir != "" {
			name := a11yFileName.ReplaceAllString(fmt.Sprintf("a11y-%s-%s-%d-%s", s.tenant.key, w.lang, width, page), "-")
			s.p().MustScreenshotFullPage(filepath.Join(dir, name+".png"))
		}
		for _, v := range found {
			for i := range v.Nodes {
				// A card's or a question's id is a uuid: the same element on each card reads alike.
				v.Nodes[i].Target = a11yUUID.ReplaceAllString(v.Nodes[i].Target, "*")
			}
			w.findings = append(w.findings, a11yFinding{axeViolation: v, page: page, tenant: s.tenant.name, lang: w.lang, width: width})
		}
		w.runs++
	}
	w.states[page+"|"+s.tenant.key+"|"+w.lang] = true
	w.pages[page] = true
}

// everyControl walks the tenant's copy of "Every control" for the walk's language: each of
// the 24 answer controls in the survey box, answered through the API between checks.
func (w *a11yWalk) everyControl(s *a11ySession) { w.controls(s, false) }

// everyPlainControl is everyControl without JavaScript: the server's plain forms.
func (w *a11yWalk) everyPlainControl(s *a11ySession) { w.controls(s, true) }

func (w *a11yWalk) controls(s *a11ySession, plain bool) {
	t := w.t
	role, page := "controls:"+w.lang, "survey box: "
	if plain {
		role, page = "plain controls:"+w.lang, "survey box without JavaScript: "
	}
	id := s.tenant.ids[role]
	base := "/api/v1/" + s.tenant.code + "/campaigns/" + id
	g := decodeJSON[goResultJSON](t, s.tenant.api.get(base+"/go"), http.StatusOK)
	seen := map[string]bool{}
	for i := 0; g.Question != nil && i < 40; i++ {
		if ct := g.Question.ControlType; !seen[ct] {
			seen[ct] = true
			w.open(s, "/survey/"+id)
			if !plain {
				s.p().MustWait(`() => !!document.querySelector('[data-island="survey-box"] .survey-question [aria-labelledby], [data-island="survey-box"] .survey-question input, [data-island="survey-box"] .survey-question select') && !document.querySelector('[data-island="survey-box"] .spinner')`)
			}
			w.check(s, page+ct)
			if ct == campaigns.ControlLocation && !plain {
				// The postcode search with its suggestions open and one of them active.
				p := s.p()
				p.MustElement(`[data-island="survey-box"] input[role=combobox]`).MustInput(s.tenant.postcode)
				p.MustElement(`[data-island="survey-box"] [role=listbox] [role=option]`)
				p.Keyboard.MustType(input.ArrowDown)
				p.MustElement(`[data-island="survey-box"] [role=option][aria-selected=true]`)
				w.check(s, "survey box: location, suggestions open")
			}
		}
		g = decodeJSON[goResultJSON](t, s.tenant.api.postJSON(base+"/question/"+g.Question.ID, answerFor(t, w.b.env, id, g.Question.ID)), http.StatusOK)
	}
	var missing []string
	for _, ct := range campaigns.ControlTypes {
		if !seen[ct] {
			missing = append(missing, ct)
		}
	}
	assert.Empty(t, missing, "every control was checked on %s in %s", s.tenant.key, w.lang)
}

// session is the tenant's browser page for one kind of person (in frames or not), signed
// in on first use.
func (w *a11yWalk) session(tn *a11yTenant, v a11yVisit) *a11ySession {
	key := v.who
	if v.embed {
		key += " (embedded)"
	}
	if v.noScript {
		key += " (without JavaScript)"
	}
	if s := tn.sessions[key]; s != nil {
		return s
	}
	who := v.who
	s := &a11ySession{tenant: tn, who: who, noScript: v.noScript, page: w.b.page(w.t, "about:blank").CancelTimeout()}
	blockVideos(s.page)
	if v.noScript {
		router := s.page.HijackRequests()
		router.MustAdd("*/static/dist/*.js", func(h *rod.Hijack) { h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) })
		go router.Run()
		w.t.Cleanup(func() { _ = router.Stop() })
	}
	if who != a11yVisitor && who != a11yOnboarding && who != a11yWidget {
		p := s.p()
		p.MustNavigate(w.b.url(tn.host, "/login")).MustWaitLoad()
		fill(p, map[string]string{"#f-email": tn.emails[who], "#f-password": tn.password})
		submit(p, "button[type=submit]")
		if path(p) == "/login" {
			// Say what the page said (a refusal, a limit), so a failure here can be told apart.
			w.t.Logf("sign-in page of %s after submitting: %.600s", tn.key, p.MustElement("main").MustText())
		}
		require.NotEqual(w.t, "/login", path(p), "%s signs in on %s", who, tn.key)
	}
	tn.sessions[key] = s
	return s
}

// a11yImport imports a campaign of one radio question into a panel and returns its uuid.
func a11yImport(t *testing.T, e *env, panelKey, name string, edit ...func(*campaigns.Definition)) string {
	t.Helper()
	def := &campaigns.Definition{UUID: uuid.NewString(), Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": name},
		Description: campaigns.Text{"en": "A short survey for the accessibility walk."}, Reward: "0.50", EstimatedMinutes: 2, Priority: 900,
		Questions: []campaigns.Question{choiceQuestion("season", "Which season do you like best?", "winter", "summer")}}
	for _, f := range edit {
		f(def)
	}
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), panelKey)
	require.NoError(t, err)
	_, err = e.app.Campaigns.Import(t.Context(), panel, []*campaigns.Definition{def})
	require.NoError(t, err)
	return def.UUID
}

func a11yDraw(d *campaigns.Definition) {
	drawAt := time.Now().UTC().AddDate(0, 1, 0).Truncate(time.Hour)
	d.Type = campaigns.TypeCompetition
	d.Competition = &campaigns.Competition{Prize: campaigns.Text{"en": "a gift card"}, PrizeAmount: "50.00", Winners: 1, DrawAt: &drawAt,
		Terms: campaigns.Text{"en": "One winner, drawn at random from the members who enter."}}
	d.ThankYou = campaigns.ThankYou{Kind: campaigns.ThankYouCompetitionInvitation, Title: campaigns.Text{"en": "Thanks for your answers!"}}
}

var (
	a11yFileName   = regexp.MustCompile(`[^A-Za-z0-9_-]+`)
	a11yUUID       = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	a11yResetToken = regexp.MustCompile(`reset-password\?token=([A-Za-z0-9_\-.~%]+)`)
)

// setUp creates the tenant's members and campaigns, and brings each campaign to the state a
// visit checks: completed (thank-you), completed competitions (entered or not).
func (w *a11yWalk) setUp(tn *a11yTenant) {
	t, e, ctx := w.t, w.b.env, context.Background()
	panel, err := e.app.Tenancy.PanelByKey(ctx, tn.key)
	require.NoError(t, err)
	svc := e.app.Accounts.Service()
	for who, email := range tn.emails {
		if email == DemoEmail {
			continue
		}
		md := accounts.Metadata{"welcomeCampaignCompleted": who != a11yNewcomer}
		require.NoError(t, svc.EnsureMember(ctx, panel, accounts.RegisterInput{Email: email, Password: tn.password, FirstName: "Alex", AcceptTerms: true, LanguageCode: "en"}, md))
		change := map[string]any{}
		switch who {
		case a11yNewcomer:
			change = map[string]any{"accepted_terms_at": nil, "email_validated_at": nil}
		case a11ySuspended:
			change = map[string]any{"status": accounts.StatusSuspended}
		}
		if len(change) > 0 {
			require.NoError(t, e.db.Model(&accounts.AccountHolder{}).Where("panel_id = ? AND email_normalized = ?", panel.ID, accounts.NormalizeEmail(email)).Updates(change).Error)
		}
	}
	// The member's API client, which moves the survey box between the page's checks.
	tn.api = e.client(tn.host)
	require.Equal(t, http.StatusSeeOther, tn.api.login(tn.emails[a11yMember], tn.password).StatusCode)

	tn.ids = map[string]string{
		"invitation":  a11yImport(t, e, tn.key, "A walk in the park"),
		"draw":        a11yImport(t, e, tn.key, "Spring prize draw", a11yDraw),
		"thanks":      a11yImport(t, e, tn.key, "Quick thoughts"),
		"drawDone":    a11yImport(t, e, tn.key, "Summer prize draw", a11yDraw),
		"drawEntered": a11yImport(t, e, tn.key, "Autumn prize draw", a11yDraw),
		"widget":      a11yImport(t, e, tn.key, "One quick question"),
		"refused":     a11yImport(t, e, tn.key, "Seasons"),
	}
	tn.ids["controls:"+w.lang] = everyControlIn(t, e, tn.key, uuid.NewString())
	tn.ids["plain controls:"+w.lang] = everyControlIn(t, e, tn.key, uuid.NewString())
	decodeJSON[goResultJSON](t, tn.api.get("/api/v1/"+tn.code+"/campaigns/"+tn.ids["refused"]+"/go"), http.StatusOK) // started
	for _, role := range []string{"thanks", "drawDone", "drawEntered"} {
		base := "/api/v1/" + tn.code + "/campaigns/" + tn.ids[role]
		decodeJSON[goResultJSON](t, tn.api.get(base+"/go"), http.StatusOK)
		g := decodeJSON[goResultJSON](t, tn.api.postJSON(base+"/question/season", `{"answer":"winter"}`), http.StatusOK)
		require.Equal(t, "completed", g.CampaignStatus)
	}
	res := tn.api.decide("/api/v1/" + tn.code + "/campaigns/" + tn.ids["drawEntered"] + "/enter-competition/" + campaigns.CompetitionID(tn.ids["drawEntered"]))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)

	if tn.key == "northwind" {
		// Northwind's member has asked for a code: the mobile page shows the code form.
		pid, err := svc.ParticipantByEmail(ctx, panel, tn.emails[a11yMember])
		require.NoError(t, err)
		_, err = e.app.Mobile.Service().Send(ctx, panel, pid, "en", "+447700900461", "", "country")
		require.NoError(t, err)
	}

	// A reset link for the member, mailed as the forgot-password form would have it.
	visitor := e.client(tn.host)
	visitor.get("/forgot-password")
	visitor.postForm("/forgot-password", url.Values{"email": {tn.emails[a11yMember]}})
	mail := e.smtp.WaitFor(t, tn.emails[a11yMember], 30*time.Second)
	m := a11yResetToken.FindStringSubmatch(mail.Text + mail.HTML)
	require.NotNil(t, m, mail.Text)
	tn.resetToken, err = url.QueryUnescape(m[1])
	require.NoError(t, err)
	tn.sessions = map[string]*a11ySession{}
}

// a11yPageRoutes are the registered GET routes that are not API calls (the account host's,
// the panel instance's and the panel host's). Ask an app that is not
// listening: Fiber adds its HEAD routes when it starts, and reading them meanwhile is a race.
func a11yPageRoutes(app *App) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range app.Fiber.GetRoutes(true) {
		// /api/docs is the one page under /api/: the OpenAPI document for people.
		if r.Method != http.MethodGet || (strings.HasPrefix(r.Path, "/api/") && r.Path != "/api/docs") || strings.HasPrefix(r.Path, "/ah/api/") || strings.HasPrefix(r.Path, "/panel/") || seen[r.Path] {
			continue
		}
		seen[r.Path] = true
		out = append(out, r.Path)
	}
	sort.Strings(out)
	return out
}

// TestInChromiumAxeFindsNoWCAGViolationOnAnyPageInAnyLanguageOrWidth runs axe-core (WCAG
// 2.0-2.2, A and AA, every rule) and the reflow check on every visitor and member page, on both
// demo tenants, in every language of each panel: at 360 px and 1280 px in the panel's default
// language, at 360 px in the others (a11yWidthsIn says why), and lists everything it finds.
//
// Each tenant and language is a walk of its own, side by side with the others: its own
// server, database, members and campaigns, so no walk sees what another did. Within a walk
// each state is brought about once, then checked at each width by resizing the viewport (no
// reload; islands follow media queries). Every visitor or member kind keeps one browser page,
// signed in once. The survey box is checked for all 24 controls, with JavaScript and without.
func TestInChromiumAxeFindsNoWCAGViolationOnAnyPageInAnyLanguageOrWidth(t *testing.T) {
	t.Parallel()
	visits := a11yVisits()

	// Every page route is walked or skipped with its reason, and neither list names a route
	// the app does not have; the walk covers every language of each panel.
	e := newEnv(t, "sqlite")
	routes := a11yPageRoutes(e.app)
	walked := map[string]bool{}
	for _, v := range visits {
		for _, r := range v.routes {
			walked[r] = true
		}
	}
	for _, r := range routes {
		if !walked[r] && a11ySkipped[r] == "" {
			t.Errorf("GET %s renders a page the accessibility walk neither visits nor skips: add a visit to a11yVisits (or, if it renders no page, a reason to a11ySkipped) in app/a11y_walk_browser_test.go", r)
		}
	}
	for r := range walked {
		if !slices.Contains(routes, r) {
			t.Errorf("the accessibility walk visits %s, which is no registered GET route", r)
		}
	}
	for r := range a11ySkipped {
		if !slices.Contains(routes, r) {
			t.Errorf("the accessibility walk skips %s, which is no registered GET route", r)
		}
	}
	for _, tn := range a11yTenants() {
		panel, err := e.app.Tenancy.PanelByKey(t.Context(), tn.key)
		require.NoError(t, err)
		var langs []string
		for _, l := range panel.Languages {
			langs = append(langs, l.Code)
		}
		require.ElementsMatch(t, tn.langs, langs, "the walk covers every language of %s", tn.key)
		require.Contains(t, langs, panel.DefaultLanguage, "%s offers its default language", tn.key)

		for _, lang := range tn.langs {
			t.Run(tn.key+"/"+lang, func(t *testing.T) {
				t.Parallel()
				b := newBrowserEnv(t)
				b.withLocalSignIn(t) // the login, join and settings pages show the providers
				b.withLocalOffers(t) // both panels have offers and games
				tn := a11yTenantOf(tn.key)
				w := &a11yWalk{t: t, b: b, src: axeSource(t), lang: lang, widths: a11yWidthsIn(lang, panel.DefaultLanguage),
					took: map[string]time.Duration{}, states: map[string]bool{}, pages: map[string]bool{}}
				start := time.Now()
				w.setUp(tn)
				setUp := time.Since(start)
				for _, v := range visits {
					if v.only != "" && v.only != tn.key {
						continue
					}
					began := time.Now()
					v.run(w, w.session(tn, v))
					w.took[v.name] += time.Since(began)
				}
				w.finish(fmt.Sprintf("%d page states (%d visits) on %s in %s at %v px", len(w.pages), len(visits), tn.name, lang, w.widths), start, setUp)
			})
		}
	}
}

// finish logs what the walk checked and where its time went, and fails with every finding.
func (w *a11yWalk) finish(what string, start time.Time, setUp time.Duration) {
	t := w.t
	t.Logf("axe checked %s: %d axe runs in %s (set-up %s, axe %s)",
		what, w.runs, time.Since(start).Round(time.Second), setUp.Round(time.Second), w.axeTime.Round(time.Second))
	if len(w.took) > 0 {
		names := make([]string, 0, len(w.took))
		for name := range w.took {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool { return w.took[names[i]] > w.took[names[j]] })
		for i, name := range names {
			names[i] = fmt.Sprintf("%s %s", name, w.took[name].Round(100*time.Millisecond))
		}
		t.Logf("time by visit: %s", strings.Join(names, ", "))
	}
	if skip := axeSkipped(); len(skip) > 0 {
		t.Logf("CANVASS_A11Y_SKIP left out: %s", strings.Join(skip, ", "))
	}
	if len(w.findings) > 0 {
		t.Errorf("%s", a11yReport(w.findings))
	}
}

// a11yTenants are the two demo tenants as the walk meets them: their languages, the members
// it signs in as, and the start of one of their postcodes.
func a11yTenants() []*a11yTenant {
	return []*a11yTenant{
		{key: "demo", code: "demo", host: "localhost", name: "Canvass Demo", langs: []string{"en", "es"}, password: DemoPassword, postcode: "021",
			emails: map[string]string{a11yMember: DemoEmail, a11yNewcomer: "newcomer@demo.test", a11ySuspended: "suspended@demo.test"}},
		{key: "northwind", code: "northwind", host: "northwind.localhost", name: "Northwind", langs: []string{"en", "ru", "zh"}, password: "northwind-pass-1", postcode: "AB1",
			emails: map[string]string{a11yMember: "member@northwind.test", a11yNewcomer: "newcomer@northwind.test", a11ySuspended: "suspended@northwind.test"}},
	}
}

// a11yTenantOf is a fresh copy of the tenant of that key, for one walk to fill in.
func a11yTenantOf(key string) *a11yTenant {
	for _, tn := range a11yTenants() {
		if tn.key == key {
			return tn
		}
	}
	panic("no demo tenant " + key)
}

// a11yReport lists the findings by rule, then page, then element, with where each was seen,
// after a table of rules and nodes per page.
func a11yReport(findings []a11yFinding) string {
	type key struct{ rule, page string }
	nodes := map[key]map[string][]string{} // element -> where
	rules := map[string]axeViolation{}
	for _, f := range findings {
		rules[f.ID] = f.axeViolation
		k := key{f.ID, f.page}
		if nodes[k] == nil {
			nodes[k] = map[string][]string{}
		}
		where := fmt.Sprintf("%s %s %dpx", f.tenant, f.lang, f.width)
		for _, n := range f.Nodes {
			el := n.Target
			if n.Detail != "" {
				el += ": " + n.Detail
			}
			if !slices.Contains(nodes[k][el], where) {
				nodes[k][el] = append(nodes[k][el], where)
			}
		}
	}
	var sb strings.Builder
	// Per page: rules broken and distinct failing elements (occurrences over tenants, languages and widths).
	perPage := map[string][3]int{}
	for k, els := range nodes {
		c := perPage[k.page]
		c[0]++
		c[1] += len(els)
		for _, where := range els {
			c[2] += len(where)
		}
		perPage[k.page] = c
	}
	pages := make([]string, 0, len(perPage))
	for p := range perPage {
		pages = append(pages, p)
	}
	sort.Strings(pages)
	fmt.Fprintf(&sb, "axe-core found WCAG 2.0-2.2 A/AA violations on %d page states:\n", len(pages))
	for _, p := range pages {
		c := perPage[p]
		fmt.Fprintf(&sb, "  %-40s %d rules, %d elements (%d occurrences)\n", p, c[0], c[1], c[2])
	}
	ids := make([]string, 0, len(rules))
	for id := range rules {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		v := rules[id]
		fmt.Fprintf(&sb, "\n%s (%s): %s\n", id, v.Impact, v.Help)
		for _, p := range pages {
			els := nodes[key{id, p}]
			if len(els) == 0 {
				continue
			}
			fmt.Fprintf(&sb, "  %s\n", p)
			list := make([]string, 0, len(els))
			for el := range els {
				list = append(list, el)
			}
			sort.Strings(list)
			for _, el := range list {
				fmt.Fprintf(&sb, "    %s\n      on %s\n", el, strings.Join(els[el], ", "))
			}
		}
	}
	return sb.String()
}
