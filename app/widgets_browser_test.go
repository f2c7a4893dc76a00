package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partnerMessage is a message a partner's page heard from a widget: whose origin sent it, and what.
type partnerMessage struct {
	Origin string         `json:"origin"`
	Data   map[string]any `json:"data"`
}

// partner is another site on a loopback port of its own, reached as partner.localhost:PORT (a
// site other than the panels' for Chromium): it serves page at / and keeps what the page
// beacons to /heard, which survives the page being replaced by the panel.
type partner struct {
	origin string
	mu     sync.Mutex
	heard  []partnerMessage
}

func (b *browserEnv) partner(t *testing.T, page func(p *partner) http.Handler) *partner {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	pt := &partner{origin: "http://partner.localhost:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /heard", func(w http.ResponseWriter, r *http.Request) {
		var m partnerMessage
		data, _ := io.ReadAll(r.Body)
		if json.Unmarshal(data, &m) == nil {
			pt.mu.Lock()
			pt.heard = append(pt.heard, m)
			pt.mu.Unlock()
		}
	})
	mux.Handle("/", page(pt))
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	srv.Start()
	t.Cleanup(srv.Close)
	return pt
}

func (pt *partner) messages() []partnerMessage {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return append([]partnerMessage(nil), pt.heard...)
}

