package consolemoney

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/web"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
)

// actions are the operator's actions on a redemption, by the name forms and the API use, with
// the status each leads to.
var actions = map[string]redemptions.Status{
	"approve":   redemptions.StatusApproved,
	"mark-paid": redemptions.StatusPaid,
	"reject":    redemptions.StatusRejected,
}

var actionOrder = []string{"approve", "mark-paid", "reject"}

// maxBulk bounds one bulk action: a page of the queue at most.
const maxBulk = redemptions.QueuePageSize

// defaultReasons are kept with an approval or a payment when the operator gives no reason
// (the lifecycle keeps one with every change; only a rejection must say why).
var defaultReasons = map[string]string{"approve": "approved in the console", "mark-paid": "marked paid in the console"}

// queueQuery is the queue's filter as sent (query string, or the bulk form's hidden fields).
type queueQuery struct {
	status, option, from, to  string
	page                      int
	filter                    redemptions.QueueFilter
	badStatus, badFrom, badTo bool
}

func readQueue(get func(string) string, panelID string) queueQuery {
	q := queueQuery{status: strings.TrimSpace(get("status")), option: strings.TrimSpace(get("option")), from: strings.TrimSpace(get("from")), to: strings.TrimSpace(get("to"))}
	q.filter = redemptions.QueueFilter{PanelID: panelID, OptionID: q.option}
	if q.status != "" {
		if s := redemptions.Status(q.status); slices.Contains(redemptions.Statuses, s) {
			q.filter.Status = s
		} else {
			q.badStatus = true
		}
	}
	from, ok := parseDay(q.from)
	q.badFrom = !ok
	to, ok := parseDay(q.to)
	q.badTo = !ok
	q.filter.From = from
	if !to.IsZero() {
		q.filter.To = to.AddDate(0, 0, 1) // the day named is included
	}
	q.page, _ = strconv.Atoi(get("page"))
	if q.page < 1 {
		q.page = 1
	}
	q.filter.Page = q.page
	return q
}

// values are the filter as a query string, at a page.
func (q queueQuery) values(page int) url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"status": q.status, "option": q.option, "from": q.from, "to": q.to} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v
}

// queueView is the queue page for a filter, with what the last action did.
type queueView struct {
	status      int
	q           queueQuery
	reason      string
	reasonError string
	errMsg      string
	notice      string
	results     []moneyviews.ResultRow
}

func (p *Part) queuePage(c fiber.Ctx, a console.PanelAccess) error {
	q := readQueue(func(k string) string { return c.Query(k) }, a.Panel.ID)
	v := queueView{status: fiber.StatusOK, q: q}
	if q.badFrom || q.badTo {
		v.status = fiber.StatusUnprocessableEntity
	}
	return p.renderQueue(c, a, v)
}

