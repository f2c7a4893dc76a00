package tenancy

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ThemeFields are the app_theme fields of the spec; anything else is refused on import.
var ThemeFields = []string{
	"color_primary", "color_secondary", "color_cta", "font_color_cta", "font_color_secondary",
	"panel_font_url", "panel_font_family", "header_font_color", "link_font_color", "text_font_color",
	"logo_url", "logo_favicon_url", "logo_loader_icon_url", "logo_inline_url", "survey_theme_guid",
	"wb_background_color", "wb_header_text_color", "wb_regular_text_color", "wb_button_color", "wb_button_text_color",
	"cb_background_color", "cb_header_text_color", "cb_regular_text_color", "cb_button_color", "cb_button_text_color",
}

// cssVar maps theme colour fields to the CSS custom properties templates and islands use,
// with the spec's default theme as the value when the panel sets none.
var cssVar = []struct{ field, name, def string }{
	{"color_primary", "--color-primary", "#475369"},
	{"color_secondary", "--color-secondary", "#475370"},
	{"color_cta", "--color-cta", "#000000"},
	{"font_color_cta", "--color-cta-text", "#ffffff"},
	{"font_color_secondary", "--color-secondary-text", "#ffffff"},
	{"header_font_color", "--color-header-text", "#ffffff"},
	{"link_font_color", "--color-link", "#909090"},
	{"text_font_color", "--color-text", "#444444"},
	{"", "--color-highlight", "#4169e1"},
	{"", "--color-background", "#ffffff"},
	{"", "--color-accent", "#1DC9BC"},
	{"", "--color-error", "#F22C44"},
	{"", "--color-success", "#2DCC70"},
	{"", "--color-info", "#4169E1"},
	{"", "--font-size", "14px"},
	{"", "--hover-tint", "15%"},
	{"wb_background_color", "--wb-background", ""},
	{"wb_header_text_color", "--wb-header-text", ""},
	{"wb_regular_text_color", "--wb-text", ""},
	{"wb_button_color", "--wb-button", ""},
	{"wb_button_text_color", "--wb-button-text", ""},
	{"cb_background_color", "--cb-background", ""},
	{"cb_header_text_color", "--cb-header-text", ""},
	{"cb_regular_text_color", "--cb-text", ""},
	{"cb_button_color", "--cb-button", ""},
	{"cb_button_text_color", "--cb-button-text", ""},
}

// DefaultErrorGraphicColour is the spec's default call-to-action colour of the error graphic.
const DefaultErrorGraphicColour = "#1AC0B4"

var (
	colourRE = regexp.MustCompile(`^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(rgb|rgba|hsl|hsla)\([0-9.,%\s]{5,40}\))$`)
	fontRE   = regexp.MustCompile(`^[a-zA-Z0-9 ,'"-]{1,100}$`)
)

// ValidColour tells whether a theme value is a CSS colour we emit as-is.
func ValidColour(v string) bool { return colourRE.MatchString(v) }

// Compact drops empty and unknown values (the spec: "Empty values are dropped").
func (t AppTheme) Compact() AppTheme {
	out := AppTheme{}
	for _, f := range ThemeFields {
		if v := strings.TrimSpace(t[f]); v != "" {
			out[f] = v
		}
	}
	return out
}

// CSS renders the theme over the default theme as CSS custom properties for :root.
// Values that are not plain colours are skipped, so a theme can never inject CSS.
func (t AppTheme) CSS() string {
	t = t.Compact()
	var b strings.Builder
	b.WriteString(":root{")
	for _, v := range cssVar {
		val := v.def
		if v.field != "" && ValidColour(t[v.field]) {
			val = t[v.field]
		}
		if val == "" {
			continue
		}
		b.WriteString(v.name + ":" + val + ";")
	}
	graphic := DefaultErrorGraphicColour
	if ValidColour(t["color_cta"]) {
		graphic = t["color_cta"]
	}
	b.WriteString("--color-error-graphic:" + graphic + ";")
	vars, _, _ := t.derive()
	for _, v := range vars {
		b.WriteString(v.name + ":" + v.value + ";")
	}
	b.WriteString("}")
	return b.String()
}

// FontFamily returns the panel font as a CSS font-family list, or "" for the default.
func (t AppTheme) FontFamily() string {
	f := strings.TrimSpace(t["panel_font_family"])
	if f == "" || !fontRE.MatchString(f) {
		return ""
	}
	if !strings.ContainsAny(f, `'",`) {
		f = "'" + f + "'"
	}
	return f + ", sans-serif"
}

