package redemptions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// RedeemInput is a member's request to redeem: an option, an amount in major units of the
// panel's currency, and the Idempotency-Key that makes a retried request happen once.
type RedeemInput struct {
	Panel         *web.Panel
	ParticipantID string
	Email         string // the member's account email: where a voucher is sent
	OptionID      string
	Amount        string
	Key           string
}

// MaxKeyLen bounds an Idempotency-Key (a UUID is 36 characters; clients may prefix theirs).
const MaxKeyLen = 128

// IdempotencyHeader names the header the redeem call requires.
const IdempotencyHeader = "Idempotency-Key"

// checkKey refuses a missing key, an overlong one, or one with characters other than
// printable ASCII (it goes into the ledger's natural key).
func checkKey(key string) error {
	switch {
	case key == "":
		return web.Invalid(IdempotencyHeader, "error.idempotency_key_required", nil).WithCode("idempotency_key_required")
	case len(key) > MaxKeyLen || strings.IndexFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0:
		return web.Invalid(IdempotencyHeader, "error.idempotency_key_format", map[string]any{"Max": MaxKeyLen}).WithCode("idempotency_key_invalid")
	}
	return nil
}

// requestHash identifies what was asked, so that the same key with another request is told
// from a replay. Amounts are compared in minor units: "20" and "20.00" are the same request.
func requestHash(optionID string, amount int64) string {
	sum := sha256.Sum256([]byte("redeem\x00" + optionID + "\x00" + strconv.FormatInt(amount, 10)))
	return hex.EncodeToString(sum[:])
}

func errKeyReused() *web.Error {
	return web.Fail(fiber.StatusConflict, "error.idempotency_key_reused", nil).WithCode("idempotency_key_reused")
}

// NotEligible is the 403 of a member whose eligibleToRedeem value does not allow redeeming;
// its code is the value itself, and the message says what to do.
func notEligible(value string) *web.Error {
	e := web.Fail(fiber.StatusForbidden, eligibilityMessage(value), nil).WithCode(value)
	e.Body = map[string]any{"eligibleToRedeem": value}
	return e
}

// eligibilityMessage is the message id that explains an eligibleToRedeem value.
func eligibilityMessage(value string) string {
	switch value {
	case "not-verified", "not-verified-mobile", "verified-too-recently", "reverify":
		return "redemptions.eligibility_" + strings.ReplaceAll(value, "-", "_")
	}
	return "redemptions.eligibility_other"
}

func belowMinimum(o *Option, currency string) *web.Error {
	min := web.MoneyString(o.MinimumMinor, currency)
	e := web.Fail(fiber.StatusUnprocessableEntity, "error.redeem_below_minimum", map[string]any{"Minimum": min, "Currency": currency}).WithCode("below_minimum")
	e.Details[0].Field = "amount"
	e.Body = map[string]any{"minimum": min, "currency_code": currency}
	return e
}

func notAboveFee(o *Option, currency string) *web.Error {
	fee := web.MoneyString(o.FeeMinor, currency)
	e := web.Fail(fiber.StatusUnprocessableEntity, "error.redeem_not_above_fee", map[string]any{"Fee": fee, "Currency": currency}).WithCode("amount_not_above_fee")
	e.Details[0].Field = "amount"
	e.Body = map[string]any{"fee": fee, "currency_code": currency}
	return e
}

// needsDetails is the 422 of an option whose payout details the member has not given; the
// detail names the call that stores them (paypal-data, bank-data).
func needsDetails(kind Kind) *web.Error {
	call := needsOf(kind)
	code := "needs_" + strings.ReplaceAll(call, "-", "_")
	e := web.Fail(fiber.StatusUnprocessableEntity, "error.redeem_"+code, nil).WithCode(code)
	e.Details[0].Field = call
	e.Body = map[string]any{"needs": call}
	return e
}

func unknownOption() *web.Error {
	return web.Invalid("redemptionId", "error.redemption_option_unknown", nil).WithCode("unknown_option")
}

