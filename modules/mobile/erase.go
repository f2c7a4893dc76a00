package mobile

import (
	"context"
	"fmt"

	"gorm.io/gorm"
)

// Erase deletes the member's numbers and codes inside the transaction that closes their account
// (profile.Eraser, wired in app/server.go): a phone number is personal data, and nothing of it
// needs to outlive the account.
func (m *Module) Erase(ctx context.Context, tx *gorm.DB, participantID string) error {
	for _, model := range []any{&Code{}, &Phone{}} {
		if err := tx.WithContext(ctx).Where("participant_id = ?", participantID).Delete(model).Error; err != nil {
			return fmt.Errorf("erase %T of %s: %w", model, participantID, err)
		}
	}
	return nil
}
