package wallet

import (
	"context"
	"fmt"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the transactions page's states for the development gallery: no transaction,
// one, a page of many with the months below, a month opened, the second page, each filter,
// an offer debt, refused dates, and the filters as they are without the island's script.
func Gallery() []views.GalleryState {
	state := func(name string, islands []string, props func(ctx context.Context, f views.Fixture) TransactionsProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: "/transactions", Who: views.GalleryMember, Islands: islands,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Transactions(props(ctx, f)) },
		}
	}
	withIsland := []string{"transaction-filters", "htmx"}
	// page is the page of a form with the month open (YYYY-MM, "" for none).
	page := func(name string, islands []string, form galleryForm, open string) views.GalleryState {
		return state(name, islands, func(ctx context.Context, f views.Fixture) TransactionsProps {
			return galleryProps(ctx, f, form, galleryBalance(galleryLedger), galleryPage(ctx, f, form, open))
		})
	}
	all := galleryForm{filter: "MOST_RECENT", page: 1}
	return []views.GalleryState{
		state("empty", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			return galleryProps(ctx, f, all, 0, ResultsProps{Page: 1})
		}),
		state("one-row", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			rows := galleryRows(ctx, f, galleryLedger[len(galleryLedger)-1:], "MOST_RECENT")
			r := ResultsProps{Page: 1, Groups: galleryGroups(ctx, rows), Months: galleryMonths(ctx, all, rows, "")}
			return galleryProps(ctx, f, all, galleryBalance(galleryLedger[len(galleryLedger)-1:]), r)
		}),
		page("many-rows", withIsland, all, ""),
		page("month-open", withIsland, all, "2026-09"),
		state("month-truncated", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			r := galleryPage(ctx, f, all, "2026-10")
			for i := range r.Months {
				if r.Months[i].Open {
					r.Months[i].Truncated = true
					r.Months[i].Count = views.Tn(ctx, "transactions.count", 1342, map[string]any{"Count": 1342})
				}
			}
			return galleryProps(ctx, f, all, galleryBalance(galleryLedger), r)
		}),
		page("page-two", withIsland, galleryForm{filter: "MOST_RECENT", page: 2}, ""),
		page("page-three", withIsland, galleryForm{filter: "MOST_RECENT", page: 3}, ""),
		page("filter-competitions", withIsland, galleryForm{filter: "competitions", page: 1}, ""),
		page("filter-redemptions", withIsland, galleryForm{filter: "redemptions", page: 1}, ""),
		state("filter-empty", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			form := galleryForm{filter: "competitions", page: 1, after: "2026-10-01", before: "2026-10-31"}
			return galleryProps(ctx, f, form, galleryBalance(galleryLedger), ResultsProps{Page: 1})
		}),
		page("dates-filtered", withIsland, galleryForm{filter: "MOST_RECENT", page: 1, after: "2026-08-01", before: "2026-10-31"}, ""),
		state("offer-debt", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			p := galleryProps(ctx, f, all, galleryBalance(galleryDebtLedger), galleryDebtResults(ctx, f))
			p.Owed = f.Money(1875)
			return p
		}),
		state("date-errors", withIsland, func(ctx context.Context, f views.Fixture) TransactionsProps {
			// Both dates unreadable: the wallet module drops them and says so.
			form := galleryForm{filter: "MOST_RECENT", page: 1, afterError: views.T(ctx, "error.date_format"), beforeError: views.T(ctx, "error.date_format")}
			return galleryProps(ctx, f, form, galleryBalance(galleryLedger), galleryPage(ctx, f, form, ""))
		}),
		// Without the island's script (not loaded yet, or failed): the plain GET form.
		page("filters-fallback", []string{"htmx"}, galleryForm{filter: "redemptions", page: 1, after: "2026-06-01"}, ""),
		state("filters-fallback-date-order", []string{"htmx"}, func(ctx context.Context, f views.Fixture) TransactionsProps {
			// The end before the start: the wallet module drops the end and says why.
			form := galleryForm{filter: "competitions", page: 1, after: "2026-10-15", beforeError: views.T(ctx, "error.date_order")}
			return galleryProps(ctx, f, form, galleryBalance(galleryLedger), galleryPage(ctx, f, form, ""))
		}),
	}
}

