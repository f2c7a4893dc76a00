package tenancy

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func colour(t *testing.T, s string) RGBA {
	t.Helper()
	c, ok := ParseColour(s)
	require.True(t, ok, "parse %q", s)
	return c
}

func TestParseColourReadsTheColoursAThemeAccepts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want string // #RRGGBB
		a    float64
	}{
		{"#1AC0B4", "#1AC0B4", 1},
		{"#1ac0b4", "#1AC0B4", 1},
		{"#fff", "#FFFFFF", 1},
		{"#f0c8", "#FF00CC", 0.533},
		{"#1AC0B480", "#1AC0B4", 0.502},
		{"  #E07A1F ", "#E07A1F", 1},
		{"rgb(26, 192, 180)", "#1AC0B4", 1},
		{"rgb(26 192 180)", "#1AC0B4", 1},
		{"rgba(0,0,0,.3)", "#000000", 0.3},
		{"rgba(255, 255, 255, 50%)", "#FFFFFF", 0.5},
		{"rgb(100%, 50%, 0%)", "#FF8000", 1},
		{"rgb(300, 0, 0)", "#FF0000", 1},
		{"hsl(0, 100%, 50%)", "#FF0000", 1},
		{"hsl(120, 100%, 25%)", "#008000", 1},
		{"hsl(210 50% 40%)", "#336699", 1},
		{"hsla(60, 100%, 50%, 0.25)", "#FFFF00", 0.25},
		{"hsl(480, 100%, 50%)", "#00FF00", 1},
		{"royalblue", "#4169E1", 1},
		{"DarkSlateGray", "#2F4F4F", 1},
		{"white", "#FFFFFF", 1},
		{"transparent", "#000000", 0},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			c := colour(t, tc.in)
			assert.Equal(t, tc.want, c.Hex())
			assert.InDelta(t, tc.a, c.A, 0.001)
		})
	}
	for _, bad := range []string{"", "#", "#12", "#12345", "#1234567", "#ggg", "bogus", "currentcolor", "inherit",
		"rgb(1,2)", "rgb(1,2,3,4,5)", "rgb(a,b,c)", "hsl(x, 1%, 1%)", "lab(50 20 30)", "rgb(1,2,3", "url(x)"} {
		_, ok := ParseColour(bad)
		assert.False(t, ok, "%q is not a colour we can read", bad)
	}
}

func TestLuminanceAndContrastMatchTheWCAGValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a, b string
		want float64
	}{
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48},
		{"#767676", "#ffffff", 4.54},
		{"#1AC0B4", "#ffffff", 2.27},
		{"#2DCC70", "#ffffff", 2.10},
		{"#909090", "#ffffff", 3.19},
		{"#909090", "#f4f5f7", 2.93},
		{"#E07A1F", "#ffffff", 3.01},
		{"#4169e1", "#f4f5f7", 4.44},
		{"#F22C44", "#FEEAEC", 3.49},
		{"#ff0000", "#ffffff", 4.00},
		{"#0000ff", "#ffffff", 8.59},
	}
	for _, tc := range cases {
		a, b := colour(t, tc.a), colour(t, tc.b)
		assert.InDelta(t, tc.want, Contrast(a, b), 0.005, "%s on %s", tc.a, tc.b)
		assert.Equal(t, Contrast(a, b), Contrast(b, a), "symmetric")
	}
	assert.InDelta(t, 0.2126, Luminance(colour(t, "#ff0000")), 1e-4)
	assert.InDelta(t, 0.7152, Luminance(colour(t, "#00ff00")), 1e-4)
	assert.InDelta(t, 0.2158605, Luminance(colour(t, "#808080")), 1e-6)
}

