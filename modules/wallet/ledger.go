package wallet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Movement is one credit or debit asked of the ledger.
type Movement struct {
	Panel         *web.Panel // the member's panel: the wallet keeps its currency
	ParticipantID string
	Amount        int64  // minor units, always positive: Credit adds it, Debit takes it
	Currency      string // must be the panel's currency
	Origin        Origin
	// Key makes the movement happen once per member: a second movement with the same key
	// returns the first entry (campaign:<uuid> for a completion, redeem:<idempotency key>).
	Key          string
	CampaignID   string
	RedemptionID string
	Competition  bool
	Title        string // what the member reads in the transactions list
	Reason       string // an operator's reason (manual entries)
	Operator     string
}

// CampaignKey is the natural key of a campaign's completion credit: one per member.
func CampaignKey(campaignID string) string { return "campaign:" + campaignID }

// Errors of the ledger; handlers map them to the spec's error shape in errors.go.
var (
	ErrInsufficientFunds = errors.New("the balance does not cover the amount")
	ErrAmount            = errors.New("the amount must be more than zero")
	ErrCurrency          = errors.New("the amount is not in the panel's currency")
	ErrKeyReused         = errors.New("the key was used for a different movement")
	ErrOrigin            = errors.New("unknown origin")
)

// Credit adds mv.Amount to the member's balance in its own transaction. created is false
// when an entry with mv.Key already existed; that entry is returned and nothing moves.
func (m *Module) Credit(ctx context.Context, mv Movement) (entry *Entry, created bool, err error) {
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		entry, created, err = m.CreditTx(tx, mv)
		return err
	})
	return entry, created, err
}

// Debit takes mv.Amount from the member's balance in its own transaction, only if the
// balance covers it (checked under the wallet's lock, in the transaction that writes it).
func (m *Module) Debit(ctx context.Context, mv Movement) (entry *Entry, created bool, err error) {
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		entry, created, err = m.DebitTx(tx, mv)
		return err
	})
	return entry, created, err
}

// CreditTx is Credit inside the caller's transaction (the survey engine completes a
// participation and pays it in one transaction).
func (m *Module) CreditTx(tx *gorm.DB, mv Movement) (*Entry, bool, error) { return m.move(tx, mv, +1) }

// DebitTx is Debit inside the caller's transaction (a redemption records itself and
// debits in one transaction).
func (m *Module) DebitTx(tx *gorm.DB, mv Movement) (*Entry, bool, error) { return m.move(tx, mv, -1) }

// Record writes an entry that moves no money, in its own transaction: see RecordTx.
func (m *Module) Record(ctx context.Context, mv Movement) (entry *Entry, created bool, err error) {
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		entry, created, err = m.RecordTx(tx, mv)
		return err
	})
	return entry, created, err
}

// RecordTx writes an entry of amount zero inside the caller's transaction: a competition
// entered, or a prize that is not money, belongs in the member's history (transactions with
// competitions=yes) without touching the balance. mv.Amount must be 0 and mv.Competition set.
func (m *Module) RecordTx(tx *gorm.DB, mv Movement) (*Entry, bool, error) {
	if !mv.Competition {
		return nil, false, fmt.Errorf("record %q: only competition entries move no money: %w", mv.Key, ErrAmount)
	}
	return m.move(tx, mv, 0)
}

func (mv Movement) check(sign int64) error {
	switch {
	case mv.Panel == nil || mv.ParticipantID == "":
		return fmt.Errorf("movement without a panel or member")
	case sign == 0 && mv.Amount != 0, sign != 0 && mv.Amount <= 0:
		return ErrAmount
	case !strings.EqualFold(mv.Currency, mv.Panel.CurrencyCode):
		return fmt.Errorf("%s for a %s panel: %w", mv.Currency, mv.Panel.CurrencyCode, ErrCurrency)
	case mv.Origin != OriginCampaign && mv.Origin != OriginRedeem && mv.Origin != OriginManual && mv.Origin != OriginOffer,
		mv.Origin == OriginOffer && sign <= 0: // an offer only credits; ReverseTx takes it back
		return fmt.Errorf("%q: %w", mv.Origin, ErrOrigin)
	}
	return nil
}

