package moneyviews

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	consoleviews "github.com/canvass/canvass/views/console"
)

// Gallery lists the money part's states for the development gallery: the daily summary, the
// ledger (search, a member with many entries, an adjustment recorded and refused), the
// redemption queue and one redemption, held offer credits, and competitions with their draws
// (modules/console/money).
func Gallery() []views.GalleryState {
	state := func(name, path string, view func(ctx context.Context, f views.Fixture) templ.Component) views.GalleryState {
		return views.GalleryState{Name: name, Path: path, Who: views.GalleryConsole, Page: galleryConsolePage, View: view}
	}
	const base = "/console/panels/demo"
	redemption := base + "/redemptions/" + galleryID(0xa0, 1)
	competition := base + "/competitions/" + galleryID(0xc0, 1)
	return []views.GalleryState{
		// The daily summary.
		state("summary", base+"/summary", func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(gallerySummary(ctx, f, 14, "", ""))
		}),
		state("summary-empty", base+"/summary", func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(gallerySummary(ctx, f, 0, "", ""))
		}),
		state("summary-refused", base+"/summary", func(ctx context.Context, f views.Fixture) templ.Component {
			return Summary(gallerySummary(ctx, f, 3, views.Tf(ctx, "console.money.error.period", map[string]any{"Max": 366}), views.T(ctx, "console.money.error.date")))
		}),
		// The ledger.
		state("ledger", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			return Ledger(LedgerProps{Shell: galleryShell, Nav: galleryNav("ledger"), Currency: f.Currency})
		}),
		state("ledger-no-member", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			return Ledger(LedgerProps{Shell: galleryShell, Nav: galleryNav("ledger"), Currency: f.Currency,
				Query: "maximilian.vandersteen-oyelaran@research-partners.example.org", QueryError: views.T(ctx, "console.money.error.no_member")})
		}),
		state("ledger-many-rows", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			return Ledger(galleryLedger(ctx, f, 20))
		}),
		state("ledger-no-entries", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			return Ledger(galleryLedger(ctx, f, 0))
		}),
		state("ledger-recorded", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryLedger(ctx, f, 20)
			p.Notice = views.Tf(ctx, "console.money.ledger.recorded", map[string]any{"Amount": galleryMoney(f, 250), "Balance": galleryMoney(f, 1234567)})
			return Ledger(p)
		}),
		state("ledger-refused", base+"/ledger", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryLedger(ctx, f, 5)
			p.Amount, p.Reason = "-50000.00", ""
			p.Error = views.T(ctx, "console.money.error.insufficient")
			p.AmountError, p.ReasonError = p.Error, views.T(ctx, "console.money.error.reason")
			return Ledger(p)
		}),
		// Redemptions.
		state("queue-empty", base+"/redemptions", func(ctx context.Context, f views.Fixture) templ.Component {
			return Queue(galleryQueue(ctx, f, 0, false))
		}),
		state("queue-many-rows", base+"/redemptions", func(ctx context.Context, f views.Fixture) templ.Component {
			return Queue(galleryQueue(ctx, f, 25, true))
		}),
		state("queue-acted", base+"/redemptions", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryQueue(ctx, f, 8, false)
			approved, pending := views.T(ctx, "console.money.status.approved"), views.T(ctx, "console.money.status.pending")
			paid, rejected := views.T(ctx, "console.money.status.paid"), views.T(ctx, "console.money.status.rejected")
			p.Results = []ResultRow{
				{Outcome: "changed", Message: views.Tf(ctx, "console.money.outcome.changed", map[string]any{"Status": approved, "From": pending})},
				{Outcome: "changed", Message: views.Tf(ctx, "console.money.outcome.changed", map[string]any{"Status": rejected, "From": pending}) + " " +
					views.Tf(ctx, "console.money.outcome.refunded", map[string]any{"Amount": galleryMoney(f, 2500)})},
				{Outcome: "unchanged", Message: views.Tf(ctx, "console.money.outcome.unchanged", map[string]any{"Status": approved})},
				{Outcome: "refused", Message: views.Tf(ctx, "console.money.outcome.refused", map[string]any{"Status": paid, "Action": views.T(ctx, "console.money.action.approve")})},
				{Outcome: "not_found", Message: views.T(ctx, "console.money.outcome.not_found")},
			}
			for i := range p.Results {
				id := galleryID(0xa0, i+1)
				p.Results[i].ID, p.Results[i].Short, p.Results[i].Href = id, galleryShort(id), "/console/panels/demo/redemptions/"+id
			}
			p.Notice = views.Tf(ctx, "console.money.results.summary", map[string]any{"Changed": 2, "Unchanged": 1, "Refused": 2})
			return Queue(p)
		}),
		state("queue-refused", base+"/redemptions", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryQueue(ctx, f, 6, false)
			p.ReasonError = views.T(ctx, "console.money.error.reason_reject")
			p.Error = p.ReasonError
			return Queue(p)
		}),
		state("queue-bad-dates", base+"/redemptions", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryQueue(ctx, f, 3, false)
			p.From, p.To = "03/11/2026", "yesterday"
			p.FromError, p.ToError = views.T(ctx, "console.money.error.date"), views.T(ctx, "console.money.error.date")
			return Queue(p)
		}),
		state("redemption-pending", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			return Redemption(galleryRedemption(ctx, f, "pending", true))
		}),
		state("redemption-revealed", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryRedemption(ctx, f, "approved", true)
			dest := [][2]string{{"kind", "bank"}, {"account_holder", "Alexandra Konstantinopoulou-Whitfield"}, {"iban", "GB82 WEST 1234 5698 7654 32"},
				{"bic", "WESTGB2LXXX"}, {"sort_code", "12-34-56"}, {"account_number", "98765432"}, {"currency", f.Currency}}
			for _, d := range dest {
				p.Revealed = append(p.Revealed, Pair{Label: views.T(ctx, "console.money.dest."+d[0]), Value: d[1]})
			}
			return Redemption(p)
		}),
		state("redemption-paid", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryRedemption(ctx, f, "paid", false)
			p.Notice = views.Tf(ctx, "console.money.outcome.changed", map[string]any{"Status": views.T(ctx, "console.money.status.paid"), "From": views.T(ctx, "console.money.status.approved")})
			return Redemption(p)
		}),
		state("redemption-rejected", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			return Redemption(galleryRedemption(ctx, f, "rejected", true))
		}),
		state("redemption-reject-refused", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryRedemption(ctx, f, "pending", true)
			p.ReasonError = views.T(ctx, "console.money.error.reason_reject")
			p.Error = p.ReasonError
			return Redemption(p)
		}),
		state("redemption-conflict", redemption, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryRedemption(ctx, f, "paid", true)
			p.Error = views.Tf(ctx, "console.money.outcome.refused", map[string]any{"Status": views.T(ctx, "console.money.status.paid"), "Action": views.T(ctx, "console.money.action.reject")})
			return Redemption(p)
		}),
		// Offer credits held above the ceiling.
		state("holds-empty", base+"/offer-holds", func(ctx context.Context, f views.Fixture) templ.Component {
			return Holds(galleryHolds(ctx, f, "held", 0, true))
		}),
		state("holds-no-ceiling", base+"/offer-holds", func(ctx context.Context, f views.Fixture) templ.Component {
			return Holds(galleryHolds(ctx, f, "all", 4, false))
		}),
		state("holds-many-rows", base+"/offer-holds", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryHolds(ctx, f, "all", 18, true)
			p.Notice = views.T(ctx, "console.money.holds.done.approved")
			return Holds(p)
		}),
		state("holds-refused", base+"/offer-holds", func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryHolds(ctx, f, "held", 5, true)
			p.Error = views.T(ctx, "console.money.holds.error.reason")
			p.Rows[1].ReasonError = true
			return Holds(p)
		}),
		// Competitions and their draws.
		state("competitions-empty", base+"/competitions", func(ctx context.Context, f views.Fixture) templ.Component {
			return Competitions(CompetitionsProps{Shell: galleryShell, Nav: galleryNav("competitions")})
		}),
		state("competitions-many", base+"/competitions", func(ctx context.Context, f views.Fixture) templ.Component {
			return Competitions(galleryCompetitions(ctx, f))
		}),
		state("competition-open", competition, func(ctx context.Context, f views.Fixture) templ.Component {
			return Competition(galleryCompetition(ctx, f, "open"))
		}),
		state("competition-draw-refused", competition, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCompetition(ctx, f, "open")
			p.Error = views.T(ctx, "console.money.error.too_early")
			p.EarlyError = p.Error
			p.Reason = "Monthly draw, brought forward because the prize supplier closes for the holidays"
			return Competition(p)
		}),
		state("competition-reason-refused", competition, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCompetition(ctx, f, "due")
			p.Error = views.T(ctx, "console.money.error.reason_draw")
			p.ReasonError = p.Error
			return Competition(p)
		}),
		state("competition-drawn", competition, func(ctx context.Context, f views.Fixture) templ.Component {
			p := galleryCompetition(ctx, f, "drawn")
			p.Notice = views.T(ctx, "console.money.draw.done")
			return Competition(p)
		}),
		state("competition-mismatch", competition, func(ctx context.Context, f views.Fixture) templ.Component {
			return Competition(galleryCompetition(ctx, f, "mismatch"))
		}),
	}
}