func TestOKLCHMatchesCSSColour4AndRoundTrips(t *testing.T) {
	t.Parallel()
	// Reference values of CSS Color 4 (oklch() of the sRGB primaries).
	red := ToOKLCH(colour(t, "#ff0000"))
	assert.InDelta(t, 0.62796, red.L, 1e-4)
	assert.InDelta(t, 0.25768, red.C, 1e-4)
	assert.InDelta(t, 29.2339, red.H, 1e-2)
	blue := ToOKLCH(colour(t, "#0000ff"))
	assert.InDelta(t, 0.45201, blue.L, 1e-4)
	assert.InDelta(t, 264.052, blue.H, 1e-2)
	w := ToOKLCH(colour(t, "#ffffff"))
	assert.InDelta(t, 1, w.L, 1e-6)
	assert.Zero(t, w.C, "a grey has no chroma")

	for _, s := range []string{"#1AC0B4", "#E07A1F", "#475369", "#2DCC70", "#ffff00", "#123456", "#777777", "#000000", "#ffffff"} {
		c := colour(t, s)
		assert.Equal(t, c.Hex(), FromOKLCH(ToOKLCH(c)).Hex(), "%s round trip", s)
	}
	// Out of gamut: lightness and hue kept, chroma lowered until it fits.
	o := OKLCH{L: 0.5, C: 0.4, H: 29}
	c := FromOKLCH(o)
	back := ToOKLCH(c)
	assert.InDelta(t, 0.5, back.L, 2e-3)
	assert.InDelta(t, 29, back.H, 1)
	assert.Less(t, back.C, 0.4)
}

func hueDistance(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}

func TestReachMovesLightnessTheLeastAndKeepsTheHue(t *testing.T) {
	t.Parallel()
	white, page := colour(t, "#ffffff"), colour(t, "#f4f5f7")
	cases := []struct {
		name   string
		fg     string
		bgs    []RGBA
		target float64
		want   Outcome
	}{
		{"a passing colour is kept", "#475369", []RGBA{white}, 4.5, Kept},
		{"teal darkens on white", "#1AC0B4", []RGBA{white, page}, 4.5, Adjusted},
		{"orange darkens on white for a control", "#E07A1F", []RGBA{white, page}, 3, Adjusted},
		{"green darkens on the page grey", "#2DCC70", []RGBA{page}, 4.5, Adjusted},
		{"yellow darkens to a dark yellow", "#ffff00", []RGBA{white}, 4.5, Adjusted},
		{"navy lightens on black", "#1F3A5F", []RGBA{colour(t, "#000000")}, 4.5, Adjusted},
		{"white text on teal turns dark: it cannot get lighter", "#ffffff", []RGBA{colour(t, "#1AC0B4")}, 4.5, Adjusted},
		{"black text on black turns light", "#000000", []RGBA{colour(t, "#000000")}, 4.5, Adjusted},
		{"a translucent colour is measured over the background", "rgba(26,192,180,.5)", []RGBA{white}, 4.5, Adjusted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fg := colour(t, tc.fg)
			got, outcome := Reach(fg, tc.bgs, tc.target)
			require.Equal(t, tc.want, outcome)
			r, _ := worstRatio(got, tc.bgs)
			assert.GreaterOrEqual(t, r, tc.target)
			if outcome == Kept {
				assert.Equal(t, fg, got)
				return
			}
			assert.Equal(t, 1.0, got.A, "an adjusted colour is opaque")
			from, to := ToOKLCH(fg.Over(tc.bgs[0])), ToOKLCH(got)
			if from.C > 0.03 && to.C > 0.03 {
				assert.LessOrEqual(t, hueDistance(from.H, to.H), 2.0, "hue %0.1f → %0.1f", from.H, to.H)
			}
			// The least move: a shade a step closer to the original fails.
			closer := to
			closer.L += (from.L - to.L) / math.Abs(from.L-to.L) * 0.01
			cr, _ := worstRatio(FromOKLCH(closer).quantize(), tc.bgs)
			assert.Less(t, cr, tc.target+margin, "%s is not further than needed", got.Hex())
		})
	}

	// Darker on light backgrounds, lighter on dark ones.
	got, _ := Reach(colour(t, "#909090"), []RGBA{white}, 4.5)
	assert.Less(t, Luminance(got), Luminance(colour(t, "#909090")))
	got, _ = Reach(colour(t, "#505050"), []RGBA{colour(t, "#202020")}, 4.5)
	assert.Greater(t, Luminance(got), Luminance(colour(t, "#505050")))
}

func TestReachFallsBackToBlackOrWhiteWhenNoLightnessOfTheHueReaches(t *testing.T) {
	t.Parallel()
	mid := colour(t, "#777777") // black gives 4.69:1 and white 4.48:1: neither reaches 7
	got, outcome := Reach(colour(t, "#1AC0B4"), []RGBA{mid}, 7)
	assert.Equal(t, Fallback, outcome)
	assert.Equal(t, "#000000", got.Hex(), "black is the nearer")
	got, outcome = Reach(colour(t, "#1AC0B4"), []RGBA{colour(t, "#808080")}, 7)
	assert.Equal(t, Fallback, outcome)
	assert.Equal(t, "#000000", got.Hex())
	got, outcome = Reach(colour(t, "#1AC0B4"), []RGBA{colour(t, "#6a6a6a")}, 7)
	assert.Equal(t, Fallback, outcome)
	assert.Equal(t, "#FFFFFF", got.Hex(), "white reads better on a darker grey")

	a := Adjustment{Variant: "--x", From: "#1AC0B4", To: "#000000", Before: 1.5, After: 4.69, On: "#777777", Target: 7, Fallback: true}
	assert.Equal(t, "--x #1AC0B4 → #000000 (1.50:1 → 4.69:1 on #777777; no lightness of its hue reaches 7:1)", a.String())
}

