package wallet

import (
	"errors"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// WebError maps the ledger's errors to the spec's error catalogue; other modules that move
// money (redemptions) answer with it too.
func WebError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrInsufficientFunds):
		return web.Fail(fiber.StatusUnprocessableEntity, "error.insufficient_funds", nil).WithCode("insufficient_funds")
	case errors.Is(err, ErrAmount):
		return web.Invalid("amount", "error.amount_positive", nil)
	case errors.Is(err, web.ErrMoneyDecimals):
		return web.Invalid("amount", "error.amount_decimals", nil)
	case errors.Is(err, web.ErrMoneyFormat), errors.Is(err, web.ErrMoneyRange):
		return web.Invalid("amount", "error.amount_format", nil)
	case errors.Is(err, ErrCurrency):
		return web.Invalid("currency_code", "error.amount_currency", nil)
	case errors.Is(err, ErrKeyReused):
		return web.Fail(fiber.StatusConflict, "error.idempotency_key_reused", nil).WithCode("idempotency_key_reused")
	}
	return err
}

// transactionJSON is a transaction in the panel-instance API (spec section 3 "Transaction":
// transactionUuid, createdAt, month, year, origin), with its amount and what it was for. An
// offer's reversal and a recovery of its debt (origin offer) add debt and, for a reversal,
// reversesTransactionUuid.
type transactionJSON struct {
	TransactionUUID string    `json:"transactionUuid"`
	CreatedAt       time.Time `json:"createdAt"`
	Month           int       `json:"month"`
	Year            int       `json:"year"`
	Origin          Origin    `json:"origin"`
	Amount          string    `json:"amount"`
	Balance         string    `json:"balance"` // the balance after this transaction
	CurrencyCode    string    `json:"currency_code"`
	Competition     bool      `json:"competition"`
	CampaignUUID    *string   `json:"campaignUuid"`
	RedemptionID    *string   `json:"redemptionId"`
	Title           string    `json:"title"`
	Reason          string    `json:"reason,omitempty"`
	// Debt is what the entry added to the member's offer debt (a reversal) or, negative,
	// repaid of it (a recovery).
	Debt         string  `json:"debt,omitempty"`
	ReversesUUID *string `json:"reversesTransactionUuid,omitempty"`
}

func (m *Module) toJSON(c fiber.Ctx, e Entry) transactionJSON {
	at := e.CreatedAt.UTC()
	out := transactionJSON{
		TransactionUUID: e.ID, CreatedAt: at, Month: int(at.Month()), Year: at.Year(), Origin: e.Origin,
		Amount: web.MoneyString(e.AmountMinor, e.CurrencyCode), Balance: web.MoneyString(e.BalanceAfter, e.CurrencyCode),
		CurrencyCode: e.CurrencyCode, Competition: e.Competition, CampaignUUID: e.CampaignID, RedemptionID: e.RedemptionID,
		Title: e.Title, Reason: e.Reason, ReversesUUID: e.ReversesID,
	}
	if e.DebtMinor != 0 {
		out.Debt = web.MoneyString(e.DebtMinor, e.CurrencyCode)
	}
	if out.Title == "" && e.Origin == OriginOffer {
		// The wallet writes recoveries itself, untitled: the member reads them in their language.
		out.Title = m.kit.T(c, titleID(e), nil)
	}
	return out
}

func (m *Module) listJSON(c fiber.Ctx, entries []Entry) []transactionJSON {
	out := make([]transactionJSON, 0, len(entries))
	for _, e := range entries {
		out = append(out, m.toJSON(c, e))
	}
	return out
}

func participant(c fiber.Ctx) string { return web.MemberOf(c).ParticipantID }

// GET /api/v3/user/balance: {"balance":"25.00","currency_code":"USD"} (ARCHITECTURE.md section 4),
// with "formatted": "$25.00" in the member's language and, while an offer debt is open, "owed".
func (m *Module) apiBalance(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	w, err := m.walletOf(c, participant(c))
	if err != nil {
		return err
	}
	b := balanceOf(panel, w)
	// formatted is for people (the member's language); balance is the contract's decimal string.
	out := fiber.Map{"balance": web.MoneyString(b.Minor, b.Currency), "currency_code": b.Currency, "formatted": web.FormatMoney(b.Minor, b.Currency, web.LocaleOf(c))}
	if b.Owed > 0 {
		// Only with an open offer debt, which the balance repays before it grows.
		out["owed"] = web.MoneyString(b.Owed, b.Currency)
	}
	return c.JSON(out)
}

