package redemptions

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the redemptions page's states for the development gallery: the ways to redeem
// with what each still needs, every refusal the redeem form comes back with, the payout details
// forms with their errors and on file, and the member's redemptions from none to many.
func Gallery() []views.GalleryState {
	state := func(name string, props func(ctx context.Context, f views.Fixture) PageProps) views.GalleryState {
		return views.GalleryView(name, "/redemptions", views.GalleryMember, Page, props)
	}
	// refused is the page after a redeem form the module sent back: the amount asked, the way
	// chosen and the member's situation (details on file, eligibility, balance).
	refused := func(name string, g galleryMember, selected, amount string, errs func(ctx context.Context, f views.Fixture) (map[string]string, string)) views.GalleryState {
		return state(name, func(ctx context.Context, f views.Fixture) PageProps {
			p := galleryPage(ctx, f, g)
			p.Redeem.Selected, p.Redeem.Amount = selected, amount
			p.Redeem.Errors, p.Redeem.FormError = errs(ctx, f)
			return p
		})
	}
	ready := galleryMember{eligibility: "yes", balance: 4250, paypal: true, bank: true, history: 4}
	return []views.GalleryState{
		state("options", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, ready)
		}),
		state("options-need-details", func(ctx context.Context, f views.Fixture) PageProps {
			// Nothing on file yet: PayPal and bank ask for their details, the gift card is below
			// its minimum.
			return galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 1200, history: 0})
		}),
		state("no-options", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Balance: f.Money(1200), Eligible: true, Eligibility: "yes", Redeem: RedeemForm{Key: galleryKey}}
		}),
		state("not-eligible", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "not-verified", balance: 4250, history: 2})
		}),
		state("not-eligible-code-due", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "not-verified-mobile", balance: 4250, paypal: true, history: 2})
		}),
		state("verified-too-recently", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "verified-too-recently", balance: 4250, paypal: true, history: 2})
		}),
		state("reverify", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "reverify", balance: 4250, paypal: true, bank: true, history: 2})
		}),
		refused("error-not-eligible", galleryMember{eligibility: "not-verified", balance: 4250, history: 2}, galleryPayPalID, "20.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{}, views.T(ctx, "redemptions.eligibility_not_verified")
			}),
		refused("error-needs-paypal-data", galleryMember{eligibility: "yes", balance: 4250, bank: true, history: 2}, galleryPayPalID, "20.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{}, views.T(ctx, "error.redeem_needs_paypal_data")
			}),
		refused("error-needs-bank-data", galleryMember{eligibility: "yes", balance: 4250, paypal: true, history: 2}, galleryBankID, "25.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{}, views.T(ctx, "error.redeem_needs_bank_data")
			}),
		refused("error-below-minimum", ready, galleryVoucherID, "5.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"amount": views.Tf(ctx, "error.redeem_below_minimum", map[string]any{"Minimum": galleryMoneyString(galleryOptions[2].minimum), "Currency": f.Currency})}, ""
			}),
		refused("error-insufficient-balance", ready, galleryPayPalID, "100.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{}, views.T(ctx, "error.insufficient_funds")
			}),
		refused("error-amount-required", ready, galleryPayPalID, "",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"amount": views.T(ctx, "error.required")}, ""
			}),
		refused("error-amount-format", ready, galleryPayPalID, "twenty",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"amount": views.T(ctx, "error.amount_format")}, ""
			}),
		refused("error-amount-decimals", ready, galleryPayPalID, "20.005",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"amount": views.T(ctx, "error.amount_decimals")}, ""
			}),
		refused("error-amount-not-positive", ready, galleryPayPalID, "0",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"amount": views.T(ctx, "error.amount_positive")}, ""
			}),
		refused("error-option-unknown", ready, "", "20.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{"redemptionId": views.T(ctx, "error.redemption_option_unknown")}, ""
			}),
		refused("error-key-reused", ready, galleryPayPalID, "20.00",
			func(ctx context.Context, f views.Fixture) (map[string]string, string) {
				return map[string]string{}, views.T(ctx, "error.idempotency_key_reused")
			}),
		state("paypal-error-invalid", func(ctx context.Context, f views.Fixture) PageProps {
			g := ready
			g.paypalForm = &PayPalForm{Value: "alexandra.konstantinopoulou@example-company", Errors: map[string]string{"paypalEmail": views.T(ctx, "error.invalid_email")}}
			return galleryPage(ctx, f, g)
		}),
		state("paypal-error-required", func(ctx context.Context, f views.Fixture) PageProps {
			g := galleryMember{eligibility: "yes", balance: 4250, bank: true, history: 2}
			g.paypalForm = &PayPalForm{Errors: map[string]string{"paypalEmail": views.T(ctx, "error.required")}}
			return galleryPage(ctx, f, g)
		}),
		state("bank-errors", func(ctx context.Context, f views.Fixture) PageProps {
			g := galleryMember{eligibility: "yes", balance: 4250, paypal: true, history: 2, bankErrors: true}
			return galleryPage(ctx, f, g)
		}),
		state("bank-error-required", func(ctx context.Context, f views.Fixture) PageProps {
			g := galleryMember{eligibility: "yes", balance: 4250, paypal: true, history: 2, bankRequired: true}
			return galleryPage(ctx, f, g)
		}),
		state("bank-not-offered", func(ctx context.Context, f views.Fixture) PageProps {
			// A bank form sent for a currency without bank transfer: the refusal goes above it.
			p := galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 4250, paypal: true, history: 2})
			p.Bank.FormError = views.Tf(ctx, "error.bank_not_offered", map[string]any{"Currency": f.Currency})
			return p
		}),
		state("history-empty", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 4250, paypal: true, bank: true})
		}),
		state("history-full", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 4250, paypal: true, bank: true, history: 20})
		}),
		{
			Name: "redeemed", Path: "/redemptions", Who: views.GalleryMember,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "success", Message: p.Translate("flash.redeemed", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				p := galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 2250, paypal: true, bank: true, history: 3})
				// The new redemption is first in the history, pending.
				p.History = append([]Row{galleryRow(ctx, f, 99, galleryRedemption{option: 0, amount: 2000, status: "pending"}, 0)}, p.History...)
				return Page(p)
			},
		},
		{
			Name: "details-saved", Path: "/redemptions", Who: views.GalleryMember,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "success", Message: p.Translate("flash.paypal_saved", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return Page(galleryPage(ctx, f, galleryMember{eligibility: "yes", balance: 4250, paypal: true, history: 1}))
			},
		},
	}
}

