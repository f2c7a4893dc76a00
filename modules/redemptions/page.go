package redemptions

import (
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/redemptions"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

const pagePath = "/redemptions"

// MobilePath is the mobile verification page (modules/mobile), where a member who may not
// redeem yet is sent.
const MobilePath = "/settings/mobile"

// forms carries what a failed submission gives back to the page.
type forms struct {
	redeem view.RedeemForm
	paypal *view.PayPalForm
	bank   *view.BankForm
}

// props builds the page for the member; f holds the forms of a failed submission.
func (m *Module) props(c fiber.Ctx, f forms) (view.PageProps, error) {
	ctx, panel, pid := c.Context(), web.PanelOf(c), participant(c)
	lang := web.LocaleOf(c)
	money := func(minor int64) string { return web.FormatMoney(minor, panel.CurrencyCode, lang) }
	settings, err := m.Settings(ctx, panel, pid)
	if err != nil {
		return view.PageProps{}, err
	}
	value, err := m.eligible(ctx, panel, pid)
	if err != nil {
		return view.PageProps{}, fmt.Errorf("eligibility of %s: %w", pid, err)
	}
	b, err := m.ledger.Balance(ctx, panel, pid)
	if err != nil {
		return view.PageProps{}, err
	}
	p := view.PageProps{Balance: money(b.Minor), Eligible: CanRedeem(value), Eligibility: value, Redeem: f.redeem}
	if !p.Eligible {
		p.EligibilityNote = m.kit.T(c, eligibilityMessage(value), nil)
		if value != "verified-too-recently" {
			p.VerifyHref = MobilePath
		}
	}
	if p.Redeem.Key == "" {
		p.Redeem.Key = uuid.NewString()
	}
	kinds := map[Kind]bool{}
	for _, s := range settings {
		kinds[s.Kind] = true
		o := view.Option{
			ID: s.ID, Name: s.Names.In(lang, panel.DefaultLanguage), Description: s.Descriptions.In(lang, panel.DefaultLanguage),
			Minimum: money(s.MinimumMinor),
		}
		if s.FeeMinor > 0 {
			o.Fee = money(s.FeeMinor)
		}
		o.ReasonCode = reason(value, s.Needs, b.Minor, s.MinimumMinor)
		o.Available = o.ReasonCode == ReasonNone
		if !o.Available {
			o.Reason = m.kit.T(c, "redemptions.reason_"+o.ReasonCode, map[string]any{"Minimum": o.Minimum})
		}
		p.Options = append(p.Options, o)
	}
	if kinds[KindPayPal] {
		if p.PayPal, err = m.paypalForm(c, f.paypal); err != nil {
			return view.PageProps{}, err
		}
	}
	if kinds[KindBank] && BankOffered(panel.CurrencyCode) {
		if p.Bank, err = m.bankForm(c, f.bank); err != nil {
			return view.PageProps{}, err
		}
	}
	history, err := m.MemberRedemptions(ctx, pid, historyLimit)
	if err != nil {
		return view.PageProps{}, err
	}
	names := map[string]string{}
	for _, s := range settings {
		names[s.ID] = s.Names.In(lang, panel.DefaultLanguage)
	}
	for _, r := range history {
		name := names[r.OptionID]
		if name == "" {
			// A disabled option still names its redemptions.
			if o, err := m.store.option(m.store.db.WithContext(ctx), panel.ID, r.OptionID); err == nil && o != nil {
				name = o.Names.In(lang, panel.DefaultLanguage)
				names[r.OptionID] = name
			} else {
				name = r.OptionID
			}
		}
		at := r.CreatedAt.UTC()
		row := view.Row{
			ID: r.ID, Name: name, Amount: web.FormatMoney(r.AmountMinor, r.CurrencyCode, lang), Net: web.FormatMoney(r.NetMinor, r.CurrencyCode, lang),
			Status: string(r.Status), StatusLabel: m.kit.T(c, "redemptions.status_"+string(r.Status), nil),
			Destination: r.MaskedDestination().Summary(), DateTime: at.Format(time.RFC3339), Date: m.date(c, at),
		}
		if r.FeeMinor > 0 {
			row.Fee = web.FormatMoney(r.FeeMinor, r.CurrencyCode, lang)
		}
		p.History = append(p.History, row)
	}
	return p, nil
}

func (m *Module) date(c fiber.Ctx, at time.Time) string {
	return m.kit.T(c, "redemptions.date", map[string]any{"Day": at.Day(), "Month": m.kit.T(c, fmt.Sprintf("month_short.%d", int(at.Month())), nil), "Year": at.Year()})
}

func (m *Module) paypalForm(c fiber.Ctx, failed *view.PayPalForm) (*view.PayPalForm, error) {
	f := &view.PayPalForm{}
	if failed != nil {
		f = failed
	}
	d, err := m.Details(c.Context(), web.PanelOf(c), participant(c), KindPayPal)
	if err != nil {
		return nil, err
	}
	if d != nil {
		f.Current = MaskEmail(d.PayPalEmail)
	}
	return f, nil
}

// bankLabels are the message ids of the bank form's fields.
var bankLabels = map[string]string{
	"accountHolder": "redemptions.account_holder", "iban": "redemptions.iban", "bic": "redemptions.bic",
	"sortCode": "redemptions.sort_code", "accountNumber": "redemptions.account_number",
	"routingNumber": "redemptions.routing_number", "accountType": "redemptions.account_type",
}

func (m *Module) bankForm(c fiber.Ctx, failed *view.BankForm) (*view.BankForm, error) {
	panel := web.PanelOf(c)
	f := &view.BankForm{Currency: panel.CurrencyCode}
	if failed != nil {
		f = failed
	}
	if len(f.Fields) == 0 {
		f.Fields = m.bankFields(c, nil, nil)
	}
	d, err := m.Details(c.Context(), panel, participant(c), KindBank)
	if err != nil {
		return nil, err
	}
	if d != nil {
		masked := d.Masked()
		values := map[string]string{
			"accountHolder": masked.AccountHolder, "iban": masked.IBAN, "bic": masked.BIC, "sortCode": masked.SortCode,
			"accountNumber": masked.AccountNumber, "routingNumber": masked.RoutingNumber,
		}
		if masked.AccountType != "" {
			values["accountType"] = m.kit.T(c, "redemptions.account_type_"+masked.AccountType, nil)
		}
		for _, name := range BankFields[panel.CurrencyCode] {
			if values[name] != "" {
				f.Current = append(f.Current, view.Pair{Label: m.kit.T(c, bankLabels[name], nil), Value: values[name]})
			}
		}
	}
	return f, nil
}

// bankFields are the form's fields for the panel's currency, with what was sent and its errors.
func (m *Module) bankFields(c fiber.Ctx, values, errs map[string]string) []view.BankField {
	var out []view.BankField
	for _, name := range BankFields[web.PanelOf(c).CurrencyCode] {
		f := view.BankField{Name: name, Label: m.kit.T(c, bankLabels[name], nil), Value: values[name], Error: errs[name]}
		switch name {
		case "accountHolder":
			f.Autocomplete = "name"
		case "sortCode":
			f.Hint = m.kit.T(c, "redemptions.sort_code_hint", nil)
		case "routingNumber":
			f.Hint = m.kit.T(c, "redemptions.routing_number_hint", nil)
		case "accountType":
			for _, t := range AccountTypes {
				f.Choices = append(f.Choices, view.Pair{Value: t, Label: m.kit.T(c, "redemptions.account_type_"+t, nil)})
			}
		}
		out = append(out, f)
	}
	return out
}

// GET /redemptions
func (m *Module) page(c fiber.Ctx) error {
	p, err := m.props(c, forms{})
	if err != nil {
		return err
	}
	return m.kit.Render(c, fiber.StatusOK, view.Page(p))
}

// POST /redemptions (and /redemptions/redeem) (redemptionId, amount, idempotencyKey): the form's key makes a
// double submit, a reload or the back button redeem once; each of them lands on the page.
func (m *Module) pageRedeem(c fiber.Ctx) error {
	member := web.MemberOf(c)
	form := view.RedeemForm{Key: c.FormValue("idempotencyKey"), Selected: c.FormValue("redemptionId"), Amount: c.FormValue("amount")}
	_, _, err := m.Redeem(c.Context(), RedeemInput{
		Panel: web.PanelOf(c), ParticipantID: member.ParticipantID, Email: member.Email,
		OptionID: form.Selected, Amount: form.Amount, Key: form.Key,
	})
	if err == nil {
		return m.done(c, "flash.redeemed")
	}
	e, ferr := m.formError(c, err)
	if ferr != nil {
		return ferr
	}
	form.Errors = e.FieldErrors(m.kit.Tr(c))
	// Errors the form has no field for (eligibility, balance, payout details, the key) go
	// above it.
	for _, field := range []string{IdempotencyHeader, "paypal-data", "bank-data"} {
		delete(form.Errors, field)
	}
	if len(form.Errors) == 0 {
		form.FormError = e.ToAPI(m.kit.Tr(c)).Message
	}
	var reused bool
	for _, d := range e.Details {
		reused = reused || d.Code == "idempotency_key_reused" || d.Code == "idempotency_key_required" || d.Code == "idempotency_key_invalid"
	}
	if reused {
		// This form's key is spent on another request (or was never valid): a fresh one lets
		// the member send it again.
		form.Key = ""
	}
	return m.rerender(c, forms{redeem: form})
}

// POST /redemptions/paypal-data (paypalEmail)
func (m *Module) pagePayPal(c fiber.Ctx) error {
	f := &view.PayPalForm{Value: c.FormValue("paypalEmail")}
	_, err := m.SavePayPal(c.Context(), web.PanelOf(c), participant(c), f.Value)
	if err == nil {
		return m.done(c, "flash.paypal_saved")
	}
	e, ferr := m.formError(c, err)
	if ferr != nil {
		return ferr
	}
	f.Errors = e.FieldErrors(m.kit.Tr(c))
	if len(f.Errors) == 0 {
		f.FormError = e.ToAPI(m.kit.Tr(c)).Message
	}
	return m.rerender(c, forms{paypal: f})
}

// POST /redemptions/bank-data (the fields of the panel's currency)
func (m *Module) pageBank(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	in := BankInput{
		AccountHolder: c.FormValue("accountHolder"), IBAN: c.FormValue("iban"), BIC: c.FormValue("bic"), SortCode: c.FormValue("sortCode"),
		AccountNumber: c.FormValue("accountNumber"), RoutingNumber: c.FormValue("routingNumber"), AccountType: c.FormValue("accountType"),
	}
	_, err := m.SaveBank(c.Context(), panel, participant(c), in)
	if err == nil {
		return m.done(c, "flash.bank_saved")
	}
	e, ferr := m.formError(c, err)
	if ferr != nil {
		return ferr
	}
	values := map[string]string{
		"accountHolder": in.AccountHolder, "iban": in.IBAN, "bic": in.BIC, "sortCode": in.SortCode,
		"accountNumber": in.AccountNumber, "routingNumber": in.RoutingNumber, "accountType": in.AccountType,
	}
	errs := e.FieldErrors(m.kit.Tr(c))
	f := &view.BankForm{Currency: panel.CurrencyCode, Fields: m.bankFields(c, values, errs)}
	if len(errs) == 0 {
		f.FormError = e.ToAPI(m.kit.Tr(c)).Message
	}
	return m.rerender(c, forms{bank: f})
}

// formError takes a submission's refusal for the page; anything else (a server failure) goes
// to the error handler.
func (m *Module) formError(c fiber.Ctx, err error) (*web.Error, error) {
	var e *web.Error
	if errors.As(err, &e) && e.Status < 500 {
		c.Status(e.Status)
		return e, nil
	}
	if errors.Is(err, web.ErrNotFound) {
		c.Status(fiber.StatusNotFound)
		return web.NotFound(), nil
	}
	return nil, err
}

func (m *Module) rerender(c fiber.Ctx, f forms) error {
	status := c.Response().StatusCode()
	p, err := m.props(c, f)
	if err != nil {
		return err
	}
	return m.kit.Render(c, status, view.Page(p))
}

// done goes back to the page with a toast (post, redirect, get: a reload sends nothing twice).
func (m *Module) done(c fiber.Ctx, flash string) error {
	m.kit.FlashNext(c, "success", flash)
	return c.Redirect().Status(fiber.StatusSeeOther).To(pagePath)
}
