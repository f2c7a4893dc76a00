package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/static"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assetRE finds the stylesheets (href) and scripts (src) a page loads from /static/.
var assetRE = regexp.MustCompile(`<(?:link rel="stylesheet" (href)|script type="module" (?:src)|link rel="modulepreload" (?:href))="(/static/[^"]+)"`)

// Page-weight budgets of ARCHITECTURE.md section 7 (gzip, first load).
const (
	budgetHTML       = 30 << 10
	budgetCSS        = 15 << 10
	budgetJSNoIsland = 20 << 10
	// ARCHITECTURE.md sets 90 KB "in all" for the survey page: the page's scripts and preloads
	// plus the answer control of its first question (the worst one), each loaded on demand.
	budgetJSSurvey = 90 << 10
	// React 19 with react-dom and signals is 71 KB gzip by itself; the transactions page also
	// needs htmx (17 KB) for its months, so it is held to 95 KB.
	budgetJSIslands = 95 << 10
)

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func staticBytes(t testing.TB, url string) []byte {
	path := strings.TrimPrefix(strings.SplitN(url, "?", 2)[0], "/static/")
	b, err := fs.ReadFile(static.FS, path)
	require.NoError(t, err, url)
	return b
}

// TestPagesStayWithinTheirWeightBudgets measures what a first visit downloads for each page
// (without islands, and the transactions page with its island): its HTML, every stylesheet
// and every script and module preload it names.
func TestPagesStayWithinTheirWeightBudgets(t *testing.T) {
	e := newEnv(t, "sqlite")
	member := e.client("localhost")
	member.login(DemoEmail, DemoPassword)
	poll := e.campaignID("demo", "Quick poll")
	member.get("/survey/" + poll) // the CSRF token of the signed-in session
	require.Equal(t, http.StatusSeeOther, member.postForm("/survey/"+poll+"/start", url.Values{}).StatusCode)
	pages := []struct {
		name string
		c    *client
		path string
		js   int
	}{
		{"login", e.client("localhost"), "/login", budgetJSNoIsland},
		{"join on Northwind", e.client("northwind.localhost"), "/join", budgetJSNoIsland},
		{"error", e.client("localhost"), "/error", budgetJSNoIsland},
		{"feed", member, "/feed", budgetJSNoIsland},
		{"transactions", member, "/transactions", budgetJSIslands},
		{"redemptions", member, "/redemptions", budgetJSNoIsland},
		{"mobile verification", member, "/settings/mobile", budgetJSNoIsland},
		{"survey", member, "/survey/" + poll, budgetJSSurvey},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			res := p.c.get(p.path)
			require.Equal(t, http.StatusOK, res.StatusCode)
			html := gzipSize([]byte(res.Body))
			css, js := 0, 0
			loaded := map[string]bool{}
			for _, m := range assetRE.FindAllStringSubmatch(res.Body, -1) {
				loaded[strings.TrimPrefix(m[2], "/static/dist/")] = true
				size := gzipSize(staticBytes(t, m[2]))
				if m[1] == "href" {
					css += size
				} else {
					js += size
				}
			}
			if p.name == "survey" {
				worst, all := controlChunks(t, loaded)
				t.Logf("survey: the heaviest control adds %d B; every control at once would add %d B", worst, all)
				js += worst
			}
			t.Logf("%s: HTML %d B, CSS %d B, JS %d B (gzip)", p.name, html, css, js)
			assert.LessOrEqual(t, html, budgetHTML, "HTML")
			assert.LessOrEqual(t, css, budgetCSS, "CSS")
			if p.js > 0 {
				assert.LessOrEqual(t, js, p.js, "JS")
			}
		})
	}
}

// controlChunks measures the survey box's lazily loaded answer controls (manifest keys
// survey-box/controls/NAME.tsx) beyond what the page already loaded: the heaviest one with its
// imports, and all of them together.
func controlChunks(t *testing.T, loaded map[string]bool) (worst, all int) {
	type chunk struct {
		File    string   `json:"file"`
		Imports []string `json:"imports"`
		CSS     []string `json:"css"`
	}
	var m map[string]chunk
	require.NoError(t, json.Unmarshal(staticBytes(t, "/static/"+static.ManifestPath), &m))
	size := func(key string, seen map[string]bool) int {
		var walk func(string) int
		walk = func(k string) int {
			c := m[k]
			if c.File == "" || seen[c.File] || loaded[c.File] {
				return 0
			}
			seen[c.File] = true
			n := 0
			if strings.HasSuffix(c.File, ".js") {
				n = gzipSize(staticBytes(t, "/static/dist/"+c.File))
			}
			for _, imp := range c.Imports {
				n += walk(imp)
			}
			return n
		}
		return walk(key)
	}
	allSeen := map[string]bool{}
	for key := range m {
		if !strings.HasPrefix(key, "survey-box/controls/") || strings.Contains(key, ".test.") {
			continue
		}
		worst = max(worst, size(key, map[string]bool{}))
		all += size(key, allSeen)
	}
	require.NotZero(t, worst, "no control chunks in the manifest")
	return worst, all
}

// benchGet measures one GET per iteration through the whole middleware chain.
func benchGet(b *testing.B, c *client, path string) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := c.get(path); res.StatusCode != http.StatusOK {
			b.Fatal(path, res.StatusCode)
		}
	}
}

// BenchmarkLoginPage renders the login page of a tenant.
func BenchmarkLoginPage(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, e.client("localhost"), "/login")
}

// BenchmarkFeedPageSignedIn renders a private page: session lookup, gates, layout.
func BenchmarkFeedPageSignedIn(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := e.client("localhost")
	c.login(DemoEmail, DemoPassword)
	benchGet(b, c, "/feed")
}

// BenchmarkProfileAPI answers GET /api/v3/user/profile with a pp-token header.
func BenchmarkProfileAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, tokenClient(e), "/api/v3/user/profile")
}

// tokenClient is a client of the demo member that sends only the pp-token header, as the
// spec's apps do.
func tokenClient(e *env) *client {
	login := e.client("localhost")
	login.login(DemoEmail, DemoPassword)
	c := e.client("localhost")
	c.header.Set("pp-token", login.cookie("pp-token"))
	return c
}

// BenchmarkSurveyInvitationPage renders a campaign's survey screen before the member starts
// it: the audience rule with the member's standing, then the invitation.
func BenchmarkSurveyInvitationPage(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := e.client("localhost")
	c.login(DemoEmail, DemoPassword)
	benchGet(b, c, "/survey/"+e.campaignID("demo", "Quick poll"))
}

// BenchmarkSurveyGoAPI answers campaigns/{id}/go of a started campaign with a pp-token header.
func BenchmarkSurveyGoAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	benchGet(b, tokenClient(e), "/api/v1/demo/campaigns/"+e.campaignID("demo", "Quick poll")+"/go")
}

// BenchmarkFeedAPI answers campaigns/paged (the first page) with a pp-token header.
func BenchmarkFeedAPI(b *testing.B) {
	e := newEnv(b, "sqlite")
	c := tokenClient(e)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := c.postJSON("/api/v3/campaigns/paged", ""); res.StatusCode != http.StatusOK {
			b.Fatal(res.StatusCode, res.Body)
		}
	}
}