func (p *Part) renderQueue(c fiber.Ctx, a console.PanelAccess, v queueView) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	q := v.q
	f := q.filter
	if q.badFrom {
		f.From = time.Time{}
	}
	if q.badTo {
		f.To = time.Time{}
	}
	rows, more, err := p.d.Redemptions.Queue(c.Context(), f)
	if err != nil {
		return err
	}
	opts, err := p.d.Redemptions.PanelOptions(c.Context(), panel.ID)
	if err != nil {
		return err
	}
	names := map[string]string{}
	props := moneyviews.QueueProps{
		Shell: p.shell(c), Nav: p.nav(a, "redemptions"), From: q.from, To: q.to, Page: q.page,
		Reason: v.reason, ReasonError: v.reasonError, Error: v.errMsg, Notice: v.notice, Results: v.results,
	}
	if q.badFrom {
		props.FromError = p.t(c, "console.money.error.date", nil)
	}
	if q.badTo {
		props.ToError = p.t(c, "console.money.error.date", nil)
	}
	props.Statuses = append(props.Statuses, moneyviews.Choice{Value: "", Label: p.t(c, "console.money.any", nil), Selected: f.Status == ""})
	for _, s := range redemptions.Statuses {
		props.Statuses = append(props.Statuses, moneyviews.Choice{Value: string(s), Label: p.t(c, "console.money.status."+string(s), nil), Selected: s == f.Status})
	}
	props.Options = append(props.Options, moneyviews.Choice{Value: "", Label: p.t(c, "console.money.any", nil), Selected: q.option == ""})
	for _, o := range opts {
		names[o.ID] = o.Names.In(panel.DefaultLanguage, panel.DefaultLanguage)
		props.Options = append(props.Options, moneyviews.Choice{Value: o.ID, Label: names[o.ID], Selected: o.ID == q.option})
	}
	for _, name := range actionOrder {
		props.Actions = append(props.Actions, moneyviews.Choice{Value: name, Label: p.actionLabel(c, name)})
	}
	base := "/console/panels/" + a.Panel.Key + "/redemptions"
	for _, r := range rows {
		props.Rows = append(props.Rows, moneyviews.QueueRow{
			ID: r.ID, Short: short(r.ID), Href: base + "/" + r.ID, RequestedAt: stamp(r.CreatedAt), Member: r.ParticipantID,
			Option: optionName(names, r.OptionID), Amount: money(r.AmountMinor, r.CurrencyCode), Fee: money(r.FeeMinor, r.CurrencyCode),
			Net: money(r.NetMinor, r.CurrencyCode), Status: string(r.Status), StatusLabel: p.t(c, "console.money.status."+string(r.Status), nil),
			Destination: r.MaskedDestination().Summary(),
			CanApprove:  redemptions.CanMove(r.Status, redemptions.StatusApproved),
			CanPay:      redemptions.CanMove(r.Status, redemptions.StatusPaid),
			CanReject:   redemptions.CanMove(r.Status, redemptions.StatusRejected),
		})
	}
	if q.page > 1 {
		props.PrevURL = base + "?" + q.values(q.page-1).Encode()
	}
	if more {
		props.NextURL = base + "?" + q.values(q.page+1).Encode()
	}
	for k, vals := range q.values(q.page) {
		props.Hidden = append(props.Hidden, moneyviews.Pair{Label: k, Value: vals[0]})
	}
	slices.SortFunc(props.Hidden, func(x, y moneyviews.Pair) int { return strings.Compare(x.Label, y.Label) })
	return p.m.Render(c, v.status, moneyviews.Queue(props))
}

func optionName(names map[string]string, id string) string {
	if n := names[id]; n != "" {
		return n
	}
	return id
}

// result is what an action did to one redemption.
type result struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"` // changed, unchanged, refused, not_found
	From    string `json:"from,omitempty"`
	Status  string `json:"status,omitempty"`
	Message string `json:"message"`
}

// act applies one action to one of the panel's redemptions: idempotent (a redemption already
// there is reported unchanged), refused where the lifecycle forbids it, and audited once per
// redemption changed. err is only for a failure, never a refusal.
func (p *Part) act(c fiber.Ctx, a console.PanelAccess, id, action, reason string) (result, error) {
	to := actions[action]
	if strings.TrimSpace(reason) == "" {
		reason = defaultReasons[action]
	}
	res := result{ID: id}
	out, err := p.d.Redemptions.Act(c.Context(), a.Panel.ID, id, to, operator(c), reason)
	var te *redemptions.TransitionError
	switch {
	case errors.Is(err, redemptions.ErrNotFound):
		res.Outcome, res.Message = "not_found", p.t(c, "console.money.outcome.not_found", nil)
		return res, nil
	case errors.As(err, &te):
		res.Outcome, res.Status = "refused", string(te.From)
		res.Message = p.t(c, "console.money.outcome.refused", map[string]any{"Status": p.statusLabel(c, te.From), "Action": p.actionLabel(c, action)})
		return res, nil
	case err != nil:
		return res, err
	}
	r := out.Redemption
	res.From, res.Status = string(out.From), string(r.Status)
	if !out.Changed {
		res.Outcome = "unchanged"
		res.Message = p.t(c, "console.money.outcome.unchanged", map[string]any{"Status": p.statusLabel(c, r.Status)})
		return res, nil
	}
	after := map[string]any{"status": r.Status, "reason": reason}
	if r.RefundEntryID != nil {
		after["refunded"] = web.MoneyString(r.AmountMinor, r.CurrencyCode)
		after["refund_entry"] = *r.RefundEntryID
	}
	if err := p.m.Audit(c, a.Panel.ID, "redemption."+action, r.ID, map[string]any{"status": out.From}, after); err != nil {
		return res, err
	}
	res.Outcome = "changed"
	res.Message = p.t(c, "console.money.outcome.changed", map[string]any{"From": p.statusLabel(c, out.From), "Status": p.statusLabel(c, r.Status)})
	if r.RefundEntryID != nil {
		res.Message += " " + p.t(c, "console.money.outcome.refunded", map[string]any{"Amount": money(r.AmountMinor, r.CurrencyCode)})
	}
	return res, nil
}

