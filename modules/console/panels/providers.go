package consolepanels

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/signinconfig"
	panelviews "github.com/canvass/canvass/views/console/panels"
	"github.com/gofiber/fiber/v3"
)

// The provider credentials a tenant file holds: social sign-in (Google, Facebook, X), the
// captcha and the offers provider. SMS and payouts have no per-panel credentials: the SMS
// provider is the install's (CANVASS_SMS_URL) and payouts are paid by operators.

type fieldDef struct {
	name   string
	secret bool
}

var oauthFields = []fieldDef{{"client_id", false}, {"client_secret", true}, {"issuer", false}, {"auth_url", false}, {"token_url", false}, {"api_url", false}}

// sections are the credentials' sections, in the page's order, with their fields.
var sections = []struct {
	id     string
	fields []fieldDef
}{
	{"google", oauthFields},
	{"facebook", oauthFields},
	{"twitter", append(slices.Clone(oauthFields), fieldDef{"consumer_key", false}, fieldDef{"consumer_secret", true})},
	{"captcha", []fieldDef{{"kind", false}, {"site_key", false}, {"secret", true}, {"verify_url", false}, {"min_score", false}, {"mode", false}, {"after_failures", false}}},
	{"offers", []fieldDef{{"base_url", false}, {"app_id", false}, {"api_key", true}, {"postback_secret", true}, {"credit_ceiling", false}}},
}

var choiceValues = map[string][]string{
	"captcha_kind": {"recaptcha", "hcaptcha", "turnstile", "local"},
	"captcha_mode": {"off", "always", "after_failures"},
}

// creds are a panel's credentials, secrets in clear: never rendered, logged or answered.
type creds struct {
	signIn  signinconfig.SignInSpec
	captcha *signinconfig.CaptchaSpec
	offers  *offers.Spec
}

// values are credentials flattened by section and field (what the form and the API carry).
type values map[string]map[string]string

func (p *Part) creds(c fiber.Ctx, panelID string) (creds, error) {
	var cr creds
	var err error
	if cr.signIn, cr.captcha, err = p.d.SignIn.SignInSpecOf(c.Context(), panelID); err != nil {
		return cr, fmt.Errorf("sign-in of %s: %w", panelID, err)
	}
	if cr.offers, err = p.d.Offers.SpecOf(c.Context(), panelID); err != nil {
		return cr, fmt.Errorf("offers of %s: %w", panelID, err)
	}
	return cr, nil
}

func (cr creds) values() values {
	v := values{}
	for name, ps := range cr.signIn {
		m := map[string]string{"client_id": ps.ClientID, "client_secret": ps.ClientSecret, "issuer": ps.Issuer, "auth_url": ps.AuthURL, "token_url": ps.TokenURL, "api_url": ps.APIURL}
		if name == "twitter" {
			m["consumer_key"], m["consumer_secret"] = ps.ConsumerKey, ps.ConsumerSecret
		}
		v[name] = m
	}
	if c := cr.captcha; c != nil {
		v["captcha"] = map[string]string{"kind": c.Kind, "site_key": c.SiteKey, "secret": c.Secret, "verify_url": c.VerifyURL,
			"min_score": strconv.FormatFloat(c.MinScore, 'f', -1, 64), "mode": c.Mode, "after_failures": strconv.Itoa(c.AfterFailures)}
	}
	if o := cr.offers; o != nil {
		v["offers"] = map[string]string{"base_url": o.BaseURL, "app_id": o.AppID, "api_key": o.APIKey, "postback_secret": o.PostbackSecret, "credit_ceiling": o.CreditCeiling}
	}
	return v
}

// build turns values back into credentials; a number that is none is a problem.
func (v values) build() (creds, []problem) {
	var cr creds
	var probs []problem
	cr.signIn = signinconfig.SignInSpec{}
	for _, name := range []string{"google", "facebook", "twitter"} {
		m, ok := v[name]
		if !ok {
			continue
		}
		cr.signIn[name] = signinconfig.ProviderSpec{ClientID: m["client_id"], ClientSecret: m["client_secret"], Issuer: m["issuer"], AuthURL: m["auth_url"],
			TokenURL: m["token_url"], APIURL: m["api_url"], ConsumerKey: m["consumer_key"], ConsumerSecret: m["consumer_secret"]}
	}
	if m, ok := v["captcha"]; ok {
		cs := &signinconfig.CaptchaSpec{Kind: m["kind"], SiteKey: m["site_key"], Secret: m["secret"], VerifyURL: m["verify_url"], Mode: m["mode"]}
		if s := m["min_score"]; s != "" {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				probs = append(probs, problem{"captcha_min_score", "console.panels.providers.number", nil})
			}
			cs.MinScore = f
		}
		if s := m["after_failures"]; s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				probs = append(probs, problem{"captcha_after_failures", "console.panels.providers.number", nil})
			}
			cs.AfterFailures = n
		}
		cr.captcha = cs
	}
	if m, ok := v["offers"]; ok {
		cr.offers = &offers.Spec{BaseURL: m["base_url"], AppID: m["app_id"], APIKey: m["api_key"], PostbackSecret: m["postback_secret"], CreditCeiling: m["credit_ceiling"]}
	}
	return cr, probs
}

