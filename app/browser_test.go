package main

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromiumPath is Debian's system Chromium; the tests never download a browser.
const chromiumPath = "/usr/bin/chromium"

// shared is one Chromium for the whole package: each test gets its own server, database and
// incognito context, so sharing the process only saves the launch.
var shared struct {
	once     sync.Once
	launcher *launcher.Launcher
	browser  *rod.Browser
	dir      string
	err      error
}

func sharedBrowser(t *testing.T) *rod.Browser {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "canvass-chromium-")
		if shared.err != nil {
			return
		}
		shared.launcher = launcher.New().Bin(chromiumPath).Headless(true).NoSandbox(true).Leakless(false).
			UserDataDir(shared.dir).
			Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
			Set("disable-sync").Set("no-first-run").
			// rod turns on disable-dev-shm-usage for containers whose /dev/shm is tiny; here it
			// made Chromium keep its shared memory in files under /tmp, on the disk.
			Delete("disable-dev-shm-usage")
		var controlURL string
		if controlURL, shared.err = shared.launcher.Launch(); shared.err != nil {
			return
		}
		shared.browser = rod.New().ControlURL(controlURL)
		shared.err = shared.browser.Connect()
	})
	require.NoError(t, shared.err, "launch %s", chromiumPath)
	return shared.browser
}

// closeSharedBrowser ends Chromium and removes its fresh user-data dir after the package's tests.
func closeSharedBrowser() {
	if shared.browser != nil {
		_ = shared.browser.Close()
	}
	if shared.launcher != nil {
		shared.launcher.Kill()
	}
	if shared.dir != "" {
		_ = os.RemoveAll(shared.dir)
	}
}

// browserEnv is a real server on a loopback port driven by headless Chromium.
type browserEnv struct {
	*env
	browser *rod.Browser
	port    int
}

func newBrowserEnv(t *testing.T) *browserEnv {
	t.Helper()
	requireBrowser(t)
	return serveInBrowser(t, newEnv(t, "sqlite"))
}

// browserSlots bounds the browser tests under way at once. Tests run side by side, and the
// machine's two cores are shared by Chromium's renderers, the servers under test and every
// other test: past a few pages at work at once, each page only waits longer for the cores,
// and a long page's axe-core pass went past browserStep. CANVASS_TEST_BROWSERS sets it.
var browserSlots = make(chan struct{}, browserSlotCount())

func browserSlotCount() int {
	if n, err := strconv.Atoi(os.Getenv("CANVASS_TEST_BROWSERS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// requireBrowser skips a browser test in -short mode or where Chromium is missing (fails it
// there with CANVASS_REQUIRE_BROWSER=1), then waits for a browser slot, held until the test ends.
func requireBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped in -short mode")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CANVASS_REQUIRE_BROWSER") == "1" {
			t.Fatalf("CANVASS_REQUIRE_BROWSER=1 but %s is missing", chromiumPath)
		}
		t.Skipf("%s is not installed (apt-get install chromium)", chromiumPath)
	}
	browserSlots <- struct{}{}
	t.Cleanup(func() { <-browserSlots })
}

// serveInBrowser serves the env's app on a loopback port for the shared Chromium.
func serveInBrowser(t *testing.T, e *env) *browserEnv {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = e.app.Fiber.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
	t.Cleanup(func() { _ = e.app.Fiber.Shutdown() })
	return &browserEnv{env: e, browser: sharedBrowser(t), port: ln.Addr().(*net.TCPAddr).Port}
}

// url is an address on one of the demo hosts (Chromium resolves *.localhost to loopback).
func (b *browserEnv) url(host, path string) string {
	return fmt.Sprintf("http://%s:%d%s", host, b.port, path)
}

// browserStep bounds each step of a browser test (a navigation, a wait, an evaluation) so a
// hung page fails instead of holding the run. It guards against hangs, not slowness: CI runs
// packages side by side on two cores, where one axe-core pass over a long page under the race
// detector has taken longer than 30 s.
const browserStep = 90 * time.Second

