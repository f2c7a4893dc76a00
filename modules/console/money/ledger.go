package consolemoney

import (
	"errors"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	moneyviews "github.com/canvass/canvass/views/console/money"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
)

// recentEntries is how many of a member's entries the ledger page lists.
const recentEntries = 20

// findMember is the panel's member an operator names by email or participant id: "" when the
// panel has none by that name (another panel's member is none of theirs).
func (p *Part) findMember(c fiber.Ctx, panel *web.Panel, query string) (string, error) {
	query = strings.TrimSpace(query)
	if query == "" {
		return "", nil
	}
	if strings.Contains(query, "@") {
		return p.d.MemberByEmail(c.Context(), panel, query)
	}
	if _, err := uuid.Parse(query); err != nil {
		return "", nil
	}
	ok, err := p.d.Wallet.PanelMember(c.Context(), panel, strings.ToLower(query))
	if err != nil || !ok {
		return "", err
	}
	return strings.ToLower(query), nil
}

// ledgerView is the ledger page: the search, the member found, and the adjust form.
type ledgerView struct {
	status      int
	query       string
	member      string
	amount      string
	reason      string
	key         string
	amountError string
	reasonError string
	errMsg      string
	notice      string
}

func (p *Part) ledgerPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	v := ledgerView{status: fiber.StatusOK, query: c.Query("member")}
	if v.query != "" {
		if v.member, err = p.findMember(c, panel, v.query); err != nil {
			return err
		}
		if v.member == "" {
			v.status = fiber.StatusNotFound
		}
	}
	return p.renderLedger(c, a, panel, v)
}

func (p *Part) renderLedger(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, v ledgerView) error {
	props := moneyviews.LedgerProps{
		Shell: p.shell(c), Nav: p.nav(a, "ledger"), Query: v.query, Member: v.member, Currency: panel.CurrencyCode,
		Amount: v.amount, Reason: v.reason, Key: v.key, AmountError: v.amountError, ReasonError: v.reasonError,
		Error: v.errMsg, Notice: v.notice,
	}
	if v.query != "" && v.member == "" {
		props.QueryError = p.t(c, "console.money.error.no_member", nil)
	}
	if v.member != "" {
		if props.Key == "" {
			props.Key = uuid.NewString() // one per form shown: a double submit adjusts once
		}
		b, err := p.d.Wallet.Balance(c.Context(), panel, v.member)
		if err != nil {
			return err
		}
		props.Facts = []moneyviews.Pair{
			{Label: p.t(c, "console.money.col.member", nil), Value: v.member},
			{Label: p.t(c, "console.money.col.balance", nil), Value: money(b.Minor, b.Currency)},
		}
		if b.Owed > 0 {
			props.Facts = append(props.Facts, moneyviews.Pair{Label: p.t(c, "console.money.col.owed", nil), Value: money(b.Owed, b.Currency)})
		}
		entries, _, err := p.d.Wallet.Transactions(c.Context(), v.member, wallet.Query{Filter: wallet.FilterMostRecent, PageSize: recentEntries})
		if err != nil {
			return err
		}
		for _, e := range entries {
			props.Entries = append(props.Entries, moneyviews.EntryRow{
				At: stamp(e.CreatedAt), Title: orDash(e.Title), Origin: p.t(c, "console.money.origin."+string(e.Origin), nil),
				Amount: money(e.AmountMinor, e.CurrencyCode), BalanceAfter: money(e.BalanceAfter, e.CurrencyCode),
				Reason: orDash(e.Reason), Operator: orDash(e.Operator),
			})
		}
	}
	return p.m.Render(c, v.status, moneyviews.Ledger(props))
}

// adjustment is an operator's adjustment as sent by the form or the API.
type adjustment struct {
	Member string `json:"member"`
	Amount string `json:"amount"`
	Reason string `json:"reason"`
	Key    string `json:"key"`
}

// adjusted is what an adjustment did, or why it was refused (field: which input is wrong).
type adjusted struct {
	entry   *wallet.Entry
	created bool
	balance wallet.Balance
	field   string
	msgID   string
	status  int
}

// adjust makes one adjustment, once per key, and audits it when it moved money.
func (p *Part) adjust(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, memberID string, in adjustment) (adjusted, error) {
	in.Amount, in.Reason, in.Key = strings.TrimSpace(in.Amount), strings.TrimSpace(in.Reason), strings.TrimSpace(in.Key)
	bad := func(field, id string, status int) (adjusted, error) {
		return adjusted{field: field, msgID: id, status: status}, nil
	}
	minor, err := web.ParseMoney(in.Amount, panel.CurrencyCode)
	switch {
	case in.Amount == "" || err != nil:
		return bad("amount", "console.money.error.amount", fiber.StatusUnprocessableEntity)
	case minor == 0:
		return bad("amount", "console.money.error.amount_zero", fiber.StatusUnprocessableEntity)
	case in.Reason == "":
		return bad("reason", "console.money.error.reason", fiber.StatusUnprocessableEntity)
	case in.Key == "" || len(in.Key) > 100:
		return bad("key", "console.money.error.key", fiber.StatusUnprocessableEntity)
	}
	before, err := p.d.Wallet.Balance(c.Context(), panel, memberID)
	if err != nil {
		return adjusted{}, err
	}
	e, created, err := p.d.Wallet.Adjust(c.Context(), panel, memberID, in.Amount, in.Reason, operator(c), in.Key)
	switch {
	case errors.Is(err, wallet.ErrInsufficientFunds):
		return bad("amount", "console.money.error.insufficient", fiber.StatusConflict)
	case errors.Is(err, wallet.ErrKeyReused):
		return bad("key", "console.money.error.key_reused", fiber.StatusConflict)
	case err != nil:
		return adjusted{}, err
	}
	after, err := p.d.Wallet.Balance(c.Context(), panel, memberID)
	if err != nil {
		return adjusted{}, err
	}
	if created {
		err := p.m.Audit(c, a.Panel.ID, "ledger.adjust", memberID,
			map[string]any{"balance": web.MoneyString(before.Minor, before.Currency)},
			map[string]any{"balance": web.MoneyString(e.BalanceAfter, e.CurrencyCode), "amount": web.MoneyString(e.AmountMinor, e.CurrencyCode), "reason": in.Reason, "entry": e.ID})
		if err != nil {
			return adjusted{}, err
		}
	}
	return adjusted{entry: e, created: created, balance: after}, nil
}