// galleryKey is the redeem form's Idempotency-Key as the fixtures make it.
const galleryKey = "6f1c2d3e-4a5b-4c6d-8e7f-gallery00001"

const (
	galleryPayPalID  = "7b0e9a40-0000-4000-8000-000000000001"
	galleryBankID    = "7b0e9a40-0000-4000-8000-000000000002"
	galleryVoucherID = "7b0e9a40-0000-4000-8000-000000000003"
)

// galleryOptions are a panel's ways to redeem: PayPal, a bank transfer with a fee, and a
// gift card with a high minimum and a long name.
var galleryOptions = []struct {
	id, kind, name, desc string
	minimum, fee         int64
}{
	{galleryPayPalID, "paypal", "PayPal", "Paid to your PayPal account within three working days.", 1000, 0},
	{galleryBankID, "bank", "Bank transfer", "", 2000, 50},
	{galleryVoucherID, "voucher", "Amazon.co.uk gift card, delivered by email as a code you can use on your next order", "Emailed to the address of your account.", 5000, 0},
}

// galleryMember is what the page depends on: eligibility, balance, the details on file, the
// forms sent back, and how many redemptions the member has.
type galleryMember struct {
	eligibility  string
	balance      int64
	paypal, bank bool // details on file
	history      int
	paypalForm   *PayPalForm
	bankErrors   bool // the bank form came back with each field wrong
	bankRequired bool // the bank form came back empty
}

