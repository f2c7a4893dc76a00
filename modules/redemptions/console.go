package redemptions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// The operator console's money part (issue 21, part 4) works the queue through these: a
// panel's redemptions filtered and paged, one of them with its history, idempotent actions,
// the reveal of a payout destination, and the paid redemptions of a period.

// QueuePageSize is how many redemptions a page of the console's queue lists.
const QueuePageSize = 50

// QueueFilter narrows a panel's redemption queue.
type QueueFilter struct {
	PanelID  string
	Status   Status    // empty: any
	OptionID string    // empty: any
	From     time.Time // requested at or after; zero: no lower bound
	To       time.Time // requested before; zero: no upper bound
	Page     int       // from 1
	PageSize int       // 0: QueuePageSize
}

// Queue is one page of a panel's redemptions, newest first, and whether more follow.
func (m *Module) Queue(ctx context.Context, f QueueFilter) ([]Redemption, bool, error) {
	if f.PanelID == "" {
		return nil, false, errors.New("a queue needs its panel")
	}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		return nil, false, fmt.Errorf("status %q: want one of pending, approved, paid, rejected", f.Status)
	}
	if f.Page < 1 {
		f.Page = 1
	}
	if f.PageSize <= 0 || f.PageSize > 500 {
		f.PageSize = QueuePageSize
	}
	q := m.store.db.WithContext(ctx).Where("panel_id = ?", f.PanelID)
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.OptionID != "" {
		q = q.Where("option_id = ?", f.OptionID)
	}
	if !f.From.IsZero() {
		q = q.Where("created_at >= ?", f.From.UTC())
	}
	if !f.To.IsZero() {
		q = q.Where("created_at < ?", f.To.UTC())
	}
	var out []Redemption
	// One row more than the page tells whether another follows.
	if err := q.Order("created_at DESC, id DESC").Limit(f.PageSize + 1).Offset((f.Page - 1) * f.PageSize).Find(&out).Error; err != nil {
		return nil, false, fmt.Errorf("redemption queue of panel %s: %w", f.PanelID, err)
	}
	more := len(out) > f.PageSize
	if more {
		out = out[:f.PageSize]
	}
	return out, more, nil
}

// PanelRedemption loads one of a panel's redemptions with its events; another panel's (or no
// redemption) is ErrNotFound, so an operator never learns what other panels hold.
func (m *Module) PanelRedemption(ctx context.Context, panelID, id string) (*Redemption, []Event, error) {
	r, err := m.store.redemption(m.store.db.WithContext(ctx), id)
	if err != nil {
		return nil, nil, err
	}
	if r == nil || r.PanelID != panelID {
		return nil, nil, fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	events, err := m.store.events(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return r, events, nil
}

// PanelOptions lists every option of a panel, enabled or not, in order (the queue's filter:
// old redemptions may name an option since disabled).
func (m *Module) PanelOptions(ctx context.Context, panelID string) ([]Option, error) {
	return m.store.options(ctx, panelID, false)
}

// Outcome is what an operator's action did to one redemption.
type Outcome struct {
	Redemption *Redemption // as it is now
	From       Status      // its status before
	Changed    bool        // false: it already had the status asked for, and nothing changed
}

// Act moves one of a panel's redemptions to a status (approved, paid or rejected: a rejection
// refunds the member), idempotently: a redemption already in that status is left alone and
// reported unchanged. A move the lifecycle forbids is a *TransitionError; another panel's
// redemption ErrNotFound.
func (m *Module) Act(ctx context.Context, panelID, id string, to Status, operator, reason string) (Outcome, error) {
	if to != StatusApproved && to != StatusPaid && to != StatusRejected {
		return Outcome{}, fmt.Errorf("no action leads to %q", to)
	}
	r, _, err := m.PanelRedemption(ctx, panelID, id)
	if err != nil {
		return Outcome{}, err
	}
	if r.Status == to {
		return Outcome{Redemption: r, From: to}, nil
	}
	moved, err := m.move(ctx, id, to, operator, reason)
	var te *TransitionError
	if errors.As(err, &te) && te.From == to {
		// Another operator moved it there since it was read: the same end, nothing changed here.
		now, _, lerr := m.PanelRedemption(ctx, panelID, id)
		if lerr != nil {
			return Outcome{}, lerr
		}
		return Outcome{Redemption: now, From: to}, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Redemption: moved, From: r.Status, Changed: true}, nil
}

// RevealDestination opens the whole payout destination of one of a panel's redemptions, for a
// finance operator's explicit reveal (the caller audits it).
func (m *Module) RevealDestination(ctx context.Context, panelID, id string) (*Redemption, Destination, error) {
	r, _, err := m.PanelRedemption(ctx, panelID, id)
	if err != nil {
		return nil, Destination{}, err
	}
	d, err := m.FullDestination(r)
	if err != nil {
		return nil, Destination{}, err
	}
	return r, d, nil
}

// Payout is one redemption paid out, at the time it was marked paid.
type Payout struct {
	RedemptionID string
	OptionID     string
	AmountMinor  int64
	FeeMinor     int64
	NetMinor     int64
	CurrencyCode string
	PaidAt       time.Time
}

// Payouts lists a panel's redemptions marked paid in [from, to), oldest first.
func (m *Module) Payouts(ctx context.Context, panelID string, from, to time.Time) ([]Payout, error) {
	var out []Payout
	err := m.store.db.WithContext(ctx).Table("redemption_events AS e").
		Select("r.id AS redemption_id, r.option_id, r.amount_minor, r.fee_minor, r.net_minor, r.currency_code, e.created_at AS paid_at").
		Joins("JOIN redemptions r ON r.id = e.redemption_id").
		Where("r.panel_id = ? AND e.to_status = ? AND e.created_at >= ? AND e.created_at < ?", panelID, StatusPaid, from.UTC(), to.UTC()).
		Order("e.created_at, r.id").Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("payouts of panel %s: %w", panelID, err)
	}
	return out, nil
}
