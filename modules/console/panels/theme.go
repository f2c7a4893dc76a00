package consolepanels

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/gofiber/fiber/v3"
)

// themeGroups are the theme page's groups of app_theme fields.
var themeGroups = []struct {
	id     string
	fields []string
}{
	{"colours", []string{"color_primary", "color_secondary", "color_cta", "font_color_cta", "font_color_secondary", "header_font_color", "link_font_color", "text_font_color"}},
	{"fonts", []string{"panel_font_family", "panel_font_url"}},
	{"images", []string{"logo_url", "logo_favicon_url", "logo_loader_icon_url", "logo_inline_url", "survey_theme_guid"}},
	{"welcome_box", []string{"wb_background_color", "wb_header_text_color", "wb_regular_text_color", "wb_button_color", "wb_button_text_color"}},
	{"content_box", []string{"cb_background_color", "cb_header_text_color", "cb_regular_text_color", "cb_button_color", "cb_button_text_color"}},
}

func isColourField(f string) bool {
	return strings.HasSuffix(f, "_color") || strings.HasPrefix(f, "color_")
}

func readThemeForm(c fiber.Ctx) tenancy.AppTheme {
	t := tenancy.AppTheme{}
	for _, f := range tenancy.ThemeFields {
		if v := strings.TrimSpace(c.FormValue(f)); v != "" {
			t[f] = v
		}
	}
	return t
}

// themeProblems maps tenancy's problems of a theme ("color_cta is not a CSS colour") to fields.
func themeProblems(theme tenancy.AppTheme) []problem {
	var out []problem
	for _, pr := range theme.Problems() {
		field, _, _ := strings.Cut(pr, " ")
		id := "console.panels.error.colour"
		switch {
		case strings.HasPrefix(pr, "unknown theme field "):
			field, id = strings.TrimPrefix(pr, "unknown theme field "), "console.panels.error.unknown_field"
		case strings.HasSuffix(field, "_url"):
			id = "console.panels.error.url"
		case field == "panel_font_family":
			id = "console.panels.error.font"
		}
		out = append(out, problem{field, id, map[string]any{"Value": theme[field]}})
	}
	return out
}

func (p *Part) fieldLabel(c fiber.Ctx, f string) string {
	if f == "" {
		return p.t(c, "console.panels.contrast.page", nil)
	}
	return p.t(c, "console.panels.theme.field."+f, nil)
}

// contrastRows are the theme's contrast report as the page shows it.
func (p *Part) contrastRows(c fiber.Ctx, theme tenancy.AppTheme) []panelviews.ContrastRow {
	var rows []panelviews.ContrastRow
	for _, pr := range theme.ContrastReport() {
		r := panelviews.ContrastRow{
			Pair: p.t(c, "console.panels.contrast.on", map[string]any{"Text": p.fieldLabel(c, pr.Text), "Back": p.fieldLabel(c, pr.Background)}),
			Text: pr.TextValue, Back: pr.BackValue, Pass: pr.Pass,
		}
		switch {
		case pr.Unreadable:
			r.Ratio, r.Result = "—", p.t(c, "console.panels.contrast.unreadable", nil)
		case pr.Pass:
			r.Ratio, r.Result = fmt.Sprintf("%.2f:1", pr.Ratio), p.t(c, "console.panels.contrast.pass", map[string]any{"Target": "4.5:1"})
		default:
			r.Ratio, r.Result = fmt.Sprintf("%.2f:1", pr.Ratio), p.t(c, "console.panels.contrast.fail", map[string]any{"Target": "4.5:1"})
		}
		if pr.Used != "" {
			r.Used = p.t(c, "console.panels.contrast.used", map[string]any{"Colour": pr.Used})
		}
		rows = append(rows, r)
	}
	return rows
}

// consoleURL is where the console shows a theme image from: an uploaded asset from the
// console's own route, https and /static/ addresses as they are, other paths of the panel's
// site not at all.
func consoleURL(key, v string) string {
	switch {
	case strings.HasPrefix(v, tenancy.AssetPath):
		return "/console/panels/" + url.PathEscape(key) + "/assets/" + url.PathEscape(strings.TrimPrefix(v, tenancy.AssetPath))
	case strings.HasPrefix(v, "https://"), strings.HasPrefix(v, "/static/"):
		return v
	}
	return ""
}

