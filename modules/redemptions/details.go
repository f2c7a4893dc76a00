package redemptions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// SavePayPal stores the member's PayPal email (paypal-data), sealed.
func (m *Module) SavePayPal(ctx context.Context, panel *web.Panel, participantID, email string) (Destination, error) {
	d, err := CheckPayPal(email)
	if err != nil {
		return Destination{}, err
	}
	return d, m.saveDetails(ctx, panel, participantID, d)
}

// SaveBank stores the member's bank account (bank-data) in the fields of the panel's currency.
func (m *Module) SaveBank(ctx context.Context, panel *web.Panel, participantID string, in BankInput) (Destination, error) {
	d, err := CheckBank(panel.CurrencyCode, in)
	if err != nil {
		return Destination{}, err
	}
	return d, m.saveDetails(ctx, panel, participantID, d)
}

func (m *Module) saveDetails(ctx context.Context, panel *web.Panel, participantID string, d Destination) error {
	plain, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("encode %s details: %w", d.Kind, err)
	}
	sealed, err := m.sealer.Seal(plain, detailsBinding(participantID, d.Kind))
	if err != nil {
		return err
	}
	now := m.now().UTC().Truncate(timeUnit)
	return m.store.saveDetails(ctx, &PayoutDetails{ParticipantID: participantID, Kind: d.Kind, PanelID: panel.ID, Sealed: sealed, CreatedAt: now, UpdatedAt: now})
}

// Details returns the member's stored payout details of a kind, whole (callers mask them
// for members); nil when there are none, or when bank details are of another currency than
// the panel's (the panel's currency changed: they no longer fit).
func (m *Module) Details(ctx context.Context, panel *web.Panel, participantID string, kind Kind) (*Destination, error) {
	return m.detailsOn(m.store.db.WithContext(ctx), panel, participantID, kind)
}

func (m *Module) detailsOn(db *gorm.DB, panel *web.Panel, participantID string, kind Kind) (*Destination, error) {
	row, err := m.store.details(db, participantID, kind)
	if err != nil || row == nil {
		return nil, err
	}
	if row.PanelID != panel.ID {
		return nil, nil
	}
	plain, err := m.sealer.Open(row.Sealed, detailsBinding(participantID, kind))
	if err != nil {
		return nil, fmt.Errorf("%s details of %s: %w", kind, participantID, err)
	}
	var d Destination
	if err := json.Unmarshal(plain, &d); err != nil {
		return nil, fmt.Errorf("decode %s details of %s: %w", kind, participantID, err)
	}
	if kind == KindBank && !strings.EqualFold(d.Currency, panel.CurrencyCode) {
		return nil, nil
	}
	return &d, nil
}

// needsOf is what a member must give before redeeming with an option of a kind: the
// account-host call that stores it ("paypal-data", "bank-data"), or "" for nothing.
func needsOf(kind Kind) string {
	switch kind {
	case KindPayPal:
		return "paypal-data"
	case KindBank:
		return "bank-data"
	}
	return ""
}