// galleryPage builds the page as the redemptions module does for the member.
func galleryPage(ctx context.Context, f views.Fixture, g galleryMember) PageProps {
	p := PageProps{Balance: f.Money(g.balance), Eligibility: g.eligibility, Eligible: g.eligibility == "yes" || g.eligibility == "skip", Redeem: RedeemForm{Key: galleryKey}}
	if !p.Eligible {
		id := "redemptions.eligibility_other"
		switch g.eligibility {
		case "not-verified", "not-verified-mobile", "verified-too-recently", "reverify":
			id = "redemptions.eligibility_" + strings.ReplaceAll(g.eligibility, "-", "_")
		}
		p.EligibilityNote = views.T(ctx, id)
		if g.eligibility != "verified-too-recently" {
			p.VerifyHref = "/settings/mobile"
		}
	}
	for _, o := range galleryOptions {
		opt := Option{ID: o.id, Name: o.name, Description: o.desc, Minimum: f.Money(o.minimum)}
		if o.fee > 0 {
			opt.Fee = f.Money(o.fee)
		}
		switch {
		case !p.Eligible:
			opt.ReasonCode = "not_eligible"
		case o.kind == "paypal" && !g.paypal:
			opt.ReasonCode = "needs_paypal_data"
		case o.kind == "bank" && !g.bank:
			opt.ReasonCode = "needs_bank_data"
		case g.balance < o.minimum:
			opt.ReasonCode = "below_minimum"
		}
		opt.Available = opt.ReasonCode == ""
		if !opt.Available {
			opt.Reason = views.Tf(ctx, "redemptions.reason_"+opt.ReasonCode, map[string]any{"Minimum": opt.Minimum})
		}
		p.Options = append(p.Options, opt)
	}
	p.PayPal = &PayPalForm{}
	if g.paypalForm != nil {
		p.PayPal = g.paypalForm
	}
	if g.paypal {
		p.PayPal.Current = "a***@example-company.co.uk"
	}
	p.Bank = galleryBankForm(ctx, f, g)
	for i := range g.history {
		p.History = append(p.History, galleryRow(ctx, f, i, galleryHistory[i%len(galleryHistory)], 2+9*i))
	}
	return p
}

// galleryBankFields are the bank form's fields by currency (redemptions.BankFields).
var galleryBankFields = map[string][]string{
	"EUR": {"accountHolder", "iban", "bic"},
	"GBP": {"accountHolder", "sortCode", "accountNumber"},
	"USD": {"accountHolder", "routingNumber", "accountNumber", "accountType"},
}

var galleryBankLabels = map[string]string{
	"accountHolder": "redemptions.account_holder", "iban": "redemptions.iban", "bic": "redemptions.bic",
	"sortCode": "redemptions.sort_code", "accountNumber": "redemptions.account_number",
	"routingNumber": "redemptions.routing_number", "accountType": "redemptions.account_type",
}