// tenantPage is a tenant's page that frames one widget (sandbox: its attribute, "" for none)
// and beacons home every message from the panel's origin.
func tenantPage(widget, panelOrigin, sandbox string) func(*partner) http.Handler {
	return func(pt *partner) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attr := ""
			if sandbox != "" {
				attr = fmt.Sprintf(" sandbox=%q", sandbox)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>Tenant</title><script>
				addEventListener('message', (e) => { if (e.origin === %q) navigator.sendBeacon('/heard', JSON.stringify({origin: e.origin, data: e.data})) })
				</script><iframe id="w" src="%s?parentFrameUrl=%s" width="400" height="700" title="Log in"%s></iframe>`,
				panelOrigin, widget, url.QueryEscape(pt.origin+"/shop"), attr)
		})
	}
}

// widgetFrame is the widget inside the page's iframe, once its page has loaded.
func widgetFrame(p *rod.Page, selector string) *rod.Page {
	return p.MustElement(selector).MustFrame()
}

// signedInCard waits for the frame to show its signed-in card after a login submitted in it
// and returns the frame. The frame's document is replaced meanwhile, and an element looked up
// in the one being left belongs to no document by the time it is read, so each try starts
// from the frame element again.
func signedInCard(t *testing.T, p *rod.Page, selector string) *rod.Page {
	t.Helper()
	var last error
	for deadline := time.Now().Add(browserStep); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		el, err := p.Timeout(5 * time.Second).Element(selector)
		if err != nil {
			last = err
			continue
		}
		f, err := el.Frame()
		if err != nil {
			last = err
			continue
		}
		if _, err := f.Timeout(2*time.Second).ElementR("h1", "You're logged in"); err != nil {
			last = err
			continue
		}
		return f.Timeout(browserStep)
	}
	t.Fatalf("no signed-in card in %s within %v (last: %v)", selector, browserStep, last)
	return nil
}

// frameFill sets the fields of a form in a cross-site frame from the frame's own script side
// (DevTools' typing into such frames is not reliable, see frameClick).
func frameFill(f *rod.Page, fields map[string]string) {
	for sel, v := range fields {
		f.MustElement(sel).MustEval(`(v) => { this.value = v }`, v)
	}
}

// userClick clicks as the member does: a click the browser counts as theirs (user activation),
// which a frame needs to take the top of the window.
func userClick(t *testing.T, el *rod.Element) {
	t.Helper()
	_, err := el.Evaluate(rod.Eval(`() => this.click()`).ByUser())
	require.NoError(t, err)
}

func TestInChromiumTheDemoPartnerPageHearsTheLoginWidgetFromThePanelsOriginAndTheMemberStaysInTheFrame(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	pt := b.partner(t, func(*partner) http.Handler { return demoPartnerOn(strconv.Itoa(b.port)) })
	b.widgetsOf(t, "demo", "frame", pt.origin)
	b.widgetsOf(t, "northwind", "panel", pt.origin)
	p := b.page(t, pt.origin+"/")
	panel := b.url("localhost", "")

	login := widgetFrame(p, "#login")
	login.MustElement(`[data-island="widget"][data-island-state="mounted"]`)
	assert.Equal(t, "Log in", login.MustElement("h1").MustText())
	join := widgetFrame(p, "#join")
	assert.Contains(t, join.MustElement("h1").MustText(), "Create your account", "Northwind's join widget beside it")
	frameFill(login, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	frameClick(login.MustElement("button[type=submit]"))

	p.MustWait(`() => document.querySelectorAll('#messages li').length > 0`)
	heard := p.MustElement("#messages li").MustText()
	assert.Equal(t, panel+` {"type":"canvass:signed-in","panel":"demo","member":true}`, heard, "from the panel's origin, without the token")
	card := signedInCard(t, p, "#login")
	assert.Contains(t, card.MustElement(".lead").MustText(), DemoEmail)
	assert.False(t, card.MustHas(`a[href^="/widgets/continue"]`), "the panel keeps the member in the frame")
	assert.Equal(t, pt.origin+"/", p.MustInfo().URL, "the partner's page stays")

	var session struct{ AppName, ParentFrameURL string }
	require.NoError(t, b.db.Raw(`SELECT app_name, parent_frame_url FROM sessions ORDER BY created_at DESC LIMIT 1`).Scan(&session).Error)
	assert.Equal(t, "widget", session.AppName, "the API heard X-App-Name: widget")
	assert.Equal(t, pt.origin+"/", session.ParentFrameURL)

	// The frame's session is the partner site's alone: the panel itself does not know the member.
	own := p.Browser().MustPage(panel + "/feed").Timeout(browserStep)
	own.MustWaitLoad()
	assert.Equal(t, "/login?redirect=%2Ffeed", path(own), "partitioned: not signed in on the panel itself")
}

func TestInChromiumAWidgetOfAPanelThatOpensItselfTellsTheTenantThenOpensThePanelSignedIn(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	panel := b.url("localhost", "")
	for _, tc := range []struct {
		name string
		// click submits the form; viaLink: the top of the window is not the frame's to take
		// without the member's activation, so the frame's signed-in page offers the link.
		click   func(t *testing.T, el *rod.Element)
		viaLink bool
	}{
		{"at once after the member's own click", userClick, false},
		{"from the frame's link when the browser does not count the click as the member's", func(_ *testing.T, el *rod.Element) { frameClick(el) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pt := b.partner(t, tenantPage(panel+"/widgets/login", panel, ""))
			b.widgetsOf(t, "demo", "panel", pt.origin)
			p := b.page(t, pt.origin+"/")
			f := widgetFrame(p, "#w")
			f.MustElement(`[data-island="widget"][data-island-state="mounted"]`)
			frameFill(f, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
			tc.click(t, f.MustElement("button[type=submit]"))
			if tc.viaLink {
				card := signedInCard(t, p, "#w")
				assert.Equal(t, pt.origin+"/", p.MustInfo().URL, "still the tenant's page")
				userClick(t, card.MustElementR("a.button", "Open Canvass Demo"))
			}
			require.Eventually(t, func() bool {
				info, err := p.Info()
				return err == nil && info.URL == panel+"/feed"
			}, 20*time.Second, 50*time.Millisecond, "the top of the window goes to the panel's feed")
			p.MustWaitLoad()
			assert.True(t, p.MustHas("nav.nav a[href='/logout']"), "signed in on the panel itself")
			require.Eventually(t, func() bool { return len(pt.messages()) > 0 }, 10*time.Second, 50*time.Millisecond, "the tenant heard the widget")
			assert.Equal(t, []partnerMessage{{Origin: panel, Data: map[string]any{"type": "canvass:signed-in", "panel": "demo", "member": true}}}, pt.messages())
		})
	}
	var spent int64
	require.NoError(t, b.db.Raw(`SELECT COUNT(*) FROM account_tokens WHERE purpose = ? AND used_at IS NOT NULL`, accounts.PurposeWidgetHandoff).Scan(&spent).Error)
	assert.Equal(t, int64(2), spent, "one hand-off code each, spent")
}

func TestInChromiumTheWidgetsWorkWithoutJavaScriptInTheFrameAndOpenThePanelFromTheirLink(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	// The tenant's frame runs no script at all: its forms and its link to the top are the page's own.
	const noScript = "allow-forms allow-same-origin allow-top-navigation-by-user-activation"
	t.Run("a panel that keeps the member in the frame", func(t *testing.T) {
		panel := b.url("localhost", "")
		pt := b.partner(t, tenantPage(panel+"/widgets/login", panel, noScript))
		b.widgetsOf(t, "demo", "frame", pt.origin)
		p := b.page(t, pt.origin+"/")
		f := widgetFrame(p, "#w")
		assert.Empty(t, f.MustElement(`[data-island="widget"]`).MustAttribute("data-island-state"), "no script ran")
		frameFill(f, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
		frameClick(f.MustElement("button[type=submit]"))
		card := signedInCard(t, p, "#w")
		assert.False(t, card.MustHas(`a[href^="/widgets/continue"]`))
		assert.Equal(t, pt.origin+"/", p.MustInfo().URL, "the tenant's page stays")
	})
	t.Run("a panel that opens itself", func(t *testing.T) {
		panel := b.url("northwind.localhost", "")
		pt := b.partner(t, tenantPage(panel+"/widgets/join", panel, noScript))
		b.widgetsOf(t, "northwind", "panel", pt.origin)
		p := b.page(t, pt.origin+"/")
		f := widgetFrame(p, "#w")
		frameFill(f, map[string]string{"#f-firstName": "Nell", "#f-email": "nell@northwind.test", "#f-password": "nell-password-1"})
		frameClick(f.MustElement("button[type=submit]"))
		card := signedInCard(t, p, "#w")
		open := card.MustElementR("a.button", "Open Northwind Rewards")
		assert.Equal(t, "_top", *open.MustAttribute("target"))
		userClick(t, open)
		require.Eventually(t, func() bool {
			info, err := p.Info()
			return err == nil && strings.HasPrefix(info.URL, panel+"/accept-terms-and-conditions")
		}, 20*time.Second, 50*time.Millisecond, "the new member opens Northwind, which asks for its terms first")
		p.MustWaitLoad()
		assert.Equal(t, "Terms and conditions", p.MustElement("h1").MustText())
		assert.Empty(t, pt.messages(), "without JavaScript there is no message")
	})
}
