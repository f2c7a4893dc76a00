package profile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrNotFound means no row matched: accounts' error, so a caller tells "no such member" the
// same whichever module answered.
var ErrNotFound = accounts.ErrNotFound

// Store owns every query of the module's tables: postal_addresses, profile_pics,
// mail_subscriptions and account_closures.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
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

// Subscriptions are the rows of these members who have one (the others receive every kind).
func (s *Store) Subscriptions(ctx context.Context, participantIDs []string) (map[string]Subscription, error) {
	var rows []Subscription
	if err := s.db.WithContext(ctx).Where("participant_id IN ?", participantIDs).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load subscriptions: %w", err)
	}
	out := make(map[string]Subscription, len(rows))
	for _, r := range rows {
		out[r.ParticipantID] = r
	}
	return out, nil
}

// eraseTx deletes what the module keeps of a closing member, in the closing's transaction.
func eraseTx(tx *gorm.DB, participantID string) error {
	for _, model := range []any{&PostalAddress{}, &Picture{}, &Subscription{}} {
		if err := tx.Where("participant_id = ?", participantID).Delete(model).Error; err != nil {
			return fmt.Errorf("erase %T of %s: %w", model, participantID, err)
		}
	}
	return nil
}
