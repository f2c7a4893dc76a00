package offers

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Postback is what a provider's postback says (provider.go: the protocol).
type Postback struct {
	SubID         string
	TransactionID string
	OfferID       string
	OfferName     string
	Amount        string
	Currency      string
	Status        string
}

// PostbackRequest is one postback as it arrived.
type PostbackRequest struct {
	Panel        *web.Panel
	PathAndQuery string // the path with its raw query, exactly as received (the signature covers it)
	SourceIP     string
}

// postbackLimit is how many postbacks one source may send a minute. Providers send bursts
// after a campaign ends; a source past this is refused (429) and retries later.
const (
	postbackLimit  = 600
	postbackWindow = time.Minute
)

// maxField bounds every postback parameter.
const maxField = 200

// Refusal is a postback refused: its HTTP status, catalogue code and what it says.
type Refusal struct {
	Status int
	Code   string
	Field  string
}

func (r *Refusal) Error() string { return "postback refused: " + r.Code }

func refuse(status int, code, field string) *Refusal {
	return &Refusal{Status: status, Code: code, Field: field}
}

// Receive handles one postback: checks its source's rate, the panel's provider, the
// signature (constant time) and the parameters, then credits or reverses in one transaction
// with the outcome that makes a replay answer the same and move nothing. Every postback is
// recorded, accepted or refused, with the reason. It returns the JSON to answer with (200),
// or a *Refusal.
func (s *Service) Receive(ctx context.Context, req PostbackRequest) ([]byte, error) {
	rec := PostbackRecord{ID: uuid.NewString(), PanelID: &req.Panel.ID, SourceIP: req.SourceIP, Query: limited(req.PathAndQuery, 2000), CreatedAt: s.now().UTC()}
	body, replay, err := s.receive(ctx, req, &rec)
	rec.Replay = replay
	var refusal *Refusal
	switch {
	case err == nil:
		rec.Accepted, rec.HTTPStatus = true, 200
	case errors.As(err, &refusal):
		rec.Reason, rec.HTTPStatus = refusal.Code, refusal.Status
	default:
		rec.Reason, rec.HTTPStatus = limited("error: "+err.Error(), 500), 500
	}
	if rerr := s.store.RecordPostback(context.WithoutCancel(ctx), rec); rerr != nil {
		s.log.Error("offers: postback not recorded", "panel", req.Panel.Key, "transaction", rec.TransactionID, "err", rerr)
	}
	return body, err
}