// galleryConsolePage is the page as the console's handlers make it: the console's own name,
// no panel languages.
func galleryConsolePage(p *views.Page) {
	p.AppName = p.Translate("console.name", nil, nil)
	p.Languages = nil
}

var galleryShell = consoleviews.Shell{Email: "alexandra.konstantinopoulou@example-company.co.uk"}

func galleryNav(current string) Nav {
	return Nav{PanelKey: "demo", PanelName: "Canvass Demo", Current: current}
}

// galleryID is a fixed uuid-shaped id of a kind (redemptions, holds...), n telling them apart.
func galleryID(kind, n int) string {
	return fmt.Sprintf("%08x-3d4e-7f5a-8b6c-%012x", 0x0192f300+kind*0x10000+n*0x1013, 0x7d8e9fa0b1c2+n)
}

// galleryShort is an id's first part (consolemoney.short).
func galleryShort(id string) string { return id[:8] }

// galleryMoney is an amount as the console shows it: "12.50 USD".
func galleryMoney(f views.Fixture, minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d %s", sign, minor/100, minor%100, f.Currency)
}

// galleryStamp is a time as the console shows it (UTC).
func galleryStamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

const galleryDay = "2006-01-02"

// galleryOptions are the panel's redemption options by id, with names of every length.
var galleryOptions = []struct{ id, name string }{
	{"paypal", "PayPal"}, {"bank", "Bank transfer"}, {"amazon-voucher-uk", "Amazon.co.uk gift card, delivered by email within five working days"}, {"charity", "Donate to charity"},
}

