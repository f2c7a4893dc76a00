package redemptions

import (
	"context"
	"fmt"
	"time"
)

// MemberRedemptionSummary is a member's redemption as the operator console's member page
// lists it (issue 21, part 5): status, amounts and option, never the payout details (those are
// revealed only by finance, on the redemption queue).
type MemberRedemptionSummary struct {
	ID           string
	OptionID     string
	Kind         Kind
	Status       Status
	AmountMinor  int64
	NetMinor     int64
	CurrencyCode string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// MemberRedemptionSummaries are a panel's member's redemptions, newest first, at most limit
// (1 to 200; 50 otherwise). The query selects no destination column at all.
func (m *Module) MemberRedemptionSummaries(ctx context.Context, panelID, participantID string, limit int) ([]MemberRedemptionSummary, error) {
	if limit < 1 || limit > 200 {
		limit = 50
	}
	var rows []MemberRedemptionSummary
	err := m.store.db.WithContext(ctx).Model(&Redemption{}).
		Select("id, option_id, kind, status, amount_minor, net_minor, currency_code, created_at, updated_at").
		Where("panel_id = ? AND participant_id = ?", panelID, participantID).
		Order("created_at DESC").Order("id").Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("redemptions of %s: %w", participantID, err)
	}
	return rows, nil
}