// page opens a fresh incognito page (its own cookies) at the address.
func (b *browserEnv) page(t *testing.T, address string) *rod.Page {
	t.Helper()
	incognito, err := b.browser.Incognito()
	require.NoError(t, err)
	t.Cleanup(func() { _ = incognito.Close() })
	p, err := incognito.Page(proto.TargetCreateTarget{URL: address})
	require.NoError(t, err)
	// A Must step that fails fails this test. Left as rod's panic, one test's failed step
	// ended the whole test process, and every test under way with it went unreported.
	p = p.Timeout(browserStep).WithPanic(func(v any) {
		t.Helper()
		t.Fatalf("browser: %v", v)
	})
	p.MustWaitLoad()
	return p
}

// atWidth sets the page's viewport to a width: a phone's (740 px high, mobile) below 600 px,
// else a laptop's (800 px high). The accessibility walk checks each state at its widths so.
func atWidth(t *testing.T, p *rod.Page, width int) {
	t.Helper()
	require.NoError(t, viewport(width).Call(p))
}

// viewport is a phone's screen below 600 px (360×740, as a common phone), else a laptop's.
func viewport(width int) proto.EmulationSetDeviceMetricsOverride {
	height := 800
	if width < 600 {
		height = 740
	}
	return proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: 1, Mobile: width < 600}
}

// submit clicks a button and waits for the page it leads to.
func submit(p *rod.Page, selector string) {
	leave(p, selector, func() { p.MustElement(selector).MustClick() })
}

// leave does what leads away from the page (what names it in a failure) and waits for the
// page it leads to. The page being left is marked: WaitNavigation has returned on a lifecycle
// event of that page under load (CI read a field of the old page; a reload's late event ended
// the wait for the next click), so the new document is the one without the mark. Evaluations
// during the switch fail and are tried again.
func leave(p *rod.Page, what string, action func()) {
	p.MustEval(`() => { window.__leaving = true }`)
	wait := p.MustWaitNavigation()
	action()
	wait()
	for deadline := time.Now().Add(browserStep); ; time.Sleep(20 * time.Millisecond) {
		res, err := p.Eval(`() => window.__leaving !== true && document.readyState === 'complete'`)
		if err == nil && res.Value.Bool() {
			return
		}
		if time.Now().After(deadline) {
			panic(fmt.Sprintf("leave by %s: no new page within %v (last error: %v)", what, browserStep, err))
		}
	}
}

func fill(p *rod.Page, fields map[string]string) {
	for sel, v := range fields {
		p.MustElement(sel).MustSelectAllText().MustInput(v)
	}
}

func path(p *rod.Page) string {
	u, _ := url.Parse(p.MustInfo().URL)
	return u.RequestURI()
}

func TestInChromiumANewMemberJoinsAndLandsOnTheFeed(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/join"))
	fill(p, map[string]string{"#f-firstName": "Rita", "#f-email": "rita@demo.test", "#f-password": "rita-password-1"})
	submit(p, "button[type=submit]")
	assert.Equal(t, "/feed", path(p))
	assert.Equal(t, "Your surveys · Canvass Demo - development", p.MustInfo().Title)
	assert.True(t, p.MustHas("nav.nav a[href='/logout']"))
}

func TestInChromiumAPrivateLinkLeadsThroughLoginAndBack(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/feed?tab=new"))
	assert.Equal(t, "/login?redirect=%2Ffeed%3Ftab%3Dnew", path(p))
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	submit(p, "button[type=submit]")
	assert.Equal(t, "/feed?tab=new", path(p))

	wait := p.MustWaitNavigation()
	p.MustElement("a[href='/logout']").MustClick()
	wait()
	assert.Equal(t, "/logout", path(p))
	assert.Contains(t, p.MustElement("h1").MustText(), "logged out")
	p.MustNavigate(b.url("localhost", "/feed")).MustWaitLoad()
	assert.Equal(t, "/login?redirect=%2Ffeed", path(p), "the session is over")
}

func TestInChromiumAWrongPasswordShowsAnErrorAndKeepsTheEmail(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/login"))
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": "not-the-password"})
	submit(p, "button[type=submit]")
	assert.Contains(t, p.MustElement(".form-error").MustText(), "didn't work")
	assert.Equal(t, DemoEmail, p.MustElement("#f-email").MustProperty("value").String())
}