func (p *Part) actionLabel(c fiber.Ctx, action string) string {
	return p.t(c, "console.money.action."+strings.ReplaceAll(action, "-", "_"), nil)
}

func (p *Part) statusLabel(c fiber.Ctx, s redemptions.Status) string {
	return p.t(c, "console.money.status."+string(s), nil)
}

// bulkPage acts on the redemptions ticked in the queue (or on one row's button) and shows the
// queue again with what happened to each.
func (p *Part) bulkPage(c fiber.Ctx, a console.PanelAccess) error {
	q := readQueue(func(k string) string { return c.FormValue(k) }, a.Panel.ID)
	reason := strings.TrimSpace(c.FormValue("reason"))
	v := queueView{status: fiber.StatusOK, q: q, reason: reason}
	var action string
	var ids []string
	if row := c.FormValue("row"); row != "" {
		var id string
		action, id, _ = strings.Cut(row, ":")
		ids = []string{id}
	} else {
		action = c.FormValue("action")
		for _, b := range c.Request().PostArgs().PeekMulti("ids") {
			ids = append(ids, string(b))
		}
	}
	ids = dedupe(ids)
	switch {
	case actions[action] == "":
		v.errMsg = p.t(c, "console.money.error.action", nil)
	case len(ids) == 0:
		v.errMsg = p.t(c, "console.money.error.none_selected", nil)
	case len(ids) > maxBulk:
		v.errMsg = p.t(c, "console.money.error.too_many", map[string]any{"Max": maxBulk})
	case action == "reject" && reason == "":
		v.reasonError = p.t(c, "console.money.error.reason_reject", nil)
		v.errMsg = v.reasonError
	}
	if v.errMsg != "" {
		v.status = fiber.StatusUnprocessableEntity
		return p.renderQueue(c, a, v)
	}
	counts := map[string]int{}
	base := "/console/panels/" + a.Panel.Key + "/redemptions/"
	for _, id := range ids {
		res, err := p.act(c, a, id, action, reason)
		if err != nil {
			return err
		}
		counts[res.Outcome]++
		v.results = append(v.results, moneyviews.ResultRow{ID: id, Short: short(id), Href: base + url.PathEscape(id), Outcome: res.Outcome, Message: res.Message})
	}
	v.notice = p.t(c, "console.money.results.summary", map[string]any{"Changed": counts["changed"], "Unchanged": counts["unchanged"], "Refused": counts["refused"] + counts["not_found"]})
	v.reason = ""
	return p.renderQueue(c, a, v)
}

