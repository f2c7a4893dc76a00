package redemptions

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// optionJSON is one entry of redemptions/settings: money as decimal strings in the panel's
// currency, texts in the member's language, and what the member still has to give ("needs":
// the account-host call, or null).
type optionJSON struct {
	ID           string  `json:"id"`
	Kind         Kind    `json:"kind"`
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	Minimum      string  `json:"minimum"`
	Fee          string  `json:"fee"`
	CurrencyCode string  `json:"currency_code"`
	Needs        *string `json:"needs"`
}

// redemptionJSON is a redemption in the API. redemptionId is the option (the contract's name
// for it in the redeem call); destination is masked.
type redemptionJSON struct {
	ID              string      `json:"id"`
	RedemptionID    string      `json:"redemptionId"`
	Kind            Kind        `json:"kind"`
	Status          Status      `json:"status"`
	Amount          string      `json:"amount"`
	Fee             string      `json:"fee"`
	Net             string      `json:"net"`
	CurrencyCode    string      `json:"currency_code"`
	CreatedAt       time.Time   `json:"createdAt"`
	TransactionUUID string      `json:"transactionUuid"`
	Destination     Destination `json:"destination"`
}

func toJSON(r *Redemption) redemptionJSON {
	return redemptionJSON{
		ID: r.ID, RedemptionID: r.OptionID, Kind: r.Kind, Status: r.Status,
		Amount: web.MoneyString(r.AmountMinor, r.CurrencyCode), Fee: web.MoneyString(r.FeeMinor, r.CurrencyCode),
		Net: web.MoneyString(r.NetMinor, r.CurrencyCode), CurrencyCode: r.CurrencyCode,
		CreatedAt: r.CreatedAt.UTC(), TransactionUUID: r.EntryID, Destination: r.MaskedDestination(),
	}
}

func participant(c fiber.Ctx) string { return web.MemberOf(c).ParticipantID }

// GET /api/{v1|v2}/{code}/redemptions/settings: the panel's enabled options, in order.
func (m *Module) apiSettings(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	list, err := m.Settings(c.Context(), panel, participant(c))
	if err != nil {
		return err
	}
	lang := web.LocaleOf(c)
	out := make([]optionJSON, 0, len(list))
	for _, s := range list {
		o := optionJSON{
			ID: s.ID, Kind: s.Kind, Name: s.Names.In(lang, panel.DefaultLanguage), Description: s.Descriptions.In(lang, panel.DefaultLanguage),
			Minimum: web.MoneyString(s.MinimumMinor, panel.CurrencyCode), Fee: web.MoneyString(s.FeeMinor, panel.CurrencyCode),
			CurrencyCode: panel.CurrencyCode,
		}
		if s.Needs != "" {
			o.Needs = &s.Needs
		}
		out = append(out, o)
	}
	return c.JSON(out)
}

// GET /api/{v1|v2}/{code}/redemptions/{id}/availability
func (m *Module) apiAvailability(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	a, err := m.Availability(c.Context(), panel, participant(c), c.Params("id"))
	if err != nil {
		return err
	}
	var needs *string
	if a.Needs != "" {
		needs = &a.Needs
	}
	return c.JSON(fiber.Map{
		"minimum": web.MoneyString(a.Option.MinimumMinor, a.Currency), "fee": web.MoneyString(a.Option.FeeMinor, a.Currency),
		"balance": web.MoneyString(a.Balance, a.Currency), "currency_code": a.Currency,
		"available": a.Available, "reason": a.Reason, "eligibleToRedeem": a.Eligibility, "needs": needs,
	})
}

