package mobile

import (
	"context"
	"strings"
	"time"

	"github.com/canvass/canvass/views"
)

// Gallery lists the mobile verification page's states for the development gallery: each step
// from no number to verified (a code sent, on its way, expired, its text failed), every
// refusal of the number and code forms and of asking for a new code, and verifying again.
func Gallery() []views.GalleryState {
	state := func(name string, props func(ctx context.Context, f views.Fixture) PageProps) views.GalleryState {
		return views.GalleryView(name, "/settings/mobile", views.GalleryMember, Page, props)
	}
	flashed := func(name, kind, id string, props func(ctx context.Context, f views.Fixture) PageProps) views.GalleryState {
		s := state(name, props)
		s.Page = func(p *views.Page) {
			p.Flash = append(p.Flash, views.Flash{Type: kind, Message: p.Translate(id, nil, nil)})
		}
		return s
	}
	// numberRefused is the page with the number form sent back (no number on file yet).
	numberRefused := func(name, country, phone string, errs func(ctx context.Context) (map[string]string, string)) views.GalleryState {
		return state(name, func(ctx context.Context, f views.Fixture) PageProps {
			form := Form{Values: map[string]string{"country": country, "phone": phone}}
			form.Errors, form.FormError = errs(ctx)
			return galleryPage(ctx, f, galleryStatus{status: "not-verified", eligibility: "not-verified"}, form, Form{})
		})
	}
	// codeRefused is the page with the code form sent back.
	codeRefused := func(name string, live bool, errs func(ctx context.Context) (map[string]string, string)) views.GalleryState {
		return state(name, func(ctx context.Context, f views.Fixture) PageProps {
			var form Form
			form.Errors, form.FormError = errs(ctx)
			return galleryPage(ctx, f, galleryStatus{number: true, status: "pending", eligibility: "not-verified-mobile", live: live}, Form{}, form)
		})
	}
	codeError := func(id string, data map[string]any) func(ctx context.Context) (map[string]string, string) {
		return func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"code": views.Tf(ctx, id, data)}, ""
		}
	}
	formError := func(id string) func(ctx context.Context) (map[string]string, string) {
		return func(ctx context.Context) (map[string]string, string) { return nil, views.T(ctx, id) }
	}
	pending := galleryStatus{number: true, status: "pending", eligibility: "not-verified-mobile", live: true}
	return []views.GalleryState{
		state("no-number", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{status: "not-verified", eligibility: "not-verified"}, Form{}, Form{})
		}),
		flashed("code-sent", "success", "flash.mobile_code_sent", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, pending, Form{}, Form{})
		}),
		state("code-on-its-way", func(ctx context.Context, f views.Fixture) PageProps {
			g := pending
			g.queued = true
			return galleryPage(ctx, f, g, Form{}, Form{})
		}),
		state("code-expired", func(ctx context.Context, f views.Fixture) PageProps {
			// The number is on file, its code is no longer live: the page offers a new one.
			g := pending
			g.live = false
			return galleryPage(ctx, f, g, Form{}, Form{})
		}),
		state("sms-failed", func(ctx context.Context, f views.Fixture) PageProps {
			g := pending
			g.live, g.smsFailed = false, true
			return galleryPage(ctx, f, g, Form{}, Form{})
		}),
		flashed("verified", "success", "flash.mobile_verified", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{number: true, status: "verified", eligibility: "yes", verified: true}, Form{}, Form{})
		}),
		state("verified-too-recently", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{number: true, status: "verified", eligibility: "verified-too-recently", verified: true, redeemFrom: true}, Form{}, Form{})
		}),
		state("reverify", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{number: true, status: "verified", eligibility: "reverify", verified: true}, Form{}, Form{})
		}),
		flashed("reverify-code-sent", "success", "flash.mobile_code_sent", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{number: true, status: "verified", eligibility: "reverify", verified: true, live: true}, Form{}, Form{})
		}),
		state("not-required", func(ctx context.Context, f views.Fixture) PageProps {
			// The panel does not ask for a verified number (eligibleToRedeem skip).
			return galleryPage(ctx, f, galleryStatus{status: "not-verified", eligibility: "skip"}, Form{}, Form{})
		}),
		numberRefused("error-phone-required", "US", "", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"phone": views.T(ctx, "error.mobile_phone_required")}, ""
		}),
		numberRefused("error-phone-invalid", "GB", "0123 456", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"phone": views.T(ctx, "error.mobile_phone_invalid")}, ""
		}),
		numberRefused("error-phone-international", "", "0612345678", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"phone": views.T(ctx, "error.mobile_phone_international")}, ""
		}),
		numberRefused("error-country-invalid", "", "+999 1234 5678", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"country": views.T(ctx, "error.mobile_country_invalid")}, ""
		}),
		numberRefused("error-in-use", "US", "(415) 555-0123", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"phone": views.T(ctx, "error.mobile_in_use")}, ""
		}),
		numberRefused("error-undeliverable", "GB", "020 7946 0123", func(ctx context.Context) (map[string]string, string) {
			return map[string]string{"phone": views.T(ctx, "error.mobile_sms_undeliverable")}, ""
		}),
		numberRefused("error-sms-failed", "US", "(415) 555-0123", formError("error.mobile_sms_failed")),
		numberRefused("error-rate-phone", "US", "(415) 555-0123", formError("error.mobile_rate_phone")),
		numberRefused("error-rate-phone-day", "US", "(415) 555-0123", formError("error.mobile_rate_phone_day")),
		numberRefused("error-rate-member", "US", "(415) 555-0123", formError("error.mobile_rate_member")),
		codeRefused("error-code-format", true, codeError("error.mobile_code_format", nil)),
		codeRefused("error-code-wrong", true, codeError("error.mobile_code_wrong", map[string]any{"Left": 2})),
		codeRefused("error-code-attempts", true, codeError("error.mobile_code_attempts", nil)),
		codeRefused("error-code-expired", true, codeError("error.mobile_code_expired", nil)),
		codeRefused("error-code-used", true, codeError("error.mobile_code_used", nil)),
		codeRefused("error-code-not-requested", true, codeError("error.mobile_code_not_requested", nil)),
		// Asking for a new code: the resend button has no field, its refusal goes above the code form.
		codeRefused("error-resend-rate-limited", true, formError("error.mobile_rate_phone")),
		codeRefused("error-resend-sms-failed", false, formError("error.mobile_sms_failed")),
		state("error-reverify-not-needed", func(ctx context.Context, f views.Fixture) PageProps {
			return galleryPage(ctx, f, galleryStatus{number: true, status: "verified", eligibility: "reverify", verified: true},
				Form{}, Form{FormError: views.T(ctx, "error.mobile_reverify_not_needed")})
		}),
	}
}

