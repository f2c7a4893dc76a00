package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The demo tenants' themes as `canvass tenant apply` reports them: every derived colour that had
// to move to reach WCAG AA, from → to, with the ratio before and after on the surface that
// decided it. The spec's defaults (link, highlight, success, error) are adjusted for every
// panel and say "(default)".
const demoThemeReport = `panel demo: --color-cta-contrast #ffffff → #404040 (2.27:1 → 4.56:1 on #1AC0B4)
panel demo: --color-cta-ink #1AC0B4 → #007D75 (2.08:1 → 4.59:1 on #F4F5F7)
panel demo: --color-cta-ui #1AC0B4 → #009D93 (2.08:1 → 3.08:1 on #F4F5F7)
panel demo: --color-link-ink #909090 (default) → #6D6D6D (2.84:1 → 4.60:1 on #E0F7EA)
panel demo: --color-highlight-ink #4169e1 (default) → #3C63DA (4.19:1 → 4.55:1 on #FEEAEC)
panel demo: --color-success-ink #2DCC70 (default) → #008141 (1.92:1 → 4.56:1 on #F4F5F7)
panel demo: --color-success-contrast #ffffff (default) → #454545 (2.10:1 → 4.55:1 on #2DCC70)
panel demo: --color-error-ink #F22C44 (default) → #D80032 (3.48:1 → 4.58:1 on #FEEAEC)
panel northwind: --color-cta-contrast #ffffff → #2D2D2D (3.01:1 → 4.57:1 on #E07A1F)
panel northwind: --color-cta-ink #E07A1F → #AE5900 (2.76:1 → 4.55:1 on #F4F5F7)
panel northwind: --color-cta-ui #E07A1F → #D77210 (2.76:1 → 3.05:1 on #F4F5F7)
panel northwind: --color-highlight-ink #4169e1 (default) → #3C63DA (4.19:1 → 4.55:1 on #FEEAEC)
panel northwind: --color-success-ink #2DCC70 (default) → #008141 (1.92:1 → 4.56:1 on #F4F5F7)
panel northwind: --color-success-contrast #ffffff (default) → #454545 (2.10:1 → 4.55:1 on #2DCC70)
panel northwind: --color-error-ink #F22C44 (default) → #D80032 (3.48:1 → 4.58:1 on #FEEAEC)
`

func TestTenantApplyPrintsEveryColourTheContrastRuleAdjustedForEachPanel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	dir := t.TempDir()
	var files []string
	for _, spec := range demoPanels() {
		data, err := yaml.Marshal(spec)
		require.NoError(t, err)
		files = append(files, writeCampaignTestFile(t, dir, spec.Key+".yaml", string(data)))
	}
	var out bytes.Buffer

	require.NoError(t, applyTenantFiles(context.Background(), e.app, files, quietCLILog(), &out))

	assert.Equal(t, demoThemeReport, out.String())
	page := e.client("northwind.localhost").get("/login")
	assert.Contains(t, page.Body, "--color-cta:#E07A1F;", "the panel's own colour is emitted as set")
	assert.Contains(t, page.Body, "--color-cta-ink:#AE5900;", "beside its variants")
}

func TestTenantApplyNamesAColourItCannotReadAndPrintsNothingForAPanelItRefuses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	dir := t.TempDir()
	hostile := writeCampaignTestFile(t, dir, "acme.yaml", `instance: {code: acme}
key: acme
name: Acme
currency_code: USD
hosts: [acme.example]
languages: [en]
app_theme:
  color_cta: "#ffff00"
  font_color_cta: "#ffffff"
  color_primary: "#fafafa"
  link_font_color: nocolour
`)
	refused := writeCampaignTestFile(t, dir, "bad.yaml", "instance: {code: bad}\nkey: Bad Key\nname: Bad\ncurrency_code: USD\nhosts: [bad.example]\nlanguages: [en]\napp_theme: {color_cta: \"#ffff00\"}\n")
	var out bytes.Buffer

	err := applyTenantFiles(context.Background(), e.app, []string{hostile, refused}, quietCLILog(), &out)

	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Base(refused))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Equal(t, `panel acme: link_font_color "nocolour" is not a colour the contrast rule can read: its variants are derived from the default`, lines[0])
	assert.Contains(t, lines, "panel acme: --color-cta-contrast #ffffff → #707070 (1.07:1 → 4.61:1 on #FFFF00)", "white on yellow becomes a grey that reads")
	assert.Contains(t, lines, "panel acme: --color-cta-ink #ffff00 → #747300 (1.01:1 → 4.58:1 on #F4F5F7)", "yellow as text becomes a dark yellow")
	assert.Contains(t, lines, "panel acme: --color-primary-ink #fafafa → #6F6F6F (1.04:1 → 4.60:1 on #F4F5F7)")
	assert.Contains(t, lines, "panel acme: --color-header-contrast #ffffff (default) → #727272 (1.04:1 → 4.60:1 on #FAFAFA)")
	assert.Contains(t, lines, "panel acme: --color-link-ink #909090 (default) → #6D6D6D (2.84:1 → 4.60:1 on #E0F7EA)", "an unreadable colour derives from the default")
	for _, l := range lines {
		assert.True(t, strings.HasPrefix(l, "panel acme: "), "nothing is printed for the refused panel: %s", l)
	}
}
