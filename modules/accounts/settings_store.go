package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrUsernameTaken means another account holder of the panel has the username, in any case.
var ErrUsernameTaken = errors.New("username taken")

// SetUsername gives the account holder a username no other account holder of the panel has,
// whatever its case; the unique index (panel_id, lower(username)) settles two at once.
func (s *Store) SetUsername(ctx context.Context, panelID, holderID, username string) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&AccountHolder{}).Where("panel_id = ? AND id <> ? AND username <> '' AND lower(username) = lower(?)", panelID, holderID, username).
			Count(&n).Error; err != nil {
			return fmt.Errorf("look up username: %w", err)
		}
		if n > 0 {
			return ErrUsernameTaken
		}
		return tx.Model(&AccountHolder{}).Where("id = ?", holderID).Updates(map[string]any{"username": username, "updated_at": time.Now().UTC()}).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return ErrUsernameTaken
	}
	if err != nil && !errors.Is(err, ErrUsernameTaken) {
		return fmt.Errorf("set username of %s: %w", holderID, err)
	}
	return err
}

// PostalAddress is the member's address, nil when they have none.
func (s *Store) PostalAddress(ctx context.Context, participantID string) (*PostalAddress, error) {
	var a PostalAddress
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load postal address of %s: %w", participantID, err)
	}
	return &a, nil
}

// SavePostalAddress creates or replaces the member's address.
func (s *Store) SavePostalAddress(ctx context.Context, a *PostalAddress) error {
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(a).Error; err != nil {
		return fmt.Errorf("save postal address of %s: %w", a.ParticipantID, err)
	}
	return nil
}

// UpdateMetadata changes the participant's metadata with fn while holding the row, so a change
// made at the same moment (the welcome campaign's flag) is never lost.
func (s *Store) UpdateMetadata(ctx context.Context, participantID string, fn func(md Metadata) error) error {
	return migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		var p Participant
		q := tx.Where("id = ?", participantID)
		if migrations.DialectOf(tx) == migrations.Postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&p).Error; err != nil {
			return fmt.Errorf("load participant %s: %w", participantID, notFound(err))
		}
		md := p.Metadata
		if md == nil {
			md = Metadata{}
		}
		if err := fn(md); err != nil {
			return err
		}
		return tx.Model(&Participant{ID: participantID}).Select("Metadata").Updates(&Participant{Metadata: md}).Error
	})
}

// Pictures are the member's pictures, the main one first, then the newest.
func (s *Store) Pictures(ctx context.Context, participantID string) ([]Picture, error) {
	var out []Picture
	if err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("main DESC, created_at DESC, pic_key").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("load pictures of %s: %w", participantID, err)
	}
	return out, nil
}

// Picture is one of the member's pictures by its key.
func (s *Store) Picture(ctx context.Context, participantID, key string) (*Picture, error) {
	var p Picture
	if err := s.db.WithContext(ctx).Where("participant_id = ? AND pic_key = ?", participantID, key).Take(&p).Error; err != nil {
		return nil, fmt.Errorf("load picture %s: %w", key, notFound(err))
	}
	return &p, nil
}

// ErrTooManyPictures means the member has as many pictures as they may keep.
var ErrTooManyPictures = errors.New("too many pictures")

// AddPicture stores a new picture as the member's main one (an upload is what the member wants
// to show), keeping at most max; the same image again only becomes main again.
func (s *Store) AddPicture(ctx context.Context, pic *Picture, max int) error {
	return migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		var existing int64
		if err := tx.Model(&Picture{}).Where("participant_id = ? AND pic_key = ?", pic.ParticipantID, pic.Key).Count(&existing).Error; err != nil {
			return err
		}
		if existing == 0 {
			var n int64
			if err := tx.Model(&Picture{}).Where("participant_id = ?", pic.ParticipantID).Count(&n).Error; err != nil {
				return err
			}
			if n >= int64(max) {
				return ErrTooManyPictures
			}
		}
		if err := tx.Model(&Picture{}).Where("participant_id = ? AND main", pic.ParticipantID).Update("main", false).Error; err != nil {
			return fmt.Errorf("unset main picture: %w", err)
		}
		if existing > 0 {
			return tx.Model(&Picture{}).Where("participant_id = ? AND pic_key = ?", pic.ParticipantID, pic.Key).Update("main", true).Error
		}
		pic.Main = true
		return tx.Create(pic).Error
	})
}

// SetMainPicture makes one of the member's pictures the main one.
func (s *Store) SetMainPicture(ctx context.Context, participantID, key string) error {
	return migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&Picture{}).Where("participant_id = ? AND pic_key = ?", participantID, key).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			return ErrNotFound
		}
		if err := tx.Model(&Picture{}).Where("participant_id = ? AND main", participantID).Update("main", false).Error; err != nil {
			return err
		}
		return tx.Model(&Picture{}).Where("participant_id = ? AND pic_key = ?", participantID, key).Update("main", true).Error
	})
}

