package consolepanels

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/canvass/canvass/views/layouts"
	"github.com/canvass/canvass/views/layouts/registry"
	"github.com/gofiber/fiber/v3"
)

// settingsForm is the settings page's form as sent: what the page shows back after a refusal.
type settingsForm struct {
	Hosts, Default         string
	Languages              []string
	S                      tenancy.Settings
	EmbedOrigins, ChangeTo string
}

func formOf(s tenancy.Settings) settingsForm {
	f := settingsForm{S: s, Hosts: strings.Join(s.Hosts, "\n"), Languages: slices.Clone(s.Languages)}
	if len(s.Languages) > 0 {
		f.Default = s.Languages[0]
	}
	f.EmbedOrigins = strings.Join(s.AppSettings.EmbedOrigins, "\n")
	f.ChangeTo = strings.Join(s.AppSettings.ChangeInstanceTo, "\n")
	return f
}

// ordered puts the default language first, the others in the order given.
func ordered(langs []string, def string) []string {
	out := []string{}
	if def != "" && slices.Contains(langs, def) {
		out = append(out, def)
	}
	for _, l := range langs {
		if l != def && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// readSettingsForm reads the settings form over the stored settings (fields the form has not,
// such as the web app name's absence, keep nothing: the form has them all).
func readSettingsForm(c fiber.Ctx) settingsForm {
	var f settingsForm
	f.Hosts = c.FormValue("hosts")
	for _, v := range c.Request().PostArgs().PeekMulti("languages") {
		f.Languages = append(f.Languages, string(v))
	}
	f.Default = c.FormValue("default_language")
	f.EmbedOrigins, f.ChangeTo = c.FormValue("embed_origins"), c.FormValue("change_instance_to")
	s := &f.S
	s.Hosts = lines(f.Hosts)
	s.Languages = ordered(f.Languages, f.Default)
	s.AppSettings = tenancy.AppSettings{
		WebAppName:              strings.TrimSpace(c.FormValue("web_app_name")),
		GoogleAnalyticsID:       strings.TrimSpace(c.FormValue("google_analytics_id")),
		GoogleTagMngrID:         strings.TrimSpace(c.FormValue("google_tag_mngr_id")),
		TrackingPixel:           strings.TrimSpace(c.FormValue("tracking_pixel")),
		TermsRequired:           c.FormValue("terms_required") == "on",
		EmailValidationReminder: c.FormValue("email_validation_reminder") == "on",
		Theme:                   strings.TrimSpace(c.FormValue("theme")),
		EmbedOrigins:            lines(f.EmbedOrigins),
		DirectOnboarding:        c.FormValue("direct_onboarding") == "on",
		WidgetAfter:             c.FormValue("widget_after"),
		ChangeInstanceTo:        lines(f.ChangeTo),
		TermsURL:                strings.TrimSpace(c.FormValue("terms_url")),
		Layout:                  c.FormValue("layout"),
	}
	// The terms in each language the form offers (every supported one: a language ticked in
	// the same post has its box already); an empty box is no text in that language.
	for _, l := range web.Supported {
		lang := l.Code
		if text := strings.TrimSpace(c.FormValue("terms_text_" + lang)); text != "" {
			if s.AppSettings.TermsText == nil {
				s.AppSettings.TermsText = map[string]string{}
			}
			s.AppSettings.TermsText[lang] = text
		}
	}
	s.LoginPageURL = strings.TrimSpace(c.FormValue("login_page_url"))
	s.LogoutPageURL = strings.TrimSpace(c.FormValue("logout_page_url"))
	return f
}

// settingsFields maps what tenancy's validation names (hosts[0], app_settings.widget_after)
// to the form's field and its message.
var settingsFields = []struct{ prefix, field, id string }{
	{"hosts", "hosts", "console.panels.error.hosts"},
	{"languages", "languages", "console.panels.error.languages"},
	{"app_settings.embed_origins", "embed_origins", "console.panels.error.embed_origins"},
	{"app_settings.widget_after", "widget_after", "console.panels.error.widget_after"},
	{"app_settings.change_instance_to", "change_instance_to", "console.panels.error.change_instance_to"},
	{"app_settings.terms_url", "terms_url", "console.panels.error.terms_url"},
	{"app_settings.layout", "layout", "console.panels.error.layout"},
	{"key", "key", "console.panels.error.key"},
	{"instance.code", "key", "console.panels.error.key"},
	{"name", "name", "console.panels.error.name"},
	{"currency_code", "currency_code", "console.panels.error.currency"},
}

// checkSpec validates a panel's spec exactly as `tenant apply` does, plus what only the console
// can tell (the default language among the languages, the console's own host), and names the
// form field of each problem.
func (p *Part) checkSpec(spec tenancy.PanelSpec, def string, langs []string) []problem {
	var probs []problem
	if def != "" && !slices.Contains(langs, def) {
		probs = append(probs, problem{"default_language", "console.panels.error.default_language", nil})
	}
	for _, h := range spec.Hosts {
		if tenancy.NormalizeHost(h) != "" && tenancy.NormalizeHost(h) == tenancy.NormalizeHost(p.m.Host()) {
			probs = append(probs, problem{"hosts", "console.panels.error.console_host", map[string]any{"Value": h}})
		}
	}
	err := spec.Validate(web.IsSupported)
	for _, line := range moduleProblems(err) {
		probs = append(probs, mapProblem(line, spec))
	}
	return probs
}

func mapProblem(line string, spec tenancy.PanelSpec) problem {
	path, _, _ := strings.Cut(line, ": ")
	if lang, ok := strings.CutPrefix(path, "app_settings.terms_text."); ok {
		// Its box: a language not among the panel's, or text too long for a box.
		return problem{"terms_text_" + lang, "console.panels.error.terms_text", map[string]any{"Language": web.LanguageName(lang), "Max": tenancy.MaxTermsText}}
	}
	for _, f := range settingsFields {
		if path != f.prefix && !strings.HasPrefix(path, f.prefix+"[") {
			continue
		}
		data := map[string]any{"Value": ""}
		if i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, f.prefix+"["), "]")); err == nil {
			switch f.field {
			case "hosts":
				if i < len(spec.Hosts) {
					data["Value"] = spec.Hosts[i]
				}
			case "languages":
				if i < len(spec.Languages) {
					data["Value"] = spec.Languages[i]
				}
			case "embed_origins":
				if i < len(spec.AppSettings.EmbedOrigins) {
					data["Value"] = spec.AppSettings.EmbedOrigins[i]
				}
			case "change_instance_to":
				if i < len(spec.AppSettings.ChangeInstanceTo) {
					data["Value"] = spec.AppSettings.ChangeInstanceTo[i]
				}
			}
		}
		return problem{f.field, f.id, data}
	}
	return problem{"", "console.panels.error.other", map[string]any{"Detail": line}}
}

