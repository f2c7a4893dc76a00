package accounts

import (
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

// The widgets' routes (Routes, "Widgets"). Their pages let the panel's domains and embed
// origins frame them (web.Kit.AllowEmbedding), and their cookies are partitioned to the
// framing site (web.IsEmbed): a member signed in inside a frame is signed in there only.

// Message types the framing page hears once the member is in.
const (
	msgSignedIn = "canvass:signed-in"
	msgJoined   = "canvass:joined"
	// handoffAPI mints a hand-off code for the widget's script.
	handoffAPI = "/ah/api/v1/widgets/handoff"
)

// widgetURL is a widget's address in the frame, keeping the page that frames it.
func widgetURL(kind, parent string) string {
	u := "/widgets/" + kind
	if parent != "" {
		u += "?" + url.Values{"parentFrameUrl": {parent}}.Encode()
	}
	return u
}

func widgetKind(v string) string {
	if v == views.WidgetJoin {
		return views.WidgetJoin
	}
	return views.WidgetLogin
}

// widgetParent is the address of the page that frames the widget, kept only when the panel
// lets that page's origin frame it (web.Kit.EmbedderOrigin): given (the parentFrameUrl the
// tenant's snippet puts in the frame's address, or the form carries), else on a page's first
// load the Referer, unless that is a widget itself (our own redirect).
func (m *Module) widgetParent(c fiber.Ctx, given string) string {
	if given == "" && c.Method() == fiber.MethodGet {
		given = string(c.Request().Header.Referer())
		if u, err := url.Parse(given); err == nil && strings.EqualFold(u.Host, c.Host()) && strings.HasPrefix(u.Path, "/widgets/") {
			given = ""
		}
	}
	if !validParentFrameURL(given) || m.kit.EmbedderOrigin(c, given) == "" {
		return ""
	}
	return given
}

// GET /widgets/login and /widgets/join: the form, or for a member signed in inside this frame
// who they are (and, on a panel that opens itself after the widget, the way there).
func (m *Module) widgetPage(kind string) fiber.Handler {
	return func(c fiber.Ctx) error {
		m.kit.AllowEmbedding(c)
		return m.renderWidget(c, fiber.StatusOK, kind, m.widgetParent(c, c.Query("parentFrameUrl")), views.FormProps{})
	}
}

func (m *Module) renderWidget(c fiber.Ctx, status int, kind, parent string, form views.FormProps) error {
	panel := web.PanelOf(c)
	other := views.WidgetJoin
	if kind == views.WidgetJoin {
		other = views.WidgetLogin
	}
	p := views.WidgetProps{Kind: kind, Form: form, ParentFrameURL: parent, OtherURL: widgetURL(other, parent)}
	if member := web.MemberOf(c); member != nil {
		p.SignedIn, p.Email = true, member.Email
		if panel.WidgetAfter == web.WidgetAfterPanel {
			code, err := m.svc.NewHandoff(c.Context(), member)
			if err != nil {
				return err
			}
			p.OpenURL = HandoffURL(code)
		}
		return m.kit.Render(c, status, views.Widget(p))
	}
	account := ""
	if kind == views.WidgetLogin {
		account = form.Values["email"]
	}
	if err := m.signInExtras(c, &p.Form, true, account); err != nil {
		return err
	}
	p.Island = views.WidgetIsland{API: "/ah/api/v2/user/login", Message: views.WidgetMessage{Type: msgSignedIn, Panel: panel.Key, Member: true},
		Done: widgetURL(kind, parent)}
	if kind == views.WidgetJoin {
		p.Island.API, p.Island.Message.Type = "/ah/api/v2/user/register", msgJoined
	}
	if parent != "" {
		p.Island.Target = m.kit.EmbedderOrigin(c, parent)
	}
	if panel.WidgetAfter == web.WidgetAfterPanel {
		p.Island.Handoff = handoffAPI
	}
	if p.Form.Captcha != nil {
		p.Island.Captcha = p.Form.Captcha.Field
	}
	web.UseIsland(c, "widget")
	return m.kit.Render(c, status, views.Widget(p))
}

// HandoffURL is where a hand-off code opens the panel signed in (/widgets/continue?code=).
func HandoffURL(code string) string {
	return web.WidgetContinuePath + "?" + url.Values{"code": {code}}.Encode()
}

// POST /widgets/login and /widgets/join: the forms without JavaScript. The member is then in,
// in this frame only, and the page says so; a member already in is simply shown that page.
func (m *Module) widgetSubmit(kind string) fiber.Handler {
	return func(c fiber.Ctx) error {
		m.kit.AllowEmbedding(c)
		parent := c.FormValue("parentFrameUrl")
		if web.MemberOf(c) != nil {
			return c.Redirect().Status(fiber.StatusSeeOther).To(widgetURL(kind, m.widgetParent(c, parent)))
		}
		panel, email := web.PanelOf(c), c.FormValue("email")
		form := views.FormProps{Values: map[string]string{"email": email}}
		var issued *Issued
		var err error
		if kind == views.WidgetLogin {
			cl := client(c)
			cl.ParentFrameURL = parent
			issued, err = m.svc.Login(c.Context(), panel, email, c.FormValue("password"), cl, m.loginGate(c, m.formCaptchaToken(c)))
		} else {
			form.Values["firstName"] = c.FormValue("firstName")
			issued, err = m.register(c, panel, RegisterInput{
				Email: email, Password: c.FormValue("password"), FirstName: c.FormValue("firstName"), ParentFrameURL: parent,
			}, m.formCaptchaToken(c))
		}
		if err != nil {
			if ferr := m.formFailure(c, err, &form); ferr != nil {
				return ferr
			}
			if msg := form.Errors["parentFrameUrl"]; msg != "" {
				form.FormError = msg // a hidden field: said above the form
			}
			return m.renderWidget(c, c.Response().StatusCode(), kind, m.widgetParent(c, parent), form)
		}
		m.setTokenCookie(c, issued.Token)
		return c.Redirect().Status(fiber.StatusSeeOther).To(widgetURL(kind, parent))
	}
}

// POST /widgets/logout: the member signed in inside the frame signs out of it.
func (m *Module) widgetLogout(c fiber.Ctx) error {
	m.kit.AllowEmbedding(c)
	if member := web.MemberOf(c); member != nil {
		if err := m.svc.Logout(c.Context(), member); err != nil {
			return err
		}
		web.SetMember(c, nil)
	}
	m.kit.ClearCookie(c, TokenCookie)
	return c.Redirect().Status(fiber.StatusSeeOther).To(widgetURL(widgetKind(c.FormValue("kind")), m.widgetParent(c, c.FormValue("parentFrameUrl"))))
}

// GET /widgets/continue?code=: the top-level hand-off. The frame's session cookie is
// partitioned to the framing site and never comes here, so the code a widget minted starts a
// session of the panel's own (first-party; web.IsEmbed leaves this path out), ending the one
// this browser had, and the member lands on the feed. Never framed. A browser already signed in
// here keeps its session when the hand-off comes from another site (the code is left unspent):
// a link anywhere must not sign a member in as someone else (login CSRF).
func (m *Module) widgetContinue(c fiber.Ctx) error {
	if web.MemberOf(c) != nil && web.FromAnotherSite(c) {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
	}
	issued, err := m.svc.SpendHandoff(c.Context(), web.PanelOf(c), c.Query("code"), client(c))
	if err != nil {
		return err
	}
	if before := web.MemberOf(c); before != nil {
		if err := m.svc.Logout(c.Context(), before); err != nil {
			return err
		}
	}
	m.setTokenCookie(c, issued.Token)
	web.SetMember(c, issued.Member)
	return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
}

// POST /ah/api/v1/widgets/handoff: a hand-off code for the member signed in inside a widget's
// frame, as the address that spends it, which the widget's script opens in the top window.
func (m *Module) apiWidgetHandoff(c fiber.Ctx) error {
	code, err := m.svc.NewHandoff(c.Context(), web.MemberOf(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"url": c.BaseURL() + HandoffURL(code)})
}