// gallerySummary is the summary of the last 30 days with payouts on days of them.
func gallerySummary(ctx context.Context, f views.Fixture, days int, fromErr, toErr string) SummaryProps {
	to := time.Date(f.Now.Year(), f.Now.Month(), f.Now.Day(), 0, 0, 0, 0, time.UTC)
	from := to.AddDate(0, 0, -29)
	p := SummaryProps{Shell: galleryShell, Nav: galleryNav("summary"), From: from.Format(galleryDay), To: to.Format(galleryDay), FromError: fromErr, ToError: toErr}
	p.Period = views.Tf(ctx, "console.money.summary.range", map[string]any{"From": p.From, "To": p.To, "Currency": f.Currency})
	p.CSVURL = "/console/panels/demo/summary.csv?" + url.Values{"from": {p.From}, "to": {p.To}}.Encode()
	var paid, credits int
	var amount, fee, credited int64
	for i := range days {
		day := to.AddDate(0, 0, -i*2).Format(galleryDay)
		var dPaid int
		var dAmount, dFee int64
		for j, o := range galleryOptions[:1+i%len(galleryOptions)] {
			n := 1 + (i+j)%4
			a := int64(n) * int64(1000+j*1500)
			fe := int64(0)
			if o.id == "bank" {
				fe = int64(n) * 150
			}
			p.Payouts = append(p.Payouts, PayoutRow{Day: day, Option: o.name, Count: strconv.Itoa(n), Amount: galleryMoney(f, a), Fee: galleryMoney(f, fe), Net: galleryMoney(f, a-fe)})
			dPaid, dAmount, dFee = dPaid+n, dAmount+a, dFee+fe
		}
		var dCredits int
		var dCredited int64
		for j, origin := range []string{"campaign", "offer", "manual"}[:1+i%3] {
			n := 40 - i*2 + j*3
			a := int64(n) * int64(75+j*180)
			if origin == "manual" {
				n, a = 1, -250
			}
			p.Credits = append(p.Credits, CreditRow{Day: day, Origin: views.T(ctx, "console.money.origin."+origin), Count: strconv.Itoa(n), Amount: galleryMoney(f, a)})
			dCredits, dCredited = dCredits+n, dCredited+a
		}
		p.Days = append(p.Days, DayRow{Day: day, Paid: strconv.Itoa(dPaid), PaidAmount: galleryMoney(f, dAmount), PaidNet: galleryMoney(f, dAmount-dFee),
			Credits: strconv.Itoa(dCredits), Credited: galleryMoney(f, dCredited)})
		paid, amount, fee, credits, credited = paid+dPaid, amount+dAmount, fee+dFee, credits+dCredits, credited+dCredited
	}
	p.Total = DayRow{Paid: strconv.Itoa(paid), PaidAmount: galleryMoney(f, amount), PaidNet: galleryMoney(f, amount-fee), Credits: strconv.Itoa(credits), Credited: galleryMoney(f, credited)}
	p.PayoutsTotal = PayoutRow{Count: strconv.Itoa(paid), Amount: galleryMoney(f, amount), Fee: galleryMoney(f, fee), Net: galleryMoney(f, amount-fee)}
	p.CreditsTotal = CreditRow{Count: strconv.Itoa(credits), Amount: galleryMoney(f, credited)}
	return p
}

