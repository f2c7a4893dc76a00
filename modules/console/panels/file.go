package consolepanels

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/tenancy"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/gofiber/fiber/v3"
	"gopkg.in/yaml.v3"
)

// tenantFile is a whole tenant file, as `canvass tenant apply` reads it.
type tenantFile struct {
	tenancy.PanelSpec `yaml:",inline"`
	SignIn            signinconfig.SignInSpec   `yaml:"sign_in,omitempty"`
	Captcha           *signinconfig.CaptchaSpec `yaml:"captcha,omitempty"`
	Offers            *offers.Spec              `yaml:"offers,omitempty"`
	Referrals         *referrals.SettingsSpec   `yaml:"referrals,omitempty"`
}

// MaxFileBytes bounds an imported tenant file.
const MaxFileBytes = 256 << 10

var envNameRE = regexp.MustCompile(`[^A-Z0-9]+`)

// envRef is the environment variable an exported secret is read from: the file may be
// committed and applied with `tenant apply` where that variable holds the secret.
func envRef(key, section, field string) string {
	return "env:" + strings.Trim(envNameRE.ReplaceAllString(strings.ToUpper(key+"_"+section+"_"+field), "_"), "_")
}

// export is the panel's tenant file; its secrets are env:NAME references, never their values.
func (p *Part) export(c fiber.Ctx, a console.PanelAccess) ([]byte, error) {
	spec, err := p.spec(c, a)
	if err != nil {
		return nil, err
	}
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return nil, err
	}
	f := tenantFile{PanelSpec: spec}
	for name, ps := range cr.signIn {
		if f.SignIn == nil {
			f.SignIn = signinconfig.SignInSpec{}
		}
		ps.ClientSecret = envRef(a.Panel.Key, name, "client_secret")
		if ps.ConsumerSecret != "" {
			ps.ConsumerSecret = envRef(a.Panel.Key, name, "consumer_secret")
		}
		f.SignIn[name] = ps
	}
	if cs := cr.captcha; cs != nil {
		c := *cs
		c.Secret = envRef(a.Panel.Key, "captcha", "secret")
		f.Captcha = &c
	}
	if o := cr.offers; o != nil {
		s := *o
		s.PostbackSecret = envRef(a.Panel.Key, "offers", "postback_secret")
		if s.APIKey != "" {
			s.APIKey = envRef(a.Panel.Key, "offers", "api_key")
		}
		f.Offers = &s
	}
	if f.Referrals, err = p.d.Referrals.SettingsSpecOf(c.Context(), a.Panel.ID, spec.CurrencyCode); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# The tenant file of panel %s, exported from the operator console.\n", a.Panel.Key)
	buf.WriteString("# Secrets are env:NAME references: set them, or import here to keep the panel's own.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("export %s: %w", a.Panel.Key, err)
	}
	return buf.Bytes(), enc.Close()
}

// GET /console/panels/:panel/export.yaml: the tenant file, as a download.
func (p *Part) exportYAML(c fiber.Ctx, a console.PanelAccess) error {
	data, err := p.export(c, a)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "application/yaml; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+a.Panel.Key+`.yaml"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(data)
}