// galleryForm is the page's query as the wallet module reads it.
type galleryForm struct {
	filter, after, before   string
	page                    int
	afterError, beforeError string
}

func (g galleryForm) query(page int, month string) string {
	q := ""
	add := func(k, v string) {
		if v == "" {
			return
		}
		if q != "" {
			q += "&"
		}
		q += k + "=" + v
	}
	if g.filter != "MOST_RECENT" {
		add("filter", g.filter)
	}
	add("after", g.after)
	add("before", g.before)
	if page > 1 {
		add("page", fmt.Sprint(page))
	}
	add("month", month)
	return q
}

func (g galleryForm) href(page int, month string) string {
	if q := g.query(page, month); q != "" {
		return "/transactions?" + q
	}
	return "/transactions"
}

// galleryProps is the page around results, with the filters and the island's props as the
// wallet module builds them.
func galleryProps(ctx context.Context, f views.Fixture, form galleryForm, balance int64, r ResultsProps) TransactionsProps {
	p := TransactionsProps{
		Balance: f.Money(balance), Filter: form.filter, After: form.after, Before: form.before,
		AfterError: form.afterError, BeforeError: form.beforeError, Results: r,
	}
	type option struct {
		Value string `json:"value"`
		Label string `json:"label"`
	}
	var options []option
	for _, key := range []string{"MOST_RECENT", "competitions", "redemptions"} {
		label := views.T(ctx, "transactions.filter_"+key)
		p.Filters = append(p.Filters, FilterOption{Value: key, Label: label, Active: key == form.filter})
		options = append(options, option{Value: key, Label: label})
	}
	labels := map[string]string{}
	for key, id := range map[string]string{
		"legend": "transactions.filter_legend", "after": "transactions.after", "before": "transactions.before",
		"clearDates": "transactions.clear_dates", "reset": "transactions.reset", "loading": "common.loading",
		"loadFailed": "transactions.load_failed",
	} {
		labels[key] = views.T(ctx, id)
	}
	p.Island = map[string]any{
		"action": "/transactions", "target": "tx-results", "filter": form.filter, "after": form.after, "before": form.before,
		"page": form.page, "pageSize": 10, "filters": options, "labels": labels,
	}
	return p
}

// galleryEntry is a ledger entry as the fixtures know it.
type galleryEntry struct {
	kind        string // campaign, competition-entry, competition-win, redeem, manual, offer, offer-reversal, offer-recovery, referral
	title       string // "" takes the kind's translated title
	detail      string
	amount      int64
	debt        int64
	competition bool
}

