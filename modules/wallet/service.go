package wallet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Adjust is an operator's manual entry (`canvass ledger adjust`): a signed amount text in
// the panel's currency ("5.00" credits, "-5.00" debits) with a reason. key, when set, makes
// a retried command a no-op.
func (m *Module) Adjust(ctx context.Context, panel *web.Panel, participantID, amount, reason, operator, key string) (*Entry, bool, error) {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return nil, false, fmt.Errorf("a manual entry needs a reason")
	}
	minor, err := web.ParseMoney(amount, panel.CurrencyCode)
	if err != nil {
		return nil, false, fmt.Errorf("amount %s: %w", amount, err)
	}
	mv := Movement{Panel: panel, ParticipantID: participantID, Amount: minor, Currency: panel.CurrencyCode, Origin: OriginManual, Reason: reason, Operator: operator}
	if key != "" {
		mv.Key = "manual:" + key
	}
	if minor < 0 {
		mv.Amount = -minor
		return m.Debit(ctx, mv)
	}
	return m.Credit(ctx, mv)
}

// Payment is what the payment notification shows: the credits since the member last looked.
type Payment struct {
	Amount   int64
	Currency string
	UpTo     int64 // the last entry number included; dismissing marks up to it as seen
}

// header is what every private page shows of the wallet: the balance and, when credits
// arrived since the member last looked, the payment notification.
func (m *Module) header(ctx context.Context, panel *web.Panel, participantID string) (Balance, *Payment, error) {
	w, err := m.wallet(ctx, participantID)
	if err != nil {
		return Balance{Currency: panel.CurrencyCode}, nil, err
	}
	return m.headerOf(ctx, panel, w)
}

// headerOf is header for a wallet row already read (nil before the first entry).
func (m *Module) headerOf(ctx context.Context, panel *web.Panel, w *Wallet) (Balance, *Payment, error) {
	if w == nil || w.PanelID != panel.ID {
		return Balance{Currency: panel.CurrencyCode}, nil, nil
	}
	participantID := w.ParticipantID
	b := Balance{Minor: w.BalanceMinor, Currency: w.CurrencyCode}
	if w.EntryCount <= w.SeenSeq {
		return b, nil, nil
	}
	// The credits less what their recoveries took for an open offer debt (debt_minor < 0): the
	// notification tells what reached the balance, as the balance beside it shows. A credit that
	// went wholly to the debt is on the transactions page, not announced as a payment.
	var credited int64
	err := m.db.WithContext(ctx).Model(&Entry{}).Where("participant_id = ? AND seq > ? AND seq <= ? AND (amount_minor > 0 OR debt_minor < 0)", participantID, w.SeenSeq, w.EntryCount).
		Select("COALESCE(SUM(amount_minor), 0)").Scan(&credited).Error
	if err != nil {
		return b, nil, fmt.Errorf("sum new credits of %s: %w", participantID, err)
	}
	if credited <= 0 {
		return b, nil, nil
	}
	return b, &Payment{Amount: credited, Currency: w.CurrencyCode, UpTo: w.EntryCount}, nil
}

// MarkSeen records that the member has seen their entries up to upTo (0: all of them now).
// It never moves backwards, so an old notification's dismissal can't hide newer credits.
func (m *Module) MarkSeen(ctx context.Context, participantID string, upTo int64) error {
	q := m.db.WithContext(ctx).Model(&Wallet{}).Where("participant_id = ?", participantID)
	var err error
	if upTo <= 0 {
		err = q.Where("seen_seq < entry_count").Update("seen_seq", gorm.Expr("entry_count")).Error
	} else {
		err = q.Where("seen_seq < ? AND ? <= entry_count", upTo, upTo).Update("seen_seq", upTo).Error
	}
	if err != nil {
		return fmt.Errorf("mark payments seen for %s: %w", participantID, err)
	}
	return nil
}

// ReasonCodes are the reasons a member may give for a wrong transaction.
var ReasonCodes = []string{"missing_reward", "wrong_amount", "not_recognised", "other"}

// ReportRecency is the spec's window (under 61 days) in which a report counts as recent and
// a second report of the same transaction returns the first.
const ReportRecency = web.ReportRecency

