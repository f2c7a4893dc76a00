package surveys

import (
	"context"
	"fmt"
	"time"
)

// MemberParticipation is one campaign run of a member as the operator console's member page
// lists it (issue 21, part 5): never their answers.
type MemberParticipation struct {
	CampaignID string
	Status     string
	SeenAt     *time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
	UpdatedAt  time.Time
}

// MemberParticipations are a panel's member's campaign runs, the most recently changed first,
// at most limit (1 to 200; 50 otherwise).
func (m *Module) MemberParticipations(ctx context.Context, panelID, participantID string, limit int) ([]MemberParticipation, error) {
	if limit < 1 || limit > 200 {
		limit = 50
	}
	var rows []MemberParticipation
	err := m.db.WithContext(ctx).Model(&Participation{}).
		Select("campaign_id, status, seen_at, started_at, finished_at, updated_at").
		Where("panel_id = ? AND participant_id = ?", panelID, participantID).
		Order("updated_at DESC").Order("campaign_id").Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("participations of %s: %w", participantID, err)
	}
	return rows, nil
}
