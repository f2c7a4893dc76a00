package surveys

import (
	"fmt"
	"sort"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// SurveyTheme is a look of the survey box: the spec's survey theme, looked up by guid, with
// style fields for the header, progress bar, footer and answer controls. Colours refer to
// the panel's theme variables by default, so a theme stays white-labelled.
type SurveyTheme struct {
	GUID        string            `json:"guid"`
	Name        string            `json:"name"`     // theme1, theme2
	KeyName     string            `json:"key_name"` // e.g. v2_tickbox: how choices are drawn
	FontWeights FontWeights       `json:"font_weights"`
	Styles      map[string]string `json:"styles"`
}

// FontWeights are the spec's: light 300, normal 400, semi-bold 600, bold 700, extra-bold 800.
type FontWeights struct {
	Light     int `json:"light"`
	Normal    int `json:"normal"`
	SemiBold  int `json:"semi_bold"`
	Bold      int `json:"bold"`
	ExtraBold int `json:"extra_bold"`
}

var specFontWeights = FontWeights{Light: 300, Normal: 400, SemiBold: 600, Bold: 700, ExtraBold: 800}

// The built-in survey themes. A campaign names one with survey_theme_guid; without one the
// default (theme1) applies, as it does until a theme has loaded.
const (
	Theme1GUID = "5a1d7c9e-3f0b-4c47-9a51-000000000001"
	Theme2GUID = "5a1d7c9e-3f0b-4c47-9a51-000000000002"
)

var surveyThemes = map[string]SurveyTheme{
	Theme1GUID: {GUID: Theme1GUID, Name: "theme1", KeyName: "v1_radio", FontWeights: specFontWeights, Styles: map[string]string{
		"header_background": "var(--color-background, #fff)", "header_text_color": "var(--color-primary-ink, #475369)",
		"progress_bar_color": "var(--color-cta-ui, #009D93)", "progress_track_color": "#e3e6ea",
		"footer_background": "var(--color-background, #fff)", "button_color": "var(--color-cta, #1AC0B4)",
		"button_text_color": "var(--color-cta-contrast, #fff)", "answer_border_color": "#868e99",
		"answer_selected_color": "var(--color-cta-ui, #009D93)", "answer_text_color": "var(--color-text-ink, #444)",
		"question_font_weight": "700", "answer_font_weight": "400", "title_font_weight": "600",
	}},
	Theme2GUID: {GUID: Theme2GUID, Name: "theme2", KeyName: "v2_tickbox", FontWeights: specFontWeights, Styles: map[string]string{
		"header_background": "var(--color-primary, #475369)", "header_text_color": "var(--color-header-contrast, #fff)",
		"progress_bar_color": "var(--color-highlight, #4169e1)", "progress_track_color": "rgba(0,0,0,.12)",
		"footer_background": "#f4f5f7", "button_color": "var(--color-primary, #475369)",
		"button_text_color": "var(--color-header-contrast, #fff)", "answer_border_color": "var(--color-primary-ink, #475369)",
		"answer_selected_color": "var(--color-highlight, #4169e1)", "answer_text_color": "var(--color-text-ink, #444)",
		"question_font_weight": "800", "answer_font_weight": "600", "title_font_weight": "700",
	}},
}

// SurveyThemeOf is the theme a campaign uses: its own, else the default.
func SurveyThemeOf(c *campaigns.Campaign) SurveyTheme {
	if t, ok := surveyThemes[c.SurveyThemeGUID]; ok {
		return t
	}
	return surveyThemes[Theme1GUID]
}

// CSS is the theme as custom properties of the survey box, for the page's nonce'd <style>.
func (t SurveyTheme) CSS() string {
	keys := make([]string, 0, len(t.Styles))
	for k := range t.Styles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(".survey-box{")
	for _, k := range keys {
		fmt.Fprintf(&b, "--survey-%s:%s;", strings.ReplaceAll(k, "_", "-"), t.Styles[k])
	}
	b.WriteString("}")
	return b.String()
}

// GET campaigns/{id}/survey-theme
func (m *Module) apiSurveyTheme(c fiber.Ctx) error {
	t, err := m.take(c, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(SurveyThemeOf(t.Campaign))
}

// GET /api/v1/survey-themes/{id}: a survey theme by guid (public: themes hold no member data).
func (m *Module) apiSurveyThemeByID(c fiber.Ctx) error {
	t, ok := surveyThemes[c.Params("id")]
	if !ok {
		return web.NotFound()
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.JSON(t)
}