func TestLightestIsTheQuietestShadeThatStillReads(t *testing.T) {
	t.Parallel()
	surfaces := []RGBA{surfaceCard, surfacePage}
	got, _ := Lightest(colour(t, "#444444"), surfaces, 4.5)
	r, _ := worstRatio(got, surfaces)
	assert.GreaterOrEqual(t, r, 4.5)
	assert.Less(t, r, 4.5+margin+0.1, "no darker than needed: %s", got.Hex())
	assert.Greater(t, Luminance(got), Luminance(colour(t, "#444444")))
	navy, _ := Lightest(colour(t, "#1F3A5F"), surfaces, 4.5)
	assert.LessOrEqual(t, hueDistance(ToOKLCH(navy).H, ToOKLCH(colour(t, "#1F3A5F")).H), 2.0, navy.Hex())
}

var demoTheme = AppTheme{"color_primary": "#475369", "color_cta": "#1AC0B4", "font_color_cta": "#ffffff"}

var northwindTheme = AppTheme{
	"color_primary": "#1F3A5F", "color_secondary": "#27496D", "color_cta": "#E07A1F", "font_color_cta": "#ffffff",
	"header_font_color": "#ffffff", "link_font_color": "#27496D", "text_font_color": "#2B2B2B",
}

// hostileThemes are tenant colours that break contrast in every way we could think of.
var hostileThemes = map[string]AppTheme{
	"pure yellow CTA with white text":      {"color_cta": "#ffff00", "font_color_cta": "#ffffff"},
	"near-white primary under white text":  {"color_primary": "#fafafa", "header_font_color": "#ffffff"},
	"white CTA with white text":            {"color_cta": "white", "font_color_cta": "#fff"},
	"black CTA with black text":            {"color_cta": "#000", "font_color_cta": "#000000"},
	"mid-grey CTA":                         {"color_cta": "#777777", "font_color_cta": "#ffffff"},
	"light text and links":                 {"text_font_color": "#eeeeee", "link_font_color": "yellow"},
	"translucent colours":                  {"color_cta": "rgba(26,192,180,0.5)", "font_color_cta": "rgba(255,255,255,.6)", "text_font_color": "rgba(0,0,0,.3)", "color_primary": "hsla(220, 20%, 35%, 0.2)"},
	"transparent CTA":                      {"color_cta": "transparent"},
	"hsl colours":                          {"color_cta": "hsl(60, 100%, 50%)", "color_primary": "hsl(200 90% 85%)"},
	"invalid values":                       {"color_cta": "red;}body{display:none", "color_primary": "#12345", "link_font_color": "url(x)"},
	"names the rule cannot read":           {"color_cta": "bogus", "text_font_color": "notacolour"},
	"dark header text on a dark primary":   {"color_primary": "#101010", "header_font_color": "#202020"},
	"saturated brand blue with white text": {"color_cta": "#0077cc", "font_color_cta": "#ffffff", "color_primary": "#0000ff"},
}

func cssValues(css string) map[string]string {
	out := map[string]string{}
	body := strings.TrimSuffix(strings.TrimPrefix(css, ":root{"), "}")
	for _, decl := range strings.Split(body, ";") {
		if name, value, ok := strings.Cut(decl, ":"); ok {
			out[name] = value
		}
	}
	return out
}