// POST /api/v3/redemptions/redeem {"redemptionId","amount"} with an Idempotency-Key header:
// 201 with the new redemption, 200 with the first one when the same request is replayed.
func (m *Module) apiRedeem(c fiber.Ctx) error {
	// The key is checked before the body, so a client missing it hears about it first.
	if err := checkKey(c.Get(IdempotencyHeader)); err != nil {
		return err
	}
	var in struct {
		RedemptionID string          `json:"redemptionId"`
		Amount       json.RawMessage `json:"amount"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	amount, ok := amountText(in.Amount)
	if !ok {
		return web.Invalid("amount", "error.amount_format", nil)
	}
	member := web.MemberOf(c)
	r, created, err := m.Redeem(c.Context(), RedeemInput{
		Panel: web.PanelOf(c), ParticipantID: member.ParticipantID, Email: member.Email,
		OptionID: in.RedemptionID, Amount: amount, Key: c.Get(IdempotencyHeader),
	})
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return c.Status(status).JSON(toJSON(r))
}

// amountText reads the amount as the contract's decimal string; a JSON number is taken by its
// literal text (never through a float). A missing amount is "" (required).
func amountText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false
		}
		return s, true
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", false
	}
	return n.String(), true
}

// GET /api/v3/redemptions: the member's redemptions, newest first.
func (m *Module) apiList(c fiber.Ctx) error {
	list, err := m.MemberRedemptions(c.Context(), participant(c), historyLimit)
	if err != nil {
		return err
	}
	out := make([]redemptionJSON, 0, len(list))
	for i := range list {
		out = append(out, toJSON(&list[i]))
	}
	return c.JSON(fiber.Map{"redemptions": out})
}

// GET /api/v3/redemptions/{id}: one of the member's redemptions (another member's is a 404).
func (m *Module) apiRedemption(c fiber.Ctx) error {
	r, err := m.MemberRedemption(c.Context(), participant(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toJSON(r))
}

// historyLimit bounds the member's list of redemptions.
const historyLimit = 100

// GET /ah/api/v1/paypal-data: {"paypalEmail": "d***@example.com"}, or null without one.
func (m *Module) apiPayPal(c fiber.Ctx) error {
	d, err := m.Details(c.Context(), web.PanelOf(c), participant(c), KindPayPal)
	if err != nil {
		return err
	}
	return c.JSON(paypalJSON(d))
}

// POST /ah/api/v1/paypal-data {"paypalEmail"}
func (m *Module) apiSavePayPal(c fiber.Ctx) error {
	var in struct {
		PayPalEmail string `json:"paypalEmail"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	d, err := m.SavePayPal(c.Context(), web.PanelOf(c), participant(c), in.PayPalEmail)
	if err != nil {
		return err
	}
	return c.JSON(paypalJSON(&d))
}

func paypalJSON(d *Destination) fiber.Map {
	if d == nil {
		return fiber.Map{"paypalEmail": nil}
	}
	return fiber.Map{"paypalEmail": MaskEmail(d.PayPalEmail)}
}

// GET /ah/api/v1/bank-data: the fields of the panel's currency and the stored account,
// masked (null without one). A currency without bank transfer is a 422.
func (m *Module) apiBank(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	if !BankOffered(panel.CurrencyCode) {
		return errBankNotOffered(panel.CurrencyCode)
	}
	d, err := m.Details(c.Context(), panel, participant(c), KindBank)
	if err != nil {
		return err
	}
	return c.JSON(bankJSON(panel, d))
}

// POST /ah/api/v1/bank-data with the fields of the panel's currency: EUR accountHolder, iban,
// bic (optional); GBP accountHolder, sortCode, accountNumber; USD accountHolder,
// routingNumber, accountNumber, accountType.
func (m *Module) apiSaveBank(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	if !BankOffered(panel.CurrencyCode) {
		return errBankNotOffered(panel.CurrencyCode)
	}
	var in BankInput
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	d, err := m.SaveBank(c.Context(), panel, participant(c), in)
	if err != nil {
		return err
	}
	return c.JSON(bankJSON(panel, &d))
}

func bankJSON(panel *web.Panel, d *Destination) fiber.Map {
	out := fiber.Map{"currency_code": panel.CurrencyCode, "fields": BankFields[panel.CurrencyCode], "bankData": nil}
	if d != nil {
		out["bankData"] = d.Masked()
	}
	return out
}