func dedupe(ids []string) []string {
	var out []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// redemptionView is one redemption's page, with what the last action did.
type redemptionView struct {
	status      int
	revealed    *redemptions.Destination
	reason      string
	reasonError string
	errMsg      string
	notice      string
}

func (p *Part) redemptionPage(c fiber.Ctx, a console.PanelAccess) error {
	return p.renderRedemption(c, a, redemptionView{status: fiber.StatusOK})
}

func (p *Part) renderRedemption(c fiber.Ctx, a console.PanelAccess, v redemptionView) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	r, events, err := p.d.Redemptions.PanelRedemption(c.Context(), a.Panel.ID, c.Params("id"))
	if errors.Is(err, redemptions.ErrNotFound) {
		return notFound(c)
	}
	if err != nil {
		return err
	}
	opts, err := p.d.Redemptions.PanelOptions(c.Context(), panel.ID)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, o := range opts {
		names[o.ID] = o.Names.In(panel.DefaultLanguage, panel.DefaultLanguage)
	}
	props := moneyviews.RedemptionProps{
		Shell: p.shell(c), Nav: p.nav(a, "redemptions"), ID: r.ID, Short: short(r.ID),
		CanReveal:  a.Can(console.ActionRevealPayout),
		CanApprove: redemptions.CanMove(r.Status, redemptions.StatusApproved),
		CanPay:     redemptions.CanMove(r.Status, redemptions.StatusPaid),
		CanReject:  redemptions.CanMove(r.Status, redemptions.StatusRejected),
		Reason:     v.reason, ReasonError: v.reasonError, Error: v.errMsg, Notice: v.notice,
	}
	refund := "—"
	if r.RefundEntryID != nil {
		refund = *r.RefundEntryID
	}
	fact := func(id, value string) moneyviews.Pair { return moneyviews.Pair{Label: p.t(c, id, nil), Value: value} }
	props.Facts = []moneyviews.Pair{
		fact("console.money.col.redemption", r.ID),
		fact("console.money.field.status", p.statusLabel(c, r.Status)),
		fact("console.money.col.member", r.ParticipantID),
		fact("console.money.field.option", optionName(names, r.OptionID)),
		fact("console.money.col.amount", money(r.AmountMinor, r.CurrencyCode)),
		fact("console.money.col.fee", money(r.FeeMinor, r.CurrencyCode)),
		fact("console.money.col.net", money(r.NetMinor, r.CurrencyCode)),
		fact("console.money.col.requested", stamp(r.CreatedAt)),
		fact("console.money.col.updated", stamp(r.UpdatedAt)),
		fact("console.money.col.destination", r.MaskedDestination().Summary()),
		fact("console.money.col.debit", r.EntryID),
		fact("console.money.col.refund", refund),
	}
	if v.revealed != nil {
		props.Revealed = p.destinationPairs(c, *v.revealed)
	}
	for _, e := range events {
		from := "—"
		if e.FromStatus != "" {
			from = p.statusLabel(c, e.FromStatus)
		}
		props.Events = append(props.Events, moneyviews.EventRow{At: stamp(e.CreatedAt), From: from, To: p.statusLabel(c, e.ToStatus), Operator: e.Operator, Reason: orDash(e.Reason)})
	}
	return p.m.Render(c, v.status, moneyviews.Redemption(props))
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// destinationPairs are the whole payout destination's fields that are set, labelled.
func (p *Part) destinationPairs(c fiber.Ctx, d redemptions.Destination) []moneyviews.Pair {
	var out []moneyviews.Pair
	for _, f := range [][2]string{
		{"kind", string(d.Kind)}, {"paypal_email", d.PayPalEmail}, {"email", d.Email}, {"account_holder", d.AccountHolder},
		{"iban", d.IBAN}, {"bic", d.BIC}, {"sort_code", d.SortCode}, {"routing_number", d.RoutingNumber},
		{"account_number", d.AccountNumber}, {"account_type", d.AccountType}, {"currency", d.Currency},
	} {
		if f[1] != "" {
			out = append(out, moneyviews.Pair{Label: p.t(c, "console.money.dest."+f[0], nil), Value: f[1]})
		}
	}
	return out
}

// actPage applies the button's action to one redemption and shows it again.
func (p *Part) actPage(c fiber.Ctx, a console.PanelAccess) error {
	action, reason := c.FormValue("action"), strings.TrimSpace(c.FormValue("reason"))
	v := redemptionView{status: fiber.StatusOK, reason: reason}
	switch {
	case actions[action] == "":
		v.status, v.errMsg = fiber.StatusUnprocessableEntity, p.t(c, "console.money.error.action", nil)
	case action == "reject" && reason == "":
		v.status, v.reasonError = fiber.StatusUnprocessableEntity, p.t(c, "console.money.error.reason_reject", nil)
		v.errMsg = v.reasonError
	}
	if v.errMsg != "" {
		return p.renderRedemption(c, a, v)
	}
	res, err := p.act(c, a, c.Params("id"), action, reason)
	if err != nil {
		return err
	}
	switch res.Outcome {
	case "not_found":
		return notFound(c)
	case "refused":
		v.status, v.errMsg = fiber.StatusConflict, res.Message
	default:
		v.notice, v.reason = res.Message, ""
	}
	return p.renderRedemption(c, a, v)
}

// revealPage shows a redemption's whole payout destination in this answer only (never
// cached), and records that it was revealed: which redemption, never the details.
func (p *Part) revealPage(c fiber.Ctx, a console.PanelAccess) error {
	_, d, err := p.reveal(c, a)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return p.renderRedemption(c, a, redemptionView{status: fiber.StatusOK, revealed: &d, notice: ""})
}

func (p *Part) reveal(c fiber.Ctx, a console.PanelAccess) (*redemptions.Redemption, redemptions.Destination, error) {
	r, d, err := p.d.Redemptions.RevealDestination(c.Context(), a.Panel.ID, c.Params("id"))
	if errors.Is(err, redemptions.ErrNotFound) {
		return nil, d, notFound(c)
	}
	if err != nil {
		return nil, d, err
	}
	if err := p.m.Audit(c, a.Panel.ID, "redemption.reveal_payout", r.ID, nil, map[string]any{"revealed": "payout details", "kind": d.Kind}); err != nil {
		return nil, d, err
	}
	return r, d, nil
}

// The JSON API.

type redemptionJSON struct {
	ID           string    `json:"id"`
	Status       string    `json:"status"`
	Option       string    `json:"option"`
	Kind         string    `json:"kind"`
	Amount       string    `json:"amount"`
	Fee          string    `json:"fee"`
	Net          string    `json:"net"`
	CurrencyCode string    `json:"currency_code"`
	Member       string    `json:"member"`
	Destination  string    `json:"destination"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
	RefundEntry  *string   `json:"refundTransactionUuid"`
}

func toJSON(r *redemptions.Redemption) redemptionJSON {
	return redemptionJSON{
		ID: r.ID, Status: string(r.Status), Option: r.OptionID, Kind: string(r.Kind), Amount: web.MoneyString(r.AmountMinor, r.CurrencyCode),
		Fee: web.MoneyString(r.FeeMinor, r.CurrencyCode), Net: web.MoneyString(r.NetMinor, r.CurrencyCode), CurrencyCode: r.CurrencyCode,
		Member: r.ParticipantID, Destination: r.MaskedDestination().Summary(), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		RefundEntry: r.RefundEntryID,
	}
}

func (p *Part) apiQueue(c fiber.Ctx, a console.PanelAccess) error {
	q := readQueue(func(k string) string { return c.Query(k) }, a.Panel.ID)
	var bad *web.Error
	for _, f := range []struct {
		bad  bool
		name string
		id   string
	}{{q.badStatus, "status", "console.money.error.status"}, {q.badFrom, "from", "console.money.error.date"}, {q.badTo, "to", "console.money.error.date"}} {
		if !f.bad {
			continue
		}
		if bad == nil {
			bad = web.Invalid(f.name, f.id, nil)
		} else {
			bad.Also(f.name, f.id, nil)
		}
	}
	if bad != nil {
		return bad
	}
	rows, more, err := p.d.Redemptions.Queue(c.Context(), q.filter)
	if err != nil {
		return err
	}
	out := make([]redemptionJSON, 0, len(rows))
	for i := range rows {
		out = append(out, toJSON(&rows[i]))
	}
	return c.JSON(fiber.Map{"redemptions": out, "page": q.page, "more": more})
}

type eventJSON struct {
	From     string    `json:"from"`
	To       string    `json:"to"`
	Operator string    `json:"operator"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
}

func (p *Part) apiRedemption(c fiber.Ctx, a console.PanelAccess) error {
	r, events, err := p.d.Redemptions.PanelRedemption(c.Context(), a.Panel.ID, c.Params("id"))
	if errors.Is(err, redemptions.ErrNotFound) {
		return web.NotFound()
	}
	if err != nil {
		return err
	}
	evs := make([]eventJSON, 0, len(events))
	for _, e := range events {
		evs = append(evs, eventJSON{From: string(e.FromStatus), To: string(e.ToStatus), Operator: e.Operator, Reason: e.Reason, At: e.CreatedAt.UTC()})
	}
	return c.JSON(fiber.Map{"redemption": toJSON(r), "events": evs})
}

type actBody struct {
	Reason string `json:"reason"`
}

// apiAct is one action on one redemption: 200 with whether it changed, 409 when the lifecycle
// forbids it, 404 for another panel's.
func (p *Part) apiAct(action string) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		var body actBody
		if len(c.Body()) > 0 {
			if err := web.DecodeJSON(c, &body); err != nil {
				return err
			}
		}
		body.Reason = strings.TrimSpace(body.Reason)
		if action == "reject" && body.Reason == "" {
			return web.Invalid("reason", "console.money.error.reason_reject", nil)
		}
		res, err := p.act(c, a, c.Params("id"), action, body.Reason)
		if err != nil {
			return err
		}
		switch res.Outcome {
		case "not_found":
			return web.NotFound()
		case "refused":
			return web.Literal(fiber.StatusConflict, res.Message).WithCode("refused")
		}
		r, _, err := p.d.Redemptions.PanelRedemption(c.Context(), a.Panel.ID, res.ID)
		if err != nil {
			return err
		}
		return c.JSON(fiber.Map{"redemption": toJSON(r), "changed": res.Outcome == "changed", "from": res.From, "message": res.Message})
	}
}

