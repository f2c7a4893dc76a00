package mobile

import (
	"errors"

	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/mobile"
	"github.com/gofiber/fiber/v3"
)

const pagePath = "/settings/mobile"

// pageCountries are the countries whose national numbers the page reads (see phone.go);
// "" is any other country, typed with + and its country code.
var pageCountries = []string{"US", "CA", "GB", ""}

// props builds the page from the member's status; forms carry back what failed.
func (m *Module) props(c fiber.Ctx, numberForm, codeForm view.Form) (view.PageProps, error) {
	s, err := m.svc.Status(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID)
	if err != nil {
		return view.PageProps{}, err
	}
	p := view.PageProps{
		Number: s.MobileNumber, Status: s.VerificationStatus, Eligibility: s.Eligibility,
		CodeCard:     s.VerificationStatus == StatusPending || s.Eligibility == Reverify,
		CodeLive:     s.CodeExpiresAt != nil,
		CodeQueued:   s.CodeQueued,
		SMSFailed:    s.SMSFailed,
		ResendAction: pagePath + "/resend",
		NumberForm:   numberForm, CodeForm: codeForm,
	}
	if s.Eligibility == Reverify {
		p.ResendAction = pagePath + "/reverify"
	}
	if s.VerificationStatus == StatusVerified && s.VerifiedAt != nil {
		p.VerifiedOn = m.kit.Date(c, *s.VerifiedAt, false)
	}
	if s.RedeemFrom != nil {
		p.RedeemFrom = m.kit.Date(c, *s.RedeemFrom, true)
	}
	selected, ok := numberForm.Values["country"]
	if !ok {
		selected = s.Country
		if selected == "" || s.MobileNumber == "" {
			selected = s.DefaultCountry
		}
	}
	known := false
	for _, code := range pageCountries {
		known = known || code == selected
	}
	if !known {
		selected = ""
	}
	for _, code := range pageCountries {
		id := "mobile.country_other"
		if code != "" {
			id = "mobile.country_" + code
		}
		p.Countries = append(p.Countries, view.Option{Value: code, Label: m.kit.T(c, id, nil), Selected: code == selected})
	}
	return p, nil
}

// GET /settings/mobile
func (m *Module) page(c fiber.Ctx) error {
	p, err := m.props(c, view.Form{}, view.Form{})
	if err != nil {
		return err
	}
	return m.kit.Render(c, fiber.StatusOK, view.Page(p))
}

// POST /settings/mobile/number: puts the number on file and texts it a code.
func (m *Module) pageNumber(c fiber.Ctx) error {
	form := view.Form{Values: map[string]string{"phone": c.FormValue("phone"), "country": c.FormValue("country")}}
	_, err := m.svc.Send(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, web.LocaleOf(c), form.Values["phone"], form.Values["country"], "country")
	if err == nil {
		return m.done(c, "flash.mobile_code_sent")
	}
	if isAlreadyVerified(err) {
		return m.done(c, "flash.mobile_verified")
	}
	if ferr := m.failed(c, err, &form); ferr != nil {
		return ferr
	}
	return m.rerender(c, form, view.Form{})
}

// POST /settings/mobile/code: checks the code.
func (m *Module) pageCode(c fiber.Ctx) error {
	_, err := m.svc.Check(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, c.FormValue("phone"), c.FormValue("code"))
	if err == nil || isAlreadyVerified(err) {
		// user_already_verified is success for the spec's clients, and so it is here.
		return m.done(c, "flash.mobile_verified")
	}
	var form view.Form
	if ferr := m.failed(c, err, &form); ferr != nil {
		return ferr
	}
	return m.rerender(c, view.Form{}, form)
}

// POST /settings/mobile/resend: a new code to the number on file.
func (m *Module) pageResend(c fiber.Ctx) error {
	_, err := m.svc.Send(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, web.LocaleOf(c), "", "", "country")
	return m.sentOrFailed(c, err)
}

// POST /settings/mobile/reverify: a code to verify the number again.
func (m *Module) pageReverify(c fiber.Ctx) error {
	_, err := m.svc.Reverify(c.Context(), web.PanelOf(c), web.MemberOf(c).ParticipantID, web.LocaleOf(c))
	return m.sentOrFailed(c, err)
}

func (m *Module) sentOrFailed(c fiber.Ctx, err error) error {
	switch {
	case err == nil:
		return m.done(c, "flash.mobile_code_sent")
	case isAlreadyVerified(err):
		return m.done(c, "flash.mobile_verified")
	}
	var form view.Form
	if ferr := m.failed(c, err, &form); ferr != nil {
		return ferr
	}
	// The resend buttons have no fields: their message goes above the code form.
	for _, msg := range form.Errors {
		form.FormError = msg
	}
	form.Errors = nil
	return m.rerender(c, view.Form{}, form)
}

// done goes back to the page with a toast (post, redirect, get: a reload sends nothing twice).
func (m *Module) done(c fiber.Ctx, flash string) error {
	m.kit.FlashNext(c, "success", flash)
	return c.Redirect().Status(fiber.StatusSeeOther).To(pagePath)
}

// failed puts a refused form's messages on it and sets the status; other errors it returns.
// The SMS provider being down is shown on the form too: the member can try again there.
func (m *Module) failed(c fiber.Ctx, err error, form *view.Form) error {
	var e *web.Error
	if !errors.As(err, &e) || (e.Status >= 500 && e.Status != fiber.StatusServiceUnavailable) {
		return err
	}
	if e.Status >= 500 {
		m.kit.Log.Error("mobile: send code", "request_id", c.RequestID(), "err", err)
	}
	tr := m.kit.Tr(c)
	form.Errors = e.FieldErrors(tr)
	if len(form.Errors) == 0 {
		form.FormError = e.ToAPI(tr).Message
	}
	c.Status(e.Status)
	return nil
}

func (m *Module) rerender(c fiber.Ctx, numberForm, codeForm view.Form) error {
	p, err := m.props(c, numberForm, codeForm)
	if err != nil {
		return err
	}
	return m.kit.Render(c, c.Response().StatusCode(), view.Page(p))
}

func isAlreadyVerified(err error) bool {
	var e *web.Error
	if !errors.As(err, &e) {
		return false
	}
	for _, d := range e.Details {
		if d.Code == "user_already_verified" {
			return true
		}
	}
	return false
}