// galleryMember is the member the ledger and the redemptions show (their participant id).
var galleryMember = galleryID(0xb0, 1)

// galleryLedger is the ledger page for a member with n recent entries and a large balance.
func galleryLedger(ctx context.Context, f views.Fixture, n int) LedgerProps {
	p := LedgerProps{Shell: galleryShell, Nav: galleryNav("ledger"), Query: "alexandra.konstantinopoulou@example-company.co.uk", Member: galleryMember,
		Currency: f.Currency, Key: "0192f3a4-eeee-7e1f-a034-5e6f7a8b9c11"}
	balance := int64(1234567)
	p.Facts = []Pair{
		{Label: views.T(ctx, "console.money.col.member"), Value: galleryMember},
		{Label: views.T(ctx, "console.money.col.balance"), Value: galleryMoney(f, balance)},
		{Label: views.T(ctx, "console.money.col.owed"), Value: galleryMoney(f, 2500)},
	}
	entries := []struct {
		title, origin, reason, operator string
		amount                          int64
	}{
		{"Streaming, television and the evenings of households with more than one screen", "campaign", "", "", 125},
		{"", "manual", "Goodwill credit after the survey failed to load twice on 28 October (ticket 48107)", "finance@ops.demo.test", 250},
		{"PayPal", "redeem", "", "", -1000},
		{"Install the Acme Budget Planner app and reach level 5", "offer", "", "", 1840},
		{"Quick poll", "campaign", "", "", 50},
		{"", "manual", "Duplicate completion credited twice by the supplier", "alexandra.konstantinopoulou@example-company.co.uk", -125},
	}
	after := balance
	for i := range n {
		e := entries[i%len(entries)]
		dash := func(s string) string {
			if s == "" {
				return "—"
			}
			return s
		}
		p.Entries = append(p.Entries, EntryRow{
			At: galleryStamp(f.Now.Add(-time.Duration(i*29+3) * time.Hour)), Title: dash(e.title), Origin: views.T(ctx, "console.money.origin."+e.origin),
			Amount: galleryMoney(f, e.amount), BalanceAfter: galleryMoney(f, after), Reason: dash(e.reason), Operator: dash(e.operator),
		})
		after -= e.amount
	}
	return p
}

// galleryDestinations are masked payout destinations as the queue shows them.
var galleryDestinations = []string{"a***@example-company.co.uk", "GB82 •••• •••• •••• 5432", "m***@research-partners.example.org", "12-34-56 ••••5432"}

func galleryStatusLabel(ctx context.Context, s string) string {
	return views.T(ctx, "console.money.status."+s)
}

