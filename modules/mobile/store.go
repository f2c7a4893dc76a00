package mobile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// errInUse: another member of the panel has verified the number.
var errInUse = errors.New("mobile: number verified by another member")

// Store owns every query of the module.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// Settings returns a panel's rules, or the defaults when it has none.
func (s *Store) Settings(ctx context.Context, panelID string) (Settings, error) {
	var rows []Settings
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Limit(1).Find(&rows).Error; err != nil {
		return Settings{}, fmt.Errorf("mobile settings of panel %s: %w", panelID, err)
	}
	if len(rows) == 0 {
		return DefaultSettings(panelID), nil
	}
	return rows[0], nil
}

// SaveSettings creates or replaces a panel's rules.
func (s *Store) SaveSettings(ctx context.Context, st Settings) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "panel_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"require_verification", "cooling_off_hours", "reverify_after_days", "default_country", "updated_at"}),
	}).Create(&st).Error
	if err != nil {
		return fmt.Errorf("save mobile settings of panel %s: %w", st.PanelID, err)
	}
	return nil
}

// Phone returns a member's numbers, or nil when they never gave one.
func (s *Store) Phone(ctx context.Context, panelID, participantID string) (*Phone, error) {
	var rows []Phone
	err := s.db.WithContext(ctx).Where("participant_id = ? AND panel_id = ?", participantID, panelID).Limit(1).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("mobile number of %s: %w", participantID, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// SetNumber puts a number on file for a member, keeping their verified number.
func (s *Store) SetNumber(ctx context.Context, panelID, participantID string, n Number, now time.Time) error {
	row := Phone{ParticipantID: participantID, PanelID: panelID, MobileNumber: n.E164, Country: n.Country, UpdatedAt: now}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "participant_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"mobile_number", "country", "updated_at"}),
	}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("set mobile number of %s: %w", participantID, err)
	}
	return nil
}

// VerifiedBy returns the participant of a panel whose verified number is phone, or "".
func (s *Store) VerifiedBy(ctx context.Context, panelID, phone string) (string, error) {
	var ids []string
	err := s.db.WithContext(ctx).Model(&Phone{}).Where("panel_id = ? AND verified_number = ?", panelID, phone).Limit(1).Pluck("participant_id", &ids).Error
	if err != nil {
		return "", fmt.Errorf("who verified %s: %w", phone, err)
	}
	if len(ids) == 0 {
		return "", nil
	}
	return ids[0], nil
}

// NewCode stores a code for a member's number: the number's unused codes go (a new code
// replaces them), and so do the member's codes older than a day. queue, run in the same
// transaction, queues the code's text.
func (s *Store) NewCode(ctx context.Context, code *Code, queue func(tx *gorm.DB) error) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("participant_id = ? AND ((phone = ? AND used_at IS NULL) OR created_at < ?)", code.ParticipantID, code.Phone, code.CreatedAt.Add(-24*time.Hour)).
			Delete(&Code{}).Error; err != nil {
			return fmt.Errorf("replace codes of %s: %w", code.ParticipantID, err)
		}
		if err := tx.Create(code).Error; err != nil {
			return fmt.Errorf("store code for %s: %w", code.ParticipantID, err)
		}
		return queue(tx)
	})
}

// SMSSent records, in tx, that a code's text went, with the provider's message id.
func (s *Store) SMSSent(tx *gorm.DB, id, providerID string) error {
	if err := tx.Model(&Code{}).Where("id = ?", id).Updates(map[string]any{"sms_status": SMSSent, "provider_id": providerID}).Error; err != nil {
		return fmt.Errorf("code %s sent: %w", id, err)
	}
	return nil
}

// SMSFailed records that a code's text will never go (unless it went meanwhile).
func (s *Store) SMSFailed(ctx context.Context, id string) error {
	if err := s.db.WithContext(ctx).Model(&Code{}).Where("id = ? AND sms_status <> ?", id, SMSSent).Update("sms_status", SMSFailed).Error; err != nil {
		return fmt.Errorf("code %s not sent: %w", id, err)
	}
	return nil
}

// SMSWanted tells whether a code's text should still go: the code is stored (not replaced by
// a newer one) and unused.
func (s *Store) SMSWanted(ctx context.Context, id string) (bool, error) {
	var n int64
	if err := s.db.WithContext(ctx).Model(&Code{}).Where("id = ? AND used_at IS NULL", id).Count(&n).Error; err != nil {
		return false, fmt.Errorf("code %s: %w", id, err)
	}
	return n == 1, nil
}

