package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/stretchr/testify/require"
)

// Two Canvass processes share one PostgreSQL (SQLite is one process by design). A change made
// through one shows through the other within the documented bound: a panel's theme within
// the panel cache's TTL (CANVASS_PANEL_CACHE_TTL, 2 s here); a campaign on its own page on the
// next request (decoded campaigns are kept only while their updated_at is the one the
// database has) and in the lists within campaigns.ListTTL.
func TestAChangeMadeThroughOneProcessShowsThroughTheOtherWithinTheCacheBound(t *testing.T) {
	for _, d := range dbtest.Dialects(t) {
		if d != migrations.Postgres {
			continue
		}
		t.Run(string(d), func(t *testing.T) {
			const ttl = 2 * time.Second
			ctx := context.Background()
			dbURL := dbtest.PostgresURL(t)

			// Process one: a whole Canvass in this test, serving on loopback.
			db, err := migrations.Open(dbURL)
			require.NoError(t, err)
			t.Cleanup(func() { closeDB(db) })
			require.NoError(t, migrations.Up(ctx, db, nil))
			cfg := testConfig("staging")
			cfg.PanelCacheTTL = ttl
			one, err := NewApp(cfg, db, testLogger(t), Options{})
			require.NoError(t, err)
			require.NoError(t, LoadDemo(ctx, one))
			e := &env{t: t, app: one, db: db, cfg: cfg}
			survey := importBudgetSurvey(t, e, 3)

			// Process two: `canvass serve` on the same database.
			bin := filepath.Join(t.TempDir(), "canvass")
			out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
			require.NoError(t, err, "go build: %s", out)
			two := freeAddr(t)
			startProcess(t, append(os.Environ(), "CANVASS_ENV=staging", "CANVASS_SECRET="+cfg.Secret, "CANVASS_DATABASE_URL="+dbURL,
				"CANVASS_ADDR="+two, "CANVASS_DEMO=", "CANVASS_PANEL_CACHE_TTL="+ttl.String()), bin, "serve")
			waitUp(t, "http://"+two+"/healthz")
			token := benchLogin(t, two, DemoEmail, DemoPassword)
			send := func(method, path string) string {
				var body io.Reader
				if method == http.MethodPost {
					body = strings.NewReader("[]")
				}
				req, _ := http.NewRequest(method, "http://"+two+path, body)
				req.Host = "localhost"
				req.Header.Set("Pp-Token", token)
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer res.Body.Close()
				data, _ := io.ReadAll(res.Body)
				require.Equal(t, http.StatusOK, res.StatusCode, "%s %s", method, path)
				return string(data)
			}
			page := func(path string) string { return send(http.MethodGet, path) }
			feed := func() string { return send(http.MethodPost, "/api/v3/campaigns/paged?pageSize=50") }
			// within polls until process two shows want, failing after bound (and a second's grace).
			within := func(bound time.Duration, what string, shows func() bool) {
				changed := time.Now()
				for !shows() {
					require.Less(t, time.Since(changed), bound+time.Second, "%s did not show through process two within the %v bound", what, bound)
					time.Sleep(50 * time.Millisecond)
				}
				t.Logf("%s showed through process two after %v (bound %v)", what, time.Since(changed).Round(time.Millisecond), bound)
			}
			// Both caches are warm: process two has read the panel and decoded the campaign.
			require.Contains(t, page("/login"), "--color-cta:#1AC0B4;")
			require.Contains(t, page("/survey/"+survey.UUID+"/"), "Budget survey")
			require.Contains(t, feed(), "Budget survey")

			// The campaign is renamed through process one: process two shows it at once.
			renamed := *survey
			renamed.Name = campaigns.Text{"en": "Renamed survey"}
			panel, err := one.Tenancy.PanelByKey(ctx, "demo")
			require.NoError(t, err)
			_, err = one.Campaigns.Import(ctx, panel, []*campaigns.Definition{&renamed})
			require.NoError(t, err)
			require.Contains(t, page("/survey/"+survey.UUID+"/"), "Renamed survey", "the campaign change shows on the next request")
			within(campaigns.ListTTL, "the renamed campaign in the feed", func() bool { return strings.Contains(feed(), "Renamed survey") })

			// The theme is changed through process one: process two shows it within the TTL.
			spec := demoPanels()[0]
			spec.AppTheme = withEntry(spec.AppTheme, "color_cta", "#0B6E4F")
			_, err = one.Tenancy.Apply(ctx, spec)
			require.NoError(t, err)
			within(ttl, "the theme change", func() bool { return strings.Contains(page("/login"), "--color-cta:#0B6E4F;") })
		})
	}
}

// withEntry is a copy of m with key set to value.
func withEntry[M ~map[string]string](m M, key, value string) M {
	out := make(M, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out[key] = value
	return out
}