// galleryQueue is the redemption queue with n redemptions of every status.
func galleryQueue(ctx context.Context, f views.Fixture, n int, more bool) QueueProps {
	p := QueueProps{Shell: galleryShell, Nav: galleryNav("redemptions"), Page: 1}
	p.Statuses = append(p.Statuses, Choice{Value: "", Label: views.T(ctx, "console.money.any"), Selected: true})
	for _, s := range []string{"pending", "approved", "paid", "rejected"} {
		p.Statuses = append(p.Statuses, Choice{Value: s, Label: galleryStatusLabel(ctx, s)})
	}
	p.Options = append(p.Options, Choice{Value: "", Label: views.T(ctx, "console.money.any"), Selected: true})
	for _, o := range galleryOptions {
		p.Options = append(p.Options, Choice{Value: o.id, Label: o.name})
	}
	for _, a := range []string{"approve", "mark_paid", "reject"} {
		value := a
		if a == "mark_paid" {
			value = "mark-paid"
		}
		p.Actions = append(p.Actions, Choice{Value: value, Label: views.T(ctx, "console.money.action."+a)})
	}
	statuses := []string{"pending", "pending", "approved", "paid", "rejected", "pending", "approved"}
	for i := range n {
		id := galleryID(0xa0, i+1)
		s := statuses[i%len(statuses)]
		o := galleryOptions[i%len(galleryOptions)]
		amount := int64(1000 + (i*2375)%48000)
		fee := int64(0)
		if o.id == "bank" {
			fee = 150
		}
		p.Rows = append(p.Rows, QueueRow{
			ID: id, Short: galleryShort(id), Href: "/console/panels/demo/redemptions/" + id, RequestedAt: galleryStamp(f.Now.Add(-time.Duration(i*7+1) * time.Hour)),
			Member: galleryID(0xb0, 1+i%5), Option: o.name, Amount: galleryMoney(f, amount), Fee: galleryMoney(f, fee), Net: galleryMoney(f, amount-fee),
			Status: s, StatusLabel: galleryStatusLabel(ctx, s), Destination: galleryDestinations[i%len(galleryDestinations)],
			CanApprove: s == "pending", CanPay: s == "approved", CanReject: s == "pending" || s == "approved",
		})
	}
	if more {
		p.NextURL = "/console/panels/demo/redemptions?page=2"
	}
	return p
}

// galleryRedemption is one redemption in a status, as consolemoney.renderRedemption fills it.
func galleryRedemption(ctx context.Context, f views.Fixture, status string, canReveal bool) RedemptionProps {
	id := galleryID(0xa0, 1)
	p := RedemptionProps{
		Shell: galleryShell, Nav: galleryNav("redemptions"), ID: id, Short: galleryShort(id), CanReveal: canReveal,
		CanApprove: status == "pending", CanPay: status == "approved", CanReject: status == "pending" || status == "approved",
	}
	created := f.Now.AddDate(0, 0, -3)
	refund := "—"
	events := []EventRow{{At: galleryStamp(created), From: "—", To: galleryStatusLabel(ctx, "pending"), Operator: "member", Reason: "—"}}
	updated := created
	switch status {
	case "approved", "paid":
		updated = created.Add(20 * time.Hour)
		events = append(events, EventRow{At: galleryStamp(updated), From: galleryStatusLabel(ctx, "pending"), To: galleryStatusLabel(ctx, "approved"),
			Operator: "alexandra.konstantinopoulou@example-company.co.uk", Reason: "approved in the console"})
		if status == "paid" {
			updated = updated.Add(26 * time.Hour)
			events = append(events, EventRow{At: galleryStamp(updated), From: galleryStatusLabel(ctx, "approved"), To: galleryStatusLabel(ctx, "paid"),
				Operator: "finance@ops.demo.test", Reason: "Paid in the Barclays batch of 5 November, reference BACS-2026-11-05-0042"})
		}
	case "rejected":
		updated = created.Add(5 * time.Hour)
		refund = galleryID(0xd0, 1)
		events = append(events, EventRow{At: galleryStamp(updated), From: galleryStatusLabel(ctx, "pending"), To: galleryStatusLabel(ctx, "rejected"),
			Operator: "finance@ops.demo.test", Reason: "The IBAN belongs to another person than the account holder; the member was asked to add their own account."})
	}
	fact := func(id, value string) Pair { return Pair{Label: views.T(ctx, id), Value: value} }
	p.Facts = []Pair{
		fact("console.money.col.redemption", id),
		fact("console.money.field.status", galleryStatusLabel(ctx, status)),
		fact("console.money.col.member", galleryMember),
		fact("console.money.field.option", galleryOptions[1].name),
		fact("console.money.col.amount", galleryMoney(f, 250000)),
		fact("console.money.col.fee", galleryMoney(f, 150)),
		fact("console.money.col.net", galleryMoney(f, 249850)),
		fact("console.money.col.requested", galleryStamp(created)),
		fact("console.money.col.updated", galleryStamp(updated)),
		fact("console.money.col.destination", galleryDestinations[1]),
		fact("console.money.col.debit", galleryID(0xd0, 2)),
		fact("console.money.col.refund", refund),
	}
	p.Events = events
	return p
}