func (p *Part) settingsPage(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	return p.renderSettings(c, a, fiber.StatusOK, formOf(tenancy.SettingsOf(spec)), nil)
}

func (p *Part) fieldErrors(c fiber.Ctx, probs []problem) (map[string]string, string) {
	errs := map[string]string{}
	var other []string
	for _, pr := range probs {
		msg := p.t(c, pr.id, pr.data)
		if pr.field == "" {
			other = append(other, msg)
			continue
		}
		if errs[pr.field] != "" {
			errs[pr.field] += " "
		}
		errs[pr.field] += msg
	}
	summary := ""
	if len(probs) > 0 {
		summary = strings.TrimSpace(p.t(c, "console.panels.refused", nil) + " " + strings.Join(other, " "))
	}
	return errs, summary
}

func (p *Part) languageOptions(selected []string) []panelviews.Option {
	var out []panelviews.Option
	for _, l := range web.Supported {
		out = append(out, panelviews.Option{Value: l.Code, Label: l.Name, Selected: slices.Contains(selected, l.Code)})
	}
	return out
}

func (p *Part) defaultChoice(c fiber.Ctx, def, errMsg string) panelviews.Choice {
	ch := panelviews.Choice{Name: "default_language", Label: p.t(c, "console.panels.field.default_language", nil), Error: errMsg}
	for _, l := range web.Supported {
		ch.Options = append(ch.Options, panelviews.Option{Value: l.Code, Label: l.Name, Selected: l.Code == def})
	}
	return ch
}