// DeletePicture removes one of the member's pictures; when it was the main one the newest
// left takes its place. It tells whether any member of the panel still has that image, so
// the caller knows whether to delete the stored file.
func (s *Store) DeletePicture(ctx context.Context, panelID, participantID, key string) (stillUsed bool, err error) {
	err = migrations.InTx(ctx, s.db, func(tx *gorm.DB) error {
		var pic Picture
		if err := tx.Where("participant_id = ? AND pic_key = ?", participantID, key).Take(&pic).Error; err != nil {
			return notFound(err)
		}
		if err := tx.Where("participant_id = ? AND pic_key = ?", participantID, key).Delete(&Picture{}).Error; err != nil {
			return err
		}
		if pic.Main {
			var next Picture
			err := tx.Where("participant_id = ?", participantID).Order("created_at DESC, pic_key").Take(&next).Error
			switch {
			case err == nil:
				if err := tx.Model(&Picture{}).Where("participant_id = ? AND pic_key = ?", participantID, next.Key).Update("main", true).Error; err != nil {
					return err
				}
			case !errors.Is(err, gorm.ErrRecordNotFound):
				return err
			}
		}
		var others int64
		if err := tx.Model(&Picture{}).Where("panel_id = ? AND pic_key = ?", panelID, key).Count(&others).Error; err != nil {
			return err
		}
		stillUsed = others > 0
		return nil
	})
	return stillUsed, err
}

// PictureInUse tells whether any member of the panel has the image.
func (s *Store) PictureInUse(ctx context.Context, panelID, key string) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&Picture{}).Where("panel_id = ? AND pic_key = ?", panelID, key).Count(&n).Error; err != nil {
		return false, fmt.Errorf("look up picture %s: %w", key, err)
	}
	return n > 0, nil
}

// Subscription is the member's row, or every bulk mail on when they have none.
func (s *Store) Subscription(ctx context.Context, participantID string) (Subscription, error) {
	sub := Subscription{ParticipantID: participantID, SurveyInvitations: true, Newsletters: true, Reminders: true}
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Take(&sub).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return sub, fmt.Errorf("load subscriptions of %s: %w", participantID, err)
	}
	return sub, nil
}

// SaveSubscription creates or replaces the member's row.
func (s *Store) SaveSubscription(ctx context.Context, sub Subscription) error {
	sub.UpdatedAt = time.Now().UTC()
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&sub).Error; err != nil {
		return fmt.Errorf("save subscriptions of %s: %w", sub.ParticipantID, err)
	}
	return nil
}

// subscriptionColumn is each kind's column of mail_subscriptions.
var subscriptionColumn = map[MailKind]string{
	KindSurveyInvitations: "survey_invitations", KindNewsletters: "newsletters", KindReminders: "reminders",
}

// BulkRecipients is a page of the panel's active account holders who receive the kind (no row:
// every kind), by id after the last one of the previous page.
func (s *Store) BulkRecipients(ctx context.Context, panelID string, kind MailKind, after string, limit int) ([]AccountHolder, error) {
	col, ok := subscriptionColumn[kind]
	if !ok {
		return nil, fmt.Errorf("unknown mail kind %q", kind)
	}
	var out []AccountHolder
	err := s.db.WithContext(ctx).Table("account_holders AS h").Select("h.*").
		Joins("JOIN participants p ON p.account_holder_id = h.id").
		Joins("LEFT JOIN mail_subscriptions ms ON ms.participant_id = p.id").
		Where("h.panel_id = ? AND h.status = ? AND h.id > ? AND (ms.participant_id IS NULL OR ms."+col+")", panelID, StatusActive, after).
		Order("h.id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("load recipients of %s: %w", kind, err)
	}
	return out, nil
}

// BulkUnsubscribed counts the panel's active members who stopped the kind.
func (s *Store) BulkUnsubscribed(ctx context.Context, panelID string, kind MailKind) (int, error) {
	col, ok := subscriptionColumn[kind]
	if !ok {
		return 0, fmt.Errorf("unknown mail kind %q", kind)
	}
	var n int64
	err := s.db.WithContext(ctx).Table("account_holders AS h").
		Joins("JOIN participants p ON p.account_holder_id = h.id").
		Joins("JOIN mail_subscriptions ms ON ms.participant_id = p.id").
		Where("h.panel_id = ? AND h.status = ? AND NOT ms."+col, panelID, StatusActive).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count unsubscribed of %s: %w", kind, err)
	}
	return int(n), nil
}
