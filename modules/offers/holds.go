package offers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Credits held for review (issue 31, item 10): a panel's offers provider may carry a credit
// ceiling (Spec.CreditCeiling). A postback credit above it is not paid: it is held, once per
// (provider, transaction), until an operator (owner or finance, in the console) approves it,
// which pays the member once in the transaction that resolves the hold, or refuses it, which
// pays nothing and keeps who refused it and why. The provider's retries of a held postback get
// the first answer again and move nothing.

// Errors of the holds' review.
var (
	ErrNoHold       = errors.New("no such held credit")
	ErrHoldResolved = errors.New("the held credit was resolved otherwise")
	ErrHoldReason   = errors.New("a refusal needs a reason")
)

// MaxHoldReason bounds a refusal's reason.
const MaxHoldReason = 500

// HoldsPageSize is how many holds a page lists.
const HoldsPageSize = 50

// hold records a credit above the ceiling instead of paying it, in the postback's transaction.
// A concurrent copy of the postback that got here first makes the insert a duplicate: the
// transaction starts again and answers as a replay.
func (s *Service) hold(tx *gorm.DB, panel *web.Panel, p *panelProvider, participantID string, pb Postback, amount int64) (*CreditHold, error) {
	now := s.now().UTC()
	body, err := json.Marshal(map[string]any{
		"status": HoldHeld, "transactionId": pb.TransactionID, "amount": web.MoneyString(amount, panel.CurrencyCode),
		"currency_code": strings.ToUpper(panel.CurrencyCode),
	})
	if err != nil {
		return nil, err
	}
	h := &CreditHold{
		ID: uuid.NewString(), PanelID: panel.ID, AppID: p.cfg.AppID, TransactionID: pb.TransactionID, ParticipantID: participantID,
		OfferID: pb.OfferID, OfferName: strings.TrimSpace(pb.OfferName), AmountMinor: amount, CurrencyCode: strings.ToUpper(panel.CurrencyCode),
		CeilingMinor: *p.ceiling, Status: HoldHeld, Response: string(body), CreatedAt: now,
	}
	if err := tx.Create(h).Error; err != nil {
		return nil, fmt.Errorf("hold offer credit %s: %w", pb.TransactionID, err)
	}
	return h, nil
}

// CreditCeiling is the panel's credit ceiling in major units of its currency ("50.00"), ""
// when none is set.
func (s *Service) CreditCeiling(ctx context.Context, panelID string) (string, error) {
	row, err := s.store.Provider(ctx, panelID)
	if err != nil || row == nil || row.CreditCeilingMinor == nil {
		return "", err
	}
	return web.MoneyString(*row.CreditCeilingMinor, row.CreditCeilingCurrency), nil
}

// Holds is a page of the panel's holds in a status ("" for every status), newest first; more
// tells whether another page follows.
func (s *Service) Holds(ctx context.Context, panelID, status string, page int) ([]CreditHold, bool, error) {
	return s.store.Holds(ctx, panelID, status, max(page, 1), HoldsPageSize)
}

// Hold is one of the panel's holds; ErrNoHold when it has none with this id.
func (s *Service) Hold(ctx context.Context, panelID, id string) (*CreditHold, error) {
	h, err := s.store.Hold(ctx, panelID, id)
	if err == nil && h == nil {
		err = ErrNoHold
	}
	return h, err
}

// ApproveHold pays a held credit to its member, in the transaction that marks the hold
// approved by operator, and records the postback's outcome so the provider's later retries get
// the credited answer. Approving an approved hold changes nothing (changed is false); a refused
// one is ErrHoldResolved.
func (s *Service) ApproveHold(ctx context.Context, panel *web.Panel, id, operator string) (h *CreditHold, changed bool, err error) {
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		h, changed = nil, false
		var cur CreditHold
		if err := tx.Where("id = ? AND panel_id = ?", id, panel.ID).Take(&cur).Error; errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNoHold
		} else if err != nil {
			return fmt.Errorf("load held credit %s: %w", id, err)
		}
		h = &cur
		switch cur.Status {
		case HoldApproved:
			return nil
		case HoldRefused:
			return ErrHoldResolved
		}
		now := s.now().UTC()
		// Two approvals at once: the one that finds the hold no longer held starts again and
		// finds it approved.
		res := tx.Model(&CreditHold{}).Where("id = ? AND status = ?", cur.ID, HoldHeld).
			Updates(map[string]any{"status": HoldApproved, "resolved_by": operator, "resolved_at": now})
		if res.Error != nil {
			return fmt.Errorf("approve held credit %s: %w", id, res.Error)
		}
		if res.RowsAffected != 1 {
			return fmt.Errorf("approve held credit %s: %w", id, migrations.ErrConflict)
		}
		pb := Postback{SubID: "", TransactionID: cur.TransactionID, OfferID: cur.OfferID, OfferName: cur.OfferName, Status: StatusCredited}
		out, err := s.credit(tx, panel, cur.AppID, cur.ParticipantID, pb, cur.AmountMinor)
		if err != nil {
			return err
		}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&out).Error; err != nil {
			return fmt.Errorf("record outcome of held credit %s: %w", id, err)
		}
		if err := tx.Model(&CreditHold{}).Where("id = ?", cur.ID).Update("entry_id", out.EntryID).Error; err != nil {
			return fmt.Errorf("note entry of held credit %s: %w", id, err)
		}
		cur.Status, cur.ResolvedBy, cur.ResolvedAt, cur.EntryID = HoldApproved, operator, &now, &out.EntryID
		changed = true
		return nil
	})
	if err != nil {
		return h, false, err
	}
	return h, changed, nil
}