// galleryHolds is the held offer credits page: filter is held or all, n rows of every status.
func galleryHolds(ctx context.Context, f views.Fixture, filter string, n int, ceiling bool) HoldsProps {
	p := HoldsProps{Shell: galleryShell, Nav: galleryNav("offer-holds"), Page: 1}
	if ceiling {
		p.Ceiling = fmt.Sprintf("50.00 %s", f.Currency)
	}
	for _, s := range []string{"held", "approved", "refused"} {
		p.Statuses = append(p.Statuses, Choice{Value: s, Label: views.T(ctx, "console.money.holds.status."+s), Selected: s == filter})
	}
	p.Statuses = append(p.Statuses, Choice{Value: "all", Label: views.T(ctx, "console.money.any"), Selected: filter == "all"})
	offers := []string{
		"Install the Acme Budget Planner app and reach level 5 (acme-budget-planner-ios-l5)", "Open a savings account (4471-savings)", "offer-88213", "Casino Royale Deluxe: deposit and play",
	}
	statuses := []string{"held", "held", "approved", "refused"}
	for i := range n {
		s := statuses[i%len(statuses)]
		if filter == "held" {
			s = "held"
		}
		id := galleryID(0xe0, i+1)
		base := "/console/panels/demo/offer-holds/" + id
		row := HoldRow{
			ID: id, Short: galleryShort(id), HeldAt: galleryStamp(f.Now.Add(-time.Duration(i*11+2) * time.Hour)), Member: galleryID(0xb0, 1+i%4),
			Offer: offers[i%len(offers)], TransactionID: fmt.Sprintf("TXN-2026-11-%06d-%s", 880000+i*37, "a9f3c2e1"),
			Amount: galleryMoney(f, int64(5000+i*1275)), Status: s, StatusLabel: views.T(ctx, "console.money.holds.status."+s),
			CanResolve: s == "held", ApproveURL: base + "/approve", RefuseURL: base + "/refuse",
		}
		switch s {
		case "approved":
			row.Resolution = views.Tf(ctx, "console.money.holds.resolved", map[string]any{"Who": "finance@ops.demo.test", "When": galleryStamp(f.Now.Add(-time.Duration(i) * time.Hour))})
		case "refused":
			row.Resolution = views.Tf(ctx, "console.money.holds.resolved", map[string]any{"Who": "alexandra.konstantinopoulou@example-company.co.uk", "When": galleryStamp(f.Now.Add(-time.Duration(i) * time.Hour))}) +
				" " + views.Tf(ctx, "console.money.holds.resolved_reason", map[string]any{"Reason": "The provider reversed this conversion as fraudulent on 2 November."})
		}
		p.Rows = append(p.Rows, row)
	}
	if n > 15 {
		p.NextURL = "/console/panels/demo/offer-holds?page=2&status=" + filter
	}
	return p
}

// galleryCompetitionList are competitions in every state, names and prizes of every length.
var galleryCompetitionList = []struct {
	name, prize string
	prizeMinor  int64
	winners     int
	state       string
}{
	{"Summer travel draw", "A weekend away for two", 0, 1, "open"},
	{"Monthly draw — November 2026", "Cash prize", 10000, 5, "due"},
	{"Streaming, television and the evenings of households with more than one screen: completion prize draw", "Annual streaming subscription", 11988, 3, "drawn"},
	{"Welcome draw", "", 2500, 10, "drawn"},
	{"Christmas hamper", "A hamper from the Northwind farm shop, delivered before 20 December", 0, 2, "open"},
}

func galleryPrize(f views.Fixture, prize string, minor int64) string {
	if minor > 0 {
		if prize == "" {
			return "(" + galleryMoney(f, minor) + ")"
		}
		return prize + " (" + galleryMoney(f, minor) + ")"
	}
	return prize
}

