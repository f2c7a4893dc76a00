package consolepanels

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/gofiber/fiber/v3"
)

var isSupported = web.IsSupported

// mayCreate: an operator who owns at least one panel may create another (and owns it).
func (p *Part) mayCreate(c fiber.Ctx) (*console.Operator, error) {
	op := console.OperatorOf(c)
	if op == nil {
		return nil, fiber.ErrForbidden
	}
	access, err := p.m.Service().Access(c.Context(), op.ID)
	if err != nil {
		return nil, err
	}
	for _, a := range access {
		if slices.Contains(a.Roles, console.RoleOwner) {
			return op, nil
		}
	}
	return nil, fiber.ErrForbidden
}

type newForm struct {
	key, name, currency, hosts, def string
	langs                           []string
}

func (p *Part) renderNew(c fiber.Ctx, status int, f newForm, probs []problem) error {
	errs, summary := p.fieldErrors(c, probs)
	field := func(name, value, hint string) panelviews.TextField {
		tf := panelviews.TextField{Name: name, Label: p.t(c, "console.panels.field."+name, nil), Value: value, Error: errs[name]}
		if hint != "" {
			tf.Hint = p.t(c, hint, nil)
		}
		return tf
	}
	hosts := field("hosts", f.hosts, "console.panels.hint.hosts")
	hosts.Rows = 3
	return p.m.Render(c, status, panelviews.New(panelviews.NewProps{
		Email: p.email(c), Error: summary,
		Fields: []panelviews.TextField{
			field("key", f.key, "console.panels.hint.key"), field("name", f.name, ""),
			field("currency_code", f.currency, "console.panels.hint.currency"), hosts,
		},
		Languages: p.languageOptions(f.langs), LangError: errs["languages"],
		Default: p.defaultChoice(c, f.def, errs["default_language"]),
	}))
}

// GET /console/panels/new
func (p *Part) newPage(c fiber.Ctx) error {
	if _, err := p.mayCreate(c); err != nil {
		return err
	}
	return p.renderNew(c, fiber.StatusOK, newForm{currency: "USD", def: "en", langs: []string{"en"}}, nil)
}

// POST /console/panels/new: the panel, with an instance of its own (its code is the key), and
// its creator as its owner.
func (p *Part) create(c fiber.Ctx) error {
	op, err := p.mayCreate(c)
	if err != nil {
		return err
	}
	f := newForm{
		key: strings.TrimSpace(c.FormValue("key")), name: strings.TrimSpace(c.FormValue("name")),
		currency: strings.ToUpper(strings.TrimSpace(c.FormValue("currency_code"))), hosts: c.FormValue("hosts"),
		def: c.FormValue("default_language"),
	}
	for _, v := range c.Request().PostArgs().PeekMulti("languages") {
		f.langs = append(f.langs, string(v))
	}
	var spec tenancy.PanelSpec
	spec.Instance.Code, spec.Instance.Key, spec.Instance.Name = f.key, f.key, f.name
	spec.Key, spec.Name, spec.CurrencyCode = f.key, f.name, f.currency
	spec.Hosts, spec.Languages = lines(f.hosts), ordered(f.langs, f.def)
	spec.AppSettings.WebAppName = f.name
	probs := p.checkSpec(spec, f.def, f.langs)
	if len(probs) > 0 {
		return p.renderNew(c, fiber.StatusUnprocessableEntity, f, dedupe(probs))
	}
	id, err := p.d.Tenancy.Create(c.Context(), spec)
	var taken *tenancy.HostTakenError
	switch {
	case errors.As(err, &taken):
		probs = []problem{{"hosts", "console.panels.error.host_taken", map[string]any{"Value": taken.Host}}}
	case errors.Is(err, tenancy.ErrPanelExists), errors.Is(err, tenancy.ErrInstanceExists):
		probs = []problem{{"key", "console.panels.error.key_taken", map[string]any{"Value": f.key}}}
	case err != nil:
		return fmt.Errorf("create panel %s: %w", f.key, err)
	}
	if len(probs) > 0 {
		return p.renderNew(c, fiber.StatusUnprocessableEntity, f, probs)
	}
	// The creator owns it with their existing account (no password is made).
	if _, err := p.m.Service().AddOperator(c.Context(), console.ActorOf(op), op.Email, console.RoleOwner, id, ""); err != nil {
		return fmt.Errorf("owner of %s: %w", f.key, err)
	}
	if err := p.m.Audit(c, id, "panel.create", f.key, nil, map[string]any{
		"key": f.key, "name": f.name, "currency_code": f.currency, "hosts": spec.Hosts, "languages": spec.Languages,
	}); err != nil {
		return err
	}
	return p.m.Redirect(c, "/console/panels/"+url.PathEscape(f.key)+"/settings?done=created")
}

// dedupe drops a second message for the same field (the key and instance code are one input).
func dedupe(probs []problem) []problem {
	var out []problem
	seen := map[string]bool{}
	for _, pr := range probs {
		k := pr.field + "\x00" + pr.id
		if !seen[k] {
			seen[k] = true
			out = append(out, pr)
		}
	}
	return out
}
