package wallet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// An offers provider credits a member for a completed offer (CreditTx with OriginOffer and
// OfferKey) and may later reverse that completion (a chargeback: ReverseTx). The ledger's
// invariants hold throughout: the balance is never negative and is the sum of the entries,
// entries are never changed and are numbered without gaps. So a reversal takes back only what
// the balance covers, min(credit, balance); the rest becomes the member's offer debt
// (wallets.owed_minor, and debt_minor on the reversal, so the debt is the sum of the entries'
// debt_minor). Every later credit, of any origin, first repays that debt: in the credit's own
// transaction a recovery entry (origin offer, amount and debt_minor both -min(credit, debt),
// key "<credit key>:recovery") follows it. While a debt is open the balance is therefore 0,
// which blocks redemptions until earnings have covered it, and nothing ever goes negative.

// OfferKey is the natural key of an offers provider's credit: one per member and provider
// transaction, however often the provider sends it.
func OfferKey(provider, transactionID string) string {
	return "offer:" + provider + ":" + transactionID
}

// RecoverySuffix ends the natural key of the recovery that follows a keyed credit.
const RecoverySuffix = ":recovery"

// ErrNothingToReverse is a reversal of a credit the member does not have: no offer credit with
// that key, or one already reversed under another key.
var ErrNothingToReverse = errors.New("no offer credit to reverse")

// Reversal takes back a credit: the offers provider reversed a completion.
type Reversal struct {
	Panel         *web.Panel
	ParticipantID string
	OriginalKey   string // natural key of the credit being reversed
	Key           string // natural key of this reversal: once per member
	Title         string // what the member reads
}

// Reverse is ReverseTx in its own transaction.
func (m *Module) Reverse(ctx context.Context, r Reversal) (entry *Entry, owed int64, created bool, err error) {
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		entry, owed, created, err = m.ReverseTx(tx, r)
		return err
	})
	return entry, owed, created, err
}

// ReverseTx writes the reversal in the caller's transaction and returns its entry, the part of the
// credit the balance could not cover (now owed), and created=false when Key already existed.
func (m *Module) ReverseTx(tx *gorm.DB, r Reversal) (entry *Entry, owed int64, created bool, err error) {
	if r.Panel == nil || r.ParticipantID == "" || r.OriginalKey == "" || r.Key == "" || r.Key == r.OriginalKey {
		return nil, 0, false, fmt.Errorf("a reversal needs a panel, a member, the credit's key and a key of its own")
	}
	w, err := lockWallet(tx, r.ParticipantID)
	if errors.Is(err, web.ErrNotFound) {
		return nil, 0, false, fmt.Errorf("reverse %s of %s, who has no wallet: %w", r.OriginalKey, r.ParticipantID, ErrNothingToReverse)
	}
	if err != nil {
		return nil, 0, false, err
	}
	if w.PanelID != r.Panel.ID {
		return nil, 0, false, fmt.Errorf("member %s is not of panel %s: %w", r.ParticipantID, r.Panel.Key, web.ErrNotFound)
	}
	original, err := entryByKey(tx, r.ParticipantID, r.OriginalKey)
	if err != nil {
		return nil, 0, false, err
	}
	prior, err := entryByKey(tx, r.ParticipantID, r.Key)
	if err != nil {
		return nil, 0, false, err
	}
	if prior != nil {
		// The provider sent this reversal before: answer as the first time, if it is the same.
		if original == nil || prior.ReversesID == nil || *prior.ReversesID != original.ID {
			return nil, 0, false, fmt.Errorf("reversal key %s: %w", r.Key, ErrKeyReused)
		}
		return prior, prior.DebtMinor, false, nil
	}
	if original == nil || original.Origin != OriginOffer || original.AmountMinor <= 0 {
		return nil, 0, false, fmt.Errorf("reverse %s of %s: %w", r.OriginalKey, r.ParticipantID, ErrNothingToReverse)
	}
	var reversed int64
	if err := tx.Model(&Entry{}).Where("reverses_id = ?", original.ID).Count(&reversed).Error; err != nil {
		return nil, 0, false, fmt.Errorf("look up reversals of %s: %w", original.ID, err)
	}
	if reversed > 0 {
		return nil, 0, false, fmt.Errorf("reverse %s of %s, reversed already under another key: %w", r.OriginalKey, r.ParticipantID, ErrNothingToReverse)
	}
	now := m.now().UTC().Truncate(time.Microsecond)
	taken := min(original.AmountMinor, w.BalanceMinor)
	e := &Entry{
		ID: uuid.NewString(), ParticipantID: r.ParticipantID, Seq: w.EntryCount + 1, PanelID: w.PanelID,
		AmountMinor: -taken, CurrencyCode: w.CurrencyCode, BalanceAfter: w.BalanceMinor - taken,
		DebtMinor: original.AmountMinor - taken, ReversesID: &original.ID, Origin: OriginOffer,
		Title: r.Title, NaturalKey: &r.Key, CreatedAt: now,
	}
	if err := write(tx, w, now, []*Entry{e}); err != nil {
		return nil, 0, false, fmt.Errorf("reverse %s of %s: %w", r.OriginalKey, r.ParticipantID, err)
	}
	return e, e.DebtMinor, true, nil
}

// recovery is the entry that follows credit e when the member owes owed (> 0): it takes back
// what it can of the credit towards the debt. Its title is left empty: the member reads it in
// their own language (transactions.offer_recovery).
func recovery(e *Entry, owed int64) *Entry {
	repaid := min(e.AmountMinor, owed)
	r := &Entry{
		ID: uuid.NewString(), ParticipantID: e.ParticipantID, Seq: e.Seq + 1, PanelID: e.PanelID,
		AmountMinor: -repaid, CurrencyCode: e.CurrencyCode, BalanceAfter: e.BalanceAfter - repaid,
		DebtMinor: -repaid, Origin: OriginOffer, CreatedAt: e.CreatedAt,
	}
	if e.NaturalKey != nil {
		k := *e.NaturalKey + RecoverySuffix
		r.NaturalKey = &k
	}
	return r
}

// Owed is the member's outstanding offer debt in minor units.
func (m *Module) Owed(ctx context.Context, participantID string) (int64, error) {
	w, err := m.wallet(ctx, participantID)
	if err != nil {
		return 0, err
	}
	if w == nil {
		return 0, nil
	}
	return w.OwedMinor, nil
}

// Kind tells what an entry is to the member, beyond its origin: an offer's reversal or a
// recovery of a reversed offer's debt, else its origin.
// titleID is the message id of an untitled entry's title (the wallet writes recoveries
// untitled; the member reads them in their language): transactions.<Kind>.
func titleID(e Entry) string {
	switch e.Kind() {
	case "offer_reversal":
		return "transactions.offer_reversal"
	case "offer_recovery":
		return "transactions.offer_recovery"
	case "offer_credit":
		return "transactions.offer_credit"
	case "origin_redeem":
		return "transactions.origin_redeem"
	case "origin_manual":
		return "transactions.origin_manual"
	}
	return "transactions.origin_campaign"
}

func (e Entry) Kind() string {
	switch {
	case e.ReversesID != nil:
		return "offer_reversal"
	case e.Origin == OriginOffer && e.DebtMinor < 0:
		return "offer_recovery"
	case e.Origin == OriginOffer:
		return "offer_credit"
	}
	return "origin_" + string(e.Origin)
}
