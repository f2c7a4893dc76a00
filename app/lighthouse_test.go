package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// lighthouseReport is the part of Lighthouse's JSON report the run prints.
type lighthouseReport struct {
	FinalDisplayedURL string `json:"finalDisplayedUrl"`
	RuntimeError      *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"runtimeError"`
	ConfigSettings struct {
		FormFactor string `json:"formFactor"`
	} `json:"configSettings"`
	Categories map[string]struct {
		Score     *float64 `json:"score"`
		AuditRefs []struct {
			ID     string  `json:"id"`
			Weight float64 `json:"weight"`
		} `json:"auditRefs"`
	} `json:"categories"`
	Audits map[string]struct {
		Score        *float64 `json:"score"`
		NumericValue float64  `json:"numericValue"`
		Details      struct {
			// A list of findings for most audits, an object for a few (read by nodes).
			Items json.RawMessage `json:"items"`
		} `json:"details"`
	} `json:"audits"`
}

// score is a category's score out of 100 (-1 when Lighthouse gave none).
func (r lighthouseReport) score(category string) int {
	c, ok := r.Categories[category]
	if !ok || c.Score == nil {
		return -1
	}
	return int(*c.Score*100 + 0.5)
}

// shortfalls lists, per category, the weighted audits that kept it from 100: id, score and
// the first few elements an audit names.
func (r lighthouseReport) shortfalls(category string) []string {
	var out []string
	for _, ref := range r.Categories[category].AuditRefs {
		a := r.Audits[ref.ID]
		if ref.Weight <= 0 || a.Score == nil || *a.Score >= 1 {
			continue
		}
		line := fmt.Sprintf("%s %.2f", ref.ID, *a.Score)
		var items []struct {
			Node struct {
				Selector string `json:"selector"`
			} `json:"node"`
		}
		_ = json.Unmarshal(a.Details.Items, &items) // not a list: no elements to name
		var nodes []string
		for _, it := range items {
			if it.Node.Selector != "" && len(nodes) < 5 {
				nodes = append(nodes, it.Node.Selector)
			}
		}
		if len(nodes) > 0 {
			line += " [" + strings.Join(nodes, "; ") + "]"
		}
		out = append(out, line)
	}
	return out
}

// lighthouseBin is the Lighthouse CLI: CANVASS_LIGHTHOUSE_BIN, or the devDependency's.
func lighthouseBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CANVASS_LIGHTHOUSE_BIN")
	if bin == "" {
		bin = filepath.Join("..", "node_modules", ".bin", "lighthouse")
	}
	abs, err := filepath.Abs(bin)
	require.NoError(t, err)
	if _, err := os.Stat(abs); err != nil {
		t.Fatalf("Lighthouse is missing at %s (npm install, or set CANVASS_LIGHTHOUSE_BIN): %v", abs, err)
	}
	return abs
}

// runLighthouse audits one address with Lighthouse's defaults (mobile: emulated phone,
// simulated slow 4G and 4x CPU throttling) in /usr/bin/chromium, from a fresh profile, and
// returns its report. header, when set, is sent with every request (the session cookie).
func runLighthouse(t *testing.T, bin, address string, header http.Header) lighthouseReport {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	profile := filepath.Join(dir, "profile")
	require.NoError(t, os.Mkdir(profile, 0o700))
	// Chromium resolves *.localhost (the tenants' host names) to loopback by itself.
	flags := strings.Join([]string{
		"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir=" + profile,
	}, " ")
	args := []string{address, "--quiet", "--output=json", "--output-path=" + out, "--chrome-flags=" + flags}
	if len(header) > 0 {
		h := map[string]string{}
		for k := range header {
			h[k] = header.Get(k)
		}
		b, err := json.Marshal(h)
		require.NoError(t, err)
		args = append(args, "--extra-headers="+string(b))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	// Lighthouse's Chrome is the system Chromium; nothing is ever downloaded.
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chromiumPath)
	cmd.Dir = dir
	cmd.WaitDelay = 10 * time.Second
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "lighthouse %s:\n%s", address, output)
	data, err := os.ReadFile(out)
	require.NoError(t, err, "lighthouse %s wrote no report:\n%s", address, output)
	var r lighthouseReport
	require.NoError(t, json.Unmarshal(data, &r))
	if r.RuntimeError != nil && r.RuntimeError.Code != "" && r.RuntimeError.Code != "NO_ERROR" {
		t.Fatalf("lighthouse %s: %s: %s", address, r.RuntimeError.Code, r.RuntimeError.Message)
	}
	return r
}

// TestLighthouseRun audits the login page, the feed, the survey box of a started campaign and
// the transactions page of both demo tenants with Lighthouse 12 (npm lighthouse, a
// devDependency) on its mobile defaults, against the real server over loopback, and prints
// each page's performance, accessibility and best-practices scores, FCP, LCP, TBT and
// transferred bytes. It measures; the scores are not asserted (they move with the machine's
// load), but a page that is not the one asked for (a sign-in that did not hold) fails the run.
// `make bench` runs it (CANVASS_LIGHTHOUSE=1); each page takes some 20-40 s.
func TestLighthouseRun(t *testing.T) {
	if os.Getenv("CANVASS_LIGHTHOUSE") != "1" {
		t.Skip("set CANVASS_LIGHTHOUSE=1 (make bench) to run Lighthouse")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("%s is missing (apt-get install chromium): %v", chromiumPath, err)
	}
	bin := lighthouseBin(t)
	e := newEnv(t, "sqlite")
	base, err := url.Parse(listenLoopback(t, e))
	require.NoError(t, err)
	port := base.Port()

	type tenant struct {
		name, host, instance, campaign string
		member                         *client
	}
	tenants := []tenant{
		{"Canvass Demo", "localhost", "demo", e.campaignID("demo", "Quick poll"), e.member()},
		{"Northwind", "northwind.localhost", "northwind", e.campaignID("northwind", "Tea or coffee?"), e.northwindMember()},
	}
	for _, tn := range tenants {
		token := tn.member.cookie("pp-token")
		require.NotEmpty(t, token, tn.name)
		// Start the campaign through the API, as the apps do, so its page shows the survey box.
		api := e.client(tn.host)
		api.header.Set("pp-token", token)
		g := decodeJSON[goResultJSON](t, api.get("/api/v1/"+tn.instance+"/campaigns/"+tn.campaign+"/go"), http.StatusOK)
		require.Equal(t, "started", g.CampaignStatus, tn.name)

		session := http.Header{"Cookie": {"pp-token=" + token}}
		for _, pg := range []struct {
			name, path string
			header     http.Header
		}{
			{"login", "/login", nil},
			{"feed", "/feed", session},
			{"survey box", "/survey/" + tn.campaign, session},
			{"transactions", "/transactions", session},
		} {
			address := fmt.Sprintf("http://%s:%s%s", tn.host, port, pg.path)
			r := runLighthouse(t, bin, address, pg.header)
			if got, err := url.Parse(r.FinalDisplayedURL); err != nil || got.Path != pg.path {
				t.Errorf("%s %s: Lighthouse ended on %s, not the page asked for", tn.name, pg.name, r.FinalDisplayedURL)
				continue
			}
			ms := func(audit string) string {
				return (time.Duration(r.Audits[audit].NumericValue) * time.Millisecond).Round(10 * time.Millisecond).String()
			}
			t.Logf("Lighthouse %-12s %-12s (%s): performance %3d, accessibility %3d, best practices %3d; FCP %s, LCP %s, TBT %s, %d B transferred",
				tn.name, pg.name, r.ConfigSettings.FormFactor, r.score("performance"), r.score("accessibility"), r.score("best-practices"),
				ms("first-contentful-paint"), ms("largest-contentful-paint"), ms("total-blocking-time"), int(r.Audits["total-byte-weight"].NumericValue))
			// What kept a category from 100, for the log (make bench prints only the line above).
			for _, category := range []string{"performance", "accessibility", "best-practices"} {
				if missed := r.shortfalls(category); len(missed) > 0 {
					t.Logf("  %s %s, %s: %s", tn.name, pg.name, category, strings.Join(missed, ", "))
				}
			}
		}
	}
}
