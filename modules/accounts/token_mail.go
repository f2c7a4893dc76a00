package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// newTokenMailed creates a single-use token and queues the mail that carries it in one
// transaction: no mail without its token, and no token whose mail is lost. The mail's event
// is the token ("account_token:<id>"): one mail per token, however often it is retried.
func (s *Service) newTokenMailed(ctx context.Context, holderID, purpose string, ttl time.Duration, mail func(tx *gorm.DB, event, token string) error) error {
	raw := strings.ReplaceAll(uuid.NewString()+uuid.NewString(), "-", "")
	now := s.now().UTC()
	t := &AccountToken{ID: uuid.NewString(), TokenHash: hashToken(raw), AccountHolderID: holderID, Purpose: purpose, ExpiresAt: now.Add(ttl), CreatedAt: now}
	return migrations.InTx(ctx, s.store.db, func(tx *gorm.DB) error {
		if err := tx.Create(t).Error; err != nil {
			return err
		}
		return mail(tx, "account_token:"+t.ID, raw)
	})
}

// mailClosed queues the closing confirmation (event "account_closed:<participant>": one per
// closed account) once the closing has committed.
func (s *Service) mailClosed(ctx context.Context, panel *web.Panel, before *AccountHolder, participantID, lang, joinLink string) error {
	return migrations.InTx(ctx, s.store.db, func(tx *gorm.DB) error {
		return s.mails.AccountClosed(tx, "account_closed:"+participantID, panel, before, lang, joinLink)
	})
}
