package accounts

import (
	"cmp"
	"context"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// UserProfile is the spec's user profile, which a login and a sign-up answer with; the profile
// module builds it (Profiles) and answers it on its own calls.
type UserProfile struct {
	PPToken                 string            `json:"ppToken,omitempty"`
	PPUUID                  string            `json:"ppUuid"`
	GUID                    string            `json:"guid"`
	InstanceURL             string            `json:"instanceUrl"`
	InstanceCode            string            `json:"instanceCode"`
	InstanceKey             string            `json:"instanceKey"`
	PanelKey                string            `json:"panelKey"`
	LanguageCode            string            `json:"languageCode"`
	AcceptedTermsConditions bool              `json:"acceptedTermsConditions"`
	EmailValidated          bool              `json:"emailValidated"`
	PlatformName            string            `json:"platformName"`
	AhAPIHost               string            `json:"ahApiHost,omitempty"`
	IsEligibleToRefer       bool              `json:"isEligibleToRefer"`
	Metadata                Metadata          `json:"metadata"`
	ProfilePics             []ProfilePic      `json:"profilePics"`
	TrackingIDs             map[string]string `json:"trackingIds"`
	OAuthConnections        []string          `json:"oauthConnections"`
	Email                   string            `json:"email"`
	Username                string            `json:"username"`
	FirstName               string            `json:"firstName"`
	LastName                string            `json:"lastName"`
	// HasPassword: the member can sign in with a password (the settings page; not in the API).
	HasPassword bool `json:"-"`
}

type ProfilePic struct {
	Key string `json:"key"`
	URL string `json:"url"`
}

// Profiles builds the signed-in member's profile (the profile module, wired in app/server.go);
// origin is the instance URL (same origin).
type Profiles interface {
	Profile(ctx context.Context, panel *web.Panel, m *web.Member, origin string) (*UserProfile, error)
}

// SetProfiles plugs in the profile a login or a sign-up answers with; call it while wiring the app.
func (m *Module) SetProfiles(p Profiles) { m.profiles = p }

// sessionResponse is what login and register answer: the pp-token and the profile.
func (m *Module) sessionResponse(c fiber.Ctx, status int, issued *Issued) error {
	m.setTokenCookie(c, issued.Token)
	web.SetMember(c, issued.Member)
	var profile *UserProfile
	if m.profiles != nil {
		var err error
		if profile, err = m.profiles.Profile(c.Context(), web.PanelOf(c), issued.Member, c.BaseURL()); err != nil {
			return err
		}
	}
	c.Set(fiber.HeaderCacheControl, "no-store") // it carries the session's token
	return c.Status(status).JSON(fiber.Map{"ppToken": issued.Token, "profile": profile})
}

// POST /ah/api/v2/user/register
func (m *Module) apiRegister(c fiber.Ctx) error {
	var in RegisterInput
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if web.MemberOf(c) != nil {
		return web.Fail(fiber.StatusConflict, "error.already_signed_in", nil)
	}
	issued, err := m.register(c, web.PanelOf(c), in, in.CaptchaToken)
	if err != nil {
		return err
	}
	return m.sessionResponse(c, fiber.StatusCreated, issued)
}

// POST /ah/api/v2/user/login
func (m *Module) apiLogin(c fiber.Ctx) error {
	var in struct {
		Email          string `json:"email"`
		Password       string `json:"password"`
		ParentFrameURL string `json:"parentFrameUrl"`
		CaptchaToken   string `json:"captchaToken"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	cl := client(c)
	cl.ParentFrameURL = in.ParentFrameURL
	issued, err := m.svc.Login(c.Context(), web.PanelOf(c), in.Email, in.Password, cl, m.loginGate(c, in.CaptchaToken))
	if err != nil {
		return err
	}
	return m.sessionResponse(c, fiber.StatusOK, issued)
}

// POST /ah/api/v1/user/reset-password {token, password}
func (m *Module) apiResetPassword(c fiber.Ctx) error {
	var in struct {
		Token       string `json:"token"`
		Password    string `json:"password"`
		NewPassword string `json:"newPassword"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if _, err := m.svc.ResetPassword(c.Context(), web.PanelOf(c), in.Token, cmp.Or(in.Password, in.NewPassword)); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true})
}

