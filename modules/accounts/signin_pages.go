package accounts

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"time"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

// Cookies of a sign-in in progress: the browser's half of an attempt, and a waiting identity.
const (
	signInCookie  = "sign-in"
	pendingCookie = "sign-in-pending"
)

// SignIns is a panel's sign-in configuration (signinconfig, wired in app/server.go): the
// providers it offers, secrets opened, in display order, and its captcha (nil: none, or off).
type SignIns interface {
	SignInOf(ctx context.Context, panel *web.Panel) ([]social.Config, *captcha.Config, error)
}

// panelSignIn is a panel's sign-in configuration, as the pages use it.
type panelSignIn struct {
	providers []social.Config
	captcha   *captchaConfig
}

func (p *panelSignIn) provider(name social.Provider) (social.Config, bool) {
	for _, c := range p.providers {
		if c.Provider == name {
			return c, true
		}
	}
	return social.Config{}, false
}

// signInOf is a panel's sign-in configuration; none without SignIns.
func (m *Module) signInOf(ctx context.Context, panel *web.Panel) (*panelSignIn, error) {
	if m.signIns == nil {
		return &panelSignIn{}, nil
	}
	providers, cfg, err := m.signIns.SignInOf(ctx, panel)
	if err != nil {
		return nil, err
	}
	return &panelSignIn{providers: providers, captcha: cfg}, nil
}

// ProviderLabel is how a provider is named on buttons; X keeps its former name beside it,
// which members still search for.
func ProviderLabel(p social.Provider) string {
	switch p {
	case social.Google:
		return "Google"
	case social.Facebook:
		return "Facebook"
	case social.Twitter:
		return "X (Twitter)"
	}
	return string(p)
}

// providerButtons are the sign-in buttons of the panel's providers (login, join, widgets).
func (m *Module) providerButtons(c fiber.Ctx, redirect string) ([]views.ProviderButton, error) {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil {
		return nil, err
	}
	var out []views.ProviderButton
	for _, p := range cfg.providers {
		href := "/sign-in/" + string(p.Provider)
		if redirect != "" {
			href += "?redirect=" + url.QueryEscape(redirect)
		}
		out = append(out, views.ProviderButton{Provider: string(p.Provider), Label: ProviderLabel(p.Provider), Href: href})
	}
	return out, nil
}

// configuredProvider is the panel's configuration of the :provider in the path; 404 otherwise.
func (m *Module) configuredProvider(c fiber.Ctx) (social.Config, error) {
	p, ok := social.ParseProvider(c.Params("provider"))
	if !ok {
		return social.Config{}, web.NotFound()
	}
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil {
		return social.Config{}, err
	}
	pc, ok := cfg.provider(p)
	if !ok {
		return social.Config{}, web.NotFound()
	}
	return pc, nil
}

// returnURI is this panel's return address for a provider, on the host the sign-in started on
// (the address each panel registers with the provider).
func returnURI(c fiber.Ctx, p social.Provider) string {
	return c.Scheme() + "://" + c.Host() + "/sign-in/" + string(p) + "/return"
}

// GET /sign-in/:provider: off to the provider (sign in, or join when the identity is new).
func (m *Module) signInStart(c fiber.Ctx) error {
	return m.startAt(c, intentSignIn, web.LocalPath(c, c.Query("redirect")), nil)
}

// GET /settings/connections/:provider: a member connects a network. A link starts it: what it
// links is the identity the member then proves at the provider, in this same browser.
func (m *Module) connectStart(c fiber.Ctx) error {
	pid := web.MemberOf(c).ParticipantID
	return m.startAt(c, intentConnect, "/settings", &pid)
}

func (m *Module) startAt(c fiber.Ctx, intent, redirect string, participantID *string) error {
	cfg, err := m.configuredProvider(c)
	if err != nil {
		return err
	}
	start, err := m.svc.StartSignIn(c.Context(), web.PanelOf(c).ID, cfg, intent, returnURI(c, cfg.Provider), redirect, participantID)
	if err != nil {
		return err
	}
	m.kit.SetCookie(c, &fiber.Cookie{Name: signInCookie, Value: start.Browser, Expires: time.Now().Add(attemptTTL)})
	return c.Redirect().Status(fiber.StatusSeeOther).To(start.URL)
}

