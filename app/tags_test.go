package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logBuffer keeps what the app logs, for tests that check a message was logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// eachDialectLogged is eachDialect with the app's log kept.
func eachDialectLogged(t *testing.T, fn func(t *testing.T, e *env, log *logBuffer)) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			db := dbtest.Open(t, d)
			smtp := mailertest.Start(t)
			sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
			require.NoError(t, err)
			logs := &logBuffer{}
			cfg := testConfig("development")
			cfg.UploadsDir = t.TempDir()
			app, err := NewApp(cfg, db, slog.New(slog.NewTextHandler(logs, nil)), Options{Mail: sender})
			require.NoError(t, err)
			require.NoError(t, LoadDemo(context.Background(), app))
			fn(t, &env{t: t, app: app, db: db, smtp: smtp, cfg: cfg}, logs)
		})
	}
}

// setDemoTags gives Canvass Demo these tag settings (Northwind keeps none).
func setDemoTags(t *testing.T, e *env, analyticsID, managerID string) {
	t.Helper()
	setPanelTags(t, e, "demo", analyticsID, managerID)
}

// setPanelTags gives a demo panel (demo or northwind) its tag ids as a tenant file would.
func setPanelTags(t *testing.T, e *env, panelKey, analyticsID, managerID string) {
	t.Helper()
	e.changeDemoPanel(t, panelKey, func(spec *tenancy.PanelSpec) {
		spec.AppSettings.GoogleAnalyticsID, spec.AppSettings.GoogleTagMngrID = analyticsID, managerID
	})
}

func directive(csp, name string) string {
	for _, d := range strings.Split(csp, ";") {
		d = strings.TrimSpace(d)
		if strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

func TestAPanelsTagLoadsOnItsPagesWithTheNonceAndOnlyItsCSPIsWidened(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, analytics, manager string
		gtag, gtm                string   // data-gtag and data-gtm of the tag, "" for none
		script, connect, frame   []string // hosts the CSP must add
		logged                   string   // what must be logged, when the settings are bad
	}{
		{name: "no tag"},
		{name: "a GA4 measurement id", analytics: "G-TEST1234", gtag: "G-TEST1234",
			script:  []string{"https://www.googletagmanager.com"},
			connect: []string{"https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.google.com"}},
		{name: "a Universal Analytics id", analytics: "UA-12345-1", gtag: "UA-12345-1",
			script: []string{"https://www.googletagmanager.com", "https://www.google-analytics.com"}},
		{name: "a Google Ads id", analytics: "AW-987654", gtag: "AW-987654",
			script: []string{"https://www.googleadservices.com"}, frame: []string{"https://td.doubleclick.net"}},
		{name: "a Floodlight id", analytics: "DC-1234567", gtag: "DC-1234567",
			frame: []string{"https://*.fls.doubleclick.net"}, connect: []string{"https://ad.doubleclick.net"}},
		{name: "a Tag Manager container", manager: "GTM-ABC123", gtm: "GTM-ABC123",
			script: []string{"https://www.googletagmanager.com"}, connect: []string{"https://*.google-analytics.com"}},
		{name: "both", analytics: "G-TEST1234", manager: "GTM-ABC123", gtag: "G-TEST1234", gtm: "GTM-ABC123",
			script: []string{"https://www.googletagmanager.com"}},
		{name: "a gtag id in the Tag Manager setting", manager: "G-OTHER99", gtag: "G-OTHER99",
			script: []string{"https://www.googletagmanager.com"}},
		{name: "a bad analytics id is ignored with an error", analytics: "GTM-ABC123",
			logged: `level=ERROR msg="google_analytics_id must start with G-, UA-, AW- or DC-: ignored" panel=demo tag=GTM-ABC123`},
		{name: "an unrecognised tag is ignored with a warning", manager: "XYZ-1",
			logged: `level=WARN msg="google_tag_mngr_id is not a recognised tag (GTM-, G-, UA-, AW-, DC-): ignored" panel=demo tag=XYZ-1`},
		{name: "an id that could break out of its script is ignored", analytics: `G-1"><script>alert(1)</script>`,
			logged: "google_analytics_id must start with G-, UA-, AW- or DC-: ignored"},
	}
	eachDialectLogged(t, func(t *testing.T, e *env, logs *logBuffer) {
		member := e.client("localhost")
		require.Equal(t, "/feed", member.login("member@demo.test", "demo-password-1").Header.Get("Location"))
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				setDemoTags(t, e, tc.analytics, tc.manager)
				pages := map[string]*response{
					"the login page": e.client("localhost").get("/login"),
					"the feed":       member.get("/feed"),
				}
				for page, res := range pages {
					require.Equal(t, http.StatusOK, res.StatusCode, page)
					csp := res.Header.Get("Content-Security-Policy")
					if tc.gtag == "" && tc.gtm == "" {
						assert.NotContains(t, res.Body, "data-gtag", page)
						assert.NotContains(t, res.Body, "googletagmanager", page)
						assert.NotContains(t, csp, "google", "%s: no tag, no tag hosts", page)
						continue
					}
					nonce := strings.TrimSuffix(strings.SplitN(directive(csp, "script-src"), "'nonce-", 2)[1], "'")
					nonce = strings.SplitN(nonce, "'", 2)[0]
					assert.Contains(t, res.Body, `<script nonce="`+nonce+`" data-gtag="`+tc.gtag+`" data-gtm="`+tc.gtm+`">`, page)
					assert.Contains(t, res.Body, "page_location: loc", page)
					for _, h := range tc.script {
						assert.Contains(t, directive(csp, "script-src"), " "+h, "%s: script-src", page)
					}
					for _, h := range tc.connect {
						assert.Contains(t, directive(csp, "connect-src"), " "+h, "%s: connect-src", page)
					}
					for _, h := range tc.frame {
						assert.Contains(t, directive(csp, "frame-src"), " "+h, "%s: frame-src", page)
					}
					if tc.gtag == "" || !strings.HasPrefix(tc.gtag, "AW-") {
						assert.NotContains(t, csp, "googleadservices", "%s: Ads hosts only for an AW- id", page)
					}
				}
				if tc.logged != "" {
					assert.Contains(t, logs.String(), tc.logged)
				}

				// Northwind has no tag: not a byte of it, and its CSP is as before.
				other := e.client("northwind.localhost").get("/login")
				assert.NotContains(t, other.Body, "data-gtag")
				assert.NotContains(t, other.Header.Get("Content-Security-Policy"), "google")
			})
		}
	})
}

func TestFramedPagesCarryNoTag(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		setDemoTags(t, e, "G-TEST1234", "GTM-ABC123")
		res := e.client("localhost").get("/widgets/login")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.NotContains(t, res.Body, "data-gtag", "another site frames the widget: its analytics are its own")
		assert.NotContains(t, res.Header.Get("Content-Security-Policy"), "googletagmanager")
	})
}

func TestABadTagIsLoggedOncePerProcessNotPerPage(t *testing.T) {
	t.Parallel()
	eachDialectLogged(t, func(t *testing.T, e *env, logs *logBuffer) {
		setDemoTags(t, e, "XX-1", "")
		for range 3 {
			require.Equal(t, http.StatusOK, e.client("localhost").get("/login").StatusCode)
		}
		assert.Equal(t, 1, strings.Count(logs.String(), "google_analytics_id must start with"))
	})
}