// apiQuery reads the spec's transactions/paged query: competitions=yes or redemptions=yes
// (never both), or page and pageSize (1..1000) with after (YYYY-MM-DD, inclusive) and
// before (YYYY-MM-DD, exclusive: the spec's client sends the day after its before date).
func apiQuery(c fiber.Ctx) (Query, error) {
	q := Query{Filter: FilterMostRecent}
	var bad *web.Error
	invalid := func(field, id string, data map[string]any) {
		if bad == nil {
			bad = web.Invalid(field, id, data)
		} else {
			bad.Also(field, id, data)
		}
	}
	yes := map[string]bool{}
	for _, name := range []string{"competitions", "redemptions"} {
		switch c.Query(name) {
		case "", "no":
		case "yes":
			yes[name] = true
		default:
			invalid(name, "error.yes_or_no", nil)
		}
	}
	switch {
	case yes["competitions"] && yes["redemptions"]:
		invalid("redemptions", "error.transactions_one_type", nil)
	case yes["competitions"]:
		q.Filter = FilterCompetitions
	case yes["redemptions"]:
		q.Filter = FilterRedemptions
	}
	var err error
	if q.Page, err = web.QueryInt(c, "page", 1); err != nil || q.Page < 1 {
		invalid("page", "error.page", nil)
	}
	if q.PageSize, err = web.QueryInt(c, "pageSize", DefaultPageSize); err != nil || q.PageSize < 1 || q.PageSize > MaxPageSize {
		invalid("pageSize", "error.transactions_page_size", map[string]any{"Max": MaxPageSize})
	}
	if q.After, err = ParseDay(c.Query("after")); err != nil {
		invalid("after", "error.date_format", nil)
	}
	if q.Before, err = ParseDay(c.Query("before")); err != nil {
		invalid("before", "error.date_format", nil)
	}
	if !q.After.IsZero() && !q.Before.IsZero() && !q.Before.After(q.After) {
		invalid("before", "error.date_order", nil)
	}
	if bad != nil {
		return q, bad
	}
	return q, nil
}

// GET /api/v3/transactions/paged
func (m *Module) apiPaged(c fiber.Ctx) error {
	q, err := apiQuery(c)
	if err != nil {
		return err
	}
	rows, more, err := m.Transactions(c.Context(), participant(c), q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"transactions": m.listJSON(c, rows), "page": q.Page, "pageSize": q.PageSize, "hasMore": more, "filter": q.Filter})
}

// GET /api/v3/transactions/full: the member's whole history by month (spec "Transaction
// month": month, year; a client fills each month's transactionDetails with transactions/paged,
// pageSize 1000, after the month's first day and before the next month's), with the month's
// number of transactions and totals. competitions=yes or redemptions=yes narrows it.
func (m *Module) apiFull(c fiber.Ctx) error {
	q, err := apiQuery(c)
	if err != nil {
		return err
	}
	months, err := m.Months(c.Context(), participant(c), q.Filter, q.After, q.Before)
	if err != nil {
		return err
	}
	currency := web.PanelOf(c).CurrencyCode
	type monthJSON struct {
		Month        int    `json:"month"`
		Year         int    `json:"year"`
		Transactions int    `json:"transactions"`
		Credited     string `json:"credited"`
		Debited      string `json:"debited"`
		CurrencyCode string `json:"currency_code"`
	}
	out := make([]monthJSON, 0, len(months))
	for _, s := range months {
		out = append(out, monthJSON{Month: s.Month, Year: s.Year, Transactions: s.Entries, Credited: web.MoneyString(s.Credited, currency), Debited: web.MoneyString(s.Debited, currency), CurrencyCode: currency})
	}
	return c.JSON(fiber.Map{"months": out, "filter": q.Filter})
}

// GET /api/v3/transactions/fixed-balance-transfers: the operator's manual entries, paged.
func (m *Module) apiTransfers(c fiber.Ctx) error {
	page, err := web.QueryInt(c, "page", 1)
	if err != nil || page < 1 {
		return web.Invalid("page", "error.page", nil)
	}
	size, err := web.QueryInt(c, "pageSize", DefaultPageSize)
	if err != nil || size < 1 || size > MaxPageSize {
		return web.Invalid("pageSize", "error.transactions_page_size", map[string]any{"Max": MaxPageSize})
	}
	rows, more, err := m.Transfers(c.Context(), participant(c), page, size)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"transactions": m.listJSON(c, rows), "page": page, "pageSize": size, "hasMore": more})
}

// ReportJSON is a transaction report in the API (spec "Transaction report": campaignUuid,
// transactionUuid, createdAt).
func (m *Module) ReportJSON(r TransactionReport) web.ReportJSON {
	return web.ReportJSON{ID: r.ID, CampaignUUID: r.CampaignID, TransactionUUID: &r.TransactionID, ReasonCode: r.ReasonCode, ReasonText: r.ReasonText, CreatedAt: r.CreatedAt, Recent: m.IsRecent(r)}
}

// POST /api/v3/transactions/{id}/report-broken {reasonCode, reasonText}: 201 with the new
// report, 200 with the earlier one when the member reported it within 61 days.
func (m *Module) apiReportBroken(c fiber.Ctx) error {
	return web.ReportBroken(c, func(in web.BrokenReport) (web.ReportJSON, bool, error) {
		r, created, err := m.Report(c.Context(), participant(c), c.Params("id"), in.ReasonCode, in.ReasonText)
		if err != nil {
			return web.ReportJSON{}, false, err
		}
		return m.ReportJSON(*r), created, nil
	})
}