// galleryLedger is a member's history, newest first: survey rewards, competitions entered and
// won, redemptions, adjustments by an operator, offers and a friend's invitation, with a large
// prize and its payout. It adds up to the balance the gallery's header shows (25.00).
var galleryLedger = []galleryEntry{
	{kind: "campaign", title: "Quick poll", amount: 50},
	{kind: "competition-win", title: "Summer travel draw: weekend away for two in the Scottish Highlands", amount: 2000, competition: true},
	{kind: "redeem", title: "PayPal", amount: -2000},
	{kind: "campaign", title: "Streaming, television and the evenings of households with more than one screen", amount: 275},
	{kind: "manual", detail: "Goodwill credit for the survey that closed early on 12 October", amount: 100},
	{kind: "competition-entry", title: "Monthly prize draw", competition: true},
	{kind: "offer", title: "Install and reach level 10 in Kingdom Builders", amount: 850},
	{kind: "campaign", title: "Tea or coffee?", amount: 25},
	{kind: "referral", amount: 200},
	{kind: "redeem", title: "Amazon gift card", amount: -2000},
	{kind: "campaign", title: "Your commute", amount: 125},
	{kind: "campaign", title: "Grocery shopping habits", amount: 300},
	{kind: "manual", detail: "Duplicate reward removed", amount: -125},
	{kind: "competition-entry", title: "Win a year of coffee", competition: true},
	{kind: "campaign", title: "Quick poll", amount: 50},
	{kind: "offer", title: "Open a savings account with Northbank", amount: 2500},
	{kind: "redeem", title: "Bank transfer", amount: -1234792},
	{kind: "competition-win", title: "Monthly prize draw", amount: 1000, competition: true},
	{kind: "redeem", title: "PayPal", amount: -2000},
	{kind: "campaign", title: "Summer travel draw", amount: 75},
	{kind: "campaign", title: "Home energy and heating costs over the winter months", amount: 450},
	{kind: "competition-win", title: "Grand prize draw", amount: 1234567, competition: true},
	{kind: "campaign", title: "Pets at home", amount: 150},
	{kind: "manual", detail: "Welcome bonus", amount: 500},
	{kind: "campaign", title: "Welcome survey", amount: 200},
}

// galleryDebtLedger is a member whose offer reward the partner reversed after they had
// redeemed it: the reversal took what the balance had and owes the rest, and the next reward
// repaid part of it.
var galleryDebtLedger = []galleryEntry{
	{kind: "offer-recovery", amount: -125},
	{kind: "campaign", title: "Quick poll", amount: 125},
	{kind: "offer-reversal", amount: -500, debt: 2000},
	{kind: "redeem", title: "PayPal", amount: -2000},
	{kind: "offer", title: "Install and reach level 10 in Kingdom Builders", amount: 2500},
}

// galleryDates spreads the history over months back from the fixtures' clock, a few days apart.
func galleryDate(f views.Fixture, i int) time.Time {
	return f.Now.AddDate(0, 0, -5*i).Add(-time.Duration(i*37) * time.Minute)
}

