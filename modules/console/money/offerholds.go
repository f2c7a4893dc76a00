package consolemoney

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/web"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
)

// Offer credits held for review (issue 31, item 10): a postback credit above the panel's
// credit ceiling (the offers provider's credit_ceiling, set with its credentials) is held, not
// paid. An owner or finance operator lists them and approves one (the member is paid then,
// once) or refuses it with a reason (nothing is paid). Both are audited.

// OfferHolds is what the part needs of the offers module.
type OfferHolds interface {
	Holds(ctx context.Context, panelID, status string, page int) ([]offers.CreditHold, bool, error)
	ApproveHold(ctx context.Context, panel *web.Panel, id, operator string) (*offers.CreditHold, bool, error)
	RefuseHold(ctx context.Context, panelID, id, operator, reason string) (*offers.CreditHold, bool, error)
	CreditCeiling(ctx context.Context, panelID string) (string, error)
}

var holdStatuses = []string{offers.HoldHeld, offers.HoldApproved, offers.HoldRefused}

// holdsQuery is the list's filter: a status ("held" unless another is asked; "all": any).
type holdsQuery struct {
	status string
	page   int
}

func readHolds(c fiber.Ctx) (holdsQuery, bool) {
	q := holdsQuery{status: strings.TrimSpace(c.Query("status", offers.HoldHeld))}
	ok := q.status == "all" || contains(holdStatuses, q.status)
	if !ok {
		q.status = offers.HoldHeld
	}
	q.page, _ = strconv.Atoi(c.Query("page"))
	q.page = max(q.page, 1)
	return q, ok
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// filter is the status the store is asked for ("" for any).
func (q holdsQuery) filter() string {
	if q.status == "all" {
		return ""
	}
	return q.status
}

func (q holdsQuery) url(base string, page int) string {
	v := url.Values{}
	v.Set("status", q.status)
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return base + "?" + v.Encode()
}

// holdsView is the list page with what the last action did.
type holdsView struct {
	status   int
	q        holdsQuery
	errMsg   string
	notice   string
	errRow   string // the hold whose refusal lacked a reason
	reason   string
	badQuery bool
}

func (p *Part) holdsBase(a console.PanelAccess) string {
	return "/console/panels/" + a.Panel.Key + "/offer-holds"
}

func (p *Part) holdsPage(c fiber.Ctx, a console.PanelAccess) error {
	q, ok := readHolds(c)
	v := holdsView{status: fiber.StatusOK, q: q}
	if !ok {
		v.status, v.errMsg = fiber.StatusUnprocessableEntity, p.t(c, "console.money.holds.error.status", nil)
	}
	switch c.Query("done") {
	case "approved", "refused", "unchanged":
		v.notice = p.t(c, "console.money.holds.done."+c.Query("done"), nil)
	}
	return p.renderHolds(c, a, v)
}

func (p *Part) holdStatusLabel(c fiber.Ctx, s string) string {
	return p.t(c, "console.money.holds.status."+s, nil)
}

func (p *Part) renderHolds(c fiber.Ctx, a console.PanelAccess, v holdsView) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	rows, more, err := p.d.Offers.Holds(c.Context(), panel.ID, v.q.filter(), v.q.page)
	if err != nil {
		return err
	}
	ceiling, err := p.d.Offers.CreditCeiling(c.Context(), panel.ID)
	if err != nil {
		return err
	}
	props := moneyviews.HoldsProps{Shell: p.shell(c), Nav: p.nav(a, "offer-holds"), Page: v.q.page, Error: v.errMsg, Notice: v.notice}
	if ceiling != "" {
		props.Ceiling = ceiling + " " + strings.ToUpper(panel.CurrencyCode)
	}
	for _, s := range holdStatuses {
		props.Statuses = append(props.Statuses, moneyviews.Choice{Value: s, Label: p.holdStatusLabel(c, s), Selected: s == v.q.status})
	}
	props.Statuses = append(props.Statuses, moneyviews.Choice{Value: "all", Label: p.t(c, "console.money.any", nil), Selected: v.q.status == "all"})
	base := p.holdsBase(a)
	for _, h := range rows {
		row := moneyviews.HoldRow{
			ID: h.ID, Short: short(h.ID), HeldAt: stamp(h.CreatedAt), Member: h.ParticipantID, Offer: holdOffer(h), TransactionID: h.TransactionID,
			Amount: money(h.AmountMinor, h.CurrencyCode), Status: h.Status, StatusLabel: p.holdStatusLabel(c, h.Status),
			CanResolve: h.Status == offers.HoldHeld, ApproveURL: base + "/" + url.PathEscape(h.ID) + "/approve", RefuseURL: base + "/" + url.PathEscape(h.ID) + "/refuse",
		}
		if h.ResolvedAt != nil {
			row.Resolution = p.t(c, "console.money.holds.resolved", map[string]any{"Who": h.ResolvedBy, "When": stamp(*h.ResolvedAt)})
			if h.Reason != "" {
				row.Resolution += " " + p.t(c, "console.money.holds.resolved_reason", map[string]any{"Reason": h.Reason})
			}
		}
		if h.ID == v.errRow {
			row.Reason, row.ReasonError = v.reason, true
		}
		props.Rows = append(props.Rows, row)
	}
	if v.q.page > 1 {
		props.PrevURL = v.q.url(base, v.q.page-1)
	}
	if more {
		props.NextURL = v.q.url(base, v.q.page+1)
	}
	return p.m.Render(c, v.status, moneyviews.Holds(props))
}

