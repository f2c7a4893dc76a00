package wallet

import (
	"context"
	"fmt"
)

// MemberBalances are the balances of a panel's members in minor units, by participant id, for
// the operator console's member search (issue 21, part 5): one query for a page of members.
// A member without entries, or of another panel, is absent (a zero balance).
func (m *Module) MemberBalances(ctx context.Context, panelID string, participantIDs []string) (map[string]int64, error) {
	out := make(map[string]int64, len(participantIDs))
	if len(participantIDs) == 0 {
		return out, nil
	}
	var rows []Wallet
	err := m.db.WithContext(ctx).Select("participant_id, balance_minor").
		Where("panel_id = ? AND participant_id IN ?", panelID, participantIDs).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("balances of panel %s: %w", panelID, err)
	}
	for _, w := range rows {
		out[w.ParticipantID] = w.BalanceMinor
	}
	return out, nil
}