// CurrentCode is the code a member's number is checked against: the unused one (there is
// at most one), else the last used one; nil when none was sent.
func (s *Store) CurrentCode(ctx context.Context, participantID, phone string) (*Code, error) {
	var rows []Code
	err := s.db.WithContext(ctx).Where("participant_id = ? AND phone = ?", participantID, phone).
		Order("CASE WHEN used_at IS NULL THEN 0 ELSE 1 END, created_at DESC, id").Limit(1).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("code for %s: %w", phone, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &rows[0], nil
}

// CountAttempt adds one attempt to a live code, atomically: false when the code is used,
// expired or out of attempts (another request got there first).
func (s *Store) CountAttempt(ctx context.Context, id string, max int, now time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Code{}).
		Where("id = ? AND used_at IS NULL AND attempts < ? AND expires_at > ?", id, max, now).
		Update("attempts", gorm.Expr("attempts + 1"))
	if res.Error != nil {
		return false, fmt.Errorf("count attempt on code %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// Code reloads a code.
func (s *Store) Code(ctx context.Context, id string) (*Code, error) {
	var c Code
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, fmt.Errorf("code %s: %w", id, err)
	}
	return &c, nil
}

// errSpent: the code was used by a concurrent request.
var errSpent = errors.New("mobile: code already used")

// Verify counts the right code's attempt and spends it, then makes its number the member's
// verified number, in one transaction: a code is used once, only while it is live (unused,
// under max attempts, not expired: else errSpent), and a number is verified by one member
// of a panel.
func (s *Store) Verify(ctx context.Context, panelID string, code *Code, max int, now time.Time) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Code{}).Where("id = ? AND used_at IS NULL AND attempts < ? AND expires_at > ?", code.ID, max, now).
			Updates(map[string]any{"used_at": now, "attempts": gorm.Expr("attempts + 1")})
		if res.Error != nil {
			return fmt.Errorf("spend code %s: %w", code.ID, res.Error)
		}
		if res.RowsAffected != 1 {
			return errSpent
		}
		var other int64
		if err := tx.Model(&Phone{}).Where("panel_id = ? AND verified_number = ? AND participant_id <> ?", panelID, code.Phone, code.ParticipantID).
			Count(&other).Error; err != nil {
			return fmt.Errorf("who verified %s: %w", code.Phone, err)
		}
		if other > 0 {
			return errInUse
		}
		var rows []Phone
		if err := tx.Where("participant_id = ?", code.ParticipantID).Limit(1).Find(&rows).Error; err != nil {
			return fmt.Errorf("mobile number of %s: %w", code.ParticipantID, err)
		}
		row := Phone{ParticipantID: code.ParticipantID, PanelID: panelID}
		exists := len(rows) == 1
		if exists {
			row = rows[0]
		}
		since := &now
		if row.VerifiedNumber != nil && *row.VerifiedNumber == code.Phone && row.VerifiedSince != nil {
			since = row.VerifiedSince // the same number again: its cooling-off is long over
		}
		number := code.Phone
		if row.MobileNumber != code.Phone {
			row.Country = "" // the code's number replaces the one on file
			if n, err := Normalize(code.Phone, ""); err == nil {
				row.Country = n.Country
			}
		}
		row.MobileNumber, row.VerifiedNumber, row.VerifiedAt, row.VerifiedSince, row.UpdatedAt = code.Phone, &number, &now, since, now
		var err error
		if exists {
			err = tx.Select("*").Updates(&row).Error
		} else {
			err = tx.Create(&row).Error
		}
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return errInUse // verified by another member at the same moment
		}
		if err != nil {
			return fmt.Errorf("verify %s for %s: %w", code.Phone, code.ParticipantID, err)
		}
		return nil
	})
}

// SetVerified records a verified number directly, when the member has none yet and nobody
// else in the panel verified it (demo data, imports); it reports whether it did.
func (s *Store) SetVerified(ctx context.Context, panelID, participantID string, n Number, at time.Time) (bool, error) {
	row := Phone{ParticipantID: participantID, PanelID: panelID, MobileNumber: n.E164, Country: n.Country, VerifiedNumber: &n.E164, VerifiedAt: &at, VerifiedSince: &at, UpdatedAt: at}
	res := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
	if res.Error != nil {
		return false, fmt.Errorf("set verified number of %s: %w", participantID, res.Error)
	}
	return res.RowsAffected == 1, nil
}