func TestInChromiumAForgottenPasswordIsResetThroughTheMailedLink(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/login"))
	wait := p.MustWaitNavigation()
	p.MustElement("a[href='/forgot-password']").MustClick()
	wait()
	fill(p, map[string]string{"#f-email": DemoEmail})
	submit(p, "button[type=submit]")
	assert.Contains(t, p.MustElement(".notice").MustText(), "reset link is on its way")

	mail := b.smtp.WaitFor(t, DemoEmail, 30*time.Second)
	link := mailertest.FirstLink(mail.HTML, b.url("localhost", "/reset-password?token="))
	require.NotEmpty(t, link, mail.HTML)
	p.MustNavigate(link).MustWaitLoad()
	fill(p, map[string]string{"#f-password": "fresh-password-9"})
	submit(p, "button[type=submit]")
	assert.Equal(t, "/login", path(p))
	assert.Contains(t, p.MustElement(".toasts .toast--success").MustText(), "Your password has been changed", "the server flash becomes a toast")

	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": "fresh-password-9"})
	submit(p, "button[type=submit]")
	assert.Equal(t, "/feed", path(p))

	p.MustNavigate(link).MustWaitLoad()
	assert.Equal(t, "/feed", path(p), "a member is sent away from the public-only reset page")
}

func TestInChromiumLangEsSwitchesTheLanguageAndIsRemoved(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/login?lang=es"))
	assert.Equal(t, "/login", path(p))
	assert.Equal(t, "es", *p.MustElement("html").MustAttribute("lang"))
	assert.Equal(t, "Iniciar sesión", p.MustElement("h1").MustText())
	p.MustNavigate(b.url("localhost", "/join")).MustWaitLoad()
	assert.Equal(t, "Crear tu cuenta", p.MustElement("h1").MustText(), "the choice is remembered")
}

func TestInChromiumNorthwindShowsItsOwnBrandLanguagesAndTermsGate(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("northwind.localhost", "/join"))
	assert.Equal(t, "Create your account · Northwind Rewards - development", p.MustInfo().Title)
	primary := p.MustEval(`() => getComputedStyle(document.querySelector('.public-head')).backgroundColor`).String()
	assert.Equal(t, "rgb(31, 58, 95)", primary, "Northwind's primary colour #1F3A5F")
	cta := p.MustEval(`() => getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor`).String()
	assert.Equal(t, "rgb(224, 122, 31)", cta, "Northwind's CTA colour #E07A1F")
	var langs []string
	for _, el := range p.MustElements(".langs .lang") {
		langs = append(langs, el.MustText())
	}
	assert.Equal(t, []string{"English", "Русский", "中文"}, langs)

	fill(p, map[string]string{"#f-email": "nw-member@demo.test", "#f-password": "northwind-pass-1"})
	submit(p, "button[type=submit]")
	assert.Equal(t, "/accept-terms-and-conditions", path(p), "the token and lang are stripped from the gate's address")
	assert.Equal(t, "Terms and conditions", p.MustElement("h1").MustText())
	submit(p, "form button[type=submit]")
	assert.Equal(t, "/validate-email", path(p))

	mail := b.smtp.WaitFor(t, "nw-member@demo.test", 30*time.Second)
	link := mailertest.FirstLink(mail.Text, b.url("northwind.localhost", "/validate-email/confirm?token="))
	require.NotEmpty(t, link, mail.Text)
	p.MustNavigate(link).MustWaitLoad()
	assert.Equal(t, "/email-validation-done", path(p))
	wait := p.MustWaitNavigation()
	p.MustElement("a.button").MustClick()
	wait()
	assert.Equal(t, "/feed", path(p))
}

func TestInChromiumTheErrorPageShowsItsQueryParameters(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url("localhost", "/error?title=Lost&desc=Nothing+here&btn=Go+home"))
	assert.Equal(t, "Lost", p.MustElement("h1").MustText())
	assert.Equal(t, "Nothing here", p.MustElement(".error-desc").MustText())
	btn := p.MustElement("a.button")
	assert.Equal(t, "Go home", btn.MustText())
	assert.Equal(t, "/", *btn.MustAttribute("href"))
	width := p.MustEval(`() => document.querySelector('.sad-face').getBoundingClientRect().width`).Num()
	assert.LessOrEqual(t, width, 330.0)
	colour := p.MustEval(`() => getComputedStyle(document.querySelector('.sad-face')).color`).String()
	assert.Equal(t, "rgb(26, 192, 180)", colour, "the graphic is drawn in the panel's CTA colour")

	p.MustNavigate(b.url("localhost", "/error")).MustWaitLoad()
	assert.Equal(t, "Oops! An unknown error occurred!", p.MustElement("h1").MustText())
}
