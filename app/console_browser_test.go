package main

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleOpen navigates to a console page and waits for it.
func (b *browserEnv) consoleOpen(p *rod.Page, path string) {
	p.MustNavigate(b.url(consoleHost, path)).MustWaitLoad()
}

// consoleSignIn fills the console's login form and sends it.
func consoleSignIn(p *rod.Page, email, password string) {
	fill(p, map[string]string{"#f-email": email, "#f-password": password})
	submit(p, "form[action='/console/login'] button[type=submit]")
}

// consoleEnrol reads the secret the enrol page shows, and confirms it with a code computed
// from it as an authenticator would.
func consoleEnrol(t *testing.T, p *rod.Page) string {
	t.Helper()
	secret := p.MustElement("#totp-secret").MustText()
	require.Regexp(t, `^[A-Z2-7]{16,}$`, secret)
	assert.Contains(t, p.MustElement("#totp-uri").MustText(), "secret="+secret)
	fill(p, map[string]string{"#f-code": totpCode(t, secret)})
	submit(p, "form[action='/console/totp/enrol'] button[type=submit]")
	return secret
}

func TestInChromiumTheDemoOwnerEnrolsTOTPAddsAnEditorAndSeesItInTheAuditLog(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url(consoleHost, "/console/"))
	assert.Equal(t, "/console/login", path(p), "signed out, the console asks for a sign-in")

	consoleSignIn(p, "owner@ops.demo.test", "console-owner-1")
	assert.Equal(t, "/console/", path(p))
	rows := p.MustElement("table.console-table tbody").MustText()
	assert.Contains(t, rows, "Canvass Demo")
	assert.Contains(t, rows, "Northwind")

	// Enrol TOTP from the home page's link.
	wait := p.MustWaitNavigation()
	p.MustElement("a[href='/console/totp/enrol']").MustClick()
	wait()
	p.MustWaitLoad()
	secret := consoleEnrol(t, p)
	codes := p.MustElements("#recovery-codes li code")
	require.Len(t, codes, console.RecoveryCodes, "the recovery codes are shown once")
	wait = p.MustWaitNavigation()
	p.MustElement("main a.button[href='/console/']").MustClick()
	wait()
	p.MustWaitLoad()
	assert.Contains(t, p.MustElement("main").MustText(), "Two-factor sign-in is on. Recovery codes left: 10.")

	// Add an editor to Canvass Demo.
	wait = p.MustWaitNavigation()
	p.MustElement("a[href='/console/panels/demo/operators']").MustClick()
	wait()
	p.MustWaitLoad()
	fill(p, map[string]string{"#f-email": "journey.editor@example.test"})
	p.MustElement("#f-role").MustSelect("editor")
	submit(p, "form[action='/console/panels/demo/operators'] button[type=submit]")
	assert.Regexp(t, `^[a-z2-7]{20}$`, p.MustElement("#new-password").MustText(), "the new editor's password, shown once")
	assert.Contains(t, p.MustElement("table.console-table tbody").MustText(), "journey.editor@example.test")

	// The audit log, filtered to Canvass Demo, records it.
	b.consoleOpen(p, "/console/audit")
	p.MustElement("#f-panel").MustSelect("Canvass Demo")
	submit(p, "form[action='/console/audit'] button[type=submit]")
	assert.Equal(t, "/console/audit?panel=demo", path(p))
	first := p.MustElement("#audit-log tbody tr").MustText()
	assert.Contains(t, first, "operator.add")
	assert.Contains(t, first, "journey.editor@example.test")
	assert.Contains(t, first, "owner@ops.demo.test")
	assert.Contains(t, first, `"role":"editor"`)

	// Signing in again now takes a code from the authenticator.
	p2 := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p2, "owner@ops.demo.test", "console-owner-1")
	require.Equal(t, "/console/login/totp", path(p2))
	fill(p2, map[string]string{"#f-code": totpCode(t, secret)})
	submit(p2, "form[action='/console/login/totp'] button[type=submit]")
	assert.Equal(t, "/console/", path(p2))
}

// consoleA11ySkipped are the console's GET routes that render no page of their own.
var consoleA11ySkipped = map[string]string{
	"/":                            "redirects to /console/",
	"/console/audit.csv":           "the audit log as CSV, not a page",
	"/console/panels/:panel/audit": "redirects to the audit log of the panel",
}

// consoleA11yPages are the console's GET page routes the console's axe walk renders.
var consoleA11yPages = []string{
	"/console/login", "/console/login/totp", "/console/totp/enrol", "/console/",
	"/console/panels/:panel/operators", "/console/audit",
}

// consolePart is one part of the console in its axe walk: the GET routes it renders, those it
// skips (with why), and its visits, made signed in as an owner of both demo panels with TOTP
// enrolled, in each language. Each part's test file registers itself from an init function.
type consolePart struct {
	pages   []string
	skipped map[string]string
	visit   func(t *testing.T, w *a11yWalk, s *a11ySession)
}

var consoleParts = map[string]consolePart{}

// consoleWalked are every page route the walk visits and every route it skips, of all parts.
func consoleWalked() (pages []string, skipped map[string]string) {
	pages, skipped = slices.Clone(consoleA11yPages), maps.Clone(consoleA11ySkipped)
	for _, name := range slices.Sorted(maps.Keys(consoleParts)) {
		pages = append(pages, consoleParts[name].pages...)
		maps.Copy(skipped, consoleParts[name].skipped)
	}
	return pages, skipped
}

