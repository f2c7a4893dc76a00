package console

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the console's own states for the development gallery: sign-in and its
// two-factor steps, the operator's panels, a panel's operators, the audit log, API tokens and
// the console's error pages. Every one is in the console's neutral theme, as the console's
// handlers render it (modules/console).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	return []views.GalleryState{
		state("login", "/console/login", func(ctx context.Context, f views.Fixture) templ.Component {
			return Login(LoginProps{})
		}),
		state("login-refused", "/console/login", func(ctx context.Context, f views.Fixture) templ.Component {
			return Login(LoginProps{Email: galleryLongEmail, Error: views.T(ctx, "console.login.refused")})
		}),
		state("totp", "/console/login/totp", func(ctx context.Context, f views.Fixture) templ.Component {
			return TOTP("")
		}),
		state("totp-refused", "/console/login/totp", func(ctx context.Context, f views.Fixture) templ.Component {
			return TOTP(views.T(ctx, "console.totp.refused"))
		}),
		state("enrol-required", "/console/totp/enrol", func(ctx context.Context, f views.Fixture) templ.Component {
			return Enrol(galleryEnrol(true, ""))
		}),
		state("enrol-refused", "/console/totp/enrol", func(ctx context.Context, f views.Fixture) templ.Component {
			return Enrol(galleryEnrol(false, views.T(ctx, "console.enrol.refused")))
		}),
		state("recovery-codes", "/console/totp/enrol", func(ctx context.Context, f views.Fixture) templ.Component {
			return RecoveryCodes(galleryLongEmail, []string{"k7q2-m9xd-4tpa", "w3ve-8nzr-c6ju", "p5hy-2bfk-q9ms", "d8ta-6wlc-r3ex", "n4gu-7jzp-v2ko",
				"s9mb-3hqe-x5dw", "f2cn-9rvt-l8ya", "j6pz-4kxs-e7gb", "u3wd-5mfa-t9cq", "b8ek-2yhn-z4rv"})
		}),
		state("home-empty", "/console/", func(ctx context.Context, f views.Fixture) templ.Component {
			return Home(HomeProps{Email: "new.operator@ops.demo.test"})
		}),
		state("home-many-panels", "/console/", func(ctx context.Context, f views.Fixture) templ.Component {
			return Home(HomeProps{Email: galleryLongEmail, Panels: galleryHomePanels(ctx), TOTPEnabled: true, CodesLeft: 7, CanCreatePanel: true})
		}),
		state("home-one-role", "/console/", func(ctx context.Context, f views.Fixture) templ.Component {
			return Home(HomeProps{Email: "support@ops.demo.test", Panels: galleryHomePanels(ctx)[3:], TOTPEnabled: true, CodesLeft: 1})
		}),
		state("operators", "/console/panels/demo/operators", func(ctx context.Context, f views.Fixture) templ.Component {
			return Operators(galleryOperators(ctx))
		}),
		state("operators-added", "/console/panels/demo/operators", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryOperators(ctx)
			p.NewEmail, p.NewPassword = "maximilian.vandersteen-oyelaran@research-partners.example.org", "vX7q-Lm2p-Rt9z-Kw4d"
			p.Rows = append(p.Rows, OperatorRow{OperatorID: galleryID(9), Email: p.NewEmail, Role: "finance", RoleLabel: views.T(ctx, "console.role.finance")})
			p.Notice = views.Tf(ctx, "console.operators.added", map[string]any{"Email": p.NewEmail, "Role": views.T(ctx, "console.role.finance")})
			return Operators(p)
		}),
		state("operators-refused", "/console/panels/demo/operators", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryOperators(ctx)
			p.Error = views.T(ctx, "console.operators.last_owner")
			return Operators(p)
		}),
		state("audit-empty", "/console/audit", func(ctx context.Context, f views.Fixture) templ.Component {
			return Audit(AuditProps{Email: galleryLongEmail, Panels: galleryPanelOptions(), CSVURL: "/console/audit.csv"})
		}),
		state("audit-many-rows", "/console/audit", func(ctx context.Context, f views.Fixture) templ.Component {
			return Audit(AuditProps{Email: galleryLongEmail, Panels: galleryPanelOptions(), CSVURL: "/console/audit.csv", Rows: galleryAuditRows(f, "")})
		}),
		state("audit-one-panel", "/console/audit", func(ctx context.Context, f views.Fixture) templ.Component {
			return Audit(AuditProps{Email: galleryLongEmail, Panels: galleryPanelOptions(), Selected: "northwind", CSVURL: "/console/audit.csv?panel=northwind",
				Rows: galleryAuditRows(f, "Northwind Rewards")[:6]})
		}),
		state("tokens-none", "/console/tokens", func(ctx context.Context, f views.Fixture) templ.Component {
			return Tokens(galleryTokens(ctx, f, 0))
		}),
		state("tokens-several", "/console/tokens", func(ctx context.Context, f views.Fixture) templ.Component {
			return Tokens(galleryTokens(ctx, f, 6))
		}),
		state("token-created", "/console/tokens", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryTokens(ctx, f, 3)
			p.NewToken = "cvo_q3xk7mz2wf5ja9tcbn4hv6dl8rpyeu2sgo7wk3mf5zq9xt4c"
			return Tokens(p)
		}),
		state("tokens-refused", "/console/tokens", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryTokens(ctx, f, 2)
			p.Error = views.T(ctx, "console.tokens.refused.scopes")
			p.Name, p.Panel, p.Days = "Nightly export of redemptions to the finance spreadsheet", "northwind", 365
			p.Chosen = []string{"redemptions.manage", "members.close"}
			return Tokens(p)
		}),
		state("error-not-found", "/console/panels/demo/campaigns/unknown", func(ctx context.Context, f views.Fixture) templ.Component {
			return ErrorPage(views.T(ctx, "console.error.not_found_title"), views.T(ctx, "console.error.not_found"), true)
		}),
		state("error-forbidden", "/console/panels/demo/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			return ErrorPage(views.T(ctx, "console.error.forbidden_title"), views.T(ctx, "console.error.forbidden"), true)
		}),
		state("error-form-expired", "/console/tokens", func(ctx context.Context, f views.Fixture) templ.Component {
			return ErrorPage(views.T(ctx, "console.error.csrf_title"), views.T(ctx, "console.error.csrf"), true)
		}),
		state("error-too-many", "/console/login", func(ctx context.Context, f views.Fixture) templ.Component {
			return ErrorPage(views.T(ctx, "console.error.too_many_title"), views.T(ctx, "console.error.too_many"), false)
		}),
		state("error-unexpected", "/console/", func(ctx context.Context, f views.Fixture) templ.Component {
			return ErrorPage(views.T(ctx, "console.error.unexpected_title"), views.T(ctx, "console.error.unexpected"), true)
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it (console.Module.page): the
// console's own name, no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

// galleryLongEmail is an operator's address long enough to test every line it is on.
const galleryLongEmail = "alexandra.konstantinopoulou@example-company.co.uk"

// galleryID is a fixed uuid-shaped id, n telling them apart.
func galleryID(n int) string { return fmt.Sprintf("0192f3a4-7b1c-7d2e-8f30-%012x", 0xa1b2c3d4e500+n) }

func galleryEnrol(required bool, errMsg string) EnrolProps {
	const secret = "JBSWY3DPEHPK3PXPQ4ZTMNRXGUYDEMBV"
	return EnrolProps{
		Email: galleryLongEmail, Secret: secret, Required: required, Error: errMsg,
		URI: "otpauth://totp/Canvass%20console:" + strings.ReplaceAll(galleryLongEmail, "@", "%40") + "?secret=" + secret + "&issuer=Canvass%20console&algorithm=SHA1&digits=6&period=30",
	}
}

// gallerySections are the panel sections the home page links to (console.panelSections),
// with the roles that open each.
var gallerySections = []struct {
	path, label string
	roles       []string
}{
	{"/settings", "console.section.settings", nil},
	{"/campaigns", "console.section.campaigns", []string{"editor"}},
	{"/redemptions", "console.section.redemptions", []string{"finance"}},
	{"/ledger", "console.section.ledger", []string{"finance"}},
	{"/competitions", "console.section.competitions", []string{"finance"}},
	{"/summary", "console.section.summary", []string{"finance"}},
	{"/offer-holds", "console.section.offer_holds", []string{"finance"}},
	{"/members", "console.section.members", []string{"support"}},
	{"/operators", "console.section.operators", nil},
	{"/audit", "console.section.audit", nil},
}

// galleryHomePanels are panels with every mix of roles: an owner's full list of sections, a
// long panel name, and a panel with one role.
func galleryHomePanels(ctx context.Context) []PanelRow {
	row := func(key, name string, roles ...string) PanelRow {
		r := PanelRow{Key: key, Name: name}
		for _, role := range roles {
			r.Roles = append(r.Roles, views.T(ctx, "console.role."+role))
		}
		for _, s := range gallerySections {
			may := false
			for _, role := range roles {
				may = may || role == "owner"
				for _, allowed := range s.roles {
					may = may || allowed == role
				}
			}
			if may {
				r.Links = append(r.Links, Link{Href: "/console/panels/" + key + s.path, Label: views.T(ctx, s.label)})
			}
		}
		return r
	}
	return []PanelRow{
		row("demo", "Canvass Demo", "owner"),
		row("northwind", "Northwind Rewards", "finance", "support"),
		row("opinion-circle-uk-and-ireland", "Opinion Circle — United Kingdom and Ireland consumer research community", "editor", "finance", "support"),
		row("campus-voices", "Campus Voices", "support"),
	}
}

func galleryOperators(ctx context.Context) OperatorsProps {
	p := OperatorsProps{Email: galleryLongEmail, PanelKey: "demo", PanelName: "Canvass Demo"}
	for _, r := range []string{"owner", "editor", "finance", "support"} {
		p.Roles = append(p.Roles, RoleOption{Value: r, Label: views.T(ctx, "console.role."+r)})
	}
	for i, g := range []struct{ email, role string }{
		{galleryLongEmail, "owner"}, {"owner@ops.demo.test", "owner"}, {"editor@ops.demo.test", "editor"},
		{"finance@ops.demo.test", "finance"}, {"support@ops.demo.test", "support"},
		{"jean-baptiste.de-la-fontaine-rousseau@agence-etudes-marketing.example.fr", "support"},
	} {
		p.Rows = append(p.Rows, OperatorRow{OperatorID: galleryID(i + 1), Email: g.email, Role: g.role, RoleLabel: views.T(ctx, "console.role."+g.role)})
	}
	return p
}

func galleryPanelOptions() []PanelOption {
	return []PanelOption{{Key: "demo", Name: "Canvass Demo"}, {Key: "northwind", Name: "Northwind Rewards"},
		{Key: "opinion-circle-uk-and-ireland", Name: "Opinion Circle — United Kingdom and Ireland consumer research community"}}
}

// galleryAuditRows are 25 entries as the log shows them (UTC, the stored JSON as it is), the
// newest first; panel, when set, is the only panel they are of.
func galleryAuditRows(f views.Fixture, panel string) []AuditRow {
	entries := []struct{ who, panel, action, target, before, after string }{
		{galleryLongEmail, "Canvass Demo", "redemption.approve", galleryID(31), `{"status":"pending"}`, `{"reason":"approved in the console","status":"approved"}`},
		{"finance@ops.demo.test", "Northwind Rewards", "ledger.adjust", galleryID(32), `{"balance":"12.50"}`, `{"amount":"-2.50","balance":"10.00","entry":"` + galleryID(33) + `","reason":"Duplicate completion credited twice by the supplier on 28 October"}`},
		{"owner@ops.demo.test", "Canvass Demo", "panel.theme", "demo", `{"color_cta":"#000000","color_primary":"#475369"}`, `{"color_cta":"#E07A1F","color_primary":"#1F3A5F","logo_url":"/static/img/northwind-logo.svg"}`},
		{galleryLongEmail, "—", "login", galleryLongEmail, "—", "—"},
		{"support@ops.demo.test", "Northwind Rewards", "member.suspend", galleryID(34), `{"status":"active"}`, `{"reason":"Chargeback reported by PayPal","sessions_ended":2,"status":"suspended"}`},
		{"editor@ops.demo.test", "Canvass Demo", "campaign.update", galleryID(35), `{"name":"Quick poll","reward":"0.50"}`, `{"name":"Streaming, television and the evenings of households with more than one screen","reward":"1.25"}`},
		{"finance@ops.demo.test", "Canvass Demo", "competition.draw", galleryID(36), `{"drawn":false}`, `{"digest":"9f2c4e1a7b3d5f6e8a0c2b4d6f8e1a3c5b7d9f0e2a4c6b8d0f1e3a5c7b9d1f2e","drawn":true,"early":false,"entrants":1834,"reason":"Monthly draw"}`},
		{galleryLongEmail, "Canvass Demo", "token.create", "Nightly export (" + galleryID(37) + ")", "—", `{"expires_at":"2027-11-03T14:30:00Z","name":"Nightly export","panel_id":"","revoked":false,"scopes":"redemptions.manage ledger.adjust"}`},
		{"owner@ops.demo.test", "Northwind Rewards", "panel.providers", "northwind", "—", `{"changed":["offers.api_key","offers.credit_ceiling"],"offers_credit_ceiling":{"after":"50.00","before":"25.00"}}`},
		{"owner@ops.demo.test", "Northwind Rewards", "operator.add", "jean-baptiste.de-la-fontaine-rousseau@agence-etudes-marketing.example.fr", "—", `{"role":"support"}`},
	}
	out := make([]AuditRow, 0, 25)
	for i := range 25 {
		e := entries[i%len(entries)]
		p := e.panel
		if panel != "" {
			p = panel
		}
		at := f.Now.Add(-time.Duration(i*97+3) * time.Minute)
		out = append(out, AuditRow{At: at.UTC().Format("2006-01-02 15:04:05 UTC"), Who: e.who, Panel: p, Action: e.action, Target: e.target, Before: e.before, After: e.after})
	}
	return out
}

// galleryScopes are the actions an owner may give a token (console.Actions), as the form offers them.
var galleryScopes = []string{
	"view", "operators.manage", "audit.read", "panel.edit", "campaigns.edit", "campaigns.preview", "redemptions.manage",
	"redemptions.reveal_payout", "ledger.adjust", "competitions.manage", "members.read", "members.suspend",
	"members.end_sessions", "members.resend_mail", "members.close",
}

func galleryScopeLabel(ctx context.Context, s string) string {
	return views.T(ctx, "console.scope."+strings.ReplaceAll(s, ".", "_"))
}

// galleryTokens is the tokens page with n tokens, live, expired and revoked among them.
func galleryTokens(ctx context.Context, f views.Fixture, n int) TokensProps {
	p := TokensProps{Email: galleryLongEmail, Days: 90, Lifetimes: []int{30, 90, 365, 0}}
	for _, o := range galleryPanelOptions() {
		p.Panels = append(p.Panels, Link{Href: o.Key, Label: o.Name})
	}
	for _, s := range galleryScopes {
		p.Scopes = append(p.Scopes, RoleOption{Value: s, Label: galleryScopeLabel(ctx, s)})
	}
	tokens := []struct {
		name, panel, state string
		scopes             []string
		used               bool
	}{
		{"Nightly export of redemptions to the finance spreadsheet", "", "expires", []string{"redemptions.manage", "ledger.adjust", "audit.read"}, true},
		{"CI campaign sync", "Canvass Demo", "never", []string{"campaigns.edit", "campaigns.preview"}, true},
		{"Support bot", "Northwind Rewards", "expires", []string{"members.read", "members.suspend", "members.end_sessions", "members.resend_mail"}, false},
		{"Old reporting script", "Opinion Circle — United Kingdom and Ireland consumer research community", "expired", []string{"view", "audit.read"}, true},
		{"Laptop test", "", "revoked", []string{"view"}, false},
		{"Quarterly audit", "Canvass Demo", "expires", galleryScopes, true},
	}
	for i := range n {
		t := tokens[i%len(tokens)]
		created := f.Now.AddDate(0, 0, -(i*23 + 2))
		row := TokenRow{ID: galleryID(40 + i), Name: t.name, Panel: t.panel, Created: created.UTC().Format("2006-01-02 15:04")}
		if row.Panel == "" {
			row.Panel = views.T(ctx, "console.tokens.all_panels")
		}
		for _, s := range t.scopes {
			row.Scopes = append(row.Scopes, galleryScopeLabel(ctx, s))
		}
		if t.used {
			row.LastUsed = f.Now.Add(-time.Duration(i*5+1) * time.Hour).UTC().Format("2006-01-02 15:04")
		}
		switch t.state {
		case "revoked":
			row.State = views.T(ctx, "console.tokens.revoked")
		case "expired":
			row.State = views.T(ctx, "console.tokens.expired")
		case "never":
			row.Live, row.State = true, views.T(ctx, "console.tokens.never_expires")
		default:
			row.Live = true
			row.State = views.Tf(ctx, "console.tokens.expires", map[string]any{"Date": created.AddDate(0, 0, 365).UTC().Format("2006-01-02")})
		}
		p.Rows = append(p.Rows, row)
	}
	return p
}