// GET /sign-in/:provider/return: the provider sends the browser back with a code (or an error).
func (m *Module) signInReturn(c fiber.Ctx) error {
	cfg, err := m.configuredProvider(c)
	if err != nil {
		return err
	}
	browser := c.Cookies(signInCookie)
	m.kit.ClearCookie(c, signInCookie)
	if c.Query("error") != "" {
		// The member cancelled at the provider (access_denied) or it refused: say so where they were.
		m.kit.FlashNext(c, "error", "error.sign_in_cancelled")
		if web.MemberOf(c) != nil {
			return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
		}
		return c.Redirect().Status(fiber.StatusSeeOther).To("/login")
	}
	out, err := m.svc.FinishSignIn(c.Context(), web.PanelOf(c), cfg, SignInReturn{
		State: c.Query("state"), Code: c.Query("code"), Browser: browser, RedirectURI: returnURI(c, cfg.Provider),
	}, web.LocaleOf(c), client(c))
	if err != nil {
		return m.signInFailed(c, err)
	}
	switch {
	case out.Connected:
		m.kit.FlashNext(c, "success", "flash.connected")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	case out.Issued != nil:
		return m.signedIn(c, out.Issued, out.Redirect)
	case out.OnboardingUserID != "":
		m.kit.SetCookie(c, &fiber.Cookie{Name: pendingCookie, Value: out.Pending, Expires: time.Now().Add(OnboardingTTL)})
		return c.Redirect().Status(fiber.StatusSeeOther).To(onboardingURL(out.Provider, out.OnboardingUserID))
	}
	m.kit.SetCookie(c, &fiber.Cookie{Name: pendingCookie, Value: out.Pending, Expires: time.Now().Add(pendingTTL)})
	if out.NeedsLink {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/sign-in/link")
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/sign-in/complete")
}

// signInFailed shows a refused or expired sign-in on the login page (or settings for a member),
// with the reason; what is not the member's to fix goes to the error page.
func (m *Module) signInFailed(c fiber.Ctx, err error) error {
	var e *web.Error
	if !errors.As(err, &e) || e.Status >= 500 && e.Status != fiber.StatusBadGateway {
		return err
	}
	if web.MemberOf(c) != nil {
		m.kit.FlashNext(c, "error", e.ID)
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	}
	return m.renderLogin(c, e.Status, views.FormProps{FormError: e.ToAPI(m.kit.Tr(c)).Message})
}

// onboardingURL is the spec's third-party sign-in return: /onboarding with provider and userId.
func onboardingURL(p social.Provider, userID string) string {
	return "/onboarding?" + url.Values{"provider": {string(p)}, "userId": {userID}}.Encode()
}

func (m *Module) pendingProps(c fiber.Ctx) (*PendingSignIn, views.PendingProps, error) {
	p, err := m.svc.Pending(c.Context(), web.PanelOf(c), c.Cookies(pendingCookie))
	if err != nil {
		return nil, views.PendingProps{}, err
	}
	return p, views.PendingProps{Provider: ProviderLabel(p.Provider), Email: p.Email}, nil
}

// GET /sign-in/link: the provider's email is an account's; its password links the two.
func (m *Module) linkPage(c fiber.Ctx) error {
	p, props, err := m.pendingProps(c)
	if err != nil {
		return m.signInFailed(c, err)
	}
	switch {
	case !p.NeedsLink && p.Onboarding:
		return c.Redirect().Status(fiber.StatusSeeOther).To(onboardingURL(p.Provider, p.OnboardingUserID))
	case !p.NeedsLink:
		return c.Redirect().Status(fiber.StatusSeeOther).To("/sign-in/complete")
	}
	return m.kit.Render(c, fiber.StatusOK, views.LinkAccount(props))
}

func (m *Module) linkSubmit(c fiber.Ctx) error {
	_, props, err := m.pendingProps(c)
	if err != nil {
		return m.signInFailed(c, err)
	}
	issued, redirect, err := m.svc.LinkPending(c.Context(), web.PanelOf(c), c.Cookies(pendingCookie), c.FormValue("password"), client(c))
	if err != nil {
		if ferr := m.formFailure(c, err, &props.Form); ferr != nil {
			return ferr
		}
		return m.kit.Render(c, c.Response().StatusCode(), views.LinkAccount(props))
	}
	if redirect != "/onboarding" { // onboarding still needs the identity: it ends there
		m.kit.ClearCookie(c, pendingCookie)
	}
	m.kit.FlashNext(c, "success", "flash.connected")
	return m.signedIn(c, issued, redirect)
}

// POST /sign-in/link/cancel: not this account; join with another email instead (in
// onboarding, its last step asks for one).
func (m *Module) linkCancel(c fiber.Ctx) error {
	if p, err := m.svc.Pending(c.Context(), web.PanelOf(c), c.Cookies(pendingCookie)); err == nil && p.Onboarding {
		return c.Redirect().Status(fiber.StatusSeeOther).To(onboardingURL(p.Provider, p.OnboardingUserID))
	}
	m.kit.ClearCookie(c, pendingCookie)
	return c.Redirect().Status(fiber.StatusSeeOther).To("/join")
}

// GET /sign-in/complete: a new identity without an email the provider vouches for gives one.
func (m *Module) completePage(c fiber.Ctx) error {
	p, props, err := m.pendingProps(c)
	if err != nil {
		return m.signInFailed(c, err)
	}
	switch {
	case p.NeedsLink:
		return c.Redirect().Status(fiber.StatusSeeOther).To("/sign-in/link")
	case p.Onboarding:
		return c.Redirect().Status(fiber.StatusSeeOther).To(onboardingURL(p.Provider, p.OnboardingUserID))
	}
	props.Form.Values = map[string]string{"email": p.Email, "firstName": p.Name}
	return m.kit.Render(c, fiber.StatusOK, views.CompleteJoin(props))
}

func (m *Module) completeSubmit(c fiber.Ctx) error {
	_, props, err := m.pendingProps(c)
	if err != nil {
		return m.signInFailed(c, err)
	}
	props.Form.Values = map[string]string{"email": c.FormValue("email"), "firstName": c.FormValue("firstName")}
	issued, redirect, err := m.svc.JoinPending(c.Context(), web.PanelOf(c), c.Cookies(pendingCookie), c.FormValue("email"), c.FormValue("firstName"), web.LocaleOf(c), client(c))
	if err != nil {
		var e *web.Error
		if errors.As(err, &e) && e.Code() == "email_already_used" {
			// The choice: sign in to that account to link it, or give another email.
			props.Form.Errors = e.FieldErrors(m.kit.Tr(c))
			props.EmailTaken = true
			return m.kit.Render(c, fiber.StatusConflict, views.CompleteJoin(props))
		}
		if ferr := m.formFailure(c, err, &props.Form); ferr != nil {
			return ferr
		}
		return m.kit.Render(c, c.Response().StatusCode(), views.CompleteJoin(props))
	}
	m.kit.ClearCookie(c, pendingCookie)
	return m.signedIn(c, issued, redirect)
}

// SettingsConnections lists the panel's providers with the member's connections for the
// settings page (the profile module's); a connection may be removed unless it is the member's
// only way to sign in.
func (m *Module) SettingsConnections(c fiber.Ctx, connected []string, hasPassword bool) ([]views.Connection, error) {
	cfg, err := m.signInOf(c.Context(), web.PanelOf(c))
	if err != nil {
		return nil, err
	}
	var out []views.Connection
	for _, p := range cfg.providers {
		out = append(out, views.Connection{
			Provider: string(p.Provider), Label: ProviderLabel(p.Provider), Connected: slices.Contains(connected, string(p.Provider)),
			CanDisconnect: hasPassword || len(connected) > 1,
		})
	}
	return out, nil
}

// POST /settings/connections/:provider/disconnect
func (m *Module) disconnectSubmit(c fiber.Ctx) error {
	p, ok := social.ParseProvider(c.Params("provider"))
	if !ok {
		return web.NotFound()
	}
	if err := m.svc.Disconnect(c.Context(), web.MemberOf(c), p); err != nil {
		var e *web.Error
		if !errors.As(err, &e) {
			return err
		}
		m.kit.FlashNext(c, "error", e.ID)
	} else {
		m.kit.FlashNext(c, "success", "flash.disconnected")
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
}

// POST /ah/api/v1/oauth/{provider}/id-token/connect {token, platformKey, secret?}
func (m *Module) apiConnect(c fiber.Ctx) error {
	member := web.MemberOf(c)
	if member == nil {
		return web.Fail(fiber.StatusUnauthorized, "error.no_token", nil)
	}
	var in struct {
		Token       string `json:"token"`
		PlatformKey string `json:"platformKey"`
		Secret      string `json:"secret"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	cfg, err := m.configuredProvider(c)
	if err != nil {
		return err
	}
	if err := m.svc.ConnectToken(c.Context(), web.PanelOf(c), cfg, member, in.Token, in.Secret); err != nil {
		return err
	}
	return m.connectionsResponse(c, member)
}

// POST /ah/api/v1/oauth/disconnect {provider}
func (m *Module) apiDisconnect(c fiber.Ctx) error {
	member := web.MemberOf(c)
	if member == nil {
		return web.Fail(fiber.StatusUnauthorized, "error.no_token", nil)
	}
	var in struct {
		Provider string `json:"provider"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	p, ok := social.ParseProvider(in.Provider)
	if !ok {
		return web.Invalid("provider", "error.unknown_provider", nil)
	}
	if err := m.svc.Disconnect(c.Context(), member, p); err != nil {
		return err
	}
	return m.connectionsResponse(c, member)
}

// connectionsResponse answers a connection change with the member's networks now.
func (m *Module) connectionsResponse(c fiber.Ctx, member *web.Member) error {
	conns, err := m.svc.Connections(c.Context(), member.AccountHolderID)
	if err != nil {
		return err
	}
	if conns == nil {
		conns = []string{}
	}
	return c.JSON(fiber.Map{"oauthConnections": conns})
}