// move writes one entry: lock the wallet row, check the key, the currency and the balance,
// then update the wallet, append the entry and count it in its month. A credit while an offer
// debt is open also writes the recovery that repays it (recover).
func (m *Module) move(tx *gorm.DB, mv Movement, sign int64) (*Entry, bool, error) {
	if err := mv.check(sign); err != nil {
		return nil, false, err
	}
	now := m.now().UTC().Truncate(time.Microsecond)
	currency := strings.ToUpper(mv.Panel.CurrencyCode)
	opened := tx.Exec(`INSERT INTO wallets (participant_id, panel_id, currency_code, balance_minor, entry_count, seen_seq, updated_at)
		VALUES (?, ?, ?, 0, 0, 0, ?) ON CONFLICT (participant_id) DO NOTHING`, mv.ParticipantID, mv.Panel.ID, currency, now)
	if opened.Error != nil {
		return nil, false, fmt.Errorf("open wallet of %s: %w", mv.ParticipantID, opened.Error)
	}
	if opened.RowsAffected == 1 {
		// A new wallet takes the movement's panel: make sure it is the member's own.
		panelID, err := m.panelOf(tx, mv.ParticipantID)
		if err != nil {
			return nil, false, fmt.Errorf("open wallet of %s: %w", mv.ParticipantID, err)
		}
		if panelID != mv.Panel.ID {
			return nil, false, fmt.Errorf("member %s is not of panel %s: %w", mv.ParticipantID, mv.Panel.Key, web.ErrNotFound)
		}
	}
	w, err := lockWallet(tx, mv.ParticipantID)
	if err != nil {
		return nil, false, err
	}
	if w.PanelID != mv.Panel.ID {
		return nil, false, fmt.Errorf("member %s is not of panel %s: %w", mv.ParticipantID, mv.Panel.Key, web.ErrNotFound)
	}
	if w.CurrencyCode != currency {
		return nil, false, fmt.Errorf("wallet in %s, movement in %s: %w", w.CurrencyCode, currency, ErrCurrency)
	}
	if mv.Key != "" {
		prior, err := entryByKey(tx, mv.ParticipantID, mv.Key)
		if err != nil {
			return nil, false, err
		}
		if prior != nil {
			if prior.AmountMinor != sign*mv.Amount || prior.Origin != mv.Origin || prior.DebtMinor != 0 {
				return nil, false, fmt.Errorf("key %s: %w", mv.Key, ErrKeyReused)
			}
			return prior, false, nil
		}
	}
	balance := w.BalanceMinor + sign*mv.Amount
	if balance < 0 {
		return nil, false, ErrInsufficientFunds
	}
	e := &Entry{
		ID: uuid.NewString(), ParticipantID: mv.ParticipantID, Seq: w.EntryCount + 1, PanelID: mv.Panel.ID,
		AmountMinor: sign * mv.Amount, CurrencyCode: currency, BalanceAfter: balance, Origin: mv.Origin,
		Competition: mv.Competition, CampaignID: optional(mv.CampaignID), RedemptionID: optional(mv.RedemptionID),
		Title: mv.Title, Reason: mv.Reason, Operator: mv.Operator, NaturalKey: optional(mv.Key), CreatedAt: now,
	}
	entries := []*Entry{e}
	if sign > 0 && w.OwedMinor > 0 {
		entries = append(entries, recovery(e, w.OwedMinor))
	}
	if err := write(tx, w, now, entries); err != nil {
		return nil, false, err
	}
	return e, true, nil
}

// entryByKey is the member's entry with a natural key, or nil.
func entryByKey(tx *gorm.DB, participantID, key string) (*Entry, error) {
	var e Entry
	err := tx.Where("participant_id = ? AND natural_key = ?", participantID, key).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up ledger key %s: %w", key, err)
	}
	return &e, nil
}