// TestInChromiumAxeFindsNoWCAGViolationOnAnyConsolePageInAnyLanguageOrWidth is the
// accessibility walk of the operator console (its own host, its own pages, its language from
// the browser's): axe-core (WCAG 2.0-2.2 A and AA) and the reflow check on every console page
// and its refusals, in every language of the app: at a phone's and a laptop's width in English,
// at the phone's in the others. A console GET route neither walked nor skipped fails it.
func TestInChromiumAxeFindsNoWCAGViolationOnAnyConsolePageInAnyLanguageOrWidth(t *testing.T) {
	t.Parallel()
	var routes []string
	for _, r := range newEnv(t, "sqlite").app.Console.Routes() {
		// The JSON API under console.APIPrefix renders no pages (the matrix and API tests cover it).
		if r.Method == http.MethodGet && !slices.Contains(routes, r.Path) && !strings.HasPrefix(r.Path, console.APIPrefix+"/") {
			routes = append(routes, r.Path)
		}
	}
	sort.Strings(routes)
	walked, skipped := consoleWalked()
	for _, r := range routes {
		if !slices.Contains(walked, r) && skipped[r] == "" {
			t.Errorf("GET %s on the console host renders a page the console's walk neither visits nor skips: add it to consoleA11yPages (and a visit below) or, if it renders no page, a reason to consoleA11ySkipped", r)
		}
	}
	for _, r := range append(slices.Clone(walked), slices.Collect(maps.Keys(skipped))...) {
		assert.Contains(t, routes, r, "the console's walk names a route the console has")
	}

	// Each language is a walk of its own, side by side: its own server and database. English,
	// the console's default, at both widths; the others at the phone's (a11yWidthsIn).
	for _, lang := range []string{"en", "es", "ru", "zh"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			consoleWalk(t, lang)
		})
	}
}

// consoleWalk is the console's accessibility walk in one language, signed in as an owner of
// both demo panels.
func consoleWalk(t *testing.T, lang string) {
	b := newBrowserEnv(t)
	ctx := t.Context()
	demo, err := b.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	northwind, err := b.app.Tenancy.PanelByKey(ctx, "northwind")
	require.NoError(t, err)
	start := time.Now()
	w := &a11yWalk{t: t, b: b, src: axeSource(t), lang: lang, widths: a11yWidthsIn(lang, "en"),
		took: map[string]time.Duration{}, states: map[string]bool{}, pages: map[string]bool{}}
	tn := &a11yTenant{key: "console", host: consoleHost, name: "Console"}
	// An owner of both demo panels per language: each enrols TOTP once.
	email := "axe-" + lang + "@ops.demo.test"
	for _, id := range []string{demo.ID, northwind.ID} {
		_, err := b.app.Console.Service().AddOperator(ctx, console.CLI, email, console.RoleOwner, id, "axe-password-1")
		require.NoError(t, err)
	}
	page := b.page(t, "about:blank").CancelTimeout()
	// The console's language is the browser's.
	ua := page.MustEval(`() => navigator.userAgent`).String()
	require.NoError(t, proto.EmulationSetUserAgentOverride{UserAgent: ua, AcceptLanguage: lang}.Call(page))
	s := &a11ySession{tenant: tn, who: "operator", page: page}
	p := s.p()

	w.open(s, "/console/login")
	w.check(s, "console: login")
	consoleSignIn(p, email, "not-the-password")
	w.check(s, "console: login, refused")
	consoleSignIn(s.p(), email, "axe-password-1")
	require.Equal(t, "/console/", path(s.p()))
	w.check(s, "console: home, without TOTP")

	w.open(s, "/console/totp/enrol")
	w.check(s, "console: enrol TOTP")
	fill(s.p(), map[string]string{"#f-code": "000000"})
	w.submit(s, "form[action='/console/totp/enrol'] button[type=submit]")
	w.check(s, "console: enrol TOTP, refused")
	w.open(s, "/console/totp/enrol")
	secret := consoleEnrol(t, s.p())
	w.check(s, "console: recovery codes")

	w.open(s, "/console/")
	w.check(s, "console: home")
	w.open(s, "/console/panels/demo/operators")
	w.check(s, "console: operators")
	fill(s.p(), map[string]string{"#f-email": "axe-added-" + lang + "@example.test"})
	w.submit(s, "form[action='/console/panels/demo/operators'] button[type=submit]")
	w.check(s, "console: operators, one added")
	fill(s.p(), map[string]string{"#f-email": "not-an-email"})
	// The browser's own check would stop an invalid address before the server sees it.
	s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
	w.submit(s, "form[action='/console/panels/demo/operators'] button[type=submit]")
	w.check(s, "console: operators, refused")
	w.open(s, "/console/audit")
	w.check(s, "console: audit log")
	w.open(s, "/console/audit?panel=northwind")
	w.check(s, "console: audit log of a panel")
	w.open(s, "/console/audit?panel=no-such-panel")
	w.check(s, "console: not found")
	for _, name := range slices.Sorted(maps.Keys(consoleParts)) {
		consoleParts[name].visit(t, w, s)
	}

	// Signed out, the second step of a sign-in.
	w.open(s, "/console/")
	w.submit(s, "form[action='/console/logout'] button[type=submit]")
	consoleSignIn(s.p(), email, "axe-password-1")
	require.Equal(t, "/console/login/totp", path(s.p()))
	w.check(s, "console: TOTP step")
	fill(s.p(), map[string]string{"#f-code": "000000"})
	w.submit(s, "form[action='/console/login/totp'] button[type=submit]")
	w.check(s, "console: TOTP step, refused")
	fill(s.p(), map[string]string{"#f-code": totpCode(t, secret)})
	w.submit(s, "form[action='/console/login/totp'] button[type=submit]")
	assert.Equal(t, "/console/", path(s.p()))
	w.finish(fmt.Sprintf("%d console page states in %s at %v px", len(w.pages), lang, w.widths), start, 0)
}