type bulkBody struct {
	IDs    []string `json:"ids"`
	Action string   `json:"action"`
	Reason string   `json:"reason"`
}

// apiBulk acts on many redemptions and answers what happened to each.
func (p *Part) apiBulk(c fiber.Ctx, a console.PanelAccess) error {
	var body bulkBody
	if err := web.DecodeJSON(c, &body); err != nil {
		return err
	}
	body.Reason = strings.TrimSpace(body.Reason)
	ids := dedupe(body.IDs)
	switch {
	case actions[body.Action] == "":
		return web.Invalid("action", "console.money.error.action", nil)
	case len(ids) == 0:
		return web.Invalid("ids", "console.money.error.none_selected", nil)
	case len(ids) > maxBulk:
		return web.Invalid("ids", "console.money.error.too_many", map[string]any{"Max": maxBulk})
	case body.Action == "reject" && body.Reason == "":
		return web.Invalid("reason", "console.money.error.reason_reject", nil)
	}
	out := make([]result, 0, len(ids))
	for _, id := range ids {
		res, err := p.act(c, a, id, body.Action, body.Reason)
		if err != nil {
			return err
		}
		out = append(out, res)
	}
	return c.JSON(fiber.Map{"results": out})
}

// apiReveal answers a redemption's whole payout destination, once per call, audited.
func (p *Part) apiReveal(c fiber.Ctx, a console.PanelAccess) error {
	r, d, err := p.reveal(c, a)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"redemption": r.ID, "destination": d})
}
