package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	"gopkg.in/yaml.v3"
)

// Demo tenants of ARCHITECTURE.md section 10, as a server listening on addr (CANVASS_ADDR)
// applies them: both may be framed by the demo's partner site on the same port. Fixed uuids
// keep links stable across machines.
func demoPanelsFor(addr string) []tenancy.PanelSpec {
	partner := demoPartnerOrigins(addr)
	var demo, northwind tenancy.PanelSpec
	demo.Instance.Code, demo.Instance.Key, demo.Instance.Name = "demo", "demo", "Canvass Demo"
	demo.ID = "7b0c2a52-6a53-4c2e-9d43-2f0d1c6a0001"
	demo.Key, demo.Name, demo.CurrencyCode = "demo", "Canvass Demo", "USD"
	demo.Hosts = []string{"localhost", "127.0.0.1"}
	demo.Languages = []string{"en", "es"}
	// Both panels may be framed by the demo's partner site (demo_partner.go): Canvass Demo's
	// login widget keeps the member in the frame, Northwind's join widget opens Northwind.
	demo.AppSettings = tenancy.AppSettings{WebAppName: "Canvass Demo", EmbedOrigins: partner, WidgetAfter: web.WidgetAfterFrame}
	demo.AppTheme = tenancy.AppTheme{
		"color_primary": "#475369", "color_cta": "#1AC0B4", "font_color_cta": "#ffffff",
		"logo_url": "/static/img/canvass-logo.svg", "logo_favicon_url": "/static/img/favicon.svg",
	}

	northwind.Instance.Code, northwind.Instance.Key, northwind.Instance.Name = "northwind", "northwind", "Northwind"
	northwind.ID = "7b0c2a52-6a53-4c2e-9d43-2f0d1c6a0002"
	northwind.Key, northwind.Name, northwind.CurrencyCode = "northwind", "Northwind Rewards", "GBP"
	northwind.Hosts = []string{"northwind.localhost"}
	northwind.Languages = []string{"en", "ru", "zh"}
	northwind.AppSettings = tenancy.AppSettings{WebAppName: "Northwind Rewards", TermsRequired: true, EmailValidationReminder: true,
		EmbedOrigins: partner, WidgetAfter: web.WidgetAfterPanel, TermsText: northwindTerms, Layout: "compact"}
	northwind.AppTheme = tenancy.AppTheme{
		"color_primary": "#1F3A5F", "color_secondary": "#27496D", "color_cta": "#E07A1F", "font_color_cta": "#ffffff",
		"header_font_color": "#ffffff", "link_font_color": "#27496D", "text_font_color": "#2B2B2B",
		"panel_font_family": "Georgia", "logo_url": "/static/img/northwind-logo.svg",
		"logo_favicon_url": "/static/img/northwind-favicon.svg",
	}
	return []tenancy.PanelSpec{demo, northwind}
}

