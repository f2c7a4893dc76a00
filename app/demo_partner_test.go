package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoPartnerOrigin is the demo's partner site as the tests' apps serve it: CANVASS_ADDR unset,
// so on its default port.
const demoPartnerOrigin = "http://partner.localhost:3000"

// demoPanels are the demo tenants as the tests' apps load them (CANVASS_ADDR unset).
func demoPanels() []tenancy.PanelSpec { return demoPanelsFor(testConfig("development").Addr) }

// changeDemoPanel applies a demo panel's tenant file (demo or northwind) with a change, as an
// operator's `canvass tenant apply` would.
func (e *env) changeDemoPanel(t testing.TB, key string, change func(spec *tenancy.PanelSpec)) {
	t.Helper()
	for _, spec := range demoPanels() {
		if spec.Key == key {
			change(&spec)
			_, err := e.app.Tenancy.Apply(context.Background(), spec)
			require.NoError(t, err)
			return
		}
	}
	t.Fatalf("%q is not a demo panel", key)
}

func TestThePartnerDemosFramesAreAllowedOnAPortOtherThan3000(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			cfg := testConfig("development")
			cfg.Demo, cfg.Addr = true, ":8123"
			e := newEnvWith(t, d, cfg)
			parent := url.QueryEscape("http://partner.localhost:8123/")

			page := e.client("partner.localhost:8123").get("/")
			require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
			assert.Contains(t, page.Body, `src="http://localhost:8123/widgets/login?parentFrameUrl=`+parent+`"`)
			assert.Contains(t, page.Body, `src="http://northwind.localhost:8123/widgets/join?parentFrameUrl=`+parent+`"`)
			assert.Contains(t, page.Header.Get("Content-Security-Policy"), "frame-src http://localhost:8123 http://northwind.localhost:8123;")

			for _, w := range []struct{ host, path string }{{"localhost:8123", "/widgets/login"}, {"northwind.localhost:8123", "/widgets/join"}} {
				widget := e.client(w.host).get(w.path + "?parentFrameUrl=" + parent)
				require.Equal(t, http.StatusOK, widget.StatusCode, w.host)
				csp := widget.Header.Get("Content-Security-Policy")
				assert.Regexp(t, `frame-ancestors [^;]*`+regexp.QuoteMeta("http://partner.localhost:8123"), csp, "%s lets the partner page frame it", w.host)
				assert.NotContains(t, csp, "partner.localhost:3000", w.host)
			}
		})
	}
}

func TestTheDemoPanelsLetThePartnerSiteOnTheServersPortFrameThem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr string
		want []string
	}{
		{":3000", []string{"http://partner.localhost:3000"}},
		{"127.0.0.1:8123", []string{"http://partner.localhost:8123"}},
		{":0", nil}, // any free port: no partner site is served
	} {
		for _, spec := range demoPanelsFor(tc.addr) {
			assert.Equal(t, tc.want, spec.AppSettings.EmbedOrigins, "%s on %s", spec.Key, tc.addr)
		}
	}
}