// Problems lists what is wrong with a theme (unknown fields, bad colours, non-https URLs).
func (t AppTheme) Problems() []string {
	var out []string
	known := map[string]bool{}
	for _, f := range ThemeFields {
		known[f] = true
	}
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.TrimSpace(t[k])
		switch {
		case !known[k]:
			out = append(out, "unknown theme field "+k)
		case v == "":
		case strings.HasSuffix(k, "_url"):
			if !strings.HasPrefix(v, "https://") && (!strings.HasPrefix(v, "/") || strings.HasPrefix(v, "//")) {
				out = append(out, k+" must be an https:// address or a path on this site")
			}
		case k == "panel_font_family":
			if !fontRE.MatchString(v) {
				out = append(out, "panel_font_family has characters a font name cannot have")
			}
		case k == "survey_theme_guid":
		default:
			if !ValidColour(v) {
				out = append(out, k+" is not a CSS colour")
			}
		}
	}
	return out
}

// The contrast rule. The panel's colours are its brand and stay as it set them (the custom
// properties above); what text and controls actually use are variants derived from them, each
// reaching WCAG 2.2 AA on the surfaces it is drawn on: 4.5:1 for text, 3:1 for the parts of
// controls that show their state (tab underlines, selected answers, rating stars). A colour
// that already reaches its ratio is used as configured; one that does not has its OKLCH
// lightness moved, hue kept, the least amount needed (Reach in contrast.go).
const (
	textRatio = 4.5
	uiRatio   = 3.0

	hoverDarken  = "rgb(0 0 0/var(--hover-tint))"
	hoverLighten = "rgb(255 255 255/var(--hover-tint))"
)

// The surfaces of static/css/app.css that text and controls sit on.
var (
	surfaceCard  = RGBA{1, 1, 1, 1}      // --color-background: cards, forms, lists, the mobile nav
	surfacePage  = mustColour("#f4f5f7") // the body
	surfaceBadge = mustColour("#eef0f3") // a plain .badge
	fixedWhite   = source{value: "#ffffff", c: RGBA{1, 1, 1, 1}, isDefault: true}
)

func mustColour(s string) RGBA {
	c, ok := ParseColour(s)
	if !ok {
		panic("tenancy: bad colour " + s)
	}
	return c
}

// Adjustment is a derived colour that had to move to reach its ratio.
type Adjustment struct {
	Variant  string  // the custom property, such as --color-cta-ink
	From     string  // the colour it is derived from, as configured (or the spec's default)
	To       string  // the variant, #RRGGBB
	Default  bool    // From is the spec's default: the panel did not set it
	Before   float64 // the contrast ratio of From on On
	After    float64 // the contrast ratio of To on On, the lowest over its surfaces
	On       string  // the surface of that lowest ratio, #RRGGBB
	Target   float64 // 4.5 or 3
	Fallback bool    // no lightness of From's hue reaches Target: black or white instead
}

// String reads "--color-cta-ink #E07A1F → #AE5900 (2.76:1 → 4.55:1 on #F4F5F7)".
func (a Adjustment) String() string {
	from := a.From
	if a.Default {
		from += " (default)"
	}
	s := fmt.Sprintf("%s %s → %s (%s:1 → %s:1 on %s", a.Variant, from, a.To, ratio(a.Before), ratio(a.After), a.On)
	if a.Fallback {
		s += fmt.Sprintf("; no lightness of its hue reaches %s:1", strconv.FormatFloat(a.Target, 'f', -1, 64))
	}
	return s + ")"
}

// ratio prints a contrast ratio rounded down, so that a failing 4.499 never reads as 4.50.
func ratio(r float64) string { return fmt.Sprintf("%.2f", math.Floor(r*100)/100) }

// Adjustments lists the derived colours that had to move from the colour they come from,
// in the order of the custom properties.
func (t AppTheme) Adjustments() []Adjustment {
	_, adj, _ := t.Compact().derive()
	return adj
}

// Variant is the value of one derived custom property (such as --color-cta-contrast) of the
// theme, or "" for a name that is none: for what is drawn outside the stylesheet, like mail.
func (t AppTheme) Variant(name string) string {
	vars, _, _ := t.Compact().derive()
	for _, v := range vars {
		if v.name == name {
			return v.value
		}
	}
	return ""
}

// Value is what CSS emits for a custom property: a theme colour as the panel set it (else its
// default), or a derived variant.
func (t AppTheme) Value(name string) string {
	t = t.Compact()
	for _, v := range cssVar {
		if v.name != name {
			continue
		}
		if v.field != "" && ValidColour(t[v.field]) {
			return t[v.field]
		}
		return v.def
	}
	return t.Variant(name)
}

// Unreadable lists the colour fields that pass ValidColour (so they are emitted as set) but
// that the contrast rule cannot read, such as an unknown colour name: their variants are
// derived from the spec's default instead.
func (t AppTheme) Unreadable() []string {
	_, _, unread := t.Compact().derive()
	return unread
}

type source struct {
	value     string // as configured, or the default
	c         RGBA
	isDefault bool
}

// derivedVar is a variant's custom property, with the surfaces and the ratio it must reach on
// them (target 0: not a colour).
type derivedVar struct {
	name, value string
	bgs         []RGBA
	target      float64
}