// northwindTerms are the terms Northwind's members accept (it requires terms), in its languages.
var northwindTerms = map[string]string{
	"en": `Northwind Rewards is a survey panel run by Northwind. By taking part you agree to these terms.

Surveys. We invite you to surveys that suit your profile. Answer honestly and once per survey; answers given carelessly or by software may not be rewarded.

Rewards. Each completed survey earns the reward it shows, credited to your balance in pounds sterling. You can redeem your balance once it reaches the minimum the Redeem page shows. Rewards have no cash value until redeemed and expire if your account is closed.

Your data. We keep your answers apart from your name and email, share answers with our clients only without them, and never sell your personal data. You can download or erase your data, or close your account, at any time in Settings.`,
	"ru": `Northwind Rewards — панель опросов компании Northwind. Участвуя, вы принимаете эти условия.

Опросы. Мы приглашаем вас в опросы, подходящие вашему профилю. Отвечайте честно и по одному разу на опрос; ответы, данные небрежно или программой, могут не вознаграждаться.

Вознаграждения. За каждый завершённый опрос вы получаете указанное вознаграждение на баланс в фунтах стерлингов. Баланс можно вывести, когда он достигнет минимума, указанного на странице вывода. Вознаграждения сгорают при закрытии аккаунта.

Ваши данные. Мы храним ответы отдельно от вашего имени и почты, передаём клиентам ответы только без них и никогда не продаём ваши данные. Вы можете скачать или удалить свои данные или закрыть аккаунт в любой момент в настройках.`,
	"zh": `Northwind Rewards 是由 Northwind 运营的调查小组。参与即表示您同意以下条款。

调查：我们会邀请您参加符合您资料的调查。请如实作答，每项调查只答一次；草率或由软件给出的回答可能得不到奖励。

奖励：每完成一项调查即可获得其标明的奖励，以英镑计入您的余额。余额达到兑换页面所示的最低金额后即可兑换。账户关闭后奖励失效。

您的数据：我们将您的回答与姓名和邮箱分开保存，只向客户提供不含这些信息的回答，绝不出售您的个人数据。您可以随时在设置中下载或删除您的数据，或关闭账户。`,
}

// DemoMember is the demo member of Canvass Demo.
const (
	DemoEmail    = "member@demo.test"
	DemoPassword = "demo-password-1"
	// DemoStartingBalance is the demo member's manual entry, in the demo panel's USD.
	DemoStartingBalance = "25.00"
	// DemoMobile is the demo member's verified mobile number (a US fictional 555-01XX number).
	DemoMobile = "+12025550143"
)

// LoadDemo applies the demo tenants and the demo member; running it again changes nothing.
func LoadDemo(ctx context.Context, app *App) error {
	specs := demoPanelsFor(app.addr)
	for _, spec := range specs {
		if _, err := app.Tenancy.Apply(ctx, spec); err != nil {
			return fmt.Errorf("demo panel %s: %w", spec.Key, err)
		}
	}
	for _, spec := range specs {
		if err := importDemoCampaigns(ctx, app, spec.Key); err != nil {
			return err
		}
		if err := applyDemoSignIn(ctx, app, spec); err != nil {
			return err
		}
		if err := importDemoPostcodes(ctx, app, spec.Key); err != nil {
			return err
		}
	}
	panel, err := app.Tenancy.PanelByKey(ctx, "demo")
	if err != nil {
		return fmt.Errorf("demo panel: %w", err)
	}
	err = app.Accounts.Service().EnsureMember(ctx, panel, accounts.RegisterInput{
		Email: DemoEmail, Password: DemoPassword, FirstName: "Demo", AcceptTerms: true, LanguageCode: "en",
	}, accounts.Metadata{"welcomeCampaignCompleted": true})
	if err != nil {
		return fmt.Errorf("demo member: %w", err)
	}
	// The demo member starts with a balance, so the transactions page and redeeming have
	// something to show; the key makes a second run a no-op.
	pid, err := app.Accounts.Service().ParticipantByEmail(ctx, panel, DemoEmail)
	if err != nil {
		return fmt.Errorf("demo member: %w", err)
	}
	_, created, err := app.Wallet.Adjust(ctx, panel, pid, DemoStartingBalance, "Welcome bonus", "demo", "demo-starting-balance")
	if err != nil {
		return fmt.Errorf("demo member's starting balance: %w", err)
	}
	if created {
		// The starting balance is not news: no payment notification for it.
		if err := app.Wallet.MarkSeen(ctx, pid, 0); err != nil {
			return fmt.Errorf("demo member's starting balance: %w", err)
		}
	}
	// A mobile verified a month ago, so the demo member may redeem; kept once set.
	if _, err := app.Mobile.Service().SetVerified(ctx, panel, pid, DemoMobile, time.Now().AddDate(0, 0, -30)); err != nil {
		return fmt.Errorf("demo member's mobile: %w", err)
	}
	if err := loadDemoRedemptions(ctx, app, panel, pid); err != nil {
		return err
	}
	if err := loadDemoOperators(ctx, app); err != nil {
		return err
	}
	return loadDemoReferrals(ctx, app)
}

