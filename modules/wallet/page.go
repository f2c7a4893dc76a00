package wallet

import (
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	view "github.com/canvass/canvass/views/wallet"
	"github.com/gofiber/fiber/v3"
)

// pageHeader fills every private page's balance slot and payment notification.
func (m *Module) pageHeader(c fiber.Ctx, p *views.Page) {
	member, panel := web.MemberOf(c), web.PanelOf(c)
	if member == nil || panel == nil || web.IsHTMX(c) {
		return
	}
	var b Balance
	var pay *Payment
	var err error
	if w, ok := c.Locals(walletKey{}).(*Wallet); ok {
		b, pay, err = m.headerOf(c.Context(), panel, w) // the page read it already
	} else {
		b, pay, err = m.header(c.Context(), panel, member.ParticipantID)
	}
	if err != nil {
		// The page is still worth showing without its balance.
		m.log.Warn("wallet header", "request_id", c.RequestID(), "err", err)
		return
	}
	p.Balance = web.FormatMoney(b.Minor, b.Currency, p.Lang)
	if pay != nil {
		p.Payment = &views.PaymentNotice{Amount: web.FormatMoney(pay.Amount, pay.Currency, p.Lang), UpTo: pay.UpTo}
	}
}

// walletKey holds the member's wallet row read with their session (MemberJoin) or by a
// handler, so the page header does not read it again; nil: they have none yet.
type walletKey struct{}

// walletOf is the member's wallet row as this request read it, else from the database.
func (m *Module) walletOf(c fiber.Ctx, participantID string) (*Wallet, error) {
	if w, ok := c.Locals(walletKey{}).(*Wallet); ok {
		return w, nil
	}
	return m.wallet(c.Context(), participantID)
}

// balancePath is the balance API, which answers from the row read with the session.
const balancePath = "/api/v3/user/balance"

// MemberJoin reads the member's wallet row with their session, for the balance every private
// page shows and the balance API (web.MemberJoin): one round trip fewer on each. Other APIs
// leave it out.
func (m *Module) MemberJoin() web.MemberJoin {
	cols := make([]string, len(walletColumns))
	for i, col := range walletColumns {
		cols[i] = "mw." + col
	}
	return web.MemberJoin{
		Columns: cols,
		From:    "LEFT JOIN wallets mw ON mw.participant_id = p.id",
		When:    func(c fiber.Ctx) bool { return !web.IsAPI(c) || c.Path() == balancePath },
		Scan: func() ([]any, func(fiber.Ctx)) {
			var pid, panelID, currency sql.NullString
			var balance, owed, entries, seen sql.NullInt64
			var updated sql.NullTime
			return []any{&pid, &panelID, &currency, &balance, &owed, &entries, &seen, &updated}, func(c fiber.Ctx) {
				var w *Wallet // none before the first entry
				if pid.Valid {
					w = &Wallet{ParticipantID: pid.String, PanelID: panelID.String, CurrencyCode: currency.String, BalanceMinor: balance.Int64,
						OwedMinor: owed.Int64, EntryCount: entries.Int64, SeenSeq: seen.Int64, UpdatedAt: updated.Time}
				}
				c.Locals(walletKey{}, w)
			}
		},
	}
}

// pageForm is the transactions page's query: the filter, the member's dates (before is
// inclusive here: the spec filters up to the day after it) and the page.
type pageForm struct {
	Filter        Filter
	After, Before string // as the member gave them, for the form
	after, before time.Time
	Page          int
	Month         string // YYYY-MM: the month opened without JavaScript
	AfterError    string
	BeforeError   string
}

func (m *Module) readForm(c fiber.Ctx) (pageForm, error) {
	f := pageForm{After: c.Query("after"), Before: c.Query("before")}
	var ok bool
	if f.Filter, ok = ParseFilter(c.Query("filter")); !ok {
		return f, web.Invalid("filter", "error.transactions_filter", nil)
	}
	// The spec's page floor is 1: anything else shows the first page.
	if n, err := strconv.Atoi(c.Query("page")); err == nil && n > 1 {
		f.Page = n
	} else {
		f.Page = 1
	}
	var err error
	if f.after, err = ParseDay(f.After); err != nil {
		f.AfterError, f.After = m.kit.T(c, "error.date_format", nil), ""
	}
	if day, err := ParseDay(f.Before); err != nil {
		f.BeforeError, f.Before = m.kit.T(c, "error.date_format", nil), ""
	} else if !day.IsZero() {
		f.before = day.AddDate(0, 0, 1)
	}
	if !f.after.IsZero() && !f.before.IsZero() && !f.before.After(f.after) {
		f.BeforeError, f.Before, f.before = m.kit.T(c, "error.date_order", nil), "", time.Time{}
	}
	if mo := c.Query("month"); mo != "" {
		if _, err := time.Parse("2006-01", mo); err == nil {
			f.Month = mo
		}
	}
	return f, nil
}

