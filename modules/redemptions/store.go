package redemptions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// timeUnit is the precision times are stored with (PostgreSQL keeps microseconds), so a
// redemption read back answers exactly as it did when it was made.
const timeUnit = time.Microsecond

// Store owns every GORM call of the module. Methods taking a *gorm.DB run on the caller's
// transaction; the others take ctx first.
type Store struct {
	db *gorm.DB
}

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// options lists a panel's options in their order; enabledOnly leaves out disabled ones.
func (s *Store) options(ctx context.Context, panelID string, enabledOnly bool) ([]Option, error) {
	q := s.db.WithContext(ctx).Where("panel_id = ?", panelID)
	if enabledOnly {
		q = q.Where("enabled = ?", true)
	}
	var out []Option
	if err := q.Order("position, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("load redemption options of panel %s: %w", panelID, err)
	}
	return out, nil
}

// option finds one of a panel's options (enabled or not); nil when there is none.
func (s *Store) option(db *gorm.DB, panelID, id string) (*Option, error) {
	var o Option
	err := db.Where("panel_id = ? AND id = ?", panelID, id).Take(&o).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load redemption option %s: %w", id, err)
	}
	return &o, nil
}

// upsertOption creates or updates an option and says which it did (or that nothing changed).
func (s *Store) upsertOption(tx *gorm.DB, o Option, now time.Time) (string, error) {
	prior, err := s.option(tx, o.PanelID, o.ID)
	if err != nil {
		return "", err
	}
	if prior == nil {
		o.CreatedAt, o.UpdatedAt = now, now
		if err := tx.Create(&o).Error; err != nil {
			return "", fmt.Errorf("create redemption option %s: %w", o.ID, err)
		}
		return "created", nil
	}
	if sameOption(*prior, o) {
		return "unchanged", nil
	}
	o.CreatedAt, o.UpdatedAt = prior.CreatedAt, now
	err = tx.Model(&Option{}).Where("panel_id = ? AND id = ?", o.PanelID, o.ID).Select("*").Updates(&o).Error
	if err != nil {
		return "", fmt.Errorf("update redemption option %s: %w", o.ID, err)
	}
	return "updated", nil
}

func sameOption(a, b Option) bool {
	return a.Kind == b.Kind && sameText(a.Names, b.Names) && sameText(a.Descriptions, b.Descriptions) &&
		a.MinimumMinor == b.MinimumMinor && a.FeeMinor == b.FeeMinor && a.Enabled == b.Enabled && a.Position == b.Position
}

func sameText(a, b Text) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// details returns a member's sealed payout details of a kind; nil when there are none.
func (s *Store) details(db *gorm.DB, participantID string, kind Kind) (*PayoutDetails, error) {
	var d PayoutDetails
	err := db.Where("participant_id = ? AND kind = ?", participantID, kind).Take(&d).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load %s details of %s: %w", kind, participantID, err)
	}
	return &d, nil
}

// saveDetails creates or replaces a member's payout details of a kind.
func (s *Store) saveDetails(ctx context.Context, d *PayoutDetails) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "participant_id"}, {Name: "kind"}},
		DoUpdates: clause.AssignmentColumns([]string{"panel_id", "sealed", "updated_at"}),
	}).Create(d).Error
	if err != nil {
		return fmt.Errorf("save %s details of %s: %w", d.Kind, d.ParticipantID, err)
	}
	return nil
}

// byKey finds a member's redemption by its Idempotency-Key; nil when there is none.
func (s *Store) byKey(db *gorm.DB, participantID, key string) (*Redemption, error) {
	var r Redemption
	err := db.Where("participant_id = ? AND idempotency_key = ?", participantID, key).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up redemption key of %s: %w", participantID, err)
	}
	return &r, nil
}

// redemption loads a redemption by id; nil when there is none.
func (s *Store) redemption(db *gorm.DB, id string) (*Redemption, error) {
	var r Redemption
	err := db.Where("id = ?", id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load redemption %s: %w", id, err)
	}
	return &r, nil
}

// memberRedemptions lists a member's redemptions, newest first.
func (s *Store) memberRedemptions(ctx context.Context, participantID string, limit int) ([]Redemption, error) {
	var out []Redemption
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("created_at DESC, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("load redemptions of %s: %w", participantID, err)
	}
	return out, nil
}

// list is the operators' view: redemptions of a panel (or all) in a status (or any), oldest
// first, as a queue is worked.
func (s *Store) list(ctx context.Context, panelID string, status Status, limit int) ([]Redemption, error) {
	q := s.db.WithContext(ctx)
	if panelID != "" {
		q = q.Where("panel_id = ?", panelID)
	}
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var out []Redemption
	if err := q.Order("created_at, id").Limit(limit).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list redemptions: %w", err)
	}
	return out, nil
}

// moveStatus changes a redemption's status only if it still has the status the caller read:
// of two operators acting at once, the second changes nothing.
func (s *Store) moveStatus(tx *gorm.DB, id string, from, to Status, now time.Time) (bool, error) {
	res := tx.Model(&Redemption{}).Where("id = ? AND status = ?", id, from).Updates(map[string]any{"status": to, "updated_at": now})
	if res.Error != nil {
		return false, fmt.Errorf("move redemption %s from %s to %s: %w", id, from, to, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// events lists a redemption's changes in order.
func (s *Store) events(ctx context.Context, redemptionID string) ([]Event, error) {
	var out []Event
	if err := s.db.WithContext(ctx).Where("redemption_id = ?", redemptionID).Order("created_at, id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("load events of redemption %s: %w", redemptionID, err)
	}
	return out, nil
}