// check validates credentials as `tenant apply` does, naming each problem's field; the offers
// provider's credit ceiling is read in the panel's currency.
func (cr creds) check(currency string) []problem {
	var probs []problem
	for _, line := range moduleProblems(errors.Join(signinconfig.ValidateSignIn(cr.signIn, cr.captcha), cr.offers.ValidateIn(currency))) {
		path, detail, _ := strings.Cut(line, ": ")
		field := strings.ReplaceAll(strings.TrimPrefix(path, "sign_in."), ".", "_")
		if !strings.Contains(field, "_") {
			field += "_section"
		}
		probs = append(probs, problem{field, "console.panels.providers.invalid", map[string]any{"Detail": detail}})
	}
	return probs
}

// mask shows the end of a long secret only; a short one not at all.
func mask(s string) string {
	switch {
	case s == "":
		return ""
	case len([]rune(s)) >= 12:
		r := []rune(s)
		return "••••" + string(r[len(r)-4:])
	}
	return "••••"
}

// isMask tells whether a value sent back is a mask (or nothing): the secret is kept.
func isMask(s string) bool { return s == "" || strings.HasPrefix(s, "••••") }

// merge lays what was sent over the current values: a secret left empty (or sent back masked)
// keeps the current one; a section removed goes; a section neither held nor filled stays absent.
func merge(cur values, sent map[string]map[string]string, removed map[string]bool) values {
	next := values{}
	for _, s := range sections {
		if removed[s.id] {
			continue
		}
		in, sentSection := sent[s.id]
		held, isHeld := cur[s.id]
		if !sentSection {
			if isHeld {
				next[s.id] = held
			}
			continue
		}
		filled := false
		out := map[string]string{}
		for _, f := range s.fields {
			v := strings.TrimSpace(in[f.name])
			if f.secret && isMask(v) {
				v = held[f.name]
			} else if v != "" {
				filled = true
			}
			out[f.name] = v
		}
		if isHeld || filled {
			next[s.id] = out
		}
	}
	return next
}

// changed names the fields whose values differ (the audit log's entry: never a value).
func changed(before, after values) []string {
	var out []string
	for _, s := range sections {
		b, inB := before[s.id]
		a, inA := after[s.id]
		switch {
		case inB && !inA:
			out = append(out, s.id+" removed")
		case !inB && inA:
			out = append(out, s.id+" added")
		case inA:
			for _, f := range s.fields {
				if b[f.name] != a[f.name] {
					out = append(out, s.id+"."+f.name)
				}
			}
		}
	}
	return out
}

// writeCreds validates and applies credentials as `tenant apply` applies them, sealed by the
// modules that keep them, and audits the names of what changed.
func (p *Part) writeCreds(c fiber.Ctx, a console.PanelAccess, cur, next values) ([]problem, error) {
	spec, err := p.spec(c, a)
	if err != nil {
		return nil, err
	}
	cr, probs := next.build()
	probs = append(probs, cr.check(spec.CurrencyCode)...)
	if len(probs) > 0 {
		return probs, nil
	}
	diff := changed(cur, next)
	if len(diff) == 0 {
		return nil, nil
	}
	if err := p.d.SignIn.ApplySignIn(c.Context(), a.Panel.ID, cr.signIn, cr.captcha); err != nil {
		return nil, fmt.Errorf("apply sign-in of %s: %w", a.Panel.Key, err)
	}
	if err := p.d.Offers.ApplyIn(c.Context(), a.Panel.ID, spec.CurrencyCode, cr.offers); err != nil {
		return nil, fmt.Errorf("apply offers of %s: %w", a.Panel.Key, err)
	}
	after := map[string]any{"changed": diff}
	if b, n := cur["offers"]["credit_ceiling"], next["offers"]["credit_ceiling"]; b != n {
		// The ceiling is money, not a secret: its values are kept, as other money changes' are.
		after["offers_credit_ceiling"] = map[string]string{"before": b, "after": n}
	}
	return nil, p.m.Audit(c, a.Panel.ID, "panel.providers", a.Panel.Key, nil, after)
}

func (p *Part) providersPage(c fiber.Ctx, a console.PanelAccess) error {
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return err
	}
	return p.renderProviders(c, a, fiber.StatusOK, cr.values(), cr.values(), nil)
}