// href is the page address of a form with another page or open month.
func (f pageForm) href(page int, month string) string {
	v := f.values()
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if month != "" {
		v.Set("month", month)
	}
	if len(v) == 0 {
		return "/transactions"
	}
	return "/transactions?" + v.Encode()
}

// values is the filter and the dates, without the page.
func (f pageForm) values() url.Values {
	v := url.Values{}
	if f.Filter != FilterMostRecent {
		v.Set("filter", string(f.Filter))
	}
	if f.After != "" {
		v.Set("after", f.After)
	}
	if f.Before != "" {
		v.Set("before", f.Before)
	}
	return v
}

// GET /transactions: the filters and the results; with the island's HX-Request header, only
// the results.
func (m *Module) transactionsPage(c fiber.Ctx) error {
	panel, pid := web.PanelOf(c), participant(c)
	form, err := m.readForm(c)
	if err != nil {
		return err
	}
	results, err := m.results(c, pid, form)
	if err != nil {
		return err
	}
	if web.IsHTMX(c) {
		return m.kit.Render(c, fiber.StatusOK, view.Results(results))
	}
	w, err := m.walletOf(c, pid)
	if err != nil {
		return err
	}
	b := balanceOf(panel, w)
	if w != nil && w.PanelID == panel.ID {
		// The member is looking at their transactions: no payment notification for these.
		if w.EntryCount > w.SeenSeq {
			if err := m.MarkSeen(c.Context(), pid, w.EntryCount); err != nil {
				return err
			}
			w.SeenSeq = w.EntryCount
		}
		c.Locals(walletKey{}, w)
	}
	lang := web.LocaleOf(c)
	props := view.TransactionsProps{
		Balance: web.FormatMoney(b.Minor, b.Currency, lang), Filter: string(form.Filter),
		After: form.After, Before: form.Before, AfterError: form.AfterError, BeforeError: form.BeforeError, Results: results,
	}
	if b.Owed > 0 {
		props.Owed = web.FormatMoney(b.Owed, b.Currency, lang)
	}
	type option struct {
		Value string `json:"value"`
		Label string `json:"label"`
	}
	var options []option
	for _, f := range Filters {
		label := m.kit.T(c, "transactions.filter_"+string(f), nil)
		props.Filters = append(props.Filters, view.FilterOption{Value: string(f), Label: label, Active: f == form.Filter})
		options = append(options, option{Value: string(f), Label: label})
	}
	labels := map[string]string{}
	for key, id := range map[string]string{
		"legend": "transactions.filter_legend", "after": "transactions.after", "before": "transactions.before",
		"clearDates": "transactions.clear_dates", "reset": "transactions.reset", "loading": "common.loading",
		"loadFailed": "transactions.load_failed",
	} {
		labels[key] = m.kit.T(c, id, nil)
	}
	props.Island = map[string]any{
		"action": "/transactions", "target": "tx-results", "filter": form.Filter, "after": form.After, "before": form.Before,
		"page": form.Page, "pageSize": DefaultPageSize, "filters": options, "labels": labels,
	}
	web.UseIsland(c, "transaction-filters")
	web.UseHTMX(c) // months open in place
	return m.kit.Render(c, fiber.StatusOK, view.Transactions(props))
}

// results loads a page of the member's transactions (spec page size 10) and their months.
func (m *Module) results(c fiber.Ctx, pid string, form pageForm) (view.ResultsProps, error) {
	ctx := c.Context()
	rows, more, err := m.Transactions(ctx, pid, Query{Filter: form.Filter, After: form.after, Before: form.before, Page: form.Page, PageSize: DefaultPageSize})
	if err != nil {
		return view.ResultsProps{}, err
	}
	r := view.ResultsProps{Page: form.Page}
	if form.Page > 1 {
		r.PrevHref = form.href(form.Page-1, "")
	}
	if more {
		r.NextHref = form.href(form.Page+1, "")
	}
	for _, e := range rows {
		label := m.monthLabel(c, e.CreatedAt.UTC().Year(), int(e.CreatedAt.UTC().Month()))
		if n := len(r.Groups); n == 0 || r.Groups[n-1].Label != label {
			r.Groups = append(r.Groups, view.Group{Label: label})
		}
		g := &r.Groups[len(r.Groups)-1]
		g.Rows = append(g.Rows, m.row(c, e))
	}
	months, err := m.Months(ctx, pid, form.Filter, form.after, form.before)
	if err != nil {
		return view.ResultsProps{}, err
	}
	for _, s := range months {
		mo, err := m.month(c, pid, form, s, form.Month == s.Start().Format("2006-01"))
		if err != nil {
			return view.ResultsProps{}, err
		}
		r.Months = append(r.Months, mo)
	}
	return r, nil
}

