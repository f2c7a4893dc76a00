package layouts

import (
	"context"
	"html"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// themeStyle emits the panel's theme variables once. The values were sanitised by the tenancy
// module when the theme was built, so they cannot close the style element.
func themeStyle(ctx context.Context, p *views.Page) string {
	css := p.ThemeCSS
	if p.FontFamily != "" {
		css += ":root{--font-family:" + p.FontFamily + "}"
	}
	if css == "" {
		return ""
	}
	return `<style nonce="` + html.EscapeString(templ.GetNonce(ctx)) + `">` + css + `</style>`
}

func flashRole(kind string) string {
	if kind == "error" {
		return "alert"
	}
	return "status"
}