// Report records a member's report that a transaction is wrong. created is false when the
// member reported it within the recency window; that report is returned.
func (m *Module) Report(ctx context.Context, participantID, transactionID, reasonCode, reasonText string) (*TransactionReport, bool, error) {
	in, err := web.BrokenReport{ReasonCode: reasonCode, ReasonText: reasonText}.Check(ReasonCodes)
	if err != nil {
		return nil, false, err
	}
	e, err := m.Entry(ctx, participantID, transactionID)
	if err != nil {
		return nil, false, err
	}
	now := m.now().UTC().Truncate(time.Microsecond)
	var out *TransactionReport
	created := false
	err = m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Two reports sent at once (a double click) must not both be new: the member's
		// wallet lock orders them, so the second finds the first.
		if _, err := lockWallet(tx, participantID); err != nil {
			return err
		}
		var prior TransactionReport
		err := tx.Where("participant_id = ? AND transaction_id = ? AND created_at > ?", participantID, e.ID, now.Add(-ReportRecency)).
			Order("created_at DESC").Take(&prior).Error
		if err == nil {
			out = &prior
			return nil
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		out = &TransactionReport{ID: uuid.NewString(), ParticipantID: participantID, TransactionID: e.ID, CampaignID: e.CampaignID, ReasonCode: in.ReasonCode, ReasonText: in.ReasonText, CreatedAt: now}
		created = true
		return tx.Create(out).Error
	})
	if err != nil {
		return nil, false, fmt.Errorf("report transaction %s: %w", transactionID, err)
	}
	return out, created, nil
}

// Reports lists the member's transaction reports, newest first.
func (m *Module) Reports(ctx context.Context, participantID string) ([]TransactionReport, error) {
	var out []TransactionReport
	if err := m.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("created_at DESC").Limit(200).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("load transaction reports of %s: %w", participantID, err)
	}
	return out, nil
}

// IsRecent tells whether a report is inside the spec's recency window.
func (m *Module) IsRecent(r TransactionReport) bool { return m.now().Sub(r.CreatedAt) < ReportRecency }

// Mismatch is a wallet whose cache disagrees with its entries.
type Mismatch struct {
	ParticipantID string
	Cached        int64
	Sum           int64
	CachedCount   int64
	Count         int64
	CachedOwed    int64 // the wallet's open offer debt
	Debt          int64 // the sum of the entries' debt_minor
}

// Reconcile checks every wallet (or one member's) against its entries: the cached balance
// equals the sum of the entries, the entry counter their number, the month counts add up to
// it too, and the open offer debt is the sum of the entries' debts.
func (m *Module) Reconcile(ctx context.Context, participantID string) ([]Mismatch, error) {
	q := `SELECT w.participant_id, w.balance_minor AS cached, COALESCE(e.total, 0) AS sum, w.entry_count AS cached_count, COALESCE(e.n, 0) AS count,
			w.owed_minor AS cached_owed, COALESCE(e.debt, 0) AS debt
		FROM wallets w
		LEFT JOIN (SELECT participant_id, SUM(amount_minor) AS total, COUNT(*) AS n, MAX(seq) AS top, SUM(debt_minor) AS debt FROM ledger_entries GROUP BY participant_id) e
			ON e.participant_id = w.participant_id
		LEFT JOIN (SELECT participant_id, SUM(entries) AS n, SUM(credited_minor) - SUM(debited_minor) AS net FROM ledger_months GROUP BY participant_id) mo
			ON mo.participant_id = w.participant_id
		WHERE (w.balance_minor <> COALESCE(e.total, 0) OR w.entry_count <> COALESCE(e.n, 0) OR COALESCE(e.top, 0) <> COALESCE(e.n, 0)
			OR COALESCE(mo.n, 0) <> COALESCE(e.n, 0) OR COALESCE(mo.net, 0) <> COALESCE(e.total, 0) OR w.owed_minor <> COALESCE(e.debt, 0))`
	args := []any{}
	if participantID != "" {
		q += ` AND w.participant_id = ?`
		args = append(args, participantID)
	}
	var out []Mismatch
	if err := m.db.WithContext(ctx).Raw(q, args...).Scan(&out).Error; err != nil {
		return nil, fmt.Errorf("reconcile wallets: %w", err)
	}
	return out, nil
}