func (p *Part) renderProviders(c fiber.Ctx, a console.PanelAccess, status int, held, shown values, probs []problem) error {
	errs, summary := p.fieldErrors(c, probs)
	props := panelviews.ProvidersProps{Email: p.email(c), Nav: p.nav(a, "providers"), Notice: p.notice(c), Error: summary}
	for _, s := range sections {
		_, configured := held[s.id]
		sec := panelviews.ProviderSection{ID: s.id, Title: p.t(c, "console.panels.providers."+s.id, nil), Configured: configured, Error: errs[s.id+"_section"]}
		for _, f := range s.fields {
			name := s.id + "_" + f.name
			label := p.t(c, "console.panels.providers.field."+f.name, nil)
			if f.secret {
				sec.Secrets = append(sec.Secrets, panelviews.Secret{Name: name, Label: label, Masked: mask(held[s.id][f.name]), Error: errs[name]})
				continue
			}
			if opts, ok := choiceValues[name]; ok {
				ch := panelviews.Choice{Name: name, Label: label, Error: errs[name]}
				ch.Options = append(ch.Options, panelviews.Option{Value: "", Label: p.t(c, "console.panels.providers.choose", nil)})
				for _, o := range opts {
					ch.Options = append(ch.Options, panelviews.Option{Value: o, Label: o, Selected: shown[s.id][f.name] == o})
				}
				sec.Choices = append(sec.Choices, ch)
				continue
			}
			sec.Fields = append(sec.Fields, panelviews.TextField{Name: name, Label: label, Value: shown[s.id][f.name], Error: errs[name]})
		}
		props.Sections = append(props.Sections, sec)
	}
	return p.m.Render(c, status, panelviews.Providers(props))
}

func (p *Part) saveProviders(c fiber.Ctx, a console.PanelAccess) error {
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return err
	}
	cur := cr.values()
	sent, removed := map[string]map[string]string{}, map[string]bool{}
	for _, s := range sections {
		m := map[string]string{}
		for _, f := range s.fields {
			m[f.name] = c.FormValue(s.id + "_" + f.name)
		}
		sent[s.id] = m
		removed[s.id] = c.FormValue(s.id+"_remove") == "on"
	}
	next := merge(cur, sent, removed)
	probs, err := p.writeCreds(c, a, cur, next)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		// What was typed is shown again, but never a secret: those fields stay empty.
		shown := values{}
		for id, m := range sent {
			shown[id] = m
		}
		return p.renderProviders(c, a, fiber.StatusUnprocessableEntity, cur, shown, probs)
	}
	return p.done(c, a, "providers", "saved")
}

// masked are credentials as the API answers them: secrets masked.
func (v values) masked() map[string]any {
	out := map[string]any{"sign_in": map[string]any{}, "captcha": nil, "offers": nil}
	for _, s := range sections {
		m, ok := v[s.id]
		if !ok {
			continue
		}
		sec := map[string]string{}
		for _, f := range s.fields {
			val := m[f.name]
			if f.secret {
				val = mask(val)
			}
			if val != "" {
				sec[f.name] = val
			}
		}
		switch s.id {
		case "captcha", "offers":
			out[s.id] = sec
		default:
			out["sign_in"].(map[string]any)[s.id] = sec
		}
	}
	return out
}

// GET /console/api/panels/:panel/providers: the credentials, secrets masked.
func (p *Part) apiProviders(c fiber.Ctx, a console.PanelAccess) error {
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return err
	}
	return c.JSON(cr.values().masked())
}

// providersIn is PUT providers' body: a section absent is kept, null removes it; a secret
// absent, empty or sent back masked is kept.
type providersIn struct {
	SignIn  map[string]json.RawMessage `json:"sign_in"`
	Captcha json.RawMessage            `json:"captcha"`
	Offers  json.RawMessage            `json:"offers"`
}

// PUT /console/api/panels/:panel/providers
func (p *Part) apiSaveProviders(c fiber.Ctx, a console.PanelAccess) error {
	var in providersIn
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	cr, err := p.creds(c, a.Panel.ID)
	if err != nil {
		return err
	}
	cur := cr.values()
	sent, removed := map[string]map[string]string{}, map[string]bool{}
	var probs []problem
	read := func(id string, raw json.RawMessage) {
		if len(raw) == 0 {
			return
		}
		if string(raw) == "null" {
			removed[id] = true
			return
		}
		var m map[string]string
		if err := json.Unmarshal(raw, &m); err != nil {
			probs = append(probs, problem{id, "console.panels.providers.invalid", map[string]any{"Detail": "an object of strings"}})
			return
		}
		// The call names what it changes: fields not sent keep their current values.
		full := map[string]string{}
		for k, v := range cur[id] {
			full[k] = v
		}
		for k, v := range m {
			full[k] = v
		}
		sent[id] = full
	}
	for id, raw := range in.SignIn {
		if id != "google" && id != "facebook" && id != "twitter" {
			probs = append(probs, problem{"sign_in." + id, "console.panels.providers.unknown", nil})
			continue
		}
		read(id, raw)
	}
	read("captcha", in.Captcha)
	read("offers", in.Offers)
	if len(probs) > 0 {
		return apiError(probs)
	}
	next := merge(cur, sent, removed)
	probs, err = p.writeCreds(c, a, cur, next)
	if err != nil {
		return err
	}
	if len(probs) > 0 {
		return apiError(probs)
	}
	return c.JSON(next.masked())
}