// DemoOperators are the console's demo operators, one per role on Canvass Demo (the owner
// owns Northwind too), with their fixed passwords (docs/console.md).
var DemoOperators = []struct {
	Email, Password string
	Role            console.Role
	Panels          []string
}{
	{"owner@ops.demo.test", "console-owner-1", console.RoleOwner, []string{"demo", "northwind"}},
	{"editor@ops.demo.test", "console-editor-1", console.RoleEditor, []string{"demo"}},
	{"finance@ops.demo.test", "console-finance-1", console.RoleFinance, []string{"demo"}},
	{"support@ops.demo.test", "console-support-1", console.RoleSupport, []string{"demo"}},
}

// loadDemoOperators adds the demo operators; an operator or grant already there stays as it is.
func loadDemoOperators(ctx context.Context, app *App) error {
	for _, o := range DemoOperators {
		for _, key := range o.Panels {
			panel, err := app.Tenancy.PanelByKey(ctx, key)
			if err != nil {
				return fmt.Errorf("demo operator %s: %w", o.Email, err)
			}
			if _, err := app.Console.Service().AddOperator(ctx, console.CLI, o.Email, o.Role, panel.ID, o.Password); err != nil {
				return fmt.Errorf("demo operator %s: %w", o.Email, err)
			}
		}
	}
	return nil
}

// applyDemoSignIn points both demo panels' Google, Facebook and X sign-in at the local
// development provider, gives Northwind the local captcha after 3 failed logins or sign-ups,
// and both panels the local offers provider. Only a demo server outside production has the local providers.
func applyDemoSignIn(ctx context.Context, app *App, spec tenancy.PanelSpec) error {
	if app.dev == nil {
		return nil
	}
	signIn := signinconfig.SignInSpec{}
	for p, c := range app.dev.signIn.Configs(devClientID, devClientSecret) {
		signIn[string(p)] = signinconfig.ProviderSpec{
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, Issuer: c.Issuer, AuthURL: c.AuthURL, TokenURL: c.TokenURL,
			APIURL: c.APIURL, ConsumerKey: c.ConsumerKey, ConsumerSecret: c.ConsumerSecret,
		}
	}
	var cs *signinconfig.CaptchaSpec
	if spec.Key == "northwind" {
		cs = &signinconfig.CaptchaSpec{Kind: "local", Secret: devCaptchaSecret, VerifyURL: app.dev.captchaURL(), Mode: "after_failures", AfterFailures: 3}
	}
	if err := app.SignIn.ApplySignIn(ctx, spec.ID, signIn, cs); err != nil {
		return fmt.Errorf("demo sign-in of %s: %w", spec.Key, err)
	}
	if err := app.Offers.Apply(ctx, spec.ID, app.dev.offersSpec(spec.Key)); err != nil {
		return fmt.Errorf("demo offers of %s: %w", spec.Key, err)
	}
	return nil
}

// importDemoCampaigns imports the embedded campaigns of one demo panel (idempotent by uuid).
func importDemoCampaigns(ctx context.Context, app *App, panelKey string) error {
	files, err := demoCampaignFiles(panelKey)
	if err != nil {
		return err
	}
	panel, err := app.Tenancy.PanelByKey(ctx, panelKey)
	if err != nil {
		return fmt.Errorf("demo panel %s: %w", panelKey, err)
	}
	defs := make([]*campaigns.Definition, 0, len(files))
	for _, f := range files {
		def, err := campaigns.ParseFile(f.Name, f.Data)
		if err != nil {
			return err
		}
		defs = append(defs, def)
	}
	if _, err := app.Campaigns.Import(ctx, panel, defs); err != nil {
		return fmt.Errorf("demo campaigns of %s: %w", panelKey, err)
	}
	return nil
}

