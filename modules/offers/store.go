package offers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Store owns every database call of the module.
type Store struct{ db *gorm.DB }

func NewStore(db *gorm.DB) *Store { return &Store{db: db} }

// Provider is the panel's provider row, nil when it has none.
func (s *Store) Provider(ctx context.Context, panelID string) (*ProviderRow, error) {
	var row ProviderRow
	err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load offers provider of panel %s: %w", panelID, err)
	}
	return &row, nil
}

func (s *Store) SaveProvider(ctx context.Context, row ProviderRow) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "panel_id"}}, UpdateAll: true}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("save offers provider of panel %s: %w", row.PanelID, err)
	}
	return nil
}

func (s *Store) DeleteProvider(ctx context.Context, panelID string) error {
	if err := s.db.WithContext(ctx).Where("panel_id = ?", panelID).Delete(&ProviderRow{}).Error; err != nil {
		return fmt.Errorf("remove offers provider of panel %s: %w", panelID, err)
	}
	return nil
}

// SubID is the member's sub-id, made on first use.
func (s *Store) SubID(ctx context.Context, panelID, participantID string, now time.Time) (string, error) {
	var row MemberRow
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Take(&row).Error
	if err == nil {
		return row.SubID, nil
	}
	if !errors.Is(err, gorm.ErrRecordNotFound) {
		return "", fmt.Errorf("load sub-id of %s: %w", participantID, err)
	}
	row = MemberRow{ParticipantID: participantID, PanelID: panelID, SubID: newSubID(), CreatedAt: now}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error; err != nil {
		return "", fmt.Errorf("make sub-id of %s: %w", participantID, err)
	}
	// Two first visits at once: the row that won is the member's.
	if err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Take(&row).Error; err != nil {
		return "", fmt.Errorf("load sub-id of %s: %w", participantID, err)
	}
	return row.SubID, nil
}

// newSubID is 32 hex digits of randomness: says nothing of the member or their panel.
func newSubID() string {
	u := uuid.New()
	return fmt.Sprintf("%x", u[:])
}

// MemberBySubID is the member a sub-id names, nil when none.
func (s *Store) MemberBySubID(ctx context.Context, tx *gorm.DB, subID string) (*MemberRow, error) {
	var row MemberRow
	err := tx.WithContext(ctx).Where("sub_id = ?", subID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find member of sub-id: %w", err)
	}
	return &row, nil
}

// StartRow records that the member started an offer: their pending row for it, made again
// with the new click when they start it again.
func (s *Store) StartRow(ctx context.Context, r Row) (*Row, error) {
	var out Row
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Where("participant_id = ? AND offer_id = ? AND status = ?", r.ParticipantID, r.OfferID, StatusPending).
			Order("updated_at DESC").Take(&out).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			out = r
			return tx.Create(&out).Error
		}
		if err != nil {
			return err
		}
		return tx.Model(&out).Updates(map[string]any{"click_id": r.ClickID, "started_at": r.StartedAt, "updated_at": r.UpdatedAt,
			"name": r.Name, "reward_minor": r.RewardMinor}).Error
	})
	if err != nil {
		return nil, fmt.Errorf("record start of offer %s: %w", r.OfferID, err)
	}
	return &out, nil
}

// Rows is a page of the member's offer rows, latest first; more tells whether another follows.
func (s *Store) Rows(ctx context.Context, participantID string, page, size int) ([]Row, bool, error) {
	var rows []Row
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("updated_at DESC, id").
		Offset((page - 1) * size).Limit(size + 1).Find(&rows).Error
	if err != nil {
		return nil, false, fmt.Errorf("list offer rows of %s: %w", participantID, err)
	}
	more := len(rows) > size
	if more {
		rows = rows[:size]
	}
	return rows, more, nil
}

// Row is one of the member's rows, nil when they have none with this id.
func (s *Store) Row(ctx context.Context, participantID, id string) (*Row, error) {
	var r Row
	err := s.db.WithContext(ctx).Where("participant_id = ? AND id = ?", participantID, id).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load offer row %s: %w", id, err)
	}
	return &r, nil
}

// RecordPostback writes the record of one postback (outside the money's transaction: a
// refusal is recorded too).
func (s *Store) RecordPostback(ctx context.Context, rec PostbackRecord) error {
	if rec.ID == "" {
		rec.ID = uuid.NewString()
	}
	if err := s.db.WithContext(ctx).Create(&rec).Error; err != nil {
		return fmt.Errorf("record postback %s: %w", rec.TransactionID, err)
	}
	return nil
}

// SaveIssue stores a member's issue report.
func (s *Store) SaveIssue(ctx context.Context, i *IssueRow) error {
	if err := s.db.WithContext(ctx).Create(i).Error; err != nil {
		return fmt.Errorf("save offer issue: %w", err)
	}
	return nil
}

// IssueForwarded notes the provider's answer to a forwarded report.
func (s *Store) IssueForwarded(ctx context.Context, id, ticket, forwardErr string, at time.Time) error {
	updates := map[string]any{"ticket_id": ticket, "forward_error": forwardErr}
	if forwardErr == "" {
		updates["forwarded_at"] = at
	}
	if err := s.db.WithContext(ctx).Model(&IssueRow{}).Where("id = ?", id).Updates(updates).Error; err != nil {
		return fmt.Errorf("note forwarding of offer issue %s: %w", id, err)
	}
	return nil
}

// Erase removes what the module keeps of a member whose account closes, in the closing
// transaction: their sub-id, rows and reports. The postback records and outcomes stay, as the
// ledger does: they are the provider's and the panel's record of money moved.
func (s *Store) Erase(tx *gorm.DB, participantID string) error {
	for _, m := range []any{&IssueRow{}, &Row{}, &MemberRow{}} {
		if err := tx.Where("participant_id = ?", participantID).Delete(m).Error; err != nil {
			return fmt.Errorf("erase offers of %s: %w", participantID, err)
		}
	}
	return nil
}