func limited(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (s *Service) receive(ctx context.Context, req PostbackRequest, rec *PostbackRecord) ([]byte, bool, error) {
	if req.SourceIP != "" {
		hits, err := s.limiter.Hit(ctx, "offers-postback:"+req.SourceIP, postbackWindow)
		if err != nil {
			return nil, false, err
		}
		if hits > postbackLimit {
			return nil, false, refuse(429, "rate_limited", "")
		}
	}
	p, err := s.providerOf(ctx, req.Panel.ID)
	if err != nil {
		return nil, false, err
	}
	if p == nil {
		return nil, false, refuse(404, "no_offers_provider", "")
	}
	rec.AppID = p.cfg.AppID
	q := ""
	if i := strings.IndexByte(req.PathAndQuery, '?'); i >= 0 {
		q = req.PathAndQuery[i+1:]
	}
	values, perr := url.ParseQuery(q)
	pb := Postback{SubID: values.Get("sub_id"), TransactionID: values.Get("transaction_id"), OfferID: values.Get("offer_id"),
		OfferName: values.Get("offer_name"), Amount: values.Get("amount"), Currency: values.Get("currency"), Status: values.Get("status")}
	rec.TransactionID, rec.Status, rec.SubID, rec.Amount = limited(pb.TransactionID, maxField), limited(pb.Status, 20), limited(pb.SubID, maxField), limited(pb.Amount, 40)
	if err := VerifyPostback(req.PathAndQuery, p.cfg.PostbackSecret); err != nil {
		if errors.Is(err, ErrNoSignature) {
			return nil, false, refuse(401, "signature_missing", "signature")
		}
		return nil, false, refuse(403, "signature_invalid", "signature")
	}
	if perr != nil {
		return nil, false, refuse(400, "malformed_query", "")
	}
	amount, err := s.checkPostback(req.Panel, pb)
	if err != nil {
		return nil, false, err
	}
	var body []byte
	replay, held := false, false
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		body, replay, held = nil, false, false
		var prior Outcome
		err := tx.Where("panel_id = ? AND app_id = ? AND transaction_id = ? AND status = ?", req.Panel.ID, p.cfg.AppID, pb.TransactionID, pb.Status).Take(&prior).Error
		if err == nil {
			body, replay = []byte(prior.Response), true
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("look up postback outcome: %w", err)
		}
		if pb.Status == StatusCredited {
			// A credit held for review (or refused) answers its retries as it answered first:
			// it neither pays nor holds again.
			held, err := s.store.HoldOf(tx, req.Panel.ID, p.cfg.AppID, pb.TransactionID)
			if err != nil {
				return err
			}
			if held != nil {
				body, replay = []byte(held.Response), true
				return nil
			}
		}
		member, err := s.store.MemberBySubID(ctx, tx, pb.SubID)
		if err != nil {
			return err
		}
		if member == nil || member.PanelID != req.Panel.ID {
			return refuse(404, "unknown_member", "sub_id") // another panel's member is no member here
		}
		var out Outcome
		if pb.Status == StatusCredited && p.holds(amount, req.Panel.CurrencyCode) {
			h, err := s.hold(tx, req.Panel, p, member.ParticipantID, pb, amount)
			if err != nil {
				return err
			}
			body, held = []byte(h.Response), true
			return nil
		}
		if pb.Status == StatusCredited {
			out, err = s.credit(tx, req.Panel, p.cfg.AppID, member.ParticipantID, pb, amount)
		} else {
			out, err = s.reverse(tx, req.Panel, p.cfg.AppID, member.ParticipantID, pb)
		}
		if err != nil {
			return err
		}
		body = []byte(out.Response)
		// A concurrent copy of this postback that got here first makes this insert a duplicate:
		// the transaction starts again and answers as a replay.
		return tx.Create(&out).Error
	})
	if err != nil {
		var r *Refusal
		if pb.Status == StatusReversed && errors.As(err, &r) && r.Code == "nothing_to_reverse" {
			// A reversal of a credit still held for review: nothing was paid, so nothing is
			// taken back, and the hold is refused so no operator pays it later.
			s.refuseReversedHold(ctx, req.Panel, p.cfg.AppID, pb.TransactionID)
		}
		return nil, false, err
	}
	if held {
		rec.Reason = "held_for_review"
	}
	return body, replay, nil
}

// checkPostback checks the parameters and reads the amount in minor units.
func (s *Service) checkPostback(panel *web.Panel, pb Postback) (int64, error) {
	for field, v := range map[string]string{"sub_id": pb.SubID, "transaction_id": pb.TransactionID} {
		if strings.TrimSpace(v) == "" || len(v) > maxField {
			return 0, refuse(400, "missing_"+field, field)
		}
	}
	if len(pb.OfferID) > maxField || len(pb.OfferName) > maxField {
		return 0, refuse(400, "field_too_long", "offer_name")
	}
	if pb.Status != StatusCredited && pb.Status != StatusReversed {
		return 0, refuse(400, "invalid_status", "status")
	}
	if pb.Currency != "" && !strings.EqualFold(pb.Currency, panel.CurrencyCode) {
		return 0, refuse(400, "wrong_currency", "currency")
	}
	amount, err := web.ParseMoney(pb.Amount, panel.CurrencyCode)
	if err != nil || amount <= 0 {
		return 0, refuse(400, "invalid_amount", "amount")
	}
	return amount, nil
}