// write appends entries (numbered after the wallet's last, each with its balance after) to a
// locked wallet w, sets the wallet to where the last leaves it, and counts them in their
// month. The wallet is updated once, so its CHECKs see only the end state: a credit and its
// recovery pass through a balance beside a debt, which the table refuses to hold.
func write(tx *gorm.DB, w *Wallet, now time.Time, entries []*Entry) error {
	last := entries[len(entries)-1]
	var delta, debt, credited, debited int64
	competitions, redemptions := 0, 0
	for _, e := range entries {
		delta += e.AmountMinor
		debt += e.DebtMinor
		if e.AmountMinor > 0 {
			credited += e.AmountMinor
		} else {
			debited -= e.AmountMinor
		}
		if e.Competition {
			competitions++
		}
		if e.Origin == OriginRedeem {
			redemptions++
		}
	}
	if last.Seq != w.EntryCount+int64(len(entries)) || last.BalanceAfter != w.BalanceMinor+delta {
		return fmt.Errorf("entries of %s do not follow their wallet", w.ParticipantID) // a bug, never a race
	}
	// The WHERE repeats what the lock guarantees, so a broken lock can never overdraw or lose
	// a debt: the wallet must still be exactly as read.
	res := tx.Exec(`UPDATE wallets SET balance_minor = ?, owed_minor = ?, entry_count = ?, updated_at = ?
		WHERE participant_id = ? AND entry_count = ? AND balance_minor = ? AND owed_minor = ?`,
		last.BalanceAfter, w.OwedMinor+debt, last.Seq, now, w.ParticipantID, w.EntryCount, w.BalanceMinor, w.OwedMinor)
	if res.Error != nil {
		return fmt.Errorf("update wallet of %s: %w", w.ParticipantID, res.Error)
	}
	if res.RowsAffected != 1 {
		return fmt.Errorf("wallet of %s changed under its lock: %w", w.ParticipantID, errConflict)
	}
	if err := tx.Create(entries).Error; err != nil {
		return fmt.Errorf("append ledger entry: %w", err)
	}
	if err := tx.Exec(`INSERT INTO ledger_months (participant_id, year, month, entries, competitions, redemptions, credited_minor, debited_minor)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (participant_id, year, month) DO UPDATE SET
			entries = ledger_months.entries + excluded.entries,
			competitions = ledger_months.competitions + excluded.competitions,
			redemptions = ledger_months.redemptions + excluded.redemptions,
			credited_minor = ledger_months.credited_minor + excluded.credited_minor,
			debited_minor = ledger_months.debited_minor + excluded.debited_minor`,
		w.ParticipantID, now.Year(), int(now.Month()), len(entries), competitions, redemptions, credited, debited).Error; err != nil {
		return fmt.Errorf("count ledger month: %w", err)
	}
	return nil
}

// lockWallet reads the wallet row and holds it until the transaction ends: FOR UPDATE on
// PostgreSQL; on SQLite every write transaction begins IMMEDIATE and so already holds the
// database's write lock.
func lockWallet(tx *gorm.DB, participantID string) (*Wallet, error) {
	q := walletSQL
	if migrations.DialectOf(tx) == migrations.Postgres {
		q += ` FOR UPDATE`
	}
	var w Wallet
	if err := tx.Raw(q, participantID).Scan(&w).Error; err != nil {
		return nil, fmt.Errorf("lock wallet of %s: %w", participantID, err)
	}
	if w.ParticipantID == "" {
		return nil, fmt.Errorf("wallet of %s: %w", participantID, web.ErrNotFound)
	}
	return &w, nil
}

// errConflict is a lost race that a new attempt resolves.
var errConflict = migrations.ErrConflict

// inTx runs fn in a transaction, again when it lost a serialization race (migrations.InTx).
func (m *Module) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, m.db, fn)
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