// month is one month of the history, with its transactions when open.
func (m *Module) month(c fiber.Ctx, pid string, form pageForm, s MonthSummary, open bool) (view.MonthProps, error) {
	key := s.Start().Format("2006-01")
	partial := fmt.Sprintf("/transactions/months/%d/%d", s.Year, s.Month)
	if v := form.values(); len(v) > 0 {
		partial += "?" + v.Encode()
	}
	mo := view.MonthProps{
		Key: key, Label: m.monthLabel(c, s.Year, s.Month), Count: m.kit.Locales.Translate(web.LocaleOf(c), "transactions.count", map[string]any{"Count": s.Entries}, s.Entries),
		Href: form.href(form.Page, key) + "#m-" + key, PartialURL: partial, Open: open,
	}
	if !open {
		return mo, nil
	}
	rows, more, err := m.MonthTransactions(c.Context(), pid, s.Year, s.Month, form.Filter, form.after, form.before)
	if err != nil {
		return mo, err
	}
	for _, e := range rows {
		mo.Rows = append(mo.Rows, m.row(c, e))
	}
	mo.Truncated = more
	return mo, nil
}

// GET /transactions/months/:year/:month: one month of the history, opened (htmx).
func (m *Module) monthPartial(c fiber.Ctx) error {
	year, _ := strconv.Atoi(c.Params("year"))
	month, _ := strconv.Atoi(c.Params("month"))
	if year < 2000 || year > 9999 || month < 1 || month > 12 {
		return web.NotFound()
	}
	form, err := m.readForm(c)
	if err != nil {
		return err
	}
	pid := participant(c)
	months, err := m.Months(c.Context(), pid, form.Filter, time.Time{}, time.Time{})
	if err != nil {
		return err
	}
	s := MonthSummary{Year: year, Month: month}
	for _, x := range months {
		if x.Year == year && x.Month == month {
			s = x
		}
	}
	mo, err := m.month(c, pid, form, s, true)
	if err != nil {
		return err
	}
	return m.kit.Render(c, fiber.StatusOK, view.Month(mo))
}

// POST /transactions/payment-notification/dismiss (upTo, redirect): with htmx the notice is
// swapped away; without JavaScript the member goes back to where they were.
func (m *Module) dismissPayment(c fiber.Ctx) error {
	upTo, err := strconv.ParseInt(c.FormValue("upTo"), 10, 64)
	if err != nil || upTo < 1 {
		return web.Invalid("upTo", "error.bad_request", nil)
	}
	if err := m.MarkSeen(c.Context(), participant(c), upTo); err != nil {
		return err
	}
	if web.IsHTMX(c) {
		return c.SendString("")
	}
	back := web.LocalPath(c, c.FormValue("redirect"))
	if back == "" {
		back = "/transactions"
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(back)
}

func (m *Module) monthLabel(c fiber.Ctx, year, month int) string {
	return m.kit.T(c, "transactions.month_heading", map[string]any{
		"Year": year, "Month": m.kit.T(c, fmt.Sprintf("month.%d", month), nil),
	})
}

// row is one transaction as the member reads it.
func (m *Module) row(c fiber.Ctx, e Entry) view.Row {
	lang := web.LocaleOf(c)
	at := e.CreatedAt.UTC()
	r := view.Row{
		ID: e.ID, Title: e.Title, Credit: e.AmountMinor > 0, Competition: e.Competition,
		Balance: web.FormatMoney(e.BalanceAfter, e.CurrencyCode, lang), DateTime: at.Format(time.RFC3339),
		Date: m.kit.T(c, "transactions.date", map[string]any{"Day": at.Day(), "Month": m.kit.T(c, fmt.Sprintf("month_short.%d", int(at.Month())), nil)}),
	}
	if r.Title == "" {
		r.Title = m.kit.T(c, titleID(e), nil)
	}
	if e.Origin == OriginManual {
		r.Detail = e.Reason
	}
	if e.DebtMinor > 0 { // a reversal the balance could not cover
		r.Detail = m.kit.T(c, "transactions.offer_owed_detail", map[string]any{"Amount": web.FormatMoney(e.DebtMinor, e.CurrencyCode, lang)})
	}
	switch {
	case e.AmountMinor > 0:
		r.Amount = "+" + web.FormatMoney(e.AmountMinor, e.CurrencyCode, lang)
	case e.AmountMinor == 0: // a competition entered: history, not money
		r.Amount = web.FormatMoney(0, e.CurrencyCode, lang)
	default:
		r.Amount = "\u2212" + web.FormatMoney(-e.AmountMinor, e.CurrencyCode, lang)
	}
	return r
}