// holdOffer is the offer a hold is for: its name and the provider's id.
func holdOffer(h offers.CreditHold) string {
	switch {
	case h.OfferName != "" && h.OfferID != "" && h.OfferName != h.OfferID:
		return h.OfferName + " (" + h.OfferID + ")"
	case h.OfferName != "":
		return h.OfferName
	}
	return orDash(h.OfferID)
}

// resolveHold approves or refuses one of the panel's holds and audits a change. It answers
// the hold and whether it changed; refusals of the request come back as errors of the offers
// module (ErrNoHold, ErrHoldResolved, ErrHoldReason).
func (p *Part) resolveHold(c fiber.Ctx, a console.PanelAccess, id, action, reason string) (*offers.CreditHold, bool, error) {
	panel, err := p.panel(c, a)
	if err != nil {
		return nil, false, err
	}
	var h *offers.CreditHold
	var changed bool
	if action == "approve" {
		h, changed, err = p.d.Offers.ApproveHold(c.Context(), panel, id, operator(c))
	} else {
		h, changed, err = p.d.Offers.RefuseHold(c.Context(), panel.ID, id, operator(c), reason)
	}
	if err != nil || !changed {
		return h, false, err
	}
	after := map[string]any{"status": h.Status, "member": h.ParticipantID, "transaction_id": h.TransactionID,
		"amount": web.MoneyString(h.AmountMinor, h.CurrencyCode), "currency_code": h.CurrencyCode}
	if h.EntryID != nil {
		after["entry"] = *h.EntryID
	}
	if h.Reason != "" {
		after["reason"] = h.Reason
	}
	if err := p.m.Audit(c, a.Panel.ID, "offer_hold."+action, h.ID, map[string]any{"status": offers.HoldHeld}, after); err != nil {
		return h, true, err
	}
	return h, true, nil
}

// holdActPage is a hold's approve or refuse form: back to the list, with what happened.
func (p *Part) holdActPage(action string) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		id, reason := c.Params("id"), c.FormValue("reason")
		h, changed, err := p.resolveHold(c, a, id, action, reason)
		v := holdsView{q: holdsQuery{status: offers.HoldHeld, page: 1}}
		switch {
		case errors.Is(err, offers.ErrNoHold):
			return notFound(c)
		case errors.Is(err, offers.ErrHoldReason):
			v.status, v.errMsg, v.errRow = fiber.StatusUnprocessableEntity, p.t(c, "console.money.holds.error.reason", nil), id
			return p.renderHolds(c, a, v)
		case errors.Is(err, offers.ErrHoldResolved):
			v.status = fiber.StatusConflict
			v.errMsg = p.t(c, "console.money.holds.error.resolved", map[string]any{"Status": p.holdStatusLabel(c, h.Status)})
			return p.renderHolds(c, a, v)
		case err != nil:
			return err
		}
		done := "unchanged"
		if changed {
			done = map[string]string{"approve": "approved", "refuse": "refused"}[action]
		}
		return p.m.Redirect(c, p.holdsBase(a)+"?done="+done)
	}
}