// ApplyTenantFiles creates or updates the tenants described in YAML files (see README), and
// prints on standard output every colour of each applied panel's theme that the contrast rule
// had to adjust.
func ApplyTenantFiles(ctx context.Context, app *App, files []string, log *slog.Logger) error {
	return applyTenantFiles(ctx, app, files, log, os.Stdout)
}

func applyTenantFiles(ctx context.Context, app *App, files []string, log *slog.Logger, out io.Writer) error {
	var errs []error
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var spec tenancy.PanelSpec
		var signIn tenantSignIn
		if err := yaml.Unmarshal(data, &spec); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := yaml.Unmarshal(data, &signIn); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := signIn.resolve(os.Getenv); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := errors.Join(signinconfig.ValidateSignIn(signIn.SignIn, signIn.Captcha), signIn.Offers.ValidateIn(spec.CurrencyCode)); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		var refs tenantReferrals
		if err := refs.read(data, spec); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		id, err := app.Tenancy.Apply(ctx, spec)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := app.SignIn.ApplySignIn(ctx, id, signIn.SignIn, signIn.Captcha); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := app.Referrals.ApplySettings(ctx, id, spec.CurrencyCode, refs.Referrals); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := app.Offers.ApplyIn(ctx, id, spec.CurrencyCode, signIn.Offers); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		log.Info("tenant applied", "file", name, "panel", spec.Key, "uuid", id, "hosts", spec.Hosts)
		reportThemeContrast(out, spec.Key, spec.AppTheme)
	}
	return errors.Join(errs...)
}

// tenantSignIn is the third-party part of a tenant file: `sign_in:` (providers), `captcha:` and
// `offers:` (the offers provider). A secret written as env:NAME is read from that environment
// variable, so tenant files can be committed without secrets.
type tenantSignIn struct {
	SignIn  signinconfig.SignInSpec   `yaml:"sign_in"`
	Captcha *signinconfig.CaptchaSpec `yaml:"captcha"`
	Offers  *offers.Spec              `yaml:"offers"`
}

func (t *tenantSignIn) resolve(getenv func(string) string) error {
	var errs []error
	secret := func(field, v string) string {
		name, ok := strings.CutPrefix(v, "env:")
		if !ok {
			return v
		}
		val := getenv(name)
		if val == "" {
			errs = append(errs, fmt.Errorf("%s: environment variable %s is empty", field, name))
		}
		return val
	}
	for p, spec := range t.SignIn {
		spec.ClientSecret = secret("sign_in."+p+".client_secret", spec.ClientSecret)
		spec.ConsumerSecret = secret("sign_in."+p+".consumer_secret", spec.ConsumerSecret)
		t.SignIn[p] = spec
	}
	if t.Captcha != nil {
		t.Captcha.Secret = secret("captcha.secret", t.Captcha.Secret)
	}
	if t.Offers != nil {
		t.Offers.APIKey = secret("offers.api_key", t.Offers.APIKey)
		t.Offers.PostbackSecret = secret("offers.postback_secret", t.Offers.PostbackSecret)
	}
	return errors.Join(errs...)
}

// reportThemeContrast prints, for a panel, each colour pair the theme's contrast rule had to
// adjust ("panel northwind: --color-cta-ink #E07A1F → #AE5900 (2.76:1 → 4.55:1 on #F4F5F7)")
// and each colour it could not read. The panel's own values are stored and emitted as set.
func reportThemeContrast(w io.Writer, panel string, theme tenancy.AppTheme) {
	theme = theme.Compact()
	for _, field := range theme.Unreadable() {
		fmt.Fprintf(w, "panel %s: %s %q is not a colour the contrast rule can read: its variants are derived from the default\n", panel, field, theme[field])
	}
	for _, a := range theme.Adjustments() {
		fmt.Fprintf(w, "panel %s: %s\n", panel, a)
	}
}
