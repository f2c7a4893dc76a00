package surveys

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// store reads and writes participations and answers outside the engine's transactions; the
// functions below it take the transaction they run in.
type store struct {
	db *gorm.DB
}

// participation is the member's participation in a campaign; nil when they have none.
func (s *store) participation(ctx context.Context, participantID, campaignID string) (*Participation, error) {
	var p Participation
	err := s.db.WithContext(ctx).Where("participant_id = ? AND campaign_id = ?", participantID, campaignID).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load participation of %s in %s: %w", participantID, campaignID, err)
	}
	return &p, nil
}

// touch makes sure the member's participation row exists, then applies set to it where cond
// holds. Two statements, each safe under concurrency: the insert does nothing when another
// request created the row first.
func touch(ctx context.Context, db *gorm.DB, panelID, campaignID, participantID string, now time.Time, set map[string]any, cond string, args ...any) error {
	row := Participation{ID: uuid.NewString(), PanelID: panelID, CampaignID: campaignID, ParticipantID: participantID, Status: campaigns.StatusNew, CreatedAt: now, UpdatedAt: now}
	err := db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "participant_id"}, {Name: "campaign_id"}}, DoNothing: true}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("create participation in %s: %w", campaignID, err)
	}
	set["updated_at"] = now
	q := db.WithContext(ctx).Model(&Participation{}).Where("participant_id = ? AND campaign_id = ?", participantID, campaignID)
	if cond != "" {
		q = q.Where(cond, args...)
	}
	if err := q.Updates(set).Error; err != nil {
		return fmt.Errorf("update participation in %s: %w", campaignID, err)
	}
	return nil
}

// markSeen records the first time the member saw the campaign.
func markSeen(ctx context.Context, db *gorm.DB, panelID, campaignID, participantID string, now time.Time) error {
	return touch(ctx, db, panelID, campaignID, participantID, now, map[string]any{"seen_at": now}, "seen_at IS NULL")
}

// hide takes the campaign out of the member's lists.
func hide(ctx context.Context, db *gorm.DB, panelID, campaignID, participantID string, now time.Time) error {
	return touch(ctx, db, panelID, campaignID, participantID, now, map[string]any{"hidden_at": now}, "hidden_at IS NULL")
}

// rate records a rating of a finished run; false when the member has no finished run.
func (s *store) rate(ctx context.Context, participantID, campaignID string, rating int, comment *string, now time.Time) (bool, error) {
	res := s.db.WithContext(ctx).Model(&Participation{}).
		Where("participant_id = ? AND campaign_id = ? AND status IN ?", participantID, campaignID, campaigns.TerminalStatuses).
		Updates(map[string]any{"rating": rating, "rating_comment": comment, "rated_at": now, "updated_at": now})
	if res.Error != nil {
		return false, fmt.Errorf("rate %s: %w", campaignID, res.Error)
	}
	return res.RowsAffected > 0, nil
}

// participations lists what the member started or finished, most recent first.
func (s *store) participations(ctx context.Context, participantID string, offset, limit int) ([]Participation, int64, error) {
	base := s.db.WithContext(ctx).Model(&Participation{}).Where("participant_id = ? AND status <> ?", participantID, campaigns.StatusNew)
	var total int64
	if err := base.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count participations of %s: %w", participantID, err)
	}
	var rows []Participation
	if err := base.Session(&gorm.Session{}).Order("updated_at DESC, id").Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list participations of %s: %w", participantID, err)
	}
	return rows, total, nil
}

// lockParticipation reads the member's participation and holds it until the transaction
// ends (FOR UPDATE on PostgreSQL; SQLite write transactions begin IMMEDIATE); nil if none.
func lockParticipation(tx *gorm.DB, participantID, campaignID string) (*Participation, error) {
	q := `SELECT * FROM participations WHERE participant_id = ? AND campaign_id = ?`
	if migrations.DialectOf(tx) == migrations.Postgres {
		q += ` FOR UPDATE`
	}
	var p Participation
	if err := tx.Raw(q, participantID, campaignID).Scan(&p).Error; err != nil {
		return nil, fmt.Errorf("lock participation: %w", err)
	}
	if p.ID == "" {
		return nil, nil
	}
	return &p, nil
}

// openParticipation creates the member's participation, unless another request just did.
func openParticipation(tx *gorm.DB, panelID, campaignID, participantID string, now time.Time) error {
	if err := tx.Exec(`INSERT INTO participations (id, panel_id, campaign_id, participant_id, status, created_at, updated_at, answered)
		VALUES (?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (participant_id, campaign_id) DO NOTHING`,
		uuid.NewString(), panelID, campaignID, participantID, campaigns.StatusNew, now, now).Error; err != nil {
		return fmt.Errorf("open participation: %w", err)
	}
	return nil
}

// finishParticipation ends a run in a terminal status.
func finishParticipation(tx *gorm.DB, id, status string, now time.Time) error {
	if err := tx.Model(&Participation{}).Where("id = ?", id).
		Updates(map[string]any{"status": status, "finished_at": now, "current_question": nil, "updated_at": now}).Error; err != nil {
		return fmt.Errorf("end participation: %w", err)
	}
	return nil
}

// advanceParticipation applies an answer's changes to the run it was given in; a run that
// another request advanced meanwhile is errConflict (retried).
func advanceParticipation(tx *gorm.DB, p *Participation, set map[string]any) error {
	upd := tx.Model(&Participation{}).Where("id = ? AND answered = ?", p.ID, p.Answered).Updates(set)
	if upd.Error != nil {
		return fmt.Errorf("advance participation: %w", upd.Error)
	}
	if upd.RowsAffected != 1 {
		return errConflict
	}
	return nil
}

// storedAnswer is the member's answer to a question of their run; nil when they gave none.
func storedAnswer(db *gorm.DB, participationID, questionID string) (*Answer, error) {
	var a Answer
	err := db.Where("participation_id = ? AND question_id = ?", participationID, questionID).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load answer: %w", err)
	}
	return &a, nil
}

// loadAnswers are every answer of a run, question id to VALUE.
func loadAnswers(tx *gorm.DB, participationID string) (map[string]any, error) {
	var rows []Answer
	if err := tx.Where("participation_id = ?", participationID).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	out := make(map[string]any, len(rows))
	for _, r := range rows {
		var v any
		if err := json.Unmarshal([]byte(r.Value), &v); err != nil {
			return nil, fmt.Errorf("decode answer %s: %w", r.QuestionID, err)
		}
		out[r.QuestionID] = v
	}
	return out, nil
}