func TestEveryDerivedVariantReachesItsRatioForTheDemoTheSpecAndHostileThemes(t *testing.T) {
	t.Parallel()
	themes := map[string]AppTheme{"spec defaults": nil, "Canvass Demo": demoTheme, "Northwind": northwindTheme}
	for k, v := range hostileThemes {
		themes[k] = v
	}
	names := []string{"--color-text-ink", "--color-text-muted", "--color-primary-ink", "--color-header-contrast", "--color-cta-contrast",
		"--color-cta-ink", "--color-cta-ui", "--color-link-ink", "--color-highlight-ink", "--color-success-ink",
		"--color-success-contrast", "--color-error-ink", "--color-info-contrast", "--hover-cta"}
	for name, theme := range themes {
		t.Run(name, func(t *testing.T) {
			css := theme.CSS()
			values := cssValues(css)
			vars, _, _ := theme.Compact().derive()
			var got []string
			for _, v := range vars {
				got = append(got, v.name)
				assert.Equal(t, v.value, values[v.name], "emitted as derived")
				if v.target == 0 {
					continue
				}
				c, ok := ParseColour(v.value)
				require.True(t, ok, "%s: %q", v.name, v.value)
				r, on := worstRatio(c, v.bgs)
				assert.GreaterOrEqual(t, r, v.target, "%s %s on %s", v.name, v.value, on.Hex())
			}
			assert.Equal(t, names, got, "every variant, in order")
			// The configured values stay as the panel set them.
			for _, cv := range cssVar {
				if cv.field != "" && ValidColour(theme.Compact()[cv.field]) {
					assert.Equal(t, theme.Compact()[cv.field], values[cv.name], cv.field)
				}
			}
		})
	}
}

func TestTheVariantsReadOnTheSurfacesOfTheStylesheet(t *testing.T) {
	t.Parallel()
	for name, theme := range map[string]AppTheme{"spec": nil, "demo": demoTheme, "northwind": northwindTheme, "yellow": hostileThemes["pure yellow CTA with white text"]} {
		t.Run(name, func(t *testing.T) {
			v := cssValues(theme.CSS())
			c := func(name string) RGBA { return colour(t, v[name]) }
			cta := c("--color-cta")
			for _, bg := range []string{"#ffffff", "#f4f5f7"} {
				page := colour(t, bg)
				assert.Greater(t, Contrast(c("--color-cta-ink"), page), 4.5, "the CTA colour as text on %s", bg)
				assert.Greater(t, Contrast(c("--color-cta-ui"), page), 3.0, "a tab underline on %s", bg)
				assert.Greater(t, Contrast(c("--color-success-ink"), page), 4.5, "a reward on %s", bg)
				assert.Greater(t, Contrast(c("--color-link-ink"), page), 4.5, "a link on %s", bg)
				assert.Greater(t, Contrast(c("--color-text-muted"), page), 4.5, "minutes and hints on %s", bg)
				assert.Greater(t, Contrast(c("--color-primary-ink"), page), 4.5, "a heading on %s", bg)
			}
			assert.Greater(t, Contrast(c("--color-cta-contrast"), cta), 4.5, "a button's text")
			assert.Greater(t, Contrast(c("--color-header-contrast"), c("--color-primary")), 4.5, "the top bar's text")
			assert.Greater(t, Contrast(c("--color-success-contrast"), c("--color-success")), 4.5, "a welcome badge")
			assert.Greater(t, Contrast(c("--color-info-contrast"), c("--color-info")), 4.5, "a new badge")
			notice := c("--color-success").Mix(white, 0.15)
			assert.Equal(t, "#E0F7EA", notice.quantize().Hex(), "color-mix(in srgb, success 15%, #fff)")
			assert.Greater(t, Contrast(c("--color-highlight-ink"), notice), 4.5, "a link in the payment notice")
			assert.Greater(t, Contrast(c("--color-link-ink"), notice), 4.5, "Dismiss in the payment notice")
			errTint := c("--color-error").Mix(white, 0.10)
			assert.Greater(t, Contrast(c("--color-error-ink"), errTint), 4.5, "a form error")

			// Hovering a button tints its background away from its text.
			overlay := RGBA{0, 0, 0, 0.15}
			if v["--hover-cta"] == hoverLighten {
				overlay = RGBA{1, 1, 1, 0.15}
			} else {
				assert.Equal(t, hoverDarken, v["--hover-cta"])
			}
			hovered := overlay.Over(cta)
			assert.NotEqual(t, cta.Hex(), hovered.Hex(), "a hover shows")
			if name == "spec" {
				assert.Greater(t, Contrast(c("--color-cta-contrast"), hovered), 4.5, "black lightens under white text: darker would not show")
				return
			}
			assert.GreaterOrEqual(t, Contrast(c("--color-cta-contrast"), hovered), Contrast(c("--color-cta-contrast"), cta), "hover never lowers the contrast")
		})
	}
}

