package main

import (
	"context"
	"errors"

	"github.com/canvass/canvass/modules/postcodes"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// What the profile module's settings calls need of other modules, through the interfaces
// profile declares (profile.Postcodes, profile.Ledger, profile.Panels); accounts finds a
// forgot-password task's panel through the same panelsByKey (accounts.Panels).

// profilePostcodes is the panel's postcode list for the postal address and location.
type profilePostcodes struct{ p *postcodes.Module }

func place(p postcodes.Place) profile.Place {
	return profile.Place{ID: p.ID, Postcode: p.Postcode, Label: p.Label, Locality: p.Locality, Region: p.Region}
}

func (a profilePostcodes) HasAny(ctx context.Context, panelID string) (bool, error) {
	return a.p.HasAny(ctx, panelID)
}

func (a profilePostcodes) Resolve(ctx context.Context, panelID, typed string) (profile.Place, bool, error) {
	p, ok, err := a.p.Resolve(ctx, panelID, typed)
	return place(p), ok, err
}

func (a profilePostcodes) Find(ctx context.Context, panelID, id string) (profile.Place, bool, error) {
	p, ok, err := a.p.Find(ctx, panelID, id)
	return place(p), ok, err
}

func (a profilePostcodes) Lookup(ctx context.Context, panelID, search string, pageSize int) ([]profile.Place, error) {
	list, err := a.p.Lookup(ctx, panelID, search, pageSize)
	out := make([]profile.Place, len(list))
	for i, p := range list {
		out[i] = place(p)
	}
	return out, err
}

// profileLedger empties a member's wallet when their account closes (the balance forfeited)
// or moves to another panel (the balance transferred), as manual entries inside the profile
// module's transaction: the wallet's lock is taken first, so what is read is what is moved.
type profileLedger struct{ w *wallet.Module }

func (l profileLedger) Balance(ctx context.Context, panel *web.Panel, participantID string) (int64, string, error) {
	b, err := l.w.Balance(ctx, panel, participantID)
	return b.Minor, b.Currency, err
}

func (l profileLedger) BalanceTx(tx *gorm.DB, participantID string) (int64, string, error) {
	return l.w.BalanceTx(tx, participantID)
}

func (l profileLedger) ForfeitTx(tx *gorm.DB, panel *web.Panel, participantID, key, title string) (int64, error) {
	balance, _, err := l.w.BalanceTx(tx, participantID)
	if err != nil || balance == 0 {
		return 0, err
	}
	_, _, err = l.w.DebitTx(tx, wallet.Movement{
		Panel: panel, ParticipantID: participantID, Amount: balance, Currency: panel.CurrencyCode, Origin: wallet.OriginManual,
		Key: key, Title: title, Reason: title, Operator: "member",
	})
	return balance, err
}

func (l profileLedger) TransferTx(tx *gorm.DB, from *web.Panel, fromID string, to *web.Panel, toID, key, titleOut, titleIn string) (int64, error) {
	balance, _, err := l.w.BalanceTx(tx, fromID)
	if err != nil || balance == 0 {
		return 0, err
	}
	if _, _, err := l.w.DebitTx(tx, wallet.Movement{
		Panel: from, ParticipantID: fromID, Amount: balance, Currency: from.CurrencyCode, Origin: wallet.OriginManual,
		Key: key + ":out", Title: titleOut, Reason: titleOut, Operator: "member",
	}); err != nil {
		return 0, err
	}
	// Currency is the destination's: the wallet refuses a credit in any other, which is the
	// balance rule's last guard.
	if _, _, err := l.w.CreditTx(tx, wallet.Movement{
		Panel: to, ParticipantID: toID, Amount: balance, Currency: from.CurrencyCode, Origin: wallet.OriginManual,
		Key: key + ":in", Title: titleIn, Reason: titleIn, Operator: "member",
	}); err != nil {
		return 0, err
	}
	return balance, nil
}

// panelsByKey finds the panels a member may move to, and a forgot-password task's panel.
type panelsByKey struct{ t *tenancy.Module }

func (a panelsByKey) Panel(ctx context.Context, key string) (*web.Panel, bool, error) {
	p, err := a.t.PanelByKey(ctx, key)
	if errors.Is(err, tenancy.ErrUnknownPanel) {
		return nil, false, nil
	}
	return p, err == nil, err
}
