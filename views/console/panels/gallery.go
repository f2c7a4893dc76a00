package panelviews

import (
	"context"
	"strings"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the panels part's states for the development gallery: creating a panel, its
// settings, theme (with its preview, contrast report and uploads), provider credentials and
// tenant file, each as it is first shown, after a save and with every refusal the form can
// show (modules/console/panels).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	const base = "/console/panels/demo"
	return []views.GalleryState{
		state("new", "/console/panels/new", func(ctx context.Context, f views.Fixture) templ.Component {
			return New(galleryNew(ctx, galleryNewForm{currency: "USD", def: "en", langs: []string{"en"}}, nil, ""))
		}),
		state("new-refused", "/console/panels/new", func(ctx context.Context, f views.Fixture) templ.Component {
			errs := map[string]string{
				"key":              views.T(ctx, "console.panels.error.key"),
				"name":             views.T(ctx, "console.panels.error.name"),
				"currency_code":    views.T(ctx, "console.panels.error.currency"),
				"hosts":            views.Tf(ctx, "console.panels.error.hosts", map[string]any{"Value": "opinions_example.com"}) + " " + views.Tf(ctx, "console.panels.error.host_taken", map[string]any{"Value": "northwind.example.co.uk"}),
				"languages":        views.T(ctx, "console.panels.error.languages"),
				"default_language": views.T(ctx, "console.panels.error.default_language"),
			}
			return New(galleryNew(ctx, galleryNewForm{
				key: "Opinion Circle UK", name: strings.Repeat("Opinion Circle — United Kingdom and Ireland ", 4), currency: "POUNDS",
				hosts: "opinions_example.com\nnorthwind.example.co.uk", def: "ru",
			}, errs, views.T(ctx, "console.panels.refused")))
		}),
		state("new-key-taken", "/console/panels/new", func(ctx context.Context, f views.Fixture) templ.Component {
			return New(galleryNew(ctx, galleryNewForm{key: "northwind", name: "Northwind Rewards", currency: "GBP", hosts: "northwind.example.co.uk", def: "en", langs: []string{"en", "zh"}},
				map[string]string{"key": views.Tf(ctx, "console.panels.error.key_taken", map[string]any{"Value": "northwind"})}, views.T(ctx, "console.panels.refused")))
		}),
		state("settings", base+"/settings", func(ctx context.Context, f views.Fixture) templ.Component {
			return Settings(gallerySettings(ctx, gallerySettingsForm(), nil, "", ""))
		}),
		state("settings-created", base+"/settings", func(ctx context.Context, f views.Fixture) templ.Component {
			s := gallerySettingsForm()
			s.texts = map[string]string{"web_app_name": "Canvass Demo"}
			s.embed, s.changeTo, s.hosts = "", "", "demo.canvass.test"
			return Settings(gallerySettings(ctx, s, nil, views.T(ctx, "console.panels.new.created"), ""))
		}),
		state("settings-saved", base+"/settings", func(ctx context.Context, f views.Fixture) templ.Component {
			return Settings(gallerySettings(ctx, gallerySettingsForm(), nil, views.T(ctx, "console.panels.saved"), ""))
		}),
		state("settings-refused", base+"/settings", func(ctx context.Context, f views.Fixture) templ.Component {
			s := gallerySettingsForm()
			s.hosts += "\nconsole.canvass.example.com\nnot a host"
			s.embed += "\nwww.partner-without-scheme.example.com"
			s.changeTo = "northwind\nno-such-panel-anywhere"
			s.langs, s.def = nil, "es"
			errs := map[string]string{
				"hosts":              views.Tf(ctx, "console.panels.error.console_host", map[string]any{"Value": "console.canvass.example.com"}) + " " + views.Tf(ctx, "console.panels.error.hosts", map[string]any{"Value": "not a host"}),
				"languages":          views.T(ctx, "console.panels.error.languages"),
				"default_language":   views.T(ctx, "console.panels.error.default_language"),
				"embed_origins":      views.Tf(ctx, "console.panels.error.embed_origins", map[string]any{"Value": "www.partner-without-scheme.example.com"}),
				"change_instance_to": views.Tf(ctx, "console.panels.error.change_instance_to", map[string]any{"Value": "no-such-panel-anywhere"}),
				"widget_after":       views.T(ctx, "console.panels.error.widget_after"),
			}
			summary := views.T(ctx, "console.panels.refused") + " " + views.Tf(ctx, "console.panels.error.other", map[string]any{"Detail": "app_settings.tracking_pixel: must be an https:// address"})
			return Settings(gallerySettings(ctx, s, errs, "", summary))
		}),
		state("theme-default", base+"/theme", func(ctx context.Context, f views.Fixture) templ.Component {
			return Theme(galleryTheme(ctx, nil, nil, nil, galleryContrastDefault, false, nil, ""))
		}),
		state("theme-custom", base+"/theme", func(ctx context.Context, f views.Fixture) templ.Component {
			return Theme(galleryTheme(ctx, galleryCustomTheme, galleryCustomTheme, nil, galleryContrastCustom, false, nil, views.T(ctx, "console.panels.saved")))
		}),
		state("theme-preview", base+"/theme", func(ctx context.Context, f views.Fixture) templ.Component {
			return Theme(galleryTheme(ctx, galleryCustomTheme, galleryCustomTheme, nil, galleryContrastCustom, true, nil, ""))
		}),
		state("theme-refused", base+"/theme", func(ctx context.Context, f views.Fixture) templ.Component {
			t := map[string]string{}
			for k, v := range galleryCustomTheme {
				t[k] = v
			}
			t["color_cta"], t["logo_url"], t["panel_font_family"] = "orange-ish", "http://cdn.example.com/logo.png", "Source Sans; color:red"
			errs := map[string]string{
				"color_cta":         views.Tf(ctx, "console.panels.error.colour", map[string]any{"Value": "orange-ish"}),
				"logo_url":          views.T(ctx, "console.panels.error.url"),
				"panel_font_family": views.T(ctx, "console.panels.error.font"),
			}
			rows := append([]galleryContrast{}, galleryContrastCustom...)
			rows[3] = galleryContrast{"color_cta", "", "orange-ish", "#ffffff", "", false, ""}
			rows[5] = galleryContrast{"font_color_cta", "color_cta", "#ffffff", "orange-ish", "", false, ""}
			return Theme(galleryTheme(ctx, galleryCustomTheme, t, errs, rows, false, nil, ""))
		}),
		state("theme-upload-refused", base+"/theme", func(ctx context.Context, f views.Fixture) templ.Component {
			return Theme(galleryTheme(ctx, galleryCustomTheme, galleryCustomTheme, nil, galleryContrastCustom, false,
				map[string]string{"favicon": views.Tf(ctx, "console.panels.uploads.too_large", map[string]any{"Max": 512})}, ""))
		}),
		state("providers-none", base+"/providers", func(ctx context.Context, f views.Fixture) templ.Component {
			return Providers(galleryProviders(ctx, nil, nil, "", ""))
		}),
		state("providers-configured", base+"/providers", func(ctx context.Context, f views.Fixture) templ.Component {
			return Providers(galleryProviders(ctx, galleryCreds, nil, views.T(ctx, "console.panels.saved"), ""))
		}),
		state("providers-refused", base+"/providers", func(ctx context.Context, f views.Fixture) templ.Component {
			shown := map[string]map[string]string{}
			for k, v := range galleryCreds {
				shown[k] = v
			}
			shown["captcha"] = map[string]string{"kind": "recaptcha", "site_key": "6Lc9xYwpAAAAAG2hjKd8bq3vGm1xR0tFzQp7sWnE", "min_score": "half", "mode": "after_failures", "after_failures": "three"}
			errs := map[string]string{
				"captcha_min_score":      views.T(ctx, "console.panels.providers.number"),
				"captcha_after_failures": views.T(ctx, "console.panels.providers.number"),
				"facebook_section":       views.Tf(ctx, "console.panels.providers.invalid", map[string]any{"Detail": "client_id and client_secret are both required to sign in with facebook"}),
				"offers_base_url":        views.Tf(ctx, "console.panels.providers.invalid", map[string]any{"Detail": "base_url must be an https:// address"}),
			}
			held := map[string]map[string]string{"google": galleryCreds["google"], "captcha": galleryCreds["captcha"], "offers": galleryCreds["offers"]}
			shown["facebook"] = map[string]string{"client_id": "", "issuer": "https://www.facebook.com"}
			shown["offers"] = map[string]string{"base_url": "http://offers.partner-network.example.com/api/v2", "app_id": "canvass-demo-4471", "credit_ceiling": "50.00"}
			return Providers(galleryProvidersShown(ctx, held, shown, errs, "", views.T(ctx, "console.panels.refused")))
		}),
		state("file", base+"/file", func(ctx context.Context, f views.Fixture) templ.Component {
			return File(FileProps{Email: galleryLongEmail, Nav: galleryNav("file")})
		}),
		state("file-imported", base+"/file", func(ctx context.Context, f views.Fixture) templ.Component {
			return File(FileProps{Email: galleryLongEmail, Nav: galleryNav("file"), Notice: views.T(ctx, "console.panels.file.imported")})
		}),
		state("file-refused", base+"/file", func(ctx context.Context, f views.Fixture) templ.Component {
			return File(FileProps{Email: galleryLongEmail, Nav: galleryNav("file"), Error: views.T(ctx, "console.panels.file.refused"), Errors: []string{
				views.Tf(ctx, "console.panels.file.other_panel", map[string]any{"Key": "northwind"}),
				views.T(ctx, "console.panels.file.other_uuid"),
				views.Tf(ctx, "console.panels.file.env_missing", map[string]any{"Name": "DEMO_OFFERS_POSTBACK_SECRET"}),
				"app_theme.color_cta: \"orange-ish\" is not a CSS colour",
				"sign_in.google.client_secret: required when client_id is set (https://console.cloud.google.com/apis/credentials/oauthclient/0192f3a4-7b1c-7d2e-8f30-a1b2c3d4e5f6)",
			}})
		}),
		state("file-not-yaml", base+"/file", func(ctx context.Context, f views.Fixture) templ.Component {
			return File(FileProps{Email: galleryLongEmail, Nav: galleryNav("file"), Error: views.T(ctx, "console.panels.file.refused"), Errors: []string{
				views.Tf(ctx, "console.panels.file.not_yaml", map[string]any{"Detail": "yaml: line 14: mapping values are not allowed in this context"}),
			}})
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it: the console's own name,
// no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

const galleryLongEmail = "alexandra.konstantinopoulou@example-company.co.uk"

func galleryNav(current string) Nav {
	return Nav{PanelKey: "demo", PanelName: "Canvass Demo", Current: current}
}

// galleryLanguages are the languages the app supports (web.Supported).
var galleryLanguages = []struct{ code, name string }{{"en", "English"}, {"es", "Español"}, {"ru", "Русский"}, {"zh", "中文"}}

func galleryLanguageOptions(selected []string) []Option {
	var out []Option
	for _, l := range galleryLanguages {
		on := false
		for _, s := range selected {
			on = on || s == l.code
		}
		out = append(out, Option{Value: l.code, Label: l.name, Selected: on})
	}
	return out
}

func galleryDefaultChoice(ctx context.Context, def, errMsg string) Choice {
	ch := Choice{Name: "default_language", Label: views.T(ctx, "console.panels.field.default_language"), Error: errMsg}
	for _, l := range galleryLanguages {
		ch.Options = append(ch.Options, Option{Value: l.code, Label: l.name, Selected: l.code == def})
	}
	return ch
}

type galleryNewForm struct {
	key, name, currency, hosts, def string
	langs                           []string
}

// galleryNew is the create form as consolepanels.renderNew fills it.
func galleryNew(ctx context.Context, f galleryNewForm, errs map[string]string, summary string) NewProps {
	field := func(name, value, hint string) TextField {
		tf := TextField{Name: name, Label: views.T(ctx, "console.panels.field."+name), Value: value, Error: errs[name]}
		if hint != "" {
			tf.Hint = views.T(ctx, hint)
		}
		return tf
	}
	hosts := field("hosts", f.hosts, "console.panels.hint.hosts")
	hosts.Rows = 3
	return NewProps{
		Email: galleryLongEmail, Error: summary,
		Fields: []TextField{
			field("key", f.key, "console.panels.hint.key"), field("name", f.name, ""),
			field("currency_code", f.currency, "console.panels.hint.currency"), hosts,
		},
		Languages: galleryLanguageOptions(f.langs), LangError: errs["languages"],
		Default: galleryDefaultChoice(ctx, f.def, errs["default_language"]),
	}
}

// gallerySettingsValues are a panel's settings as the form shows them.
type gallerySettingsValues struct {
	hosts, embed, changeTo, def, widget string
	langs                               []string
	terms, reminder, direct             bool
	texts                               map[string]string
}

func gallerySettingsForm() gallerySettingsValues {
	return gallerySettingsValues{
		hosts: "demo.canvass.test\nopinions.canvass-demo.example.com", embed: "https://www.partner-magazine.example.com\nhttps://surveys.retailer-loyalty-programme.example.co.uk",
		changeTo: "northwind", def: "en", widget: "frame", langs: []string{"en", "es", "ru", "zh"}, terms: true, direct: true,
		texts: map[string]string{
			"web_app_name":        "Canvass Demo",
			"google_analytics_id": "G-7XK2M9QP4L",
			"google_tag_mngr_id":  "GTM-5WZ3R8N",
			"tracking_pixel":      "https://pixel.partner-network.example.com/collect?account=canvass-demo&event=signup&source=panel",
			"theme":               "demo-2026",
			"login_page_url":      "https://www.canvass-demo.example.com/members/sign-in",
		},
	}
}

// gallerySettings is the settings form as consolepanels.renderSettings fills it.
func gallerySettings(ctx context.Context, s gallerySettingsValues, errs map[string]string, notice, summary string) SettingsProps {
	text := func(name, value string) TextField {
		return TextField{Name: name, Label: views.T(ctx, "console.panels.field."+name), Value: value, Error: errs[name]}
	}
	hint := func(tf TextField, id string) TextField {
		tf.Hint = views.T(ctx, id)
		return tf
	}
	url := func(tf TextField) TextField {
		tf.Type = "url"
		return hint(tf, "console.panels.hint.page_url")
	}
	hosts := hint(text("hosts", s.hosts), "console.panels.hint.hosts")
	hosts.Rows = 3
	embed := hint(text("embed_origins", s.embed), "console.panels.hint.embed_origins")
	embed.Rows = 2
	widget := Choice{Name: "widget_after", Label: views.T(ctx, "console.panels.field.widget_after"), Error: errs["widget_after"]}
	for _, v := range []string{"frame", "panel"} {
		widget.Options = append(widget.Options, Option{Value: v, Label: views.T(ctx, "console.panels.widget_after."+v), Selected: s.widget == v})
	}
	return SettingsProps{
		Email: galleryLongEmail, Nav: galleryNav("settings"), Notice: notice, Error: summary,
		Hosts: hosts, Languages: galleryLanguageOptions(s.langs), LangError: errs["languages"],
		Default: galleryDefaultChoice(ctx, s.def, errs["default_language"]),
		Checks: []Check{
			{Name: "terms_required", Label: views.T(ctx, "console.panels.field.terms_required"), Checked: s.terms},
			{Name: "email_validation_reminder", Label: views.T(ctx, "console.panels.field.email_validation_reminder"), Checked: s.reminder},
			{Name: "direct_onboarding", Label: views.T(ctx, "console.panels.field.direct_onboarding"), Checked: s.direct},
		},
		Choices: []Choice{widget},
		Texts: []TextField{
			text("web_app_name", s.texts["web_app_name"]),
			hint(text("google_analytics_id", s.texts["google_analytics_id"]), "console.panels.hint.tag_ids"),
			hint(text("google_tag_mngr_id", s.texts["google_tag_mngr_id"]), "console.panels.hint.tag_ids"),
			text("tracking_pixel", s.texts["tracking_pixel"]),
			text("theme", s.texts["theme"]),
			url(text("login_page_url", s.texts["login_page_url"])),
			url(text("logout_page_url", s.texts["logout_page_url"])),
			embed,
			hint(text("change_instance_to", s.changeTo), "console.panels.hint.change_instance_to"),
		},
	}
}

// galleryThemeGroups are the theme page's groups of fields (consolepanels.themeGroups).
var galleryThemeGroups = []struct {
	id     string
	fields []string
}{
	{"colours", []string{"color_primary", "color_secondary", "color_cta", "font_color_cta", "font_color_secondary", "header_font_color", "link_font_color", "text_font_color"}},
	{"fonts", []string{"panel_font_family", "panel_font_url"}},
	{"images", []string{"logo_url", "logo_favicon_url", "logo_loader_icon_url", "logo_inline_url", "survey_theme_guid"}},
	{"welcome_box", []string{"wb_background_color", "wb_header_text_color", "wb_regular_text_color", "wb_button_color", "wb_button_text_color"}},
	{"content_box", []string{"cb_background_color", "cb_header_text_color", "cb_regular_text_color", "cb_button_color", "cb_button_text_color"}},
}

// galleryCustomTheme is a panel's own theme, the welcome box set, one upload in use.
var galleryCustomTheme = map[string]string{
	"color_primary": "#1F3A5F", "color_secondary": "#2E5C8A", "color_cta": "#E07A1F", "font_color_cta": "#ffffff",
	"header_font_color": "#ffffff", "link_font_color": "#9AB8D8", "text_font_color": "#333333",
	"panel_font_family": "'Source Sans 3', sans-serif", "panel_font_url": "https://fonts.googleapis.com/css2?family=Source+Sans+3:wght@400;600;700&display=swap",
	"logo_url": "/static/img/northwind-logo.svg", "survey_theme_guid": "0192f3a4-7b1c-7d2e-8f30-a1b2c3d4e5f6",
	"wb_background_color": "#FFF4E6", "wb_header_text_color": "#1F3A5F", "wb_regular_text_color": "#777777", "wb_button_color": "#E07A1F", "wb_button_text_color": "#ffffff",
}

// galleryPreviewCSS is tenancy's CSS of galleryCustomTheme on .theme-preview, as the theme
// page's preview draws it.
const galleryPreviewCSS = ".theme-preview{--color-primary:#1F3A5F;--color-secondary:#2E5C8A;--color-cta:#E07A1F;--color-cta-text:#ffffff;--color-secondary-text:#ffffff;--color-header-text:#ffffff;--color-link:#9AB8D8;--color-text:#333333;--color-highlight:#4169e1;--color-background:#ffffff;--color-accent:#1DC9BC;--color-error:#F22C44;--color-success:#2DCC70;--color-info:#4169E1;--font-size:14px;--hover-tint:15%;--wb-background:#FFF4E6;--wb-header-text:#1F3A5F;--wb-text:#777777;--wb-button:#E07A1F;--wb-button-text:#ffffff;--color-error-graphic:#E07A1F;--color-text-ink:#333333;--color-text-muted:#6F6F6F;--color-primary-ink:#1F3A5F;--color-header-contrast:#ffffff;--color-cta-contrast:#2D2D2D;--color-cta-ink:#AE5900;--color-cta-ui:#D77210;--color-link-ink:#55708E;--color-highlight-ink:#3C63DA;--color-success-ink:#008141;--color-success-contrast:#454545;--color-error-ink:#D80032;--color-info-contrast:#ffffff;--hover-cta:rgb(255 255 255/var(--hover-tint));}.theme-preview{--font-family:'Source Sans 3', sans-serif}"

// galleryContrast is one pair of tenancy's contrast report: ratio "" cannot be measured.
type galleryContrast struct {
	text, back, textValue, backValue, ratio string
	pass                                    bool
	used                                    string
}

// The contrast reports of the default theme and of galleryCustomTheme (tenancy's ContrastReport).
var (
	galleryContrastDefault = []galleryContrast{
		{"text_font_color", "", "#444444", "#ffffff", "9.73", true, ""},
		{"link_font_color", "", "#909090", "#ffffff", "3.19", false, "#6D6D6D"},
		{"color_primary", "", "#475369", "#ffffff", "7.75", true, ""},
		{"color_cta", "", "#000000", "#ffffff", "21.00", true, ""},
		{"header_font_color", "color_primary", "#ffffff", "#475369", "7.75", true, ""},
		{"font_color_cta", "color_cta", "#ffffff", "#000000", "21.00", true, ""},
		{"font_color_secondary", "color_secondary", "#ffffff", "#475370", "7.66", true, ""},
	}
	galleryContrastCustom = []galleryContrast{
		{"text_font_color", "", "#333333", "#ffffff", "12.63", true, ""},
		{"link_font_color", "", "#9AB8D8", "#ffffff", "2.05", false, "#55708E"},
		{"color_primary", "", "#1F3A5F", "#ffffff", "11.48", true, ""},
		{"color_cta", "", "#E07A1F", "#ffffff", "3.01", false, "#AE5900"},
		{"header_font_color", "color_primary", "#ffffff", "#1F3A5F", "11.48", true, ""},
		{"font_color_cta", "color_cta", "#ffffff", "#E07A1F", "3.01", false, "#2D2D2D"},
		{"font_color_secondary", "color_secondary", "#ffffff", "#2E5C8A", "6.96", true, ""},
		{"wb_header_text_color", "wb_background_color", "#1F3A5F", "#FFF4E6", "10.57", true, ""},
		{"wb_regular_text_color", "wb_background_color", "#777777", "#FFF4E6", "4.12", false, ""},
		{"wb_button_text_color", "wb_button_color", "#ffffff", "#E07A1F", "3.01", false, ""},
	}
)

func galleryFieldLabel(ctx context.Context, field string) string {
	if field == "" {
		return views.T(ctx, "console.panels.contrast.page")
	}
	return views.T(ctx, "console.panels.theme.field."+field)
}

// galleryIsColour tells a colour field, whose swatch the page shows (consolepanels.isColourField).
func galleryIsColour(field, value string) bool {
	return (strings.HasSuffix(field, "_color") || strings.HasPrefix(field, "color_")) && strings.HasPrefix(value, "#")
}

// galleryTheme is the theme page as consolepanels.renderTheme fills it: stored is the saved
// theme (its uploads), theme the one the fields show.
func galleryTheme(ctx context.Context, stored, theme, errs map[string]string, contrast []galleryContrast, preview bool, upload map[string]string, notice string) ThemeProps {
	summary := ""
	if len(errs) > 0 || len(upload) > 0 {
		summary = views.T(ctx, "console.panels.refused")
	}
	p := ThemeProps{Email: galleryLongEmail, Nav: galleryNav("theme"), Notice: notice, Error: summary}
	var swatches strings.Builder
	for _, g := range galleryThemeGroups {
		group := ThemeGroup{Title: views.T(ctx, "console.panels.theme.group."+g.id)}
		for _, f := range g.fields {
			tf := ThemeField{TextField: TextField{Name: f, Label: galleryFieldLabel(ctx, f), Value: theme[f], Error: errs[f]}}
			if galleryIsColour(f, theme[f]) {
				tf.Swatch = theme[f]
				swatches.WriteString(".sw-" + f + "{background:" + theme[f] + "}")
			}
			group.Fields = append(group.Fields, tf)
		}
		p.Groups = append(p.Groups, group)
	}
	p.SwatchCSS = swatches.String()
	for _, c := range contrast {
		r := ContrastRow{
			Pair: views.Tf(ctx, "console.panels.contrast.on", map[string]any{"Text": galleryFieldLabel(ctx, c.text), "Back": galleryFieldLabel(ctx, c.back)}),
			Text: c.textValue, Back: c.backValue, Pass: c.pass,
		}
		switch {
		case c.ratio == "":
			r.Ratio, r.Result = "—", views.T(ctx, "console.panels.contrast.unreadable")
		case c.pass:
			r.Ratio, r.Result = c.ratio+":1", views.Tf(ctx, "console.panels.contrast.pass", map[string]any{"Target": "4.5:1"})
		default:
			r.Ratio, r.Result = c.ratio+":1", views.Tf(ctx, "console.panels.contrast.fail", map[string]any{"Target": "4.5:1"})
		}
		if c.used != "" {
			r.Used = views.Tf(ctx, "console.panels.contrast.used", map[string]any{"Colour": c.used})
		}
		p.Contrast = append(p.Contrast, r)
	}
	if preview {
		p.Preview = &Preview{CSS: galleryPreviewCSS, AppName: "Canvass Demo", LogoURL: theme["logo_url"]}
	}
	for _, kind := range []string{"logo", "favicon", "loader"} {
		u := Upload{Kind: kind, Label: views.T(ctx, "console.panels.upload_kind."+kind), Error: upload[kind]}
		if kind == "logo" {
			u.Current = stored["logo_url"] // a /static/ address, shown as it is
		}
		p.Uploads = append(p.Uploads, u)
	}
	return p
}

// galleryProviderSections are the credentials' sections and fields (consolepanels.sections);
// a field ending in "*" is a secret.
var galleryProviderSections = []struct {
	id     string
	fields []string
}{
	{"google", []string{"client_id", "client_secret*", "issuer", "auth_url", "token_url", "api_url"}},
	{"facebook", []string{"client_id", "client_secret*", "issuer", "auth_url", "token_url", "api_url"}},
	{"twitter", []string{"client_id", "client_secret*", "issuer", "auth_url", "token_url", "api_url", "consumer_key", "consumer_secret*"}},
	{"captcha", []string{"kind", "site_key", "secret*", "verify_url", "min_score", "mode", "after_failures"}},
	{"offers", []string{"base_url", "app_id", "api_key*", "postback_secret*", "credit_ceiling"}},
}

var galleryProviderChoices = map[string][]string{
	"captcha_kind": {"recaptcha", "hcaptcha", "turnstile", "local"},
	"captcha_mode": {"off", "always", "after_failures"},
}

// galleryCreds are a panel's credentials: Google sign-in, a captcha and an offers provider.
var galleryCreds = map[string]map[string]string{
	"google": {"client_id": "482913675021-k7q2m9xd4tpaw3ve8nzrc6jup5hy2bfk.apps.googleusercontent.com", "client_secret": "GOCSPX-q9msd8ta6wlcr3exn4gu7jzp",
		"issuer": "https://accounts.google.com"},
	"captcha": {"kind": "turnstile", "site_key": "0x4AAAAAAAB3kPzQ9xYw7LmN", "secret": "0x4AAAAAAAB3kPzQ-secret-7LmNq2Rt", "min_score": "0.5", "mode": "after_failures", "after_failures": "3"},
	"offers": {"base_url": "https://api.offers.partner-network.example.com/v2", "app_id": "canvass-demo-4471", "api_key": "pk_live_51Hx9q2Lm7Rt4Kw3d",
		"postback_secret": "whsec_8f3k2m9q7x4c1v6b", "credit_ceiling": "50.00"},
}

// galleryMask shows a secret's last characters only (consolepanels.mask).
func galleryMask(s string) string {
	switch {
	case s == "":
		return ""
	case len([]rune(s)) >= 12:
		r := []rune(s)
		return "••••" + string(r[len(r)-4:])
	}
	return "••••"
}

func galleryProviders(ctx context.Context, held map[string]map[string]string, errs map[string]string, notice, summary string) ProvidersProps {
	return galleryProvidersShown(ctx, held, held, errs, notice, summary)
}

// galleryProvidersShown is the credentials page as consolepanels.renderProviders fills it:
// held are the stored credentials, shown what the fields show (the form as sent after a refusal).
func galleryProvidersShown(ctx context.Context, held, shown map[string]map[string]string, errs map[string]string, notice, summary string) ProvidersProps {
	p := ProvidersProps{Email: galleryLongEmail, Nav: galleryNav("providers"), Notice: notice, Error: summary}
	for _, s := range galleryProviderSections {
		_, configured := held[s.id]
		sec := ProviderSection{ID: s.id, Title: views.T(ctx, "console.panels.providers."+s.id), Configured: configured, Error: errs[s.id+"_section"]}
		for _, field := range s.fields {
			f, secret := strings.CutSuffix(field, "*")
			name := s.id + "_" + f
			label := views.T(ctx, "console.panels.providers.field."+f)
			if secret {
				sec.Secrets = append(sec.Secrets, Secret{Name: name, Label: label, Masked: galleryMask(held[s.id][f]), Error: errs[name]})
				continue
			}
			if opts, ok := galleryProviderChoices[name]; ok {
				ch := Choice{Name: name, Label: label, Error: errs[name]}
				ch.Options = append(ch.Options, Option{Value: "", Label: views.T(ctx, "console.panels.providers.choose")})
				for _, o := range opts {
					ch.Options = append(ch.Options, Option{Value: o, Label: o, Selected: shown[s.id][f] == o})
				}
				sec.Choices = append(sec.Choices, ch)
				continue
			}
			sec.Fields = append(sec.Fields, TextField{Name: name, Label: label, Value: shown[s.id][f], Error: errs[name]})
		}
		p.Sections = append(p.Sections, sec)
	}
	return p
}
