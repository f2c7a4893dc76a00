package redemptions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// next lists where each status may go: pending -> approved -> paid, and pending or
// approved -> rejected. Paid and rejected are final.
var next = map[Status][]Status{
	StatusPending:  {StatusApproved, StatusRejected},
	StatusApproved: {StatusPaid, StatusRejected},
}

// CanMove tells whether a redemption in one status may move to another.
func CanMove(from, to Status) bool { return slices.Contains(next[from], to) }

// TransitionError refuses a change the lifecycle does not allow.
type TransitionError struct {
	ID       string
	From, To Status
}

func (e *TransitionError) Error() string {
	verbs := map[Status]string{StatusApproved: "approved", StatusPaid: "marked paid", StatusRejected: "rejected"}
	if e.From == e.To {
		return fmt.Sprintf("redemption %s is already %s", e.ID, e.From)
	}
	allowed := "nothing: it is final"
	if n := next[e.From]; len(n) > 0 {
		var names []string
		for _, s := range n {
			names = append(names, string(s))
		}
		allowed = strings.Join(names, " or ")
	}
	return fmt.Sprintf("redemption %s is %s and can't be %s (from %s it can move to %s)", e.ID, e.From, verbs[e.To], e.From, allowed)
}

// ErrNotFound is an operator's redemption id that names no redemption.
var ErrNotFound = errors.New("no such redemption")

// ErrReasonRequired is an operator action without an operator or a reason.
var ErrReasonRequired = errors.New("an operator and a reason are required")

// Approve moves a pending redemption to approved.
func (m *Module) Approve(ctx context.Context, id, operator, reason string) (*Redemption, error) {
	return m.move(ctx, id, StatusApproved, operator, reason)
}

// MarkPaid records that an approved redemption was paid out.
func (m *Module) MarkPaid(ctx context.Context, id, operator, reason string) (*Redemption, error) {
	return m.move(ctx, id, StatusPaid, operator, reason)
}

// Reject refuses a pending or approved redemption and refunds its amount to the member in
// the same transaction (ledger key refund:<id>, so a redemption is refunded once).
func (m *Module) Reject(ctx context.Context, id, operator, reason string) (*Redemption, error) {
	return m.move(ctx, id, StatusRejected, operator, reason)
}

// move changes a redemption's status, records the event and, for a rejection, refunds. Of
// two operators acting at once, one applies and the other is refused: the status changes
// only where it is still the one read (UPDATE ... WHERE status = ?), and the loser's retry
// reads the winner's status.
func (m *Module) move(ctx context.Context, id string, to Status, operator, reason string) (*Redemption, error) {
	operator, reason = strings.TrimSpace(operator), strings.TrimSpace(reason)
	if operator == "" || reason == "" {
		return nil, ErrReasonRequired
	}
	r, err := m.store.redemption(m.store.db.WithContext(ctx), id)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	// What a refund needs is read before the transaction (see Redeem on SQLite's pool).
	var panel *web.Panel
	var title string
	if to == StatusRejected {
		if panel, err = m.panelByID(ctx, r.PanelID); err != nil {
			return nil, fmt.Errorf("panel of redemption %s: %w", id, err)
		}
		title = m.refundTitle(ctx, panel, r)
	}
	var out *Redemption
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		r, err := m.store.redemption(tx, id)
		if err != nil {
			return err
		}
		if !CanMove(r.Status, to) {
			return &TransitionError{ID: id, From: r.Status, To: to}
		}
		now := m.now().UTC().Truncate(timeUnit)
		moved, err := m.store.moveStatus(tx, id, r.Status, to, now)
		if err != nil {
			return err
		}
		if !moved {
			return errConflict
		}
		from := r.Status
		r.Status, r.UpdatedAt = to, now
		if to == StatusRejected {
			entry, _, err := m.ledger.CreditTx(tx, wallet.Movement{
				Panel: panel, ParticipantID: r.ParticipantID, Amount: r.AmountMinor, Currency: r.CurrencyCode,
				Origin: wallet.OriginRedeem, Key: "refund:" + r.ID, RedemptionID: r.ID,
				Title: title, Reason: reason, Operator: operator,
			})
			if err != nil {
				return fmt.Errorf("refund redemption %s: %w", id, err)
			}
			r.RefundEntryID = &entry.ID
			if err := tx.Model(&Redemption{}).Where("id = ?", id).Update("refund_entry_id", entry.ID).Error; err != nil {
				return fmt.Errorf("link redemption %s to its refund: %w", id, err)
			}
		}
		if err := tx.Create(newEvent(id, from, to, operator, reason, now)).Error; err != nil {
			return fmt.Errorf("record redemption event: %w", err)
		}
		out = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.log.Info("redemption moved", "redemption", id, "to", to, "operator", operator, "refunded", out.RefundEntryID != nil)
	return out, nil
}

// refundTitle is what the member reads for a refund in their transactions, in the panel's
// default language: "Refund: PayPal".
func (m *Module) refundTitle(ctx context.Context, panel *web.Panel, r *Redemption) string {
	name := r.OptionID
	if o, err := m.store.option(m.store.db.WithContext(ctx), r.PanelID, r.OptionID); err == nil && o != nil {
		name = o.Names.In(panel.DefaultLanguage, panel.DefaultLanguage)
	}
	return m.kit.Locales.Translate(panel.DefaultLanguage, "redemptions.refund_title", map[string]any{"Name": name}, nil)
}

// PanelByID resolves a redemption's panel (for operators' output).
func (m *Module) PanelByID(ctx context.Context, id string) (*web.Panel, error) {
	return m.panelByID(ctx, id)
}

// ListFilter narrows the operators' list.
type ListFilter struct {
	PanelID string
	Status  Status // empty: any
	Limit   int    // 0: 200
}

// List is the operators' queue: oldest first.
func (m *Module) List(ctx context.Context, f ListFilter) ([]Redemption, error) {
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		return nil, fmt.Errorf("status %q: want one of pending, approved, paid, rejected", f.Status)
	}
	if f.Limit <= 0 {
		f.Limit = 200
	}
	return m.store.list(ctx, f.PanelID, f.Status, f.Limit)
}

// Redemption loads one redemption for an operator, with its events.
func (m *Module) Redemption(ctx context.Context, id string) (*Redemption, []Event, error) {
	r, err := m.store.redemption(m.store.db.WithContext(ctx), id)
	if err != nil {
		return nil, nil, err
	}
	if r == nil {
		return nil, nil, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	events, err := m.store.events(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return r, events, nil
}

// MemberRedemptions lists a member's redemptions, newest first (at most limit).
func (m *Module) MemberRedemptions(ctx context.Context, participantID string, limit int) ([]Redemption, error) {
	return m.store.memberRedemptions(ctx, participantID, limit)
}

// MemberRedemption loads one of the member's own redemptions: another member's is not found.
func (m *Module) MemberRedemption(ctx context.Context, participantID, id string) (*Redemption, error) {
	r, err := m.store.redemption(m.store.db.WithContext(ctx), id)
	if err != nil {
		return nil, err
	}
	if r == nil || r.ParticipantID != participantID {
		return nil, fmt.Errorf("redemption %s of %s: %w", id, participantID, web.ErrNotFound)
	}
	return r, nil
}