// galleryBankForm is the bank form for the panel's currency: empty, on file, or sent back.
func galleryBankForm(ctx context.Context, f views.Fixture, g galleryMember) *BankForm {
	names, ok := galleryBankFields[strings.ToUpper(f.Currency)]
	if !ok {
		return nil // bank transfer is not offered in this currency
	}
	values, errs := map[string]string{}, map[string]string{}
	switch {
	case g.bankErrors:
		values = map[string]string{
			"accountHolder": "Alexandra Konstantinopoulou-Papadimitriou 2", "iban": "DE89 3704 0044 0532 0130", "bic": "DEUTDE",
			"sortCode": "12-34-5", "accountNumber": "12-3", "routingNumber": "123456789", "accountType": "",
		}
		errs = map[string]string{
			"accountHolder": views.T(ctx, "error.account_holder"), "iban": views.T(ctx, "error.iban"), "bic": views.T(ctx, "error.bic"),
			"sortCode": views.T(ctx, "error.sort_code"), "routingNumber": views.T(ctx, "error.routing_number"), "accountType": views.T(ctx, "error.account_type"),
		}
		if strings.ToUpper(f.Currency) == "USD" {
			errs["accountNumber"] = views.T(ctx, "error.account_number_us")
		} else {
			errs["accountNumber"] = views.T(ctx, "error.account_number_gb")
		}
	case g.bankRequired:
		for _, name := range names {
			if name != "bic" {
				errs[name] = views.T(ctx, "error.required")
			}
		}
	}
	form := &BankForm{Currency: f.Currency}
	for _, name := range names {
		field := BankField{Name: name, Label: views.T(ctx, galleryBankLabels[name]), Value: values[name], Error: errs[name]}
		switch name {
		case "accountHolder":
			field.Autocomplete = "name"
		case "sortCode":
			field.Hint = views.T(ctx, "redemptions.sort_code_hint")
		case "routingNumber":
			field.Hint = views.T(ctx, "redemptions.routing_number_hint")
		case "accountType":
			for _, t := range []string{"checking", "savings"} {
				field.Choices = append(field.Choices, Pair{Value: t, Label: views.T(ctx, "redemptions.account_type_"+t)})
			}
		}
		form.Fields = append(form.Fields, field)
	}
	if g.bank {
		masked := map[string]string{
			"accountHolder": "Alexandra Konstantinopoulou", "iban": "DE** **** **** **** **30 00", "bic": "COBADEFFXXX",
			"sortCode": "**-**-56", "accountNumber": "****5678", "routingNumber": "*****0021", "accountType": views.T(ctx, "redemptions.account_type_checking"),
		}
		for _, name := range names {
			form.Current = append(form.Current, Pair{Label: views.T(ctx, galleryBankLabels[name]), Value: masked[name]})
		}
	}
	return form
}

// galleryRedemption is one of the member's redemptions.
type galleryRedemption struct {
	option int
	amount int64
	status string
}

// galleryHistory cycles through every status, every way and a large amount.
var galleryHistory = []galleryRedemption{
	{0, 2000, "pending"},
	{1, 5000, "approved"},
	{0, 1000, "paid"},
	{2, 5000, "rejected"},
	{1, 1234792, "paid"},
	{0, 2500, "paid"},
	{2, 7500, "paid"},
}

// galleryRow words one redemption as the module does, made daysAgo days before the fixtures'
// clock.
func galleryRow(ctx context.Context, f views.Fixture, id int, r galleryRedemption, daysAgo int) Row {
	o := galleryOptions[r.option]
	at := f.Now.AddDate(0, 0, -daysAgo).UTC()
	row := Row{
		ID: fmt.Sprintf("00000000-0000-4000-a000-%012d", id+1), Name: o.name, Amount: f.Money(r.amount), Net: f.Money(r.amount - o.fee),
		Status: r.status, StatusLabel: views.T(ctx, "redemptions.status_"+r.status), DateTime: at.Format(time.RFC3339),
		Date: views.Tf(ctx, "redemptions.date", map[string]any{"Day": at.Day(), "Month": views.T(ctx, fmt.Sprintf("month_short.%d", int(at.Month()))), "Year": at.Year()}),
	}
	if o.fee > 0 {
		row.Fee = f.Money(o.fee)
	}
	switch o.kind {
	case "paypal":
		row.Destination = "a***@example-company.co.uk"
	case "voucher":
		row.Destination = "m***@demo.test"
	default:
		if strings.ToUpper(f.Currency) == "GBP" {
			row.Destination = "**-**-56 ****5678"
		} else {
			row.Destination = "****5678"
		}
	}
	return row
}

// galleryMoneyString is an amount as the API writes it (20.00), for messages that quote it
// with its currency code.
func galleryMoneyString(minor int64) string {
	return fmt.Sprintf("%d.%02d", minor/100, minor%100)
}
