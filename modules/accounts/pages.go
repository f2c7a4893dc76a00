package accounts

import (
	"errors"
	"regexp"
	"strings"

	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

func client(c fiber.Ctx) Client {
	return Client{
		IP: c.IP(), UserAgent: c.Get(fiber.HeaderUserAgent), AppName: web.AppName(c),
		Device: c.Cookies(DeviceCookie), Invite: c.Cookies(inviteCookie), Affiliate: c.Cookies(affiliateCookie),
	}
}

// formFailure turns a service error into the form's inline errors, or returns it when it is
// not the member's to fix (the error handler then shows the error page).
func (m *Module) formFailure(c fiber.Ctx, err error, props *views.FormProps) error {
	var e *web.Error
	// A provider that did not answer (502: captcha, sign-in) is shown on the form, kept filled
	// in, so the member can simply try again.
	if !errors.As(err, &e) || e.Status >= 500 && e.Status != fiber.StatusBadGateway {
		return err
	}
	props.Errors = e.FieldErrors(m.kit.Tr(c))
	if len(props.Errors) == 0 {
		props.FormError = e.ToAPI(m.kit.Tr(c)).Message
	}
	c.Status(e.Status)
	return nil
}

func (m *Module) loginPage(c fiber.Ctx) error {
	return m.renderLogin(c, fiber.StatusOK, views.FormProps{Redirect: web.LocalPath(c, c.Query("redirect"))})
}

// renderLogin, renderJoin and renderForgot show their form with what the panel adds to it now:
// its sign-in providers (login and join) and, when it asks for one, the captcha.
func (m *Module) renderLogin(c fiber.Ctx, status int, props views.FormProps) error {
	if err := m.signInExtras(c, &props, true, props.Values["email"]); err != nil {
		return err
	}
	return m.kit.Render(c, status, views.Login(props))
}

func (m *Module) renderJoin(c fiber.Ctx, status int, props views.FormProps) error {
	if err := m.signInExtras(c, &props, true, ""); err != nil {
		return err
	}
	return m.kit.Render(c, status, views.Join(props))
}

func (m *Module) renderForgot(c fiber.Ctx, status int, props views.FormProps) error {
	if !props.Done {
		if err := m.signInExtras(c, &props, false, ""); err != nil {
			return err
		}
	}
	return m.kit.Render(c, status, views.Forgot(props))
}

func (m *Module) signInExtras(c fiber.Ctx, props *views.FormProps, providers bool, account string) error {
	var err error
	if providers {
		if props.Providers, err = m.providerButtons(c, props.Redirect); err != nil {
			return err
		}
	}
	// A form refused for want of a captcha shows one, whatever the count says by now (attempts
	// at once that were counted and taken back).
	props.Captcha, err = m.captchaWidget(c, account, props.Errors["captcha"] != "")
	return err
}

func (m *Module) loginSubmit(c fiber.Ctx) error {
	props := views.FormProps{Values: map[string]string{"email": c.FormValue("email")}, Redirect: web.LocalPath(c, c.FormValue("redirect"))}
	issued, err := m.svc.Login(c.Context(), web.PanelOf(c), c.FormValue("email"), c.FormValue("password"), client(c), m.loginGate(c, m.formCaptchaToken(c)))
	if err != nil {
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		return m.renderLogin(c, c.Response().StatusCode(), props)
	}
	return m.signedIn(c, issued, props.Redirect)
}

// signedIn sets the session cookie and goes where the member was heading (or the feed);
// the gates of the private pages take it from there.
func (m *Module) signedIn(c fiber.Ctx, issued *Issued, redirect string) error {
	m.setTokenCookie(c, issued.Token)
	web.SetMember(c, issued.Member)
	if redirect == "" {
		redirect = "/feed"
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(redirect)
}

func (m *Module) joinPage(c fiber.Ctx) error {
	props := views.FormProps{
		Redirect: web.LocalPath(c, c.Query("redirect")), InviteID: c.Params("inviteId"), Affiliate: c.Query("affiliate"),
	}
	if err := m.joinExtras(c, &props); err != nil {
		return err
	}
	return m.renderJoin(c, fiber.StatusOK, props)
}

func (m *Module) joinSubmit(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	in := RegisterInput{
		Email: c.FormValue("email"), Password: c.FormValue("password"), FirstName: c.FormValue("firstName"),
		InviteID: c.Params("inviteId"), Affiliate: c.FormValue("affiliate"),
	}
	props := views.FormProps{
		Values:   map[string]string{"email": in.Email, "firstName": in.FirstName},
		Redirect: web.LocalPath(c, c.FormValue("redirect")), InviteID: in.InviteID, Affiliate: in.Affiliate,
	}
	issued, err := m.register(c, panel, in, m.formCaptchaToken(c))
	if err != nil {
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		if xerr := m.joinExtras(c, &props); xerr != nil {
			return xerr
		}
		return m.renderJoin(c, c.Response().StatusCode(), props)
	}
	return m.signedIn(c, issued, props.Redirect)
}

func (m *Module) forgotPage(c fiber.Ctx) error {
	return m.renderForgot(c, fiber.StatusOK, views.FormProps{})
}

// register signs up after the captcha, when the panel asks for one now; a refused sign-up
// counts against the IP (signUpGate).
func (m *Module) register(c fiber.Ctx, panel *web.Panel, in RegisterInput, captchaToken string) (*Issued, error) {
	done, err := m.signUpGate(c, captchaToken)
	if err != nil {
		return nil, err
	}
	issued, err := m.svc.Register(c.Context(), panel, in, web.LocaleOf(c), client(c))
	return issued, done(err)
}

func (m *Module) forgotSubmit(c fiber.Ctx) error {
	email := strings.TrimSpace(c.FormValue("email"))
	props := views.FormProps{Values: map[string]string{"email": email}}
	err := m.checkCaptcha(c, m.formCaptchaToken(c))
	if err == nil {
		err = m.svc.ForgotPassword(c.Context(), web.PanelOf(c), email, web.LocaleOf(c), m.link(c, "", "/reset-password"), client(c))
	}
	if err != nil {
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		return m.renderForgot(c, c.Response().StatusCode(), props)
	}
	props.Done, props.Email = true, email
	return m.renderForgot(c, fiber.StatusOK, props)
}

// link is where mailed links point: the configured base URL, else the panel's own origin
// (web.Kit.PanelOrigin; or srcHost when the API names one of the panel's own hosts).
func (m *Module) link(c fiber.Ctx, host, path string) Link {
	if m.baseURL != "" {
		return Link{Origin: m.baseURL, Path: path}
	}
	if host == "" {
		return Link{Origin: m.kit.PanelOrigin(c, web.PanelOf(c)), Path: path}
	}
	return Link{Origin: c.Scheme() + "://" + host, Path: path}
}

func (m *Module) resetPage(c fiber.Ctx) error {
	token := c.Query("token")
	props := views.FormProps{Token: token}
	if err := m.svc.CheckResetToken(c.Context(), web.PanelOf(c), token); err != nil {
		props.Token = ""
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		return m.kit.Render(c, c.Response().StatusCode(), views.Reset(props))
	}
	return m.kit.Render(c, fiber.StatusOK, views.Reset(props))
}

func (m *Module) resetSubmit(c fiber.Ctx) error {
	token := c.FormValue("token")
	props := views.FormProps{Token: token}
	if _, err := m.svc.ResetPassword(c.Context(), web.PanelOf(c), token, c.FormValue("password")); err != nil {
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		if len(props.Errors) == 0 {
			props.Token = "" // the link itself is spent or expired: offer a new one
		}
		return m.kit.Render(c, c.Response().StatusCode(), views.Reset(props))
	}
	m.kit.FlashNext(c, "success", "flash.password_reset")
	return c.Redirect().Status(fiber.StatusSeeOther).To("/login")
}

func (m *Module) suspendedPage(c fiber.Ctx) error {
	if member := web.MemberOf(c); member != nil && member.Status != StatusSuspended {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
	}
	return m.kit.Render(c, fiber.StatusOK, views.Suspended())
}

// logoutPage ends the session, then follows ?redirect= when it is safe, else the panel's
// logout page, else shows the signed-out page.
func (m *Module) logoutPage(c fiber.Ctx) error {
	if member := web.MemberOf(c); member != nil {
		if err := m.svc.Logout(c.Context(), member); err != nil {
			return err
		}
		web.SetMember(c, nil)
	}
	m.kit.ClearCookie(c, TokenCookie)
	if target := web.SafeRedirect(c, c.Query("redirect")); target != "" {
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
	if p := web.PanelOf(c); p != nil && p.LogoutPageURL != "" {
		if target := web.SafeRedirect(c, p.LogoutPageURL); target != "" && target != "/logout" {
			return c.Redirect().Status(fiber.StatusSeeOther).To(target)
		}
	}
	return m.kit.Render(c, fiber.StatusOK, views.LoggedOut())
}

func (m *Module) termsPage(c fiber.Ctx) error {
	return m.kit.Render(c, fiber.StatusOK, views.Terms(views.FormProps{Done: web.MemberOf(c).AcceptedTerms, Terms: termsOf(web.PanelOf(c), web.LocaleOf(c))}))
}

// blankLine parts a panel's terms into paragraphs.
var blankLine = regexp.MustCompile(`\n\s*\n`)

// termsOf is what the accept-terms page shows of the panel's terms: the text in lang, else in
// the panel's default language, in paragraphs, and the link to its own page of them.
func termsOf(p *web.Panel, lang string) *views.TermsText {
	if p == nil || p.TermsURL == "" && len(p.TermsText) == 0 {
		return nil
	}
	t := &views.TermsText{URL: p.TermsURL, Lang: lang}
	text, ok := p.TermsText[lang]
	if !ok {
		t.Lang, text = p.DefaultLanguage, p.TermsText[p.DefaultLanguage]
	}
	for _, para := range blankLine.Split(strings.ReplaceAll(text, "\r\n", "\n"), -1) {
		if para = strings.TrimSpace(para); para != "" {
			t.Paragraphs = append(t.Paragraphs, para)
		}
	}
	return t
}

func (m *Module) termsAccept(c fiber.Ctx) error {
	member := web.MemberOf(c)
	if err := m.svc.AcceptTerms(c.Context(), member); err != nil {
		return err
	}
	member.AcceptedTerms = true
	if target := GateFor(c); target != "" {
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
}

// validatePage sends the validation mail on the first visit of a session's page view, and
// offers to send it again.
func (m *Module) validatePage(c fiber.Ctx) error {
	member := web.MemberOf(c)
	if member.EmailValidated {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/email-validation-done")
	}
	props := views.FormProps{Email: member.Email}
	if c.Cookies("validation-sent") != member.SessionID {
		if err := m.sendValidation(c); err != nil {
			if ferr := m.formFailure(c, err, &props); ferr != nil {
				return ferr
			}
		} else {
			m.kit.SetCookie(c, &fiber.Cookie{Name: "validation-sent", Value: member.SessionID})
		}
	}
	return m.kit.Render(c, fiber.StatusOK, views.ValidateEmail(props))
}

func (m *Module) validateResend(c fiber.Ctx) error {
	member := web.MemberOf(c)
	props := views.FormProps{Email: member.Email}
	if err := m.sendValidation(c); err != nil {
		if ferr := m.formFailure(c, err, &props); ferr != nil {
			return ferr
		}
		return m.kit.Render(c, c.Response().StatusCode(), views.ValidateEmail(props))
	}
	props.Done = true
	return m.kit.Render(c, fiber.StatusOK, views.ValidateEmail(props))
}

func (m *Module) sendValidation(c fiber.Ctx) error {
	return m.svc.RequestValidationEmail(c.Context(), web.PanelOf(c), web.MemberOf(c), web.LocaleOf(c), m.link(c, "", "/validate-email/confirm"))
}

// validateConfirm is the mailed link: it validates and lands on /email-validation-done.
func (m *Module) validateConfirm(c fiber.Ctx) error {
	if err := m.svc.ValidateEmail(c.Context(), web.PanelOf(c), c.Query("token")); err != nil {
		var e *web.Error
		if errors.As(err, &e) && e.Status < 500 {
			return m.kit.Render(c, e.Status, views.EmailValidated(false, e.ToAPI(m.kit.Tr(c)).Message))
		}
		return err
	}
	if member := web.MemberOf(c); member != nil {
		member.EmailValidated = true
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/email-validation-done")
}

func (m *Module) emailValidatedPage(c fiber.Ctx) error {
	return m.kit.Render(c, fiber.StatusOK, views.EmailValidated(true, ""))
}