// RefuseHold refuses a held credit: nothing is paid; the hold keeps who refused it and why.
// Refusing a refused hold changes nothing (changed is false); an approved one is
// ErrHoldResolved.
func (s *Service) RefuseHold(ctx context.Context, panelID, id, operator, reason string) (h *CreditHold, changed bool, err error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, false, ErrHoldReason
	}
	if r := []rune(reason); len(r) > MaxHoldReason {
		reason = string(r[:MaxHoldReason])
	}
	err = s.inTx(ctx, func(tx *gorm.DB) error {
		h, changed = nil, false
		var cur CreditHold
		if err := tx.Where("id = ? AND panel_id = ?", id, panelID).Take(&cur).Error; errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrNoHold
		} else if err != nil {
			return fmt.Errorf("load held credit %s: %w", id, err)
		}
		h = &cur
		switch cur.Status {
		case HoldRefused:
			return nil
		case HoldApproved:
			return ErrHoldResolved
		}
		now := s.now().UTC()
		res := tx.Model(&CreditHold{}).Where("id = ? AND status = ?", cur.ID, HoldHeld).
			Updates(map[string]any{"status": HoldRefused, "resolved_by": operator, "reason": reason, "resolved_at": now})
		if res.Error != nil {
			return fmt.Errorf("refuse held credit %s: %w", id, res.Error)
		}
		if res.RowsAffected != 1 {
			return fmt.Errorf("refuse held credit %s: %w", id, migrations.ErrConflict)
		}
		cur.Status, cur.ResolvedBy, cur.Reason, cur.ResolvedAt = HoldRefused, operator, reason, &now
		changed = true
		return nil
	})
	if err != nil {
		return h, false, err
	}
	return h, changed, nil
}

// refuseReversedHold refuses a hold the provider reversed before an operator reviewed it. A
// refusal moves no money, so it needs no transaction with anything else; an approval that got
// there first keeps the hold approved (the provider's reversal of a paid credit then takes it
// back as any other).
func (s *Service) refuseReversedHold(ctx context.Context, panel *web.Panel, appID, transactionID string) {
	err := s.db.WithContext(context.WithoutCancel(ctx)).Model(&CreditHold{}).
		Where("panel_id = ? AND app_id = ? AND transaction_id = ? AND status = ?", panel.ID, appID, transactionID, HoldHeld).
		Updates(map[string]any{"status": HoldRefused, "resolved_by": "provider", "reason": "reversed by the provider before review", "resolved_at": s.now().UTC()}).Error
	if err != nil {
		s.log.Error("offers: held credit not refused after its reversal", "panel", panel.Key, "transaction", transactionID, "err", err)
	}
}

// refuseHoldsOf refuses a closing member's held credits, in the closing transaction: their
// balance goes with their account, so nothing is left to pay them.
func (s *Store) refuseHoldsOf(tx *gorm.DB, participantID string, now time.Time) error {
	err := tx.Model(&CreditHold{}).Where("participant_id = ? AND status = ?", participantID, HoldHeld).
		Updates(map[string]any{"status": HoldRefused, "resolved_by": "canvass", "reason": "the member's account was closed", "resolved_at": now}).Error
	if err != nil {
		return fmt.Errorf("refuse held credits of %s: %w", participantID, err)
	}
	return nil
}

// HoldOf is the hold of a provider's transaction, nil when none, read in tx.
func (s *Store) HoldOf(tx *gorm.DB, panelID, appID, transactionID string) (*CreditHold, error) {
	var h CreditHold
	err := tx.Where("panel_id = ? AND app_id = ? AND transaction_id = ?", panelID, appID, transactionID).Take(&h).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up held credit: %w", err)
	}
	return &h, nil
}

// Hold is one of the panel's holds, nil when none.
func (s *Store) Hold(ctx context.Context, panelID, id string) (*CreditHold, error) {
	var h CreditHold
	err := s.db.WithContext(ctx).Where("id = ? AND panel_id = ?", id, panelID).Take(&h).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load held credit %s: %w", id, err)
	}
	return &h, nil
}

// Holds is a page of the panel's holds in a status ("": any), newest first.
func (s *Store) Holds(ctx context.Context, panelID, status string, page, size int) ([]CreditHold, bool, error) {
	q := s.db.WithContext(ctx).Where("panel_id = ?", panelID)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var out []CreditHold
	if err := q.Order("created_at DESC, id").Offset((page - 1) * size).Limit(size + 1).Find(&out).Error; err != nil {
		return nil, false, fmt.Errorf("list held credits of %s: %w", panelID, err)
	}
	more := len(out) > size
	if more {
		out = out[:size]
	}
	return out, more, nil
}
