package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	urlpath "path"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/static"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Page-weight budgets (ARCHITECTURE.md section 7), in bytes on the wire as Chromium receives
// them on a first visit, with KB = 1024 bytes.
const (
	budgetHTML       = 30 << 10
	budgetCSS        = 15 << 10
	budgetJSNoIsland = 20 << 10
	// The survey page with the box and the heaviest answer control it may load.
	budgetJSSurvey = 90 << 10
	// The transactions page is not among the budgets: its filter island brings React 19
	// with react-dom and signals (about 60 KB with Brotli, 71 KB gzip, by itself) and the page
	// also needs htmx (about 15 KB, 17 KB gzip) for its months, so it keeps the 95 KB it was
	// held to before.
	budgetJSTransactions = 95 << 10
)

// wireFile is one response as the Resource Timing (or Navigation Timing) API reports it.
type wireFile struct {
	Name      string `json:"name"`
	Initiator string `json:"initiatorType"`
	// Transfer is transferSize: the body as it came over the network (compressed when it was
	// sent compressed) plus the header fields; 0 for a cache hit.
	Transfer int `json:"transferSize"`
	Encoded  int `json:"encodedBodySize"`
	Decoded  int `json:"decodedBodySize"`
	Status   int `json:"responseStatus"`
}

// wireWeight is what one page load brought over the network.
type wireWeight struct {
	HTML, CSS, JS, Other int
	Document             wireFile
	Files                []wireFile
	// Chromium's transferSize counts the header fields as a flat 300 B per response, the
	// Resource Timing spec's allowance (Chromium 156 reports encodedBodySize + 300); this
	// server's header fields are some 700-800 B. DevTools holds the same sums from the
	// DevTools protocol's encodedDataLength, which counts the header fields as received: it
	// is logged for comparison; the budgets use transferSize, as the issue asks.
	DevTools struct{ HTML, CSS, JS, Other int }
}

// kind sorts a resource into JS, CSS or other: by the extension of its path, and, for an
// address without one, a script initiator counts as JS.
func (f wireFile) kind() string {
	u, err := url.Parse(f.Name)
	if err != nil {
		return "other"
	}
	switch urlpath.Ext(u.Path) {
	case ".js", ".mjs":
		return "js"
	case ".css":
		return "css"
	case "":
		if f.Initiator == "script" {
			return "js"
		}
	}
	return "other"
}

// wireReadyPage opens a fresh incognito page (about:blank) with the network domain on and
// the browser cache off, so every later load of the page fetches every byte again.
func wireReadyPage(t *testing.T, b *browserEnv) *rod.Page {
	t.Helper()
	p := b.page(t, "about:blank")
	disableCache(t, p)
	return p
}

// disableCache turns the page's HTTP and memory caches off. The Network domain must stay
// enabled for that: disabling it drops the setting, so it is enabled here for the page's life
// (rod's own waits then leave it enabled).
func disableCache(t *testing.T, p *rod.Page) {
	t.Helper()
	require.NoError(t, proto.NetworkEnable{}.Call(p))
	require.NoError(t, proto.NetworkSetCacheDisabled{CacheDisabled: true}.Call(p))
}

// islandsSettled holds when every island of the page has mounted (or given up).
const islandsSettled = `() => [...document.querySelectorAll('[data-island]')].every(el => el.dataset.islandState === 'mounted' || el.dataset.islandState === 'failed')`