// Redeem records a redemption and debits the member's balance in one transaction. created is
// false for a replay (the key was used before with the same request): the first redemption
// is returned and nothing changes. Every refusal writes nothing.
//
// Eligibility is asked before the transaction, not in it: the mobile module reads on its own
// connection, and a SQLite write transaction waiting for a second pooled connection while
// other writers hold the rest would stall until their busy timeout.
func (m *Module) Redeem(ctx context.Context, in RedeemInput) (*Redemption, bool, error) {
	panel := in.Panel
	if err := checkKey(in.Key); err != nil {
		return nil, false, err
	}
	optionID := strings.TrimSpace(in.OptionID)
	if optionID == "" {
		return nil, false, web.Invalid("redemptionId", "error.required", nil)
	}
	if strings.TrimSpace(in.Amount) == "" {
		return nil, false, web.Invalid("amount", "error.required", nil)
	}
	amount, err := web.ParseMoney(in.Amount, panel.CurrencyCode)
	if err != nil {
		return nil, false, wallet.WebError(err)
	}
	if amount <= 0 {
		return nil, false, wallet.WebError(wallet.ErrAmount)
	}
	hash := requestHash(optionID, amount)

	// A replay answers with the first redemption whatever changed since (balance,
	// eligibility, the option), so it is looked up before anything else is checked.
	if r, err := m.replay(m.store.db.WithContext(ctx), in.ParticipantID, in.Key, hash); r != nil || err != nil {
		return r, false, err
	}
	o, err := m.store.option(m.store.db.WithContext(ctx), panel.ID, optionID)
	if err != nil {
		return nil, false, err
	}
	if o == nil || !o.Enabled {
		return nil, false, unknownOption()
	}
	value, err := m.eligible(ctx, panel, in.ParticipantID)
	if err != nil {
		return nil, false, fmt.Errorf("eligibility of %s: %w", in.ParticipantID, err)
	}
	if !CanRedeem(value) {
		return nil, false, notEligible(value)
	}

	var out *Redemption
	created := false
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		out, created = nil, false
		// Another request with this key may have committed since the look-up above.
		if r, err := m.replay(tx, in.ParticipantID, in.Key, hash); r != nil || err != nil {
			out = r
			return err
		}
		o, err := m.store.option(tx, panel.ID, optionID)
		if err != nil {
			return err
		}
		if o == nil || !o.Enabled {
			return unknownOption()
		}
		if amount < o.MinimumMinor {
			return belowMinimum(o, panel.CurrencyCode)
		}
		if amount <= o.FeeMinor {
			// Unreachable while options keep minimum > fee (a CHECK of the table): the
			// second guard that a redemption never pays out nothing.
			return notAboveFee(o, panel.CurrencyCode)
		}
		dest, err := m.destination(tx, panel, in, o.Kind)
		if err != nil {
			return err
		}
		now := m.now().UTC().Truncate(timeUnit)
		r := &Redemption{
			ID: uuid.NewString(), PanelID: panel.ID, ParticipantID: in.ParticipantID, OptionID: o.ID, Kind: o.Kind,
			Status: StatusPending, AmountMinor: amount, FeeMinor: o.FeeMinor, NetMinor: amount - o.FeeMinor,
			CurrencyCode: strings.ToUpper(panel.CurrencyCode), IdempotencyKey: in.Key, RequestHash: hash,
			CreatedAt: now, UpdatedAt: now,
		}
		if err := m.sealDestination(r, dest); err != nil {
			return err
		}
		// The row goes in first: of two requests with one key, the second waits on the
		// unique key here and, once the first commits, starts again and finds it.
		if err := tx.Create(r).Error; err != nil {
			return fmt.Errorf("record redemption: %w", err)
		}
		if err := tx.Create(newEvent(r.ID, "", StatusPending, "member", "", now)).Error; err != nil {
			return fmt.Errorf("record redemption event: %w", err)
		}
		entry, moved, err := m.ledger.DebitTx(tx, wallet.Movement{
			Panel: panel, ParticipantID: in.ParticipantID, Amount: amount, Currency: panel.CurrencyCode,
			Origin: wallet.OriginRedeem, Key: "redeem:" + in.Key, RedemptionID: r.ID,
			Title: o.Names.In(panel.DefaultLanguage, panel.DefaultLanguage),
		})
		if err != nil {
			return err
		}
		if !moved {
			// The ledger already has this key without a redemption: something else used it.
			return errKeyReused()
		}
		r.EntryID = entry.ID
		if err := tx.Model(&Redemption{}).Where("id = ?", r.ID).Update("entry_id", entry.ID).Error; err != nil {
			return fmt.Errorf("link redemption %s to its debit: %w", r.ID, err)
		}
		out, created = r, true
		return nil
	})
	if err != nil {
		return nil, false, wallet.WebError(err)
	}
	if created {
		m.log.Info("redemption recorded", "redemption", out.ID, "panel", panel.Key, "option", out.OptionID,
			"amount", web.MoneyString(out.AmountMinor, out.CurrencyCode), "currency", out.CurrencyCode)
	}
	return out, created, nil
}