func defaultOf(field string) string {
	for _, v := range cssVar {
		if v.field == field && field != "" {
			return v.def
		}
	}
	return ""
}

func fixedDefault(name string) source {
	for _, v := range cssVar {
		if v.name == name {
			return source{value: v.def, c: mustColour(v.def), isDefault: true}
		}
	}
	panic("tenancy: no default for " + name)
}

// derive computes the accessible variants of a compacted theme.
func (t AppTheme) derive() (vars []derivedVar, adj []Adjustment, unread []string) {
	src := func(field string) source {
		if v := t[field]; ValidColour(v) {
			if c, ok := ParseColour(v); ok {
				return source{value: v, c: c}
			}
			unread = append(unread, field)
		}
		def := defaultOf(field)
		return source{value: def, c: mustColour(def), isDefault: true}
	}
	text, primary := src("text_font_color"), src("color_primary")
	cta, ctaText, header, link := src("color_cta"), src("font_color_cta"), src("header_font_color"), src("link_font_color")
	success, errorC := fixedDefault("--color-success"), fixedDefault("--color-error")
	highlight, info := fixedDefault("--color-highlight"), fixedDefault("--color-info")

	ctaOn := []RGBA{cta.c.Over(surfaceCard), cta.c.Over(surfacePage)}
	primaryOn := []RGBA{primary.c.Over(surfaceCard), primary.c.Over(surfacePage)}
	successTint := success.c.Over(surfaceCard).Mix(surfaceCard, 0.15) // .notice, .payment-notice
	errorTint := errorC.c.Over(surfaceCard).Mix(surfaceCard, 0.10)    // .form-error
	ctaTint := ctaOn[0].Mix(surfaceCard, 0.12)                        // a chosen .scale-point
	surfaces := []RGBA{surfaceCard, surfacePage}

	emit := func(name string, s source, bgs []RGBA, target float64) RGBA {
		out, outcome := Reach(s.c, bgs, target)
		if outcome == Kept {
			vars = append(vars, derivedVar{name, s.value, bgs, target})
			return s.c.Over(bgs[0])
		}
		after, on := worstRatio(out, bgs)
		adj = append(adj, Adjustment{
			Variant: name, From: s.value, To: out.Hex(), Default: s.isDefault,
			Before: Contrast(s.c.Over(on), on), After: after, On: on.Hex(), Target: target, Fallback: outcome == Fallback,
		})
		vars = append(vars, derivedVar{name, out.Hex(), bgs, target})
		return out
	}

	textInk := emit("--color-text-ink", text, []RGBA{surfaceCard, surfacePage, surfaceBadge, successTint, ctaTint}, textRatio)
	muted, _ := Lightest(textInk, surfaces, textRatio)
	vars = append(vars, derivedVar{"--color-text-muted", muted.Hex(), surfaces, textRatio})
	emit("--color-primary-ink", primary, surfaces, textRatio)
	emit("--color-header-contrast", header, primaryOn, textRatio)
	ctaContrast := emit("--color-cta-contrast", ctaText, ctaOn, textRatio)
	emit("--color-cta-ink", cta, surfaces, textRatio)
	emit("--color-cta-ui", cta, surfaces, uiRatio)
	emit("--color-link-ink", link, []RGBA{surfaceCard, surfacePage, successTint}, textRatio)
	emit("--color-highlight-ink", highlight, []RGBA{surfaceCard, surfacePage, successTint, errorTint}, textRatio)
	emit("--color-success-ink", success, surfaces, textRatio)
	emit("--color-success-contrast", fixedWhite, []RGBA{success.c.Over(surfaceCard)}, textRatio)
	emit("--color-error-ink", errorC, []RGBA{surfaceCard, surfacePage, errorTint}, textRatio)
	emit("--color-info-contrast", fixedWhite, []RGBA{info.c.Over(surfaceCard)}, textRatio)

	// A button's hover lays --hover-tint of black or white over its background only: away from
	// its text (darker under lighter text), so the hover state reads at least as well; towards
	// it only when away would not show (white text on black) and the text still reads.
	dark, light := RGBA{0, 0, 0, 0.15}, RGBA{1, 1, 1, 0.15}
	away, toward, hover, other := dark, light, hoverDarken, hoverLighten
	if Luminance(ctaContrast.Over(ctaOn[0])) < Luminance(ctaOn[0]) {
		away, toward, hover, other = light, dark, hoverLighten, hoverDarken
	}
	if Contrast(away.Over(ctaOn[0]), ctaOn[0]) < 1.1 {
		if r, _ := worstRatio(ctaContrast, []RGBA{toward.Over(ctaOn[0]), toward.Over(ctaOn[1])}); r >= textRatio+margin {
			hover = other
		}
	}
	vars = append(vars, derivedVar{"--hover-cta", hover, nil, 0})
	return vars, adj, unread
}
