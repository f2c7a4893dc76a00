package accounts

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/accounts"
	"github.com/gofiber/fiber/v3"
)

func (m *Module) settingsProps(c fiber.Ctx) (views.SettingsProps, error) {
	profile, err := m.svc.Profile(c.Context(), web.PanelOf(c), web.MemberOf(c), c.BaseURL())
	if err != nil {
		return views.SettingsProps{}, err
	}
	props := views.SettingsProps{
		Email: profile.Email,
		Profile: views.FormProps{Values: map[string]string{
			"firstName": profile.FirstName, "lastName": profile.LastName, "username": profile.Username, "languageCode": profile.LanguageCode,
		}},
	}
	for _, l := range web.PanelOf(c).Languages {
		props.Languages = append(props.Languages, views.Option{Value: l.Code, Label: l.Name})
	}
	props.HasPassword = profile.HasPassword
	if props.Connections, err = m.connectionsOf(c, profile.OAuthConnections, profile.HasPassword); err != nil {
		return views.SettingsProps{}, err
	}
	return props, nil
}

// connectionsOf lists the panel's providers with the member's connections; a connection may
// be removed unless it is the member's only way to sign in.
func (m *Module) connectionsOf(c fiber.Ctx, connected []string, hasPassword bool) ([]views.Connection, error) {
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

// POST /settings/password/mail: a member who joined through a provider sets a password
// through the reset mail, which proves they hold the email.
func (m *Module) settingsPasswordMail(c fiber.Ctx) error {
	member := web.MemberOf(c)
	err := m.svc.ForgotPassword(c.Context(), web.PanelOf(c), member.Email, web.LocaleOf(c), m.link(c, "", "/reset-password"), client(c))
	if err != nil {
		var e *web.Error
		if !errors.As(err, &e) || e.Status >= 500 {
			return err
		}
		m.kit.FlashNext(c, "error", e.ID)
	} else {
		m.kit.FlashNext(c, "success", "flash.password_mail_sent")
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
}

func (m *Module) settingsPage(c fiber.Ctx) error {
	props, err := m.settingsProps(c)
	if err != nil {
		return err
	}
	return m.kit.Render(c, fiber.StatusOK, views.Settings(props))
}

// settingsSave saves the profile form through the same rules as POST user/profile.
func (m *Module) settingsSave(c fiber.Ctx) error {
	fields := map[string]string{}
	for _, name := range []string{"firstName", "lastName", "username", "languageCode"} {
		fields[name] = c.FormValue(name)
	}
	body, _ := json.Marshal(fields)
	err := m.svc.SaveProfile(c.Context(), web.PanelOf(c), web.MemberOf(c), body)
	switch {
	case err == nil:
		if code := fields["languageCode"]; code != web.MemberOf(c).LanguageCode {
			m.kit.SetCookie(c, &fiber.Cookie{Name: web.LangCookie, Value: code})
		}
		m.kit.FlashNext(c, "success", "flash.profile_saved")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	case errors.Is(err, ErrBlankUpdate):
		m.kit.FlashNext(c, "info", "flash.nothing_changed")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	}
	props, perr := m.settingsProps(c)
	if perr != nil {
		return perr
	}
	props.Profile.Values = fields
	if ferr := m.formFailure(c, err, &props.Profile); ferr != nil {
		return ferr
	}
	return m.kit.Render(c, c.Response().StatusCode(), views.Settings(props))
}

// settingsPassword changes the password from the settings page.
func (m *Module) settingsPassword(c fiber.Ctx) error {
	err := m.svc.ChangePassword(c.Context(), web.MemberOf(c), c.FormValue("oldPassword"), c.FormValue("newPassword"))
	if err == nil {
		m.kit.FlashNext(c, "success", "flash.password_changed")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	}
	props, perr := m.settingsProps(c)
	if perr != nil {
		return perr
	}
	if ferr := m.formFailure(c, err, &props.Password); ferr != nil {
		return ferr
	}
	return m.kit.Render(c, c.Response().StatusCode(), views.Settings(props))
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