// replay finds an earlier redemption with the member's key: the same request returns it, any
// other request is refused.
func (m *Module) replay(db *gorm.DB, participantID, key, hash string) (*Redemption, error) {
	r, err := m.store.byKey(db, participantID, key)
	if err != nil || r == nil {
		return nil, err
	}
	if r.RequestHash != hash {
		return nil, errKeyReused()
	}
	return r, nil
}

// destination is where an option of a kind pays the member: their stored payout details, or
// for a voucher their account email.
func (m *Module) destination(tx *gorm.DB, panel *web.Panel, in RedeemInput, kind Kind) (Destination, error) {
	if kind == KindVoucher {
		if in.Email == "" {
			return Destination{}, fmt.Errorf("voucher for %s without an account email", in.ParticipantID)
		}
		return Destination{Kind: KindVoucher, Email: in.Email}, nil
	}
	d, err := m.detailsOn(tx, panel, in.ParticipantID, kind)
	if err != nil {
		return Destination{}, err
	}
	if d == nil {
		return Destination{}, needsDetails(kind)
	}
	return *d, nil
}

// sealDestination stores the destination on the redemption: masked for the member, whole and
// sealed for operators, as it was when the member asked (later changes don't redirect it).
func (m *Module) sealDestination(r *Redemption, d Destination) error {
	masked, err := json.Marshal(d.Masked())
	if err != nil {
		return fmt.Errorf("encode destination: %w", err)
	}
	whole, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encode destination: %w", err)
	}
	sealed, err := m.sealer.Seal(whole, redemptionBinding(r.ID))
	if err != nil {
		return err
	}
	r.DestinationMasked, r.DestinationSealed = string(masked), sealed
	return nil
}

// MaskedDestination is what the member may see of where a redemption's money goes.
func (r *Redemption) MaskedDestination() Destination {
	var d Destination
	if err := json.Unmarshal([]byte(r.DestinationMasked), &d); err != nil {
		return Destination{Kind: r.Kind}
	}
	return d
}

// FullDestination opens the sealed destination of a redemption (operators only).
func (m *Module) FullDestination(r *Redemption) (Destination, error) {
	plain, err := m.sealer.Open(r.DestinationSealed, redemptionBinding(r.ID))
	if err != nil {
		return Destination{}, fmt.Errorf("destination of redemption %s: %w", r.ID, err)
	}
	var d Destination
	if err := json.Unmarshal(plain, &d); err != nil {
		return Destination{}, fmt.Errorf("decode destination of redemption %s: %w", r.ID, err)
	}
	return d, nil
}

func newEvent(redemptionID string, from, to Status, operator, reason string, at time.Time) *Event {
	// Version 7 ids grow with time, so events of one instant still list in order.
	return &Event{ID: uuid.Must(uuid.NewV7()).String(), RedemptionID: redemptionID, FromStatus: from, ToStatus: to, Operator: operator, Reason: reason, CreatedAt: at}
}

// errConflict is a lost race that a new attempt resolves.
var errConflict = migrations.ErrConflict

// inTx runs fn in a transaction, again when it lost a race (migrations.InTx).
func (m *Module) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, m.store.db, fn)
}
