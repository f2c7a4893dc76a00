package onboarding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

var (
	// ErrNotFound: no live onboarding under that key.
	ErrNotFound = errors.New("onboarding not found")
	// errChanged: another request saved the state since it was read; read it again and retry.
	errChanged = errors.New("onboarding changed meanwhile")
)

type store struct{ db *gorm.DB }

func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// create saves a new state, clearing expired ones first.
func (s *store) create(ctx context.Context, st *State) error {
	db := s.db.WithContext(ctx)
	if err := db.Where("expires_at < ?", st.CreatedAt).Delete(&State{}).Error; err != nil {
		return fmt.Errorf("clear expired onboardings: %w", err)
	}
	if err := db.Create(st).Error; err != nil {
		return fmt.Errorf("save onboarding: %w", err)
	}
	return nil
}

func (s *store) byID(ctx context.Context, id, panelID string, now time.Time) (*State, error) {
	var st State
	err := s.db.WithContext(ctx).Where("id = ? AND panel_id = ? AND expires_at > ?", id, panelID, now).Take(&st).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &st, nil
}

// ofMember is the member's own onboarding (the one without a provider identity).
func (s *store) ofMember(ctx context.Context, panelID, participantID string, now time.Time) (*State, error) {
	var st State
	err := s.db.WithContext(ctx).Where("panel_id = ? AND participant_id = ? AND provider = '' AND expires_at > ?", panelID, participantID, now).
		Order("created_at DESC").Take(&st).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &st, nil
}

// save writes the state if nobody else did since it was read (its version), and moves its
// expiry on: an onboarding in use does not expire.
func (s *store) save(ctx context.Context, st *State, now, expires time.Time) error {
	// One statement is atomic by itself: GORM's default transaction would only add a BEGIN and
	// a COMMIT round trip to every answer.
	res := s.db.WithContext(ctx).Session(&gorm.Session{SkipDefaultTransaction: true}).Model(&State{}).Where("id = ? AND version = ?", st.ID, st.Version).Updates(map[string]any{
		"participant_id": st.ParticipantID, "redirect": st.Redirect, "completed_campaigns": jsonText(st.CompletedCampaigns),
		"answers": jsonText(st.Answers), "email": st.Email, "completed_at": st.CompletedAt, "version": st.Version + 1,
		"updated_at": now, "expires_at": expires,
	})
	if res.Error != nil {
		return fmt.Errorf("save onboarding %s: %w", st.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		return errChanged
	}
	st.Version++
	st.UpdatedAt, st.ExpiresAt = now, expires
	return nil
}

func (s *store) delete(ctx context.Context, id string) error {
	return s.db.WithContext(ctx).Where("id = ?", id).Delete(&State{}).Error
}

// jsonText is a value as the JSON text its column holds (an update by map skips serializers).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// EraseMember deletes the onboardings of a member whose account closes (profile.Eraser, in
// the closing transaction): their answers and email are kept nowhere else here.
func (m *Module) EraseMember(ctx context.Context, tx *gorm.DB, participantID string) error {
	if err := tx.WithContext(ctx).Where("participant_id = ?", participantID).Delete(&State{}).Error; err != nil {
		return fmt.Errorf("erase onboardings of %s: %w", participantID, err)
	}
	return nil
}