type themeView struct {
	theme   tenancy.AppTheme
	probs   []problem
	preview bool
	upload  map[string]string // an upload's refusal, by kind
	status  int
}

func (p *Part) renderTheme(c fiber.Ctx, a console.PanelAccess, spec tenancy.PanelSpec, v themeView) error {
	errs, summary := p.fieldErrors(c, v.probs)
	if len(v.upload) > 0 {
		summary = p.t(c, "console.panels.refused", nil)
	}
	props := panelviews.ThemeProps{Email: p.email(c), Nav: p.nav(a, "theme"), Notice: p.notice(c), Error: summary}
	var swatches strings.Builder
	for _, g := range themeGroups {
		group := panelviews.ThemeGroup{Title: p.t(c, "console.panels.theme.group."+g.id, nil)}
		for _, f := range g.fields {
			tf := panelviews.ThemeField{TextField: panelviews.TextField{Name: f, Label: p.fieldLabel(c, f), Value: v.theme[f], Error: errs[f]}}
			if isColourField(f) && tenancy.ValidColour(v.theme[f]) {
				tf.Swatch = v.theme[f]
				swatches.WriteString(".sw-" + f + "{background:" + v.theme[f] + "}")
			}
			group.Fields = append(group.Fields, tf)
		}
		props.Groups = append(props.Groups, group)
	}
	props.SwatchCSS = swatches.String()
	props.Contrast = p.contrastRows(c, v.theme)
	if v.preview {
		css := strings.Replace(v.theme.CSS(), ":root{", ".theme-preview{", 1)
		if ff := v.theme.FontFamily(); ff != "" {
			css += ".theme-preview{--font-family:" + ff + "}"
		}
		props.Preview = &panelviews.Preview{CSS: css, AppName: spec.AppSettings.WebAppName, LogoURL: consoleURL(a.Panel.Key, v.theme["logo_url"])}
		if props.Preview.AppName == "" {
			props.Preview.AppName = spec.Name
		}
	}
	stored := spec.AppTheme
	for _, kind := range []string{tenancy.AssetLogo, tenancy.AssetFavicon, tenancy.AssetLoader} {
		props.Uploads = append(props.Uploads, panelviews.Upload{
			Kind: kind, Label: p.t(c, "console.panels.upload_kind."+kind, nil),
			Current: consoleURL(a.Panel.Key, stored[tenancy.AssetFields[kind]]), Error: v.upload[kind],
		})
	}
	return p.m.Render(c, v.status, panelviews.Theme(props))
}

func (p *Part) themePage(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	return p.renderTheme(c, a, spec, themeView{theme: spec.AppTheme, status: fiber.StatusOK})
}

// saveTheme previews the edited theme (op=preview: nothing saved) or saves it.
func (p *Part) saveTheme(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	theme := readThemeForm(c)
	probs := themeProblems(theme)
	if len(probs) > 0 {
		return p.renderTheme(c, a, spec, themeView{theme: theme, probs: probs, status: fiber.StatusUnprocessableEntity})
	}
	if c.FormValue("op") == "preview" {
		return p.renderTheme(c, a, spec, themeView{theme: theme, preview: true, status: fiber.StatusOK})
	}
	if err := p.writeTheme(c, a, theme); err != nil {
		return err
	}
	return p.done(c, a, "theme", "saved")
}

func (p *Part) writeTheme(c fiber.Ctx, a console.PanelAccess, theme tenancy.AppTheme) error {
	before, err := p.d.Tenancy.SaveTheme(c.Context(), a.Panel.Key, theme)
	var te *tenancy.ThemeError
	if errors.As(err, &te) {
		return apiError(themeProblems(theme))
	}
	if err != nil {
		return fmt.Errorf("save theme of %s: %w", a.Panel.Key, err)
	}
	return p.m.Audit(c, a.Panel.ID, "panel.theme", a.Panel.Key, before, theme.Compact())
}

