package consolemoney

import (
	"bytes"
	"encoding/csv"
	"net/url"
	"sort"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
)

// The summary covers the last summaryDays days unless a period is chosen, at most maxDays.
const (
	summaryDays = 30
	maxDays     = 366
)

// optionTotal is what one option paid out on one day (or in all).
type optionTotal struct {
	Option string `json:"option"`
	Count  int    `json:"count"`
	amount int64
	fee    int64
	net    int64
}

// originTotal is what one origin credited on one day (or in all).
type originTotal struct {
	Origin string `json:"origin"`
	Count  int    `json:"count"`
	amount int64
}

// day is one day of the summary.
type day struct {
	Day     time.Time
	Payouts []optionTotal
	Credits []originTotal
}

// summary is the daily payouts and credits of a panel over [From, To], days inclusive (UTC).
type summary struct {
	From, To time.Time // first and last day
	Currency string
	Days     []day // days with something, oldest first
	Payouts  optionTotal
	Credits  originTotal
}

// period reads from and to (YYYY-MM-DD, inclusive); by default the last 30 days to today.
func (p *Part) period(get func(string) string) (from, to time.Time, badFrom, badTo bool) {
	now := p.d.Now().UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	to, ok := parseDay(get("to"))
	badTo = !ok
	if to.IsZero() {
		to = today
	}
	from, ok = parseDay(get("from"))
	badFrom = !ok
	if from.IsZero() {
		from = to.AddDate(0, 0, -(summaryDays - 1))
	}
	if from.After(to) || to.Sub(from) >= maxDays*24*time.Hour {
		badFrom = true
		from = to.AddDate(0, 0, -(summaryDays - 1))
	}
	return from, to, badFrom, badTo
}

// summarise adds a panel's payouts (redemptions marked paid) and credits (ledger entries
// that add to a balance) up per day, in integer minor units.
func (p *Part) summarise(c fiber.Ctx, a console.PanelAccess, from, to time.Time) (*summary, error) {
	panel, err := p.panel(c, a)
	if err != nil {
		return nil, err
	}
	end := to.AddDate(0, 0, 1)
	payouts, err := p.d.Redemptions.Payouts(c.Context(), panel.ID, from, end)
	if err != nil {
		return nil, err
	}
	credits, err := p.d.Wallet.CreditsByDay(c.Context(), panel.ID, from, end)
	if err != nil {
		return nil, err
	}
	s := &summary{From: from, To: to, Currency: panel.CurrencyCode}
	days := map[time.Time]*day{}
	dayOf := func(t time.Time) *day {
		t = t.UTC()
		k := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		if days[k] == nil {
			days[k] = &day{Day: k}
		}
		return days[k]
	}
	for _, po := range payouts {
		d := dayOf(po.PaidAt)
		i := sort.Search(len(d.Payouts), func(i int) bool { return d.Payouts[i].Option >= po.OptionID })
		if i == len(d.Payouts) || d.Payouts[i].Option != po.OptionID {
			d.Payouts = append(d.Payouts[:i], append([]optionTotal{{Option: po.OptionID}}, d.Payouts[i:]...)...)
		}
		t := &d.Payouts[i]
		t.Count++
		t.amount += po.AmountMinor
		t.fee += po.FeeMinor
		t.net += po.NetMinor
		s.Payouts.Count++
		s.Payouts.amount += po.AmountMinor
		s.Payouts.fee += po.FeeMinor
		s.Payouts.net += po.NetMinor
	}
	for _, cr := range credits {
		d := dayOf(cr.Day)
		d.Credits = append(d.Credits, originTotal{Origin: string(cr.Origin), Count: cr.Count, amount: cr.Minor})
		s.Credits.Count += cr.Count
		s.Credits.amount += cr.Minor
	}
	for _, d := range days {
		s.Days = append(s.Days, *d)
	}
	sort.Slice(s.Days, func(i, j int) bool { return s.Days[i].Day.Before(s.Days[j].Day) })
	return s, nil
}