// The JSON API.

type holdJSON struct {
	ID              string     `json:"id"`
	Member          string     `json:"member"`
	OfferID         string     `json:"offerId"`
	OfferName       string     `json:"offerName"`
	TransactionID   string     `json:"transactionId"`
	Amount          string     `json:"amount"`
	Ceiling         string     `json:"ceiling"`
	Currency        string     `json:"currency_code"`
	Status          string     `json:"status"`
	HeldAt          time.Time  `json:"heldAt"`
	ResolvedBy      *string    `json:"resolvedBy"`
	ResolvedAt      *time.Time `json:"resolvedAt"`
	Reason          *string    `json:"reason"`
	TransactionUUID *string    `json:"transactionUuid"`
}

func holdOf(h offers.CreditHold) holdJSON {
	j := holdJSON{ID: h.ID, Member: h.ParticipantID, OfferID: h.OfferID, OfferName: h.OfferName, TransactionID: h.TransactionID,
		Amount: web.MoneyString(h.AmountMinor, h.CurrencyCode), Ceiling: web.MoneyString(h.CeilingMinor, h.CurrencyCode),
		Currency: h.CurrencyCode, Status: h.Status, HeldAt: h.CreatedAt.UTC(), TransactionUUID: h.EntryID}
	if h.ResolvedAt != nil {
		at, by := h.ResolvedAt.UTC(), h.ResolvedBy
		j.ResolvedAt, j.ResolvedBy = &at, &by
	}
	if h.Reason != "" {
		r := h.Reason
		j.Reason = &r
	}
	return j
}

// GET /console/api/panels/:panel/offer-holds?status=held|approved|refused|all&page=N
func (p *Part) apiHolds(c fiber.Ctx, a console.PanelAccess) error {
	q, ok := readHolds(c)
	if !ok {
		return web.Invalid("status", "console.money.holds.error.status", nil)
	}
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	rows, more, err := p.d.Offers.Holds(c.Context(), panel.ID, q.filter(), q.page)
	if err != nil {
		return err
	}
	ceiling, err := p.d.Offers.CreditCeiling(c.Context(), panel.ID)
	if err != nil {
		return err
	}
	out := make([]holdJSON, 0, len(rows))
	for _, h := range rows {
		out = append(out, holdOf(h))
	}
	var ceil *string
	if ceiling != "" {
		ceil = &ceiling
	}
	return c.JSON(fiber.Map{"holds": out, "page": q.page, "more": more, "creditCeiling": ceil, "currency_code": strings.ToUpper(panel.CurrencyCode)})
}

type refuseBody struct {
	Reason string `json:"reason"`
}

// POST /console/api/panels/:panel/offer-holds/:id/approve and .../refuse: 200 with the hold and
// whether this call changed it; 404 for no such hold; 409 when it was resolved otherwise.
func (p *Part) apiHoldAct(action string) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		var body refuseBody
		if action == "refuse" {
			if err := web.DecodeJSON(c, &body); err != nil {
				return err
			}
		}
		h, changed, err := p.resolveHold(c, a, c.Params("id"), action, body.Reason)
		switch {
		case errors.Is(err, offers.ErrNoHold):
			return web.NotFound()
		case errors.Is(err, offers.ErrHoldReason):
			return web.Invalid("reason", "console.money.holds.error.reason", nil)
		case errors.Is(err, offers.ErrHoldResolved):
			return web.Fail(fiber.StatusConflict, "console.money.holds.error.resolved", map[string]any{"Status": h.Status}).WithCode("already_" + h.Status)
		case err != nil:
			return err
		}
		return c.JSON(fiber.Map{"hold": holdOf(*h), "changed": changed})
	}
}
