package accounts

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// SpendHandoff spends a widget's hand-off code and stores the session it starts, in one
// transaction: of two uses of a code only one starts a session.
func (s *Store) SpendHandoff(ctx context.Context, t *AccountToken, now time.Time, sess *Session) error {
	return s.SpendToken(ctx, t, now, func(tx *gorm.DB) error {
		if err := tx.Create(sess).Error; err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		return nil
	})
}
