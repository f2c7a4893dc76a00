package redemptions

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// Erase deletes the member's saved payout details (their PayPal email, their bank account)
// inside the transaction that closes their account (profile.Eraser, wired in app/server.go).
// Their redemptions stay, sealed destination and all: a pending one must still be paid where
// the member asked, and a paid one is accounting, like the ledger entry it debited.
func (m *Module) Erase(ctx context.Context, tx *gorm.DB, participantID string) error {
	if err := tx.WithContext(ctx).Where("participant_id = ?", participantID).Delete(&PayoutDetails{}).Error; err != nil {
		return fmt.Errorf("erase payout details of %s: %w", participantID, err)
	}
	return nil
}
