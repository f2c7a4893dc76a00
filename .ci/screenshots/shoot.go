package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// chromiumPath is Debian's system Chromium, as the tests use; rod never downloads one.
const chromiumPath = "/usr/bin/chromium"

// shotTimeout bounds one picture (navigation, waits and capture), so a hung page fails the
// shot instead of holding the run.
const shotTimeout = 90 * time.Second

// Waits bound what a page may still be doing once loaded; past them the picture is taken as
// the page then is.
const (
	requestIdle    = 250 * time.Millisecond // no request for this long: an island's chunks and data have come
	requestIdleMax = 15 * time.Second
)

// framesJS runs in every document before its own scripts: it notes each iframe that has
// loaded, so settleJS waits only for the others.
const framesJS = `document.addEventListener('load', (e) => {
	if (e.target instanceof HTMLIFrameElement) (window.__loadedFrames ||= new WeakSet()).add(e.target)
}, true)`

// readyJS hides the text caret (its blink would differ from one picture to the next), waits
// for the page's islands to be mounted or failed (5 s at most) and tells how many there are.
const readyJS = `() => {
	const still = document.createElement('style')
	still.textContent = '*{caret-color:transparent !important}'
	document.head.appendChild(still)
	const islands = document.querySelectorAll('[data-island]').length
	return new Promise((ok) => {
		const done = () => !document.querySelector('[data-island]:not([data-island-state=mounted]):not([data-island-state=failed])')
		if (done()) return ok(islands)
		const t = setInterval(() => { if (done()) { clearInterval(t); ok(islands) } }, 20)
		setTimeout(() => { clearInterval(t); ok(islands) }, 5000)
	})
}`

// settleJS waits, once the islands' requests are done, for what a member waits for: fonts,
// images (lazy ones loaded now: the full-page picture shows them all) and iframes, 5 s at
// most; then for the page's size to hold for three frames running (2 s at most), and two
// frames more so the last of it is painted.
const settleJS = `async () => {
	const frame = () => new Promise((ok) => requestAnimationFrame(ok))
	const images = [...document.images].map((img) => {
		img.loading = 'eager'
		return img.complete ? null : img.decode().catch(() => {})
	})
	const loaded = window.__loadedFrames || new WeakSet()
	const iframes = [...document.querySelectorAll('iframe')].map((f) => {
		f.loading = 'eager'
		return loaded.has(f) ? null : new Promise((ok) => f.addEventListener('load', ok, {once: true}))
	})
	await Promise.race([Promise.all([document.fonts.ready, ...images, ...iframes]), new Promise((ok) => setTimeout(ok, 5000))])
	const root = document.documentElement
	for (let i = 0, last = '', same = 0; i < 120 && same < 3; i++) {
		await frame()
		const size = root.scrollWidth + 'x' + root.scrollHeight
		same = size === last ? same + 1 : 0
		last = size
	}
	await frame()
	await frame()
}`

// browser is one headless Chromium with a fresh profile.
type browser struct {
	launcher *launcher.Launcher
	rod      *rod.Browser
	dir      string
}

// launchBrowser starts Chromium as the app's browser tests do.
func launchBrowser() (*browser, error) {
	if _, err := os.Stat(chromiumPath); err != nil {
		return nil, fmt.Errorf("%s is missing (apt-get install chromium): %w", chromiumPath, err)
	}
	// The prefix names the profile (and the processes using it) if a crash leaves them behind.
	dir, err := os.MkdirTemp("", "canvass-screenshots-chromium-")
	if err != nil {
		return nil, err
	}
	b := &browser{dir: dir}
	b.launcher = launcher.New().Bin(chromiumPath).Headless(true).NoSandbox(true).Leakless(false).
		UserDataDir(dir).
		Set("disable-gpu").Set("disable-background-networking").Set("disable-component-update").
		Set("disable-sync").Set("no-first-run").
		// As in the tests: rod's default moves Chromium's shared memory to files on the disk.
		Delete("disable-dev-shm-usage").
		// Other sites (a survey's embedded video) fail at once, the same way on both sides and
		// on any machine: their content and load times are not the revisions' to compare.
		Set("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1")
	controlURL, err := b.launcher.Launch()
	if err != nil {
		b.close()
		return nil, fmt.Errorf("launch %s: %w", chromiumPath, err)
	}
	b.rod = rod.New().ControlURL(controlURL)
	if err := b.rod.Connect(); err != nil {
		b.close()
		return nil, fmt.Errorf("connect to %s: %w", chromiumPath, err)
	}
	return b, nil
}

func (b *browser) close() {
	if b.rod != nil {
		_ = b.rod.Close()
	}
	b.launcher.Kill()
	_ = os.RemoveAll(b.dir)
}

// camera is a page of one side: its own incognito context, so neither server's cookies reach
// the other (both are on 127.0.0.1).
type camera struct {
	page *rod.Page
	base string // the server's URL
}

func (b *browser) camera(base string) (*camera, error) {
	incognito, err := b.rod.Incognito()
	if err != nil {
		return nil, err
	}
	p, err := incognito.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		return nil, err
	}
	reduced := proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if err := reduced.Call(p); err != nil {
		return nil, err
	}
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: framesJS}).Call(p); err != nil {
		return nil, err
	}
	// On for good: each shot's request wait then neither turns it on nor off, and a wait not
	// waited for (a page without islands) leaves it as it was.
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		return nil, err
	}
	return &camera{page: p, base: base}, nil
}

// viewport is the app's browser tests' viewport: a phone's screen (740 px high, mobile) below
// 600 px, else a laptop's (800 px high).
func viewport(width int) proto.EmulationSetDeviceMetricsOverride {
	height := 800
	if width < 600 {
		height = 740
	}
	return proto.EmulationSetDeviceMetricsOverride{Width: width, Height: height, DeviceScaleFactor: 1, Mobile: width < 600}
}

// shoot is a full-page PNG of the shot's gallery page.
func (c *camera) shoot(ctx context.Context, s shot) ([]byte, error) {
	p := c.page.Context(ctx).Timeout(shotTimeout)
	defer p.CancelTimeout()
	address := c.base + s.address()
	vp := viewport(s.Width)
	if err := p.SetViewport(&vp); err != nil {
		return nil, fmt.Errorf("set the viewport: %w", err)
	}
	// Listening from before the navigation: an island is mounted before the chunk of its
	// control and the data it asks for have come. A page without islands asks for nothing
	// once loaded, and is not waited for.
	ip := p.Timeout(requestIdleMax)
	defer ip.CancelTimeout()
	idle := ip.WaitRequestIdle(requestIdle, nil, nil, nil)
	if err := p.Navigate(address); err != nil {
		return nil, fmt.Errorf("open %s: %w", address, err)
	}
	if err := p.WaitLoad(); err != nil {
		return nil, fmt.Errorf("load %s: %w", address, err)
	}
	islands, err := p.Eval(readyJS)
	if err != nil {
		return nil, fmt.Errorf("wait for the islands of %s: %w", address, err)
	}
	if islands.Value.Int() > 0 {
		idle()
	}
	if _, err := p.Eval(settleJS); err != nil {
		return nil, fmt.Errorf("wait for %s to settle: %w", address, err)
	}
	png, err := p.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		return nil, fmt.Errorf("capture %s: %w", address, err)
	}
	return png, nil
}