// upload stores a logo, favicon or loader icon and points the theme at it.
func (p *Part) upload(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	kind := c.FormValue("kind")
	field, ok := tenancy.AssetFields[kind]
	refuse := func(id string) error {
		msg := p.t(c, id, map[string]any{"Max": tenancy.MaxAssetBytes >> 10})
		return p.renderTheme(c, a, spec, themeView{theme: spec.AppTheme, upload: map[string]string{kind: msg}, status: fiber.StatusUnprocessableEntity})
	}
	if !ok {
		// Not a form of the page: refused on the page, like any other refusal.
		return refuse("console.panels.uploads.missing")
	}
	fh, err := c.FormFile("file")
	if err != nil {
		return refuse("console.panels.uploads.missing")
	}
	if fh.Size > tenancy.MaxAssetBytes {
		return refuse("console.panels.uploads.too_large")
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("read upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, tenancy.MaxAssetBytes+1))
	if err != nil {
		return fmt.Errorf("read upload: %w", err)
	}
	before, url, err := p.d.Tenancy.SaveAsset(c.Context(), a.Panel.Key, kind, data)
	switch {
	case errors.Is(err, tenancy.ErrAssetSize):
		return refuse("console.panels.uploads.too_large")
	case errors.Is(err, tenancy.ErrAssetType):
		return refuse("console.panels.uploads.bad_type")
	case err != nil:
		return fmt.Errorf("store %s of %s: %w", kind, a.Panel.Key, err)
	}
	if err := p.m.Audit(c, a.Panel.ID, "panel.asset", a.Panel.Key, map[string]string{field: before[field]}, map[string]any{field: url, "bytes": len(data)}); err != nil {
		return err
	}
	return p.done(c, a, "theme", "uploaded")
}

// asset shows an uploaded asset on the console's host (the panel's domains serve it too).
func (p *Part) asset(c fiber.Ctx, a console.PanelAccess) error {
	as, data, err := p.d.Tenancy.Asset(c.Context(), a.Panel.ID, c.Params("name"))
	if errors.Is(err, web.ErrNotFound) {
		return fiber.ErrNotFound
	}
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, as.ContentType)
	c.Set(fiber.HeaderCacheControl, "private, max-age=3600")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if as.ContentType == "image/svg+xml" {
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+as.Name+`"`)
	}
	return c.Send(data)
}

// themeBody is the theme calls' body and answer.
type themeBody struct {
	AppTheme tenancy.AppTheme       `json:"app_theme"`
	Contrast []tenancy.ContrastPair `json:"contrast,omitempty"`
}

func themeAnswer(theme tenancy.AppTheme) themeBody {
	theme = theme.Compact()
	return themeBody{AppTheme: theme, Contrast: theme.ContrastReport()}
}

// GET /console/api/panels/:panel/theme
func (p *Part) apiTheme(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	return c.JSON(themeAnswer(spec.AppTheme))
}

func readThemeBody(c fiber.Ctx) (tenancy.AppTheme, error) {
	var in themeBody
	if err := decodeJSON(c, &in); err != nil {
		return nil, err
	}
	if in.AppTheme == nil {
		// The whole theme is replaced: a body without one is a mistake, not "clear it".
		return nil, web.Invalid("app_theme", "error.required", nil)
	}
	if probs := themeProblems(in.AppTheme); len(probs) > 0 {
		for i := range probs {
			probs[i].field = "app_theme." + probs[i].field
		}
		return nil, apiError(probs)
	}
	return in.AppTheme, nil
}

// PUT /console/api/panels/:panel/theme: the whole theme, replaced.
func (p *Part) apiSaveTheme(c fiber.Ctx, a console.PanelAccess) error {
	theme, err := readThemeBody(c)
	if err != nil {
		return err
	}
	if err := p.writeTheme(c, a, theme); err != nil {
		return err
	}
	return c.JSON(themeAnswer(theme))
}

// POST /console/api/panels/:panel/theme/preview: the contrast report of a theme, unsaved.
func (p *Part) apiPreview(c fiber.Ctx, a console.PanelAccess) error {
	theme, err := readThemeBody(c)
	if err != nil {
		return err
	}
	return c.JSON(themeAnswer(theme))
}