func galleryCompetitions(ctx context.Context, f views.Fixture) CompetitionsProps {
	p := CompetitionsProps{Shell: galleryShell, Nav: galleryNav("competitions")}
	for i, c := range galleryCompetitionList {
		id := galleryID(0xc0, i+1)
		drawAt := galleryStamp(f.Now.AddDate(0, 0, 10-i*8))
		if c.state == "due" && i == 1 {
			drawAt = galleryStamp(f.Now.AddDate(0, 0, -2))
		}
		p.Rows = append(p.Rows, CompetitionRow{
			ID: id, Href: "/console/panels/demo/competitions/" + id, Name: c.name, Prize: galleryPrize(f, c.prize, c.prizeMinor),
			Winners: strconv.Itoa(c.winners), DrawAt: drawAt, Entered: strconv.Itoa(1834 - i*311), Declined: strconv.Itoa(27 + i*4),
			State: views.T(ctx, "console.money.state."+c.state),
		})
	}
	return p
}

// galleryCompetition is one competition: open (its date to come: drawing early is asked), due,
// drawn and verified, or drawn with a record that no longer checks out (mismatch).
func galleryCompetition(ctx context.Context, f views.Fixture, state string) CompetitionProps {
	c := galleryCompetitionList[1]
	drawAt := f.Now.AddDate(0, 0, -2)
	shown := state
	switch state {
	case "open":
		c, drawAt = galleryCompetitionList[4], f.Now.AddDate(0, 0, 27)
	case "drawn", "mismatch":
		c, shown = galleryCompetitionList[2], "drawn"
	}
	id := galleryID(0xc0, 1)
	fact := func(id, value string) Pair { return Pair{Label: views.T(ctx, id), Value: value} }
	p := CompetitionProps{
		Shell: galleryShell, Nav: galleryNav("competitions"), ID: id, Name: c.name, CanDraw: shown != "drawn", BeforeDate: state == "open",
		Facts: []Pair{
			fact("console.money.col.competition", id),
			fact("console.money.col.prize", galleryPrize(f, c.prize, c.prizeMinor)),
			fact("console.money.col.winners", strconv.Itoa(c.winners)),
			fact("console.money.col.draw_at", galleryStamp(drawAt)),
			fact("console.money.col.entered", "1834"),
			fact("console.money.col.declined", "27"),
			fact("console.money.col.state", views.T(ctx, "console.money.state."+shown)),
		},
	}
	if shown != "drawn" {
		return p
	}
	const digest = "9f2c4e1a7b3d5f6e8a0c2b4d6f8e1a3c5b7d9f0e2a4c6b8d0f1e3a5c7b9d1f2e"
	digestNow, entrantsNow := digest, "1834"
	p.Drawn, p.Verified = true, true
	var winners, expected []string
	for i := range c.winners {
		winners = append(winners, galleryID(0xb0, 10+i))
	}
	expected = append(expected, winners...)
	if state == "mismatch" {
		p.Verified = false
		digestNow, entrantsNow = "1c7e3a9f5b2d8e4a6c0f1b3d5e7a9c2b4d6f8a0e1c3b5d7f9a2c4e6b8d0f1a3c", "1833"
		expected[1] = galleryID(0xb0, 42)
		p.Problems = []string{
			"the entrants' digest is not the recorded one: an entry changed after the draw",
			"winner 2 is " + winners[1] + " in the record but " + expected[1] + " from the seed",
		}
	}
	p.Proof = []Pair{
		fact("console.money.proof.drawn_at", galleryStamp(drawAt.Add(3*time.Hour))),
		fact("console.col.who", "finance@ops.demo.test"),
		fact("console.money.field.reason", "Monthly draw, as announced in the campaign's terms"),
		fact("console.money.proof.early", views.T(ctx, "console.money.no")),
		fact("console.money.proof.seed", "b64e2f9c0a7d13e58f4c6a2b9d0e7f31c5a8b2d4e6f0a9c3b7d1e5f2a4c8b6d0"),
		fact("console.money.proof.entrants", "1834"),
		fact("console.money.proof.digest", digest),
		fact("console.money.proof.entrants_now", entrantsNow),
		fact("console.money.proof.digest_now", digestNow),
	}
	for i := range winners {
		row := WinnerRow{Rank: strconv.Itoa(i + 1), Recorded: winners[i], Expected: expected[i], Entry: galleryID(0xd0, 10+i), Match: views.T(ctx, "console.money.verify.match")}
		if row.Recorded != row.Expected {
			row.Match = views.T(ctx, "console.money.verify.mismatch")
		}
		p.Winners = append(p.Winners, row)
	}
	return p
}
