package profile

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/web"
	views "github.com/canvass/canvass/views/profile"
	"github.com/gofiber/fiber/v3"
)

// The settings page's sections, each with its own form; a refused form comes back with its
// errors in its section (settingsFailed).
const (
	sectionProfile = iota
	sectionUsername
	sectionPassword
	sectionAddress
	sectionPictures
	sectionInstance
	sectionClose
	sectionAbout
	sectionLocation
)

func (m *Module) settingsProps(c fiber.Ctx) (views.SettingsProps, error) {
	ctx, panel, member := c.Context(), web.PanelOf(c), web.MemberOf(c)
	profile, err := m.svc.Profile(ctx, panel, member, c.BaseURL())
	if err != nil {
		return views.SettingsProps{}, err
	}
	props := views.SettingsProps{
		Email: profile.Email,
		Profile: views.FormProps{Values: map[string]string{
			"firstName": profile.FirstName, "lastName": profile.LastName, "languageCode": profile.LanguageCode,
		}},
		Username:        views.FormProps{Values: map[string]string{"username": profile.Username}},
		UsernameCurrent: profile.Username,
		MaxPictureMB:    MaxPictureBytes >> 20,
		MaxPictures:     maxPictures,
	}
	for _, l := range panel.Languages {
		props.Languages = append(props.Languages, views.Option{Value: l.Code, Label: l.Name})
	}
	props.HasPassword = profile.HasPassword
	if props.Connections, err = m.accounts.SettingsConnections(c, profile.OAuthConnections, profile.HasPassword); err != nil {
		return views.SettingsProps{}, err
	}
	addr, err := m.svc.PostalAddress(ctx, member.ParticipantID)
	if err != nil {
		return views.SettingsProps{}, err
	}
	props.Address.Values = map[string]string{}
	if addr != nil {
		props.Address.Values = AddressInput{Line1: addr.Line1, Line2: addr.Line2, City: addr.City, Region: addr.Region, Postcode: addr.Postcode, Country: addr.Country}.values()
	}
	props.HasPostcodes = m.svc.hasPostcodes(ctx, panel)
	props.About.Values = map[string]string{}
	for _, key := range []string{"dateOfBirth", "gender", "householdSize", "smartFuelCard"} {
		if v, ok := profile.Metadata[key]; ok && v != nil {
			props.About.Values[key] = fmt.Sprint(v)
		}
	}
	if loc, ok := profile.Metadata["location"].(map[string]any); ok {
		props.LocationLabel, _ = loc["label"].(string)
		if props.LocationLabel == "" {
			props.LocationLabel, _ = loc["postcode"].(string)
		}
	}
	for _, p := range profile.ProfilePics {
		props.Pictures = append(props.Pictures, views.PictureItem{Key: p.Key, URL: p.URL, Main: len(props.Pictures) == 0})
	}
	sub, err := m.svc.Subscriptions(ctx, member.ParticipantID)
	if err != nil {
		return views.SettingsProps{}, err
	}
	for _, k := range MailKinds {
		props.Subscriptions = append(props.Subscriptions, views.SubscriptionItem{Name: string(k), On: sub.receives(k)})
	}
	targets, balance, err := m.svc.InstanceTargets(ctx, panel, member.ParticipantID)
	if err != nil {
		return views.SettingsProps{}, err
	}
	for _, t := range targets {
		props.Targets = append(props.Targets, views.InstanceTarget{
			Key: t.Panel.Key, Name: t.Panel.Name, Currency: t.Panel.CurrencyCode, BalanceMoves: t.BalanceMoves, Allowed: t.Allowed,
		})
	}
	props.Balance = web.FormatMoney(balance, panel.CurrencyCode, web.LocaleOf(c))
	props.HasBalance = balance > 0
	return props, nil
}

// renderSettings shows the page; an htmx request (the address lookup) gets the same page, of
// which it swaps in its own section.
func (m *Module) renderSettings(c fiber.Ctx, status int, props views.SettingsProps) error {
	web.UseHTMX(c)
	return m.kit.Render(c, status, views.Settings(props))
}

// settingsFailed shows the page again with a refused form's values and errors in its section;
// an error that is not the member's to fix goes to the error handler.
func (m *Module) settingsFailed(c fiber.Ctx, err error, section int, values map[string]string) error {
	props, perr := m.settingsProps(c)
	if perr != nil {
		return perr
	}
	form := map[int]*views.FormProps{
		sectionProfile: &props.Profile, sectionUsername: &props.Username, sectionPassword: &props.Password,
		sectionAddress: &props.Address, sectionPictures: &props.PicturesForm, sectionInstance: &props.Instance, sectionClose: &props.Close,
		sectionAbout: &props.About, sectionLocation: &props.Location,
	}[section]
	if values != nil {
		form.Values = values
	}
	if ferr := m.formFailure(c, err, form); ferr != nil {
		return ferr
	}
	return m.renderSettings(c, c.Response().StatusCode(), props)
}

// POST /settings/password/mail: a member who joined through a provider sets a password
// through the reset mail, which proves they hold the email.
func (m *Module) settingsPasswordMail(c fiber.Ctx) error {
	if err := m.accounts.SendPasswordLink(c); err != nil {
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
	return m.renderSettings(c, fiber.StatusOK, props)
}

// settingsSave saves the profile form through the same rules as POST user/profile. The
// username has its own form (change-username).
func (m *Module) settingsSave(c fiber.Ctx) error {
	fields := map[string]string{}
	for _, name := range []string{"firstName", "lastName", "languageCode"} {
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
	return m.settingsFailed(c, err, sectionProfile, fields)
}

// settingsPassword changes the password from the settings page.
func (m *Module) settingsPassword(c fiber.Ctx) error {
	err := m.accounts.ChangePassword(c.Context(), web.MemberOf(c), c.FormValue("oldPassword"), c.FormValue("newPassword"))
	if err == nil {
		m.kit.FlashNext(c, "success", "flash.password_changed")
		return c.Redirect().Status(fiber.StatusSeeOther).To("/settings")
	}
	return m.settingsFailed(c, err, sectionPassword, map[string]string{})
}

// formFailure turns a service error into the form's inline errors, or returns it when it is
// not the member's to fix (the error handler then shows the error page).
func (m *Module) formFailure(c fiber.Ctx, err error, props *views.FormProps) error {
	var e *web.Error
	// A provider that did not answer (502) is shown on the form, kept filled in, so the member
	// can simply try again.
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

// link is where mailed links point: the configured base URL, else the panel's own origin.
func (m *Module) link(c fiber.Ctx) accounts.Link {
	if m.baseURL != "" {
		return accounts.Link{Origin: m.baseURL}
	}
	return accounts.Link{Origin: m.kit.PanelOrigin(c, web.PanelOf(c))}
}
