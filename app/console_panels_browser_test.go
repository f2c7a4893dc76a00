package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	// The panel's domains serve its uploaded logo, favicon and loader icon (tenancy).
	a11ySkipped["/panel-assets/:name"] = "an image (a panel's uploaded logo, favicon or loader icon), not a page"
	consoleParts["panels"] = consolePart{
		pages: []string{
			"/console/panels/new", "/console/panels/:panel/settings", "/console/panels/:panel/theme",
			"/console/panels/:panel/providers", "/console/panels/:panel/file",
		},
		skipped: map[string]string{
			"/console/panels/:panel/export.yaml":  "the tenant file as a YAML download, not a page",
			"/console/panels/:panel/assets/:name": "an uploaded image, not a page",
		},
		visit: func(t *testing.T, w *a11yWalk, s *a11ySession) {
			p := s.p()
			w.open(s, "/console/panels/new")
			w.check(s, "console: panels, create")
			fill(p, map[string]string{"#f-key": "Not A Key!", "#f-name": "Axe", "#f-hosts": "axe.localhost"})
			w.submit(s, "form[action='/console/panels/new'] button[type=submit]")
			w.check(s, "console: panels, create refused")

			w.open(s, "/console/panels/demo/settings")
			w.check(s, "console: panels, settings")
			fill(s.p(), map[string]string{"#f-hosts": "localhost\nnot a host!"})
			w.submit(s, "form[action='/console/panels/demo/settings'] button[type=submit]")
			w.check(s, "console: panels, settings refused")
			assert.True(t, s.p().MustHas("#f-hosts[aria-invalid=true]"), "the refusal is beside its field")

			w.open(s, "/console/panels/demo/theme")
			w.check(s, "console: panels, theme")
			fill(s.p(), map[string]string{"#f-color_cta": "#ffff00", "#f-font_color_cta": "#ffffff"})
			w.submit(s, "#theme-form button[value=preview]")
			require.True(t, s.p().MustHas("#theme-preview"))
			require.True(t, s.p().MustHas(`#contrast-report tr[data-pass="false"]`), "the preview's contrast report has a failing pair")
			w.check(s, "console: panels, theme preview with a contrast failure")
			fill(s.p(), map[string]string{"#f-color_cta": "not a colour!"})
			w.submit(s, "#theme-form button[value=save]")
			w.check(s, "console: panels, theme refused")
			w.open(s, "/console/panels/demo/theme")
			notImage := filepath.Join(t.TempDir(), "logo.png")
			require.NoError(t, os.WriteFile(notImage, []byte("not an image"), 0o600))
			s.p().MustElement("#f-file-logo").MustSetFiles(notImage)
			w.submit(s, "form:has(#f-file-logo) button[type=submit]")
			w.check(s, "console: panels, upload refused")

			w.open(s, "/console/panels/northwind/providers")
			w.check(s, "console: panels, providers")
			fill(s.p(), map[string]string{"#f-offers_base_url": "ftp://offers.example", "#f-offers_app_id": "axe"})
			w.submit(s, "form[action='/console/panels/northwind/providers'] button[type=submit]")
			w.check(s, "console: panels, providers refused")

			w.open(s, "/console/panels/demo/file")
			w.check(s, "console: panels, tenant file")
			bad := filepath.Join(t.TempDir(), "bad.yaml")
			require.NoError(t, os.WriteFile(bad, []byte("key: northwind\n"), 0o600))
			s.p().MustElement("#f-file").MustSetFiles(bad)
			w.submit(s, "form[action='/console/panels/demo/import'] button[type=submit]")
			w.check(s, "console: panels, import refused")
		},
	}
}

// ctaOf is the CTA colour a page is themed with, as the browser computes it.
func ctaOf(p *rod.Page) string {
	return strings.ToLower(strings.TrimSpace(p.MustEval(`() => getComputedStyle(document.documentElement).getPropertyValue('--color-cta')`).String()))
}

func TestInChromiumAnOwnerChangesAThemeColourPreviewsItSavesItAndTheMemberFeedChanges(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	member := b.page(t, b.url("localhost", "/login"))
	fill(member, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	submit(member, "button[type=submit]")
	require.Equal(t, "/feed", path(member))
	assert.Equal(t, "#1ac0b4", ctaOf(member))

	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "owner@ops.demo.test", "console-owner-1")
	wait := p.MustWaitNavigation()
	p.MustElement("a[href='/console/panels/demo/settings']").MustClick()
	wait()
	p.MustWaitLoad()
	wait = p.MustWaitNavigation()
	p.MustElement("a[href='/console/panels/demo/theme']").MustClick()
	wait()
	p.MustWaitLoad()

	// Preview: the feed, survey box and login drawn with the new colour; nothing saved.
	fill(p, map[string]string{"#f-color_cta": "#7b2cbf"})
	submit(p, "#theme-form button[value=preview]")
	assert.Equal(t, "/console/panels/demo/theme", path(p))
	button := p.MustElement("#theme-preview .feed-card .button")
	assert.Equal(t, "rgb(123, 44, 191)", button.MustEval(`() => getComputedStyle(this).backgroundColor`).String())
	assert.Contains(t, p.MustElement("#contrast-report").MustText(), "Button text colour on Button colour")
	assert.Equal(t, "#7b2cbf", p.MustElement("#f-color_cta").MustProperty("value").String(), "the edit stays in the form")
	member.MustReload().MustWaitLoad()
	assert.Equal(t, "#1ac0b4", ctaOf(member), "a preview saves nothing")

	// Save: the member's feed has the new colour on its next load.
	submit(p, "#theme-form button[value=save]")
	assert.Equal(t, "/console/panels/demo/theme?done=saved", path(p))
	assert.Contains(t, p.MustElement("p.notice").MustText(), "Saved")
	member.MustReload().MustWaitLoad()
	assert.Equal(t, "#7b2cbf", ctaOf(member))
	start := member.MustElement(".feed-card .button, .feed-card button")
	assert.Equal(t, "rgb(123, 44, 191)", start.MustEval(`() => getComputedStyle(this).backgroundColor`).String(), "the feed's buttons wear it")
}