// POST /ah/api/v2/user/forgot-password {email, srcHost, srcPath}: the link goes to srcHost
// (one of the panel's own hosts) and srcPath (a reset page); the answer never tells whether
// the email exists.
func (m *Module) apiForgotPassword(c fiber.Ctx) error {
	var in struct {
		Email        string `json:"email"`
		SrcHost      string `json:"srcHost"`
		SrcPath      string `json:"srcPath"`
		CaptchaToken string `json:"captchaToken"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if err := m.checkCaptcha(c, in.CaptchaToken); err != nil {
		return err
	}
	panel := web.PanelOf(c)
	host := ""
	if in.SrcHost != "" {
		h := strings.ToLower(strings.TrimSpace(in.SrcHost))
		name := h
		if i := strings.LastIndex(h, ":"); i > 0 && !strings.Contains(h[i:], "]") {
			name = h[:i]
		}
		ok := false
		for _, allowed := range panel.Hosts {
			ok = ok || allowed == name
		}
		if !ok {
			return web.Invalid("srcHost", "error.src_host", nil)
		}
		host = h
	}
	path := "/reset-password"
	if in.SrcPath != "" {
		if !strings.HasPrefix(in.SrcPath, "/") || strings.HasPrefix(in.SrcPath, "//") || strings.ContainsAny(in.SrcPath, "?#\\ \r\n") || len(in.SrcPath) > 200 {
			return web.Invalid("srcPath", "error.src_path", nil)
		}
		path = in.SrcPath
	}
	if err := m.svc.ForgotPassword(c.Context(), panel, in.Email, web.LocaleOf(c), m.link(c, host, path), client(c)); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true})
}

// GET /ah/api/v1/user/logout. A session named by its cookie alone ends only with the XSRF
// header, as any other change does: a GET from another site carries the cookie (SameSite=Lax)
// but cannot read the token.
func (m *Module) apiLogout(c fiber.Ctx) error {
	if member := web.MemberOf(c); member != nil {
		byCookie := c.Get("pp-token") == "" && c.Query("pp-token") == "" && c.Query("token") == ""
		if byCookie && !web.CSRFMatches(c, c.Get(web.CSRFHeader)) {
			return web.Fail(fiber.StatusForbidden, "error.csrf", nil)
		}
		if err := m.svc.Logout(c.Context(), member); err != nil {
			return err
		}
	}
	m.kit.ClearCookie(c, TokenCookie)
	redirect := ""
	if p := web.PanelOf(c); p != nil {
		redirect = p.LogoutPageURL
	}
	return c.JSON(fiber.Map{"success": true, "redirect": redirect})
}

// POST change-password {oldPassword, newPassword}
func (m *Module) apiChangePassword(c fiber.Ctx) error {
	var in struct {
		OldPassword string `json:"oldPassword"`
		NewPassword string `json:"newPassword"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if err := m.svc.ChangePassword(c.Context(), web.MemberOf(c), in.OldPassword, in.NewPassword); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true})
}

// GET /ah/api/v1/user/{id}/recaptcha-required: whether the next login of this account (by
// email) from this IP must carry a captcha token, and which site key the widget uses.
func (m *Module) apiRecaptchaRequired(c fiber.Ctx) error {
	cfg, err := m.captchaFor(c, c.Params("id"))
	if err != nil {
		return err
	}
	if cfg == nil {
		return c.JSON(fiber.Map{"required": false})
	}
	return c.JSON(fiber.Map{"required": true, "provider": cfg.Kind, "siteKey": cfg.SiteKey})
}

// GET /ah/api/v1/request-validation-email (optional mode)
func (m *Module) apiRequestValidationEmail(c fiber.Ctx) error {
	if err := m.svc.RequestValidationEmail(c.Context(), web.PanelOf(c), web.MemberOf(c), web.LocaleOf(c), m.link(c, "", "/validate-email/confirm")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true})
}