func (p *Part) renderSettings(c fiber.Ctx, a console.PanelAccess, status int, f settingsForm, probs []problem) error {
	errs, summary := p.fieldErrors(c, probs)
	s := f.S.AppSettings
	text := func(name, value string) panelviews.TextField {
		return panelviews.TextField{Name: name, Label: p.t(c, "console.panels.field."+name, nil), Value: value, Error: errs[name]}
	}
	hint := func(tf panelviews.TextField, id string) panelviews.TextField {
		tf.Hint = p.t(c, id, nil)
		return tf
	}
	hosts := hint(text("hosts", f.Hosts), "console.panels.hint.hosts")
	hosts.Rows = 3
	embed := hint(text("embed_origins", f.EmbedOrigins), "console.panels.hint.embed_origins")
	embed.Rows = 2
	changeTo := hint(text("change_instance_to", f.ChangeTo), "console.panels.hint.change_instance_to")
	widget := panelviews.Choice{Name: "widget_after", Label: p.t(c, "console.panels.field.widget_after", nil), Error: errs["widget_after"]}
	for _, v := range []string{web.WidgetAfterFrame, web.WidgetAfterPanel} {
		widget.Options = append(widget.Options, panelviews.Option{Value: v, Label: p.t(c, "console.panels.widget_after."+v, nil), Selected: s.WidgetAfter == v || (s.WidgetAfter == "" && v == web.WidgetAfterFrame)})
	}
	layout := panelviews.Choice{Name: "layout", Label: p.t(c, "console.panels.field.layout", nil), Error: errs["layout"]}
	for _, name := range registry.Names() {
		chosen := s.Layout == name || (s.Layout == "" && name == layouts.StandardName)
		layout.Options = append(layout.Options, panelviews.Option{Value: name, Label: p.t(c, "console.panels.layout."+name, nil), Selected: chosen})
	}
	props := panelviews.SettingsProps{
		Email: p.email(c), Nav: p.nav(a, "settings"), Notice: p.notice(c), Error: summary,
		Hosts: hosts, Languages: p.languageOptions(f.Languages), LangError: errs["languages"],
		Default: p.defaultChoice(c, f.Default, errs["default_language"]),
		Checks: []panelviews.Check{
			{Name: "terms_required", Label: p.t(c, "console.panels.field.terms_required", nil), Checked: s.TermsRequired},
			{Name: "email_validation_reminder", Label: p.t(c, "console.panels.field.email_validation_reminder", nil), Checked: s.EmailValidationReminder},
			{Name: "direct_onboarding", Label: p.t(c, "console.panels.field.direct_onboarding", nil), Checked: s.DirectOnboarding},
		},
		Choices: []panelviews.Choice{layout, widget},
		Texts: []panelviews.TextField{
			text("web_app_name", s.WebAppName),
			hint(text("google_analytics_id", s.GoogleAnalyticsID), "console.panels.hint.tag_ids"),
			hint(text("google_tag_mngr_id", s.GoogleTagMngrID), "console.panels.hint.tag_ids"),
			text("tracking_pixel", s.TrackingPixel),
			text("theme", s.Theme),
			hint(withType(text("login_page_url", f.S.LoginPageURL), "url"), "console.panels.hint.page_url"),
			hint(withType(text("logout_page_url", f.S.LogoutPageURL), "url"), "console.panels.hint.page_url"),
			embed, changeTo,
			hint(withType(text("terms_url", s.TermsURL), "url"), "console.panels.hint.terms_url"),
		},
	}
	// A box of terms for each language the panel offers, and for any the stored text has.
	for _, l := range web.Supported {
		lang := l.Code
		if !slices.Contains(f.Languages, lang) && s.TermsText[lang] == "" {
			continue
		}
		name := "terms_text_" + lang
		props.Texts = append(props.Texts, panelviews.TextField{
			Name: name, Value: s.TermsText[lang], Error: errs[name], Rows: 6,
			Label: p.t(c, "console.panels.field.terms_text", map[string]any{"Language": web.LanguageName(lang)}),
			Hint:  p.t(c, "console.panels.hint.terms_text", nil),
		})
	}
	return p.m.Render(c, status, panelviews.Settings(props))
}

func withType(f panelviews.TextField, t string) panelviews.TextField {
	f.Type = t
	return f
}

// saveSettings checks the form as `tenant apply` checks a file and saves it in one
// transaction; a refusal shows the form again with each message beside its field.
func (p *Part) saveSettings(c fiber.Ctx, a console.PanelAccess) error {
	f := readSettingsForm(c)
	probs, err := p.writeSettings(c, a, f.S, f.Default, f.Languages)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		return p.renderSettings(c, a, fiber.StatusUnprocessableEntity, f, probs)
	}
	return p.done(c, a, "settings", "saved")
}

// writeSettings validates and saves settings and audits the change; problems refuse them.
func (p *Part) writeSettings(c fiber.Ctx, a console.PanelAccess, s tenancy.Settings, def string, langs []string) ([]problem, error) {
	spec, err := p.spec(c, a)
	if err != nil {
		return nil, err
	}
	next := s.With(spec)
	if probs := p.checkSpec(next, def, langs); len(probs) > 0 {
		return probs, nil
	}
	before, err := p.d.Tenancy.SaveSettings(c.Context(), a.Panel.Key, s)
	var taken *tenancy.HostTakenError
	if errors.As(err, &taken) {
		return []problem{{"hosts", "console.panels.error.host_taken", map[string]any{"Value": taken.Host}}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("save settings of %s: %w", a.Panel.Key, err)
	}
	after, err := p.d.Tenancy.Spec(c.Context(), a.Panel.Key)
	if err != nil {
		return nil, err
	}
	return nil, p.m.Audit(c, a.Panel.ID, "panel.settings", a.Panel.Key, before, tenancy.SettingsOf(after))
}

// GET /console/api/panels/:panel/settings
func (p *Part) apiSettings(c fiber.Ctx, a console.PanelAccess) error {
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	return c.JSON(tenancy.SettingsOf(spec))
}

// decodeJSON reads a call's body strictly: an unknown field is a mistake worth telling.
func decodeJSON(c fiber.Ctx, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(c.Body())))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	return web.ExactKeys(c.Body(), v) // DisallowUnknownFields matches names ignoring case
}

// PUT /console/api/panels/:panel/settings: the whole settings, replaced (hosts and languages
// lists are the whole lists; the first language is the default).
func (p *Part) apiSaveSettings(c fiber.Ctx, a console.PanelAccess) error {
	var s tenancy.Settings
	if err := decodeJSON(c, &s); err != nil {
		return err
	}
	def := ""
	if len(s.Languages) > 0 {
		def = s.Languages[0]
	}
	probs, err := p.writeSettings(c, a, s, def, s.Languages)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		return apiError(probs)
	}
	return p.apiSettings(c, a)
}