// galleryRows are the ledger's rows as the page words them, keeping those of the filter, each
// with the balance after it.
func galleryRows(ctx context.Context, f views.Fixture, ledger []galleryEntry, filter string) []Row {
	var out []Row
	after := galleryBalance(ledger)
	for i, e := range ledger {
		at := galleryDate(f, i).UTC()
		r := Row{
			ID: fmt.Sprintf("00000000-0000-4000-9000-%012d", i+1), Title: e.title, Detail: e.detail, Credit: e.amount > 0,
			Competition: e.competition, Balance: f.Money(after), DateTime: at.Format(time.RFC3339),
			Date: views.Tf(ctx, "transactions.date", map[string]any{"Day": at.Day(), "Month": views.T(ctx, fmt.Sprintf("month_short.%d", int(at.Month())))}),
		}
		after -= e.amount
		if r.Title == "" {
			r.Title = views.T(ctx, galleryTitleID(e.kind))
		}
		if e.debt > 0 {
			r.Detail = views.Tf(ctx, "transactions.offer_owed_detail", map[string]any{"Amount": f.Money(e.debt)})
		}
		switch {
		case e.amount > 0:
			r.Amount = "+" + f.Money(e.amount)
		case e.amount == 0:
			r.Amount = f.Money(0)
		default:
			r.Amount = "\u2212" + f.Money(-e.amount)
		}
		switch filter {
		case "competitions":
			if !e.competition {
				continue
			}
		case "redemptions":
			if e.kind != "redeem" {
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// galleryBalance is what a ledger adds up to.
func galleryBalance(ledger []galleryEntry) int64 {
	var sum int64
	for _, e := range ledger {
		sum += e.amount
	}
	return sum
}

func galleryTitleID(kind string) string {
	switch kind {
	case "redeem":
		return "transactions.origin_redeem"
	case "manual":
		return "transactions.origin_manual"
	case "offer":
		return "transactions.offer_credit"
	case "offer-reversal":
		return "transactions.offer_reversal"
	case "offer-recovery":
		return "transactions.offer_recovery"
	case "referral":
		return "referrals.ledger_title"
	}
	return "transactions.origin_campaign"
}

// galleryMonthLabel is "November 2026" as the page words it.
func galleryMonthLabel(ctx context.Context, t time.Time) string {
	return views.Tf(ctx, "transactions.month_heading", map[string]any{"Year": t.Year(), "Month": views.T(ctx, fmt.Sprintf("month.%d", int(t.Month())))})
}

// galleryGroups groups rows by month, as a page of results does.
func galleryGroups(ctx context.Context, rows []Row) []Group {
	var out []Group
	for _, r := range rows {
		at, _ := time.Parse(time.RFC3339, r.DateTime)
		label := galleryMonthLabel(ctx, at)
		if n := len(out); n == 0 || out[n-1].Label != label {
			out = append(out, Group{Label: label})
		}
		out[len(out)-1].Rows = append(out[len(out)-1].Rows, r)
	}
	return out
}

// galleryMonths is the history by month, open the month open (YYYY-MM) with its rows.
func galleryMonths(ctx context.Context, form galleryForm, rows []Row, open string) []MonthProps {
	var out []MonthProps
	for _, r := range rows {
		at, _ := time.Parse(time.RFC3339, r.DateTime)
		key := at.Format("2006-01")
		if n := len(out); n == 0 || out[n-1].Key != key {
			partial := fmt.Sprintf("/transactions/months/%d/%d", at.Year(), int(at.Month()))
			if q := form.query(1, ""); q != "" {
				partial += "?" + q
			}
			out = append(out, MonthProps{
				Key: key, Label: galleryMonthLabel(ctx, at), Href: form.href(form.page, key) + "#m-" + key,
				PartialURL: partial, Open: key == open,
			})
		}
		if mo := &out[len(out)-1]; mo.Open {
			mo.Rows = append(mo.Rows, r)
		}
	}
	counts := map[string]int{}
	for _, r := range rows {
		at, _ := time.Parse(time.RFC3339, r.DateTime)
		counts[at.Format("2006-01")]++
	}
	for i := range out {
		n := counts[out[i].Key]
		out[i].Count = views.Tn(ctx, "transactions.count", n, map[string]any{"Count": n})
	}
	return out
}

// galleryPage is a page of ten of the filter's rows with its page links and the months.
func galleryPage(ctx context.Context, f views.Fixture, form galleryForm, open string) ResultsProps {
	var rows []Row
	for _, row := range galleryRows(ctx, f, galleryLedger, form.filter) {
		day := row.DateTime[:10] // YYYY-MM-DD sorts as dates do
		if (form.after == "" || day >= form.after) && (form.before == "" || day <= form.before) {
			rows = append(rows, row)
		}
	}
	r := ResultsProps{Page: form.page, Months: galleryMonths(ctx, form, rows, open)}
	start, end := (form.page-1)*10, form.page*10
	if start > len(rows) {
		start = len(rows)
	}
	if end >= len(rows) {
		end = len(rows)
	} else {
		r.NextHref = form.href(form.page+1, "")
	}
	if form.page > 1 {
		r.PrevHref = form.href(form.page-1, "")
	}
	r.Groups = galleryGroups(ctx, rows[start:end])
	return r
}

// galleryDebtResults is the history of galleryDebtLedger on one page.
func galleryDebtResults(ctx context.Context, f views.Fixture) ResultsProps {
	rows := galleryRows(ctx, f, galleryDebtLedger, "MOST_RECENT")
	form := galleryForm{filter: "MOST_RECENT", page: 1}
	return ResultsProps{Page: 1, Groups: galleryGroups(ctx, rows), Months: galleryMonths(ctx, form, rows, "")}
}