func sumPayouts(list []optionTotal) optionTotal {
	var t optionTotal
	for _, o := range list {
		t.Count += o.Count
		t.amount += o.amount
		t.fee += o.fee
		t.net += o.net
	}
	return t
}

func sumCredits(list []originTotal) originTotal {
	var t originTotal
	for _, o := range list {
		t.Count += o.Count
		t.amount += o.amount
	}
	return t
}

func (p *Part) summaryPage(c fiber.Ctx, a console.PanelAccess) error {
	from, to, badFrom, badTo := p.period(func(k string) string { return c.Query(k) })
	s, err := p.summarise(c, a, from, to)
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	props := moneyviews.SummaryProps{Shell: p.shell(c), Nav: p.nav(a, "summary"), From: from.Format(dayLayout), To: to.Format(dayLayout)}
	if badFrom {
		status, props.FromError = fiber.StatusUnprocessableEntity, p.t(c, "console.money.error.period", map[string]any{"Max": maxDays})
	}
	if badTo {
		status, props.ToError = fiber.StatusUnprocessableEntity, p.t(c, "console.money.error.date", nil)
	}
	props.Period = p.t(c, "console.money.summary.range", map[string]any{"From": props.From, "To": props.To, "Currency": s.Currency})
	props.CSVURL = "/console/panels/" + a.Panel.Key + "/summary.csv?" + url.Values{"from": {props.From}, "to": {props.To}}.Encode()
	cur := s.Currency
	names := p.optionNames(c, a)
	for i := len(s.Days) - 1; i >= 0; i-- { // newest first
		d := s.Days[i]
		day := d.Day.Format(dayLayout)
		pt, ct := sumPayouts(d.Payouts), sumCredits(d.Credits)
		props.Days = append(props.Days, moneyviews.DayRow{Day: day, Paid: strconv.Itoa(pt.Count), PaidAmount: money(pt.amount, cur), PaidNet: money(pt.net, cur), Credits: strconv.Itoa(ct.Count), Credited: money(ct.amount, cur)})
		for _, o := range d.Payouts {
			props.Payouts = append(props.Payouts, moneyviews.PayoutRow{Day: day, Option: optionName(names, o.Option), Count: strconv.Itoa(o.Count), Amount: money(o.amount, cur), Fee: money(o.fee, cur), Net: money(o.net, cur)})
		}
		for _, o := range d.Credits {
			props.Credits = append(props.Credits, moneyviews.CreditRow{Day: day, Origin: p.t(c, "console.money.origin."+o.Origin, nil), Count: strconv.Itoa(o.Count), Amount: money(o.amount, cur)})
		}
	}
	props.Total = moneyviews.DayRow{Paid: strconv.Itoa(s.Payouts.Count), PaidAmount: money(s.Payouts.amount, cur), PaidNet: money(s.Payouts.net, cur), Credits: strconv.Itoa(s.Credits.Count), Credited: money(s.Credits.amount, cur)}
	props.PayoutsTotal = moneyviews.PayoutRow{Count: strconv.Itoa(s.Payouts.Count), Amount: money(s.Payouts.amount, cur), Fee: money(s.Payouts.fee, cur), Net: money(s.Payouts.net, cur)}
	props.CreditsTotal = moneyviews.CreditRow{Count: strconv.Itoa(s.Credits.Count), Amount: money(s.Credits.amount, cur)}
	return p.m.Render(c, status, moneyviews.Summary(props))
}

// optionNames are the panel's options' names in its default language, by id.
func (p *Part) optionNames(c fiber.Ctx, a console.PanelAccess) map[string]string {
	names := map[string]string{}
	panel, err := p.panel(c, a)
	if err != nil {
		return names
	}
	opts, err := p.d.Redemptions.PanelOptions(c.Context(), panel.ID)
	if err != nil {
		return names
	}
	for _, o := range opts {
		names[o.ID] = o.Names.In(panel.DefaultLanguage, panel.DefaultLanguage)
	}
	return names
}

