package tenancy

import (
	"regexp"
	"sort"
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