// credit pays the member and marks their row credited: the row they started for this offer,
// or a new one when the provider credits an offer they did not start here.
func (s *Service) credit(tx *gorm.DB, panel *web.Panel, appID, participantID string, pb Postback, amount int64) (Outcome, error) {
	now := s.now().UTC()
	var row Row
	err := tx.Where("participant_id = ? AND offer_id = ? AND status = ?", participantID, pb.OfferID, StatusPending).Order("started_at DESC").Take(&row).Error
	fresh := errors.Is(err, gorm.ErrRecordNotFound)
	if err != nil && !fresh {
		return Outcome{}, fmt.Errorf("find offer row: %w", err)
	}
	name := strings.TrimSpace(pb.OfferName)
	if name == "" {
		name = cmp.Or(row.Name, pb.OfferID)
	}
	entry, _, err := s.ledger.CreditTx(tx, wallet.Movement{
		Panel: panel, ParticipantID: participantID, Amount: amount, Currency: panel.CurrencyCode, Origin: wallet.OriginOffer,
		Key: wallet.OfferKey(appID, pb.TransactionID), Title: name,
	})
	if err != nil {
		return Outcome{}, fmt.Errorf("credit offer %s: %w", pb.TransactionID, err)
	}
	txID, entryID := pb.TransactionID, entry.ID
	if fresh {
		row = Row{ID: uuid.NewString(), ParticipantID: participantID, PanelID: panel.ID, OfferID: cmp.Or(pb.OfferID, pb.TransactionID),
			Kind: KindOffer, CurrencyCode: strings.ToUpper(panel.CurrencyCode)}
	}
	row.Name, row.RewardMinor, row.Status, row.TransactionID, row.EntryID, row.CreditedAt, row.UpdatedAt = name, amount, StatusCredited, &txID, &entryID, &now, now
	if err := tx.Save(&row).Error; err != nil {
		return Outcome{}, fmt.Errorf("mark offer row credited: %w", err)
	}
	return outcome(panel, appID, participantID, pb, row.ID, entry.ID, map[string]any{
		"status": StatusCredited, "transactionId": pb.TransactionID, "amount": web.MoneyString(amount, panel.CurrencyCode),
		"currency_code": strings.ToUpper(panel.CurrencyCode), "transactionUuid": entry.ID,
	}, now)
}

// reverse takes back a credited transaction (a chargeback): the wallet debits what the
// balance covers and keeps the rest as debt that later earnings repay (docs/members.md, Offers and games).
func (s *Service) reverse(tx *gorm.DB, panel *web.Panel, appID, participantID string, pb Postback) (Outcome, error) {
	now := s.now().UTC()
	var row Row
	err := tx.Where("panel_id = ? AND transaction_id = ? AND participant_id = ?", panel.ID, pb.TransactionID, participantID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Outcome{}, refuse(409, "nothing_to_reverse", "transaction_id")
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("find credited offer row: %w", err)
	}
	entry, owed, _, err := s.ledger.ReverseTx(tx, wallet.Reversal{
		Panel: panel, ParticipantID: participantID, OriginalKey: wallet.OfferKey(appID, pb.TransactionID),
		Key: wallet.OfferKey(appID, pb.TransactionID) + ":reversed", Title: row.Name,
	})
	if errors.Is(err, wallet.ErrNothingToReverse) {
		return Outcome{}, refuse(409, "nothing_to_reverse", "transaction_id")
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("reverse offer %s: %w", pb.TransactionID, err)
	}
	entryID := entry.ID
	row.Status, row.ReversalID, row.ReversedAt, row.UpdatedAt = StatusReversed, &entryID, &now, now
	if err := tx.Save(&row).Error; err != nil {
		return Outcome{}, fmt.Errorf("mark offer row reversed: %w", err)
	}
	return outcome(panel, appID, participantID, pb, row.ID, entry.ID, map[string]any{
		"status": StatusReversed, "transactionId": pb.TransactionID, "amount": web.MoneyString(row.RewardMinor, panel.CurrencyCode),
		"recovered": web.MoneyString(-entry.AmountMinor, panel.CurrencyCode),
		"owed":      web.MoneyString(owed, panel.CurrencyCode), "currency_code": strings.ToUpper(panel.CurrencyCode), "transactionUuid": entry.ID,
	}, now)
}

func outcome(panel *web.Panel, appID, participantID string, pb Postback, rowID, entryID string, answer map[string]any, now time.Time) (Outcome, error) {
	body, err := json.Marshal(answer)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{PanelID: panel.ID, AppID: appID, TransactionID: pb.TransactionID, Status: pb.Status, ParticipantID: participantID,
		RowID: rowID, EntryID: entryID, Response: string(body), CreatedAt: now}, nil
}