// importFile applies a tenant file to this panel as `tenant apply` would: every part checked
// before anything is written, then the panel, its sign-in and captcha, referral rules and
// offers provider. A secret written env:NAME is read from the environment; when that is unset
// the panel keeps the secret it holds (so an export imports back as it was).
func (p *Part) importFile(c fiber.Ctx, a console.PanelAccess, data []byte) ([]string, error) {
	if len(data) > MaxFileBytes {
		return []string{p.t(c, "console.panels.file.too_large", map[string]any{"Max": MaxFileBytes >> 10})}, nil
	}
	var f tenantFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return []string{p.t(c, "console.panels.file.not_yaml", map[string]any{"Detail": err.Error()})}, nil
	}
	spec, err := p.spec(c, a)
	if err != nil {
		return nil, err
	}
	var probs []string
	switch {
	case f.Key == "":
		f.Key = spec.Key
	case f.Key != spec.Key:
		probs = append(probs, p.t(c, "console.panels.file.other_panel", map[string]any{"Key": f.Key}))
	}
	if f.ID != "" && f.ID != spec.ID {
		probs = append(probs, p.t(c, "console.panels.file.other_uuid", nil))
	}
	f.ID = spec.ID
	if f.Instance.Code == "" {
		f.Instance = spec.Instance
	}
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return nil, err
	}
	held := cr.values()
	var envErrs []string
	secret := func(section, field, v string) string {
		name, ok := strings.CutPrefix(v, "env:")
		if !ok {
			return v
		}
		if val := p.d.Getenv(name); val != "" {
			return val
		}
		if val := held[section][field]; val != "" {
			return val
		}
		envErrs = append(envErrs, p.t(c, "console.panels.file.env_missing", map[string]any{"Name": name}))
		return ""
	}
	for name, ps := range f.SignIn {
		ps.ClientSecret = secret(name, "client_secret", ps.ClientSecret)
		ps.ConsumerSecret = secret(name, "consumer_secret", ps.ConsumerSecret)
		f.SignIn[name] = ps
	}
	if f.Captcha != nil {
		f.Captcha.Secret = secret("captcha", "secret", f.Captcha.Secret)
	}
	if f.Offers != nil {
		f.Offers.APIKey = secret("offers", "api_key", f.Offers.APIKey)
		f.Offers.PostbackSecret = secret("offers", "postback_secret", f.Offers.PostbackSecret)
	}
	probs = append(probs, envErrs...)
	_, refErr := f.Referrals.Resolve("", f.CurrencyCode)
	probs = append(probs, moduleProblems(errors.Join(
		f.PanelSpec.Validate(isSupported),
		signinconfig.ValidateSignIn(f.SignIn, f.Captcha), f.Offers.ValidateIn(f.CurrencyCode), refErr,
	))...)
	if len(probs) > 0 {
		return probs, nil
	}
	before := map[string]any{"settings": tenancy.SettingsOf(spec), "app_theme": spec.AppTheme, "name": spec.Name, "currency_code": spec.CurrencyCode}
	if _, err := p.d.Tenancy.Apply(c.Context(), f.PanelSpec); err != nil {
		// A host another panel answers on is the one refusal the database makes.
		return []string{err.Error()}, nil
	}
	if err := p.d.SignIn.ApplySignIn(c.Context(), spec.ID, f.SignIn, f.Captcha); err != nil {
		return nil, fmt.Errorf("import sign-in of %s: %w", spec.Key, err)
	}
	if err := p.d.Referrals.ApplySettings(c.Context(), spec.ID, f.CurrencyCode, f.Referrals); err != nil {
		return nil, fmt.Errorf("import referrals of %s: %w", spec.Key, err)
	}
	if err := p.d.Offers.ApplyIn(c.Context(), spec.ID, f.CurrencyCode, f.Offers); err != nil {
		return nil, fmt.Errorf("import offers of %s: %w", spec.Key, err)
	}
	after, err := p.spec(c, a)
	if err != nil {
		return nil, err
	}
	next := tenantFile{SignIn: f.SignIn, Captcha: f.Captcha, Offers: f.Offers}
	return nil, p.m.Audit(c, a.Panel.ID, "panel.import", a.Panel.Key, before, map[string]any{
		"settings": tenancy.SettingsOf(after), "app_theme": after.AppTheme, "name": after.Name, "currency_code": after.CurrencyCode,
		"providers": changed(held, creds{signIn: next.SignIn, captcha: next.Captcha, offers: next.Offers}.values()),
	})
}

func (p *Part) renderFile(c fiber.Ctx, a console.PanelAccess, status int, probs []string) error {
	props := panelviews.FileProps{Email: p.email(c), Nav: p.nav(a, "file"), Notice: p.notice(c), Errors: probs}
	if len(probs) > 0 {
		props.Error = p.t(c, "console.panels.file.refused", nil)
	}
	return p.m.Render(c, status, panelviews.File(props))
}

func (p *Part) filePage(c fiber.Ctx, a console.PanelAccess) error {
	return p.renderFile(c, a, fiber.StatusOK, nil)
}

// POST /console/panels/:panel/import: an uploaded tenant file.
func (p *Part) importPage(c fiber.Ctx, a console.PanelAccess) error {
	fh, err := c.FormFile("file")
	if err != nil {
		return p.renderFile(c, a, fiber.StatusUnprocessableEntity, []string{p.t(c, "console.panels.file.missing", nil)})
	}
	if fh.Size > MaxFileBytes {
		return p.renderFile(c, a, fiber.StatusUnprocessableEntity, []string{p.t(c, "console.panels.file.too_large", map[string]any{"Max": MaxFileBytes >> 10})})
	}
	r, err := fh.Open()
	if err != nil {
		return fmt.Errorf("read import: %w", err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("read import: %w", err)
	}
	probs, err := p.importFile(c, a, data)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		return p.renderFile(c, a, fiber.StatusUnprocessableEntity, probs)
	}
	return p.done(c, a, "file", "imported")
}

// fileBody is the export's answer and the import's body.
type fileBody struct {
	File string `json:"file"`
}

// GET /console/api/panels/:panel/export
func (p *Part) apiExport(c fiber.Ctx, a console.PanelAccess) error {
	data, err := p.export(c, a)
	if err != nil {
		return err
	}
	return c.JSON(fileBody{File: string(data)})
}

// POST /console/api/panels/:panel/import
func (p *Part) apiImport(c fiber.Ctx, a console.PanelAccess) error {
	var in fileBody
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	probs, err := p.importFile(c, a, []byte(in.File))
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		var ps []problem
		for _, pr := range probs {
			ps = append(ps, problem{"file", "console.panels.file.problem", map[string]any{"Detail": pr}})
		}
		return apiError(ps)
	}
	spec, err := p.spec(c, a)
	if err != nil {
		return err
	}
	return c.JSON(tenancy.SettingsOf(spec))
}