// summaryCSV is the summary as rows a spreadsheet sums: one per day and option paid out, one
// per day and origin credited, then a total of each. Amounts are the panel's currency with
// its decimals; a period the page would refuse falls back as the page does.
func (p *Part) summaryCSV(c fiber.Ctx, a console.PanelAccess) error {
	from, to, _, _ := p.period(func(k string) string { return c.Query(k) })
	s, err := p.summarise(c, a, from, to)
	if err != nil {
		return err
	}
	cur := s.Currency
	m := func(minor int64) string { return web.MoneyString(minor, cur) }
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"day", "kind", "name", "count", "amount", "fee", "net", "currency"})
	for _, d := range s.Days {
		day := d.Day.Format(dayLayout)
		for _, o := range d.Payouts {
			_ = w.Write([]string{day, "payout", o.Option, strconv.Itoa(o.Count), m(o.amount), m(o.fee), m(o.net), cur})
		}
		for _, o := range d.Credits {
			_ = w.Write([]string{day, "credit", o.Origin, strconv.Itoa(o.Count), m(o.amount), "", "", cur})
		}
	}
	_ = w.Write([]string{"total", "payout", "", strconv.Itoa(s.Payouts.Count), m(s.Payouts.amount), m(s.Payouts.fee), m(s.Payouts.net), cur})
	_ = w.Write([]string{"total", "credit", "", strconv.Itoa(s.Credits.Count), m(s.Credits.amount), "", "", cur})
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+a.Panel.Key+`-summary-`+s.From.Format(dayLayout)+`-`+s.To.Format(dayLayout)+`.csv"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Send(buf.Bytes())
}

type payoutJSON struct {
	Option string `json:"option"`
	Count  int    `json:"count"`
	Amount string `json:"amount"`
	Fee    string `json:"fee"`
	Net    string `json:"net"`
}

type creditJSON struct {
	Origin string `json:"origin"`
	Count  int    `json:"count"`
	Amount string `json:"amount"`
}

type dayJSON struct {
	Day     string       `json:"day"`
	Payouts []payoutJSON `json:"payouts"`
	Credits []creditJSON `json:"credits"`
}

func (p *Part) apiSummary(c fiber.Ctx, a console.PanelAccess) error {
	from, to, badFrom, badTo := p.period(func(k string) string { return c.Query(k) })
	switch {
	case badFrom:
		return web.Invalid("from", "console.money.error.period", map[string]any{"Max": maxDays})
	case badTo:
		return web.Invalid("to", "console.money.error.date", nil)
	}
	s, err := p.summarise(c, a, from, to)
	if err != nil {
		return err
	}
	cur := s.Currency
	m := func(minor int64) string { return web.MoneyString(minor, cur) }
	payout := func(o optionTotal) payoutJSON {
		return payoutJSON{Option: o.Option, Count: o.Count, Amount: m(o.amount), Fee: m(o.fee), Net: m(o.net)}
	}
	days := make([]dayJSON, 0, len(s.Days))
	for _, d := range s.Days {
		j := dayJSON{Day: d.Day.Format(dayLayout), Payouts: []payoutJSON{}, Credits: []creditJSON{}}
		for _, o := range d.Payouts {
			j.Payouts = append(j.Payouts, payout(o))
		}
		for _, o := range d.Credits {
			j.Credits = append(j.Credits, creditJSON{Origin: o.Origin, Count: o.Count, Amount: m(o.amount)})
		}
		days = append(days, j)
	}
	return c.JSON(fiber.Map{
		"from": s.From.Format(dayLayout), "to": s.To.Format(dayLayout), "currency_code": cur, "days": days,
		"totals": fiber.Map{
			"payouts": fiber.Map{"count": s.Payouts.Count, "amount": m(s.Payouts.amount), "fee": m(s.Payouts.fee), "net": m(s.Payouts.net)},
			"credits": fiber.Map{"count": s.Credits.Count, "amount": m(s.Credits.amount)},
		},
	})
}
