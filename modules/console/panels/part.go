// Package consolepanels is the console's panels part (issue 21, part 2): an owner creates
// panels and sets one up as `canvass tenant apply` does (domains, languages, app settings,
// the theme with a preview and its contrast report, uploaded logo, favicon and loader icon,
// provider credentials shown masked) and exports or imports the panel's tenant file. Every
// page has its JSON call under /console/api.
package consolepanels

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/gofiber/fiber/v3"
)

// Tenancy is what the part needs of the panels themselves.
type Tenancy interface {
	Spec(ctx context.Context, key string) (tenancy.PanelSpec, error)
	SaveSettings(ctx context.Context, key string, s tenancy.Settings) (tenancy.Settings, error)
	SaveTheme(ctx context.Context, key string, theme tenancy.AppTheme) (tenancy.AppTheme, error)
	SaveAsset(ctx context.Context, key, kind string, data []byte) (tenancy.AppTheme, string, error)
	Asset(ctx context.Context, panelID, name string) (*tenancy.PanelAsset, []byte, error)
	Create(ctx context.Context, spec tenancy.PanelSpec) (string, error)
	Apply(ctx context.Context, spec tenancy.PanelSpec) (string, error)
}

// SignIn is a panel's social sign-in providers and captcha (signinconfig).
type SignIn interface {
	SignInSpecOf(ctx context.Context, panelID string) (signinconfig.SignInSpec, *signinconfig.CaptchaSpec, error)
	ApplySignIn(ctx context.Context, panelID string, spec signinconfig.SignInSpec, captcha *signinconfig.CaptchaSpec) error
}

// Offers is a panel's offers provider.
type Offers interface {
	SpecOf(ctx context.Context, panelID string) (*offers.Spec, error)
	// ApplyIn applies the spec; its credit ceiling is read in the panel's currency.
	ApplyIn(ctx context.Context, panelID, currency string, s *offers.Spec) error
}

// Referrals is a panel's referral rules (the tenant file's referrals: block).
type Referrals interface {
	SettingsSpecOf(ctx context.Context, panelID, currency string) (*referrals.SettingsSpec, error)
	ApplySettings(ctx context.Context, panelID, currency string, spec *referrals.SettingsSpec) error
}

// Deps are the modules the part acts through.
type Deps struct {
	Tenancy   Tenancy
	SignIn    SignIn
	Offers    Offers
	Referrals Referrals
	// Getenv reads env:NAME secrets of an imported file, as `tenant apply` does.
	Getenv func(string) string
}

// Part is the console's panels part.
type Part struct {
	d Deps
	m *console.Module
}

func New(d Deps) *Part { return &Part{d: d} }

// Mount adds the part's pages and API (console.Part).
func (p *Part) Mount(m *console.Module, r, api fiber.Router) {
	p.m = m
	r.Get("/console/panels/new", m.Full(p.newPage))
	r.Post("/console/panels/new", m.Full(p.create))
	page := func(method, path string, h func(c fiber.Ctx, a console.PanelAccess) error) {
		m.PanelPage(r, method, "/console/panels/:panel"+path, console.ActionEditPanel, h)
	}
	page(fiber.MethodGet, "/settings", p.settingsPage)
	page(fiber.MethodPost, "/settings", p.saveSettings)
	page(fiber.MethodGet, "/theme", p.themePage)
	page(fiber.MethodPost, "/theme", p.saveTheme)
	page(fiber.MethodPost, "/theme/upload", p.upload)
	page(fiber.MethodGet, "/assets/:name", p.asset)
	page(fiber.MethodGet, "/providers", p.providersPage)
	page(fiber.MethodPost, "/providers", p.saveProviders)
	page(fiber.MethodGet, "/file", p.filePage)
	page(fiber.MethodGet, "/export.yaml", p.exportYAML)
	page(fiber.MethodPost, "/import", p.importPage)

	call := func(method, path string, h func(c fiber.Ctx, a console.PanelAccess) error) {
		m.PanelAPI(api, method, "/panels/:panel"+path, console.ActionEditPanel, h)
	}
	call(fiber.MethodGet, "/settings", p.apiSettings)
	call(fiber.MethodPut, "/settings", p.apiSaveSettings)
	call(fiber.MethodGet, "/theme", p.apiTheme)
	call(fiber.MethodPut, "/theme", p.apiSaveTheme)
	call(fiber.MethodPost, "/theme/preview", p.apiPreview)
	call(fiber.MethodGet, "/providers", p.apiProviders)
	call(fiber.MethodPut, "/providers", p.apiSaveProviders)
	call(fiber.MethodGet, "/export", p.apiExport)
	call(fiber.MethodPost, "/import", p.apiImport)
}

func (p *Part) t(c fiber.Ctx, id string, data map[string]any) string { return p.m.T(c, id, data) }

func (p *Part) nav(a console.PanelAccess, current string) panelviews.Nav {
	return panelviews.Nav{PanelKey: a.Panel.Key, PanelName: a.Panel.Name, Current: current}
}

func (p *Part) email(c fiber.Ctx) string {
	if op := console.OperatorOf(c); op != nil {
		return op.Email
	}
	return ""
}

// spec is the panel's stored tenant spec; a panel gone since the access check is a 404.
func (p *Part) spec(c fiber.Ctx, a console.PanelAccess) (tenancy.PanelSpec, error) {
	spec, err := p.d.Tenancy.Spec(c.Context(), a.Panel.Key)
	if errors.Is(err, tenancy.ErrUnknownPanel) {
		return spec, fiber.ErrNotFound
	}
	return spec, err
}

// notice is the message of a page reached after a write (?done=...).
func (p *Part) notice(c fiber.Ctx) string {
	switch c.Query("done") {
	case "saved":
		return p.t(c, "console.panels.saved", nil)
	case "created":
		return p.t(c, "console.panels.new.created", nil)
	case "uploaded":
		return p.t(c, "console.panels.uploads.done", nil)
	case "imported":
		return p.t(c, "console.panels.file.imported", nil)
	}
	return ""
}

func (p *Part) done(c fiber.Ctx, a console.PanelAccess, section, what string) error {
	return p.m.Redirect(c, "/console/panels/"+url.PathEscape(a.Panel.Key)+"/"+section+"?done="+what)
}

// lines splits a textarea or a comma-separated list into its trimmed, non-empty items.
func lines(s string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' }) {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// problem is one refusal of a form or a call: the field it names and its message id.
type problem struct {
	field string
	id    string
	data  map[string]any
}

// apiError is the refusal of a call naming every field (400, the spec's error shape).
func apiError(probs []problem) error {
	var e *web.Error
	for _, pr := range probs {
		if e == nil {
			e = web.Invalid(pr.field, pr.id, pr.data)
		} else {
			e = e.Also(pr.field, pr.id, pr.data)
		}
	}
	return e
}

// moduleProblems splits a module's joined validation error into its lines.
func moduleProblems(err error) []string {
	var out []string
	var joined interface{ Unwrap() []error }
	if errors.As(err, &joined) {
		for _, e := range joined.Unwrap() {
			out = append(out, moduleProblems(e)...)
		}
		return out
	}
	if err != nil {
		for _, l := range strings.Split(err.Error(), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
	}
	return out
}