func (p *Part) adjustPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	in := adjustment{Member: c.FormValue("member"), Amount: c.FormValue("amount"), Reason: c.FormValue("reason"), Key: c.FormValue("key")}
	member, err := p.findMember(c, panel, in.Member)
	if err != nil {
		return err
	}
	if member == "" {
		return notFound(c)
	}
	res, err := p.adjust(c, a, panel, member, in)
	if err != nil {
		return err
	}
	v := ledgerView{status: fiber.StatusOK, query: member, member: member}
	if res.msgID != "" {
		v.status, v.amount, v.reason, v.key = res.status, in.Amount, in.Reason, in.Key
		msg := p.t(c, res.msgID, nil)
		switch res.field {
		case "amount":
			v.amountError = msg
		case "reason":
			v.reasonError = msg
		}
		v.errMsg = msg
		if res.field == "key" {
			v.key = "" // a fresh key: this form's was spent on another adjustment
		}
		return p.renderLedger(c, a, panel, v)
	}
	id := "console.money.ledger.recorded"
	if !res.created {
		id = "console.money.ledger.already"
	}
	v.notice = p.t(c, id, map[string]any{"Amount": money(res.entry.AmountMinor, res.entry.CurrencyCode), "Balance": money(res.balance.Minor, res.balance.Currency)})
	return p.renderLedger(c, a, panel, v)
}

// The JSON API.

type entryJSON struct {
	ID           string    `json:"transactionUuid"`
	Amount       string    `json:"amount"`
	BalanceAfter string    `json:"balanceAfter"`
	CurrencyCode string    `json:"currency_code"`
	Origin       string    `json:"origin"`
	Title        string    `json:"title"`
	Reason       string    `json:"reason"`
	Operator     string    `json:"operator"`
	CreatedAt    time.Time `json:"createdAt"`
}

func entryToJSON(e wallet.Entry) entryJSON {
	return entryJSON{
		ID: e.ID, Amount: web.MoneyString(e.AmountMinor, e.CurrencyCode), BalanceAfter: web.MoneyString(e.BalanceAfter, e.CurrencyCode),
		CurrencyCode: e.CurrencyCode, Origin: string(e.Origin), Title: e.Title, Reason: e.Reason, Operator: e.Operator, CreatedAt: e.CreatedAt.UTC(),
	}
}

func (p *Part) apiLedger(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	if strings.TrimSpace(c.Query("member")) == "" {
		return web.Invalid("member", "console.money.error.member", nil)
	}
	member, err := p.findMember(c, panel, c.Query("member"))
	if err != nil {
		return err
	}
	if member == "" {
		return web.NotFound()
	}
	b, err := p.d.Wallet.Balance(c.Context(), panel, member)
	if err != nil {
		return err
	}
	entries, _, err := p.d.Wallet.Transactions(c.Context(), member, wallet.Query{Filter: wallet.FilterMostRecent, PageSize: recentEntries})
	if err != nil {
		return err
	}
	out := make([]entryJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, entryToJSON(e))
	}
	return c.JSON(fiber.Map{"member": member, "balance": web.MoneyString(b.Minor, b.Currency), "currency_code": b.Currency, "entries": out})
}

// apiAdjust adjusts a member's balance once per key: 201 when it moved money, 200 with the
// first entry when the key was used for this adjustment before.
func (p *Part) apiAdjust(c fiber.Ctx, a console.PanelAccess) error {
	panel, err := p.panel(c, a)
	if err != nil {
		return err
	}
	var in adjustment
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Member) == "" {
		return web.Invalid("member", "console.money.error.member", nil)
	}
	member, err := p.findMember(c, panel, in.Member)
	if err != nil {
		return err
	}
	if member == "" {
		return web.NotFound()
	}
	res, err := p.adjust(c, a, panel, member, in)
	if err != nil {
		return err
	}
	if res.msgID != "" {
		if res.status == fiber.StatusConflict {
			return web.Fail(fiber.StatusConflict, res.msgID, nil).WithCode(strings.TrimPrefix(res.msgID, "console.money.error."))
		}
		return web.Invalid(res.field, res.msgID, nil)
	}
	status := fiber.StatusOK
	if res.created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(fiber.Map{"created": res.created, "entry": entryToJSON(*res.entry), "member": member, "balance": web.MoneyString(res.balance.Minor, res.balance.Currency), "currency_code": res.balance.Currency})
}