// onTheWire loads address in p and waits for the load, for every island to mount, for ready
// (a JS predicate, optional) and for the network to be idle (islands import their chunks
// after the load; the survey box then loads the control of its question). It then reads what
// came over the network from the Performance API: the navigation entry's transferSize for
// the HTML, and every resource entry's transferSize, summed as JS, CSS or other.
// transferSize is the (possibly compressed) body plus the header fields, which Chromium
// counts as 300 B a response (see wireWeight): it is used as is.
func onTheWire(t *testing.T, p *rod.Page, address, ready string) wireWeight {
	t.Helper()
	p = p.Timeout(45 * time.Second)
	defer p.CancelTimeout()
	idleTypes := []proto.NetworkResourceType{proto.NetworkResourceTypeWebSocket, proto.NetworkResourceTypeEventSource}
	// The page starts blank: a request the previous document had in flight when it was replaced
	// never reports its end to DevTools, and the idle wait below waited for it until the test
	// failed (one run in five, the onboarding survey box after its sign-in).
	require.NoError(t, p.Navigate("about:blank"))
	require.NoError(t, p.WaitLoad())
	received := watchEncodedLengths(p)
	defer received() // stops the watch when a wait below fails
	idle := p.WaitRequestIdle(500*time.Millisecond, nil, nil, idleTypes)
	require.NoError(t, p.Navigate(address))
	require.NoError(t, p.WaitLoad())
	idle()
	require.NoError(t, p.Wait(rod.Eval(islandsSettled)), "the islands of %s", address)
	if ready != "" {
		require.NoError(t, p.Wait(rod.Eval(ready)), "%s: %s", address, ready)
	}
	// Anything a late island or control started has finished too.
	p.WaitRequestIdle(300*time.Millisecond, nil, nil, idleTypes)()

	raw := p.MustEval(`() => JSON.stringify({
		document: performance.getEntriesByType('navigation')[0].toJSON(),
		files: performance.getEntriesByType('resource').map(e => e.toJSON()),
	})`).Str()
	var got struct {
		Document wireFile   `json:"document"`
		Files    []wireFile `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &got), raw)
	require.Equal(t, address, got.Document.Name, "the page was not redirected")
	require.Equal(t, http.StatusOK, got.Document.Status, address)
	require.NotZero(t, got.Document.Transfer, "%s came from the network", address)

	w := wireWeight{HTML: got.Document.Transfer, Document: got.Document, Files: got.Files}
	for address, n := range received() {
		switch f := (wireFile{Name: address}); {
		case address == got.Document.Name:
			w.DevTools.HTML += n
		case f.kind() == "js":
			w.DevTools.JS += n
		case f.kind() == "css":
			w.DevTools.CSS += n
		default:
			w.DevTools.Other += n
		}
	}
	for _, f := range got.Files {
		switch f.kind() {
		case "js":
			w.JS += f.Transfer
		case "css":
			w.CSS += f.Transfer
		default:
			w.Other += f.Transfer
		}
		if k := f.kind(); k == "js" || k == "css" {
			assert.NotZero(t, f.Transfer, "%s came from a cache, not the network: the measurement would be short", f.Name)
		}
	}
	return w
}

// watchEncodedLengths records, from now until the returned function is called, the
// DevTools protocol's encodedDataLength (header fields and body as received) of every
// response of the page, summed per address.
func watchEncodedLengths(p *rod.Page) func() map[string]int {
	var mu sync.Mutex
	urls := map[proto.NetworkRequestID]string{}
	sizes := map[string]int{}
	watch, stop := p.WithCancel()
	done := make(chan struct{})
	wait := watch.EachEvent(func(e *proto.NetworkResponseReceived) {
		mu.Lock()
		defer mu.Unlock()
		urls[e.RequestID] = e.Response.URL
	}, func(e *proto.NetworkLoadingFinished) {
		mu.Lock()
		defer mu.Unlock()
		if u, ok := urls[e.RequestID]; ok {
			sizes[u] += int(e.EncodedDataLength)
		}
	})
	go func() { wait(); close(done) }()
	return func() map[string]int {
		stop()
		<-done
		mu.Lock()
		defer mu.Unlock()
		return sizes
	}
}

// heaviestControl reads Vite's manifest (the build the test binary embeds) and finds the
// survey box's answer control (manifest keys survey-box/controls/NAME.tsx) whose chunk, with
// the chunks it imports that the survey box does not load anyway, is the largest with gzip.
// It returns the control type and the chunk's file.
func heaviestControl(t *testing.T) (controlType, file string, size int) {
	t.Helper()
	type chunk struct {
		File    string   `json:"file"`
		Imports []string `json:"imports"`
	}
	data, err := fs.ReadFile(static.FS, static.ManifestPath)
	require.NoError(t, err, "the islands are built (make islands)")
	var m map[string]chunk
	require.NoError(t, json.Unmarshal(data, &m))
	read := func(file string) []byte {
		b, err := fs.ReadFile(static.FS, "dist/"+file)
		require.NoError(t, err)
		return b
	}
	// What the survey box loads before any control: its chunk and everything it imports.
	base := map[string]bool{}
	var walk func(key string, seen map[string]bool)
	walk = func(key string, seen map[string]bool) {
		c, ok := m[key]
		if !ok || seen[key] || base[key] {
			return
		}
		seen[key] = true
		for _, imp := range c.Imports {
			walk(imp, seen)
		}
	}
	walk("survey-box/index.tsx", base)
	require.NotEmpty(t, base, "survey-box/index.tsx is in the manifest")
	var keys []string
	for key := range m {
		if strings.HasPrefix(key, "survey-box/controls/") && strings.HasSuffix(key, ".tsx") && !strings.Contains(key, ".test.") {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	require.NotEmpty(t, keys, "no control chunks in the manifest")
	for _, key := range keys {
		seen := map[string]bool{}
		walk(key, seen)
		n := 0
		for k := range seen {
			if strings.HasSuffix(m[k].File, ".js") {
				n += gzipSize(read(m[k].File))
			}
		}
		if n > size {
			controlType = strings.TrimSuffix(strings.TrimPrefix(key, "survey-box/controls/"), ".tsx")
			file, size = m[key].File, n
		}
	}
	return controlType, file, size
}

const heaviestControlID = "0e1f3a5c-7b9d-4e2f-8a6c-000000000090"

// importHeaviestControlCampaign imports "Heaviest control", a campaign whose first question
// is the first question of the demo campaigns that uses controlType (as "Every control"
// gathers them), followed by a short text question.
func importHeaviestControlCampaign(t *testing.T, e *env, controlType string) {
	t.Helper()
	var rows []campaigns.Campaign
	require.NoError(t, e.db.Where("panel_id = (SELECT id FROM panels WHERE key = ?)", "demo").Order("id").Find(&rows).Error)
	def := &campaigns.Definition{UUID: heaviestControlID, Type: campaigns.TypeSurvey, DefaultLanguage: "en", Name: campaigns.Text{"en": "Heaviest control"}, Reward: "0.10", EstimatedMinutes: 2, Priority: 1000}
	for _, r := range rows {
		for _, q := range r.Definition.Questions {
			if q.ControlType == controlType && len(def.Questions) == 0 {
				q.Routes = nil
				q.ID = "q1_" + controlType
				def.Questions = append(def.Questions, q)
			}
		}
	}
	require.NotEmpty(t, def.Questions, "no demo question uses the %s control", controlType)
	panel, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	_, err = e.app.Campaigns.Import(t.Context(), panel, []*campaigns.Definition{def})
	require.NoError(t, err)
}

// TestInChromiumPagesStayWithinTheirWeightBudgetsOnTheWire loads each page in Chromium with
// the cache off and holds what came over the network (Performance API transferSize: header
// fields and body as sent, so compressed when the server compresses) to the budgets: HTML
// 30 KB, CSS 15 KB, JS 20 KB without an island, 90 KB for the survey box with its heaviest
// answer control, 95 KB for the transactions page (KB = 1024 B). `make bench` prints the lines.
func TestInChromiumPagesStayWithinTheirWeightBudgetsOnTheWire(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	control, controlFile, controlSize := heaviestControl(t)
	t.Logf("the heaviest answer control is %s (%s, %d B gzip with the chunks it adds)", control, controlFile, controlSize)
	importHeaviestControlCampaign(t, b.env, control)
	b.withLocalOffers(t)
	g := decodeJSON[goResultJSON](t, b.member().get("/api/v1/demo/campaigns/"+heaviestControlID+"/go"), http.StatusOK)
	require.NotNil(t, g.Question)
	require.Equal(t, control, g.Question.ControlType, "the started campaign asks with the heaviest control first")

	type target struct {
		name, host, path string
		js               int
		ready            string
	}
	public := []target{
		{"login", "localhost", "/login", budgetJSNoIsland, ""},
		{"join on Northwind", "northwind.localhost", "/join", budgetJSNoIsland, ""},
		{"error", "localhost", "/error", budgetJSNoIsland, ""},
		{"onboarding start", "northwind.localhost", "/onboarding", budgetJSNoIsland, ""},
	}
	private := []target{
		{"feed", "localhost", "/feed", budgetJSNoIsland, ""},
		{"transactions", "localhost", "/transactions", budgetJSTransactions, ""},
		{"redemptions", "localhost", "/redemptions", budgetJSNoIsland, ""},
		{"settings", "localhost", "/settings", budgetJSNoIsland, ""},
		{"mobile verification", "localhost", "/settings/mobile", budgetJSNoIsland, ""},
		{"offers and games", "localhost", "/offers", budgetJSNoIsland, ""},
		{"survey box with " + control, "localhost", "/survey/" + heaviestControlID, budgetJSSurvey,
			fmt.Sprintf(`() => !!document.querySelector(%q) && performance.getEntriesByType('resource').some(e => e.name.includes(%q)) && !document.querySelector('[data-island="survey-box"] .spinner')`, surveyIsland, controlFile)},
	}
	check := func(t *testing.T, p *rod.Page, tg target) {
		w := onTheWire(t, p, b.url(tg.host, tg.path), tg.ready)
		t.Logf("%s: HTML %d B, CSS %d B, JS %d B on the wire", tg.name, w.HTML, w.CSS, w.JS)
		t.Logf("  DevTools encodedDataLength (header fields as received): HTML %d B, CSS %d B, JS %d B, other %d B; transferSize other %d B", w.DevTools.HTML, w.DevTools.CSS, w.DevTools.JS, w.DevTools.Other, w.Other)
		t.Logf("  document %s: %d B transferred (body %d B, %d B decoded)", tg.path, w.Document.Transfer, w.Document.Encoded, w.Document.Decoded)
		for _, f := range w.Files {
			t.Logf("  %s %s (%s): %d B transferred (body %d B, %d B decoded)", f.kind(), strings.TrimPrefix(f.Name, b.url(tg.host, "")), f.Initiator, f.Transfer, f.Encoded, f.Decoded)
		}
		assert.LessOrEqual(t, w.HTML, budgetHTML, "HTML")
		assert.LessOrEqual(t, w.CSS, budgetCSS, "CSS")
		assert.LessOrEqual(t, w.JS, tg.js, "JS")
	}
	for _, tg := range public {
		t.Run(tg.name, func(t *testing.T) {
			check(t, wireReadyPage(t, b), tg)
		})
	}
	// A visitor in onboarding: Northwind's first onboarding campaign in the survey box, after
	// signing in with a new identity at the local provider.
	t.Run("onboarding survey box on Northwind", func(t *testing.T) {
		b.withLocalSignIn(t)
		p := b.page(t, b.url("northwind.localhost", "/login"))
		crossSubmit(t, p, ".sign-in-google")
		pickIdentity(t, p, newcomer.Subject)
		require.Equal(t, "/onboarding/campaigns/"+nwHousehold, path(p))
		disableCache(t, p)
		check(t, p, target{"onboarding survey box", "northwind.localhost", "/onboarding/campaigns/" + nwHousehold, budgetJSSurvey,
			`() => !!document.querySelector('[data-island="survey-box"][data-island-state="mounted"] .survey-question input') && !document.querySelector('[data-island="survey-box"] .spinner')`})
	})
	// The member's pages in one signed-in page; the cache is off, so each load is a first one.
	member := b.signedInFeed(t, false).CancelTimeout()
	disableCache(t, member)
	for _, tg := range private {
		t.Run(tg.name, func(t *testing.T) {
			check(t, member, tg)
		})
	}
}