func TestAdjustedVariantsKeepTheBrandsHue(t *testing.T) {
	t.Parallel()
	themes := []AppTheme{demoTheme, northwindTheme, hostileThemes["pure yellow CTA with white text"], hostileThemes["saturated brand blue with white text"], hostileThemes["hsl colours"]}
	checked := 0
	for _, theme := range themes {
		for _, a := range theme.Adjustments() {
			from, to := ToOKLCH(colour(t, a.From).Over(white)), ToOKLCH(colour(t, a.To))
			if from.C < 0.03 || to.C < 0.03 {
				continue // a grey, or white text turned dark: no hue to keep
			}
			checked++
			assert.LessOrEqual(t, hueDistance(from.H, to.H), 2.0, "%s: hue %.1f° → %.1f°", a, from.H, to.H)
		}
	}
	assert.GreaterOrEqual(t, checked, 10)
}

func TestAdjustmentsListWhatMovedAndOnlyThat(t *testing.T) {
	t.Parallel()
	adj := northwindTheme.Adjustments()
	var lines []string
	for _, a := range adj {
		lines = append(lines, a.String())
		assert.Less(t, a.Before, a.Target, a.String())
		assert.GreaterOrEqual(t, a.After, a.Target, a.String())
		assert.Contains(t, northwindTheme.CSS(), a.Variant+":"+a.To+";")
	}
	assert.Equal(t, []string{
		"--color-cta-contrast #ffffff → #2D2D2D (3.01:1 → 4.57:1 on #E07A1F)",
		"--color-cta-ink #E07A1F → #AE5900 (2.76:1 → 4.55:1 on #F4F5F7)",
		"--color-cta-ui #E07A1F → #D77210 (2.76:1 → 3.05:1 on #F4F5F7)",
		"--color-highlight-ink #4169e1 (default) → #3C63DA (4.19:1 → 4.55:1 on #FEEAEC)",
		"--color-success-ink #2DCC70 (default) → #008141 (1.92:1 → 4.56:1 on #F4F5F7)",
		"--color-success-contrast #ffffff (default) → #454545 (2.10:1 → 4.55:1 on #2DCC70)",
		"--color-error-ink #F22C44 (default) → #D80032 (3.48:1 → 4.58:1 on #FEEAEC)",
	}, lines)

	css := northwindTheme.CSS()
	for _, kept := range []string{"--color-primary-ink:#1F3A5F;", "--color-link-ink:#27496D;", "--color-text-ink:#2B2B2B;", "--color-header-contrast:#ffffff;"} {
		assert.Contains(t, css, kept, "a colour that reads is used as configured")
	}
	assert.Regexp(t, regexp.MustCompile(`--color-text-muted:#[0-9A-F]{6};`), css)
}

func TestVariantGivesOneDerivedColour(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "#404040", demoTheme.Variant("--color-cta-contrast"), "white on teal reads dark")
	assert.Equal(t, "#ffffff", AppTheme{"color_cta": "#1F3A5F", "font_color_cta": "#ffffff"}.Variant("--color-cta-contrast"))
	assert.Equal(t, "", demoTheme.Variant("--color-cta"), "a configured colour is no variant")
}

func TestAColourTheRuleCannotReadDerivesFromTheDefault(t *testing.T) {
	t.Parallel()
	theme := AppTheme{"color_cta": "bogus", "text_font_color": "notacolour", "color_primary": "#12345"}
	assert.Equal(t, []string{"text_font_color", "color_primary", "color_cta"}, theme.Unreadable(), "#12345 passes the pattern but is no colour")
	v := cssValues(theme.CSS())
	def := cssValues(AppTheme(nil).CSS())
	assert.Equal(t, "bogus", v["--color-cta"], "still emitted as set")
	for _, name := range []string{"--color-cta-contrast", "--color-cta-ink", "--color-cta-ui", "--color-text-ink", "--color-text-muted", "--color-primary-ink"} {
		assert.Equal(t, def[name], v[name], name)
	}
	assert.Empty(t, AppTheme{"color_cta": "#E07A1F"}.Unreadable())
}

func TestTheThemeStaysOneSafeRuleWithTheVariants(t *testing.T) {
	t.Parallel()
	for name, theme := range hostileThemes {
		css := theme.CSS()
		assert.Equal(t, 1, strings.Count(css, "{"), name)
		assert.Equal(t, 1, strings.Count(css, "}"), name)
		assert.NotContains(t, css, "display:none", name)
		assert.NotContains(t, css, "url(", name)
	}
}