// galleryStatus is the member's verification as the mobile module reads it.
type galleryStatus struct {
	number               bool // a number on file
	status, eligibility  string
	live, queued         bool // a code can be entered; its text is on its way
	smsFailed            bool
	verified, redeemFrom bool // verified (a date), and redeeming waits
}

// galleryPage builds the page as the mobile module does from the status and the forms sent back.
func galleryPage(ctx context.Context, f views.Fixture, g galleryStatus, numberForm, codeForm Form) PageProps {
	country, number := "US", "+14155550123"
	if strings.ToUpper(f.Currency) == "GBP" {
		country, number = "GB", "+447700900123"
	}
	p := PageProps{
		Status: g.status, Eligibility: g.eligibility,
		CodeCard: g.status == "pending" || g.eligibility == "reverify", CodeLive: g.live, CodeQueued: g.queued, SMSFailed: g.smsFailed,
		ResendAction: "/settings/mobile/resend", NumberForm: numberForm, CodeForm: codeForm,
	}
	if g.number {
		p.Number = number
	}
	if g.eligibility == "reverify" {
		p.ResendAction = "/settings/mobile/reverify"
	}
	if g.verified {
		p.VerifiedOn = f.Date(f.Now.AddDate(0, 0, -2), false)
		if g.eligibility == "reverify" {
			p.VerifiedOn = f.Date(f.Now.AddDate(-1, 0, -12), false)
		}
	}
	if g.redeemFrom {
		p.RedeemFrom = f.Date(f.Now.Add(5*24*time.Hour+3*time.Hour), true)
	}
	selected, ok := numberForm.Values["country"]
	if !ok {
		selected = country
	}
	for _, code := range []string{"US", "CA", "GB", ""} {
		id := "mobile.country_other"
		if code != "" {
			id = "mobile.country_" + code
		}
		p.Countries = append(p.Countries, Option{Value: code, Label: views.T(ctx, id), Selected: code == selected})
	}
	return p
}
