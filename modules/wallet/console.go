package wallet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
)

// The operator console's money part (issue 21, part 4) reads members' wallets and a panel's
// credits through these; it adjusts balances through Adjust.

// PanelMember tells whether a participant is a member of the panel (an operator may name a
// member by participant id; another panel's member is not theirs to see).
func (m *Module) PanelMember(ctx context.Context, panel *web.Panel, participantID string) (bool, error) {
	if participantID == "" {
		return false, nil
	}
	panelID, err := m.panelOf(m.db.WithContext(ctx), participantID)
	if err != nil {
		// The accounts module's own "not found": no such participant anywhere.
		if errors.Is(err, web.ErrNotFound) || isNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return panelID == panel.ID, nil
}

// isNotFound recognises a lookup's "not found" from a module that has its own sentinel.
func isNotFound(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "not found" {
			return true
		}
	}
	return false
}

// CreditDay is what a panel's members were credited on one day (UTC) from one origin.
type CreditDay struct {
	Day    time.Time // midnight UTC
	Origin Origin
	Count  int
	Minor  int64
}

// CreditsByDay sums a panel's ledger credits (entries with a positive amount) in [from, to)
// by day (UTC) and origin, in day then origin order. Rows are summed as they stream, so a
// busy panel's month costs one pass and no more memory than its days.
func (m *Module) CreditsByDay(ctx context.Context, panelID string, from, to time.Time) ([]CreditDay, error) {
	rows, err := m.db.WithContext(ctx).Model(&Entry{}).Select("created_at, origin, amount_minor").
		Where("panel_id = ? AND amount_minor > 0 AND created_at >= ? AND created_at < ?", panelID, from.UTC(), to.UTC()).Rows()
	if err != nil {
		return nil, fmt.Errorf("credits of panel %s: %w", panelID, err)
	}
	defer rows.Close()
	type key struct {
		day    time.Time
		origin Origin
	}
	sums := map[key]*CreditDay{}
	var keys []key
	for rows.Next() {
		var at time.Time
		var origin Origin
		var minor int64
		if err := rows.Scan(&at, &origin, &minor); err != nil {
			return nil, fmt.Errorf("credits of panel %s: %w", panelID, err)
		}
		at = at.UTC()
		k := key{time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC), origin}
		s := sums[k]
		if s == nil {
			s = &CreditDay{Day: k.day, Origin: origin}
			sums[k] = s
			keys = append(keys, k)
		}
		s.Count++
		s.Minor += minor
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("credits of panel %s: %w", panelID, err)
	}
	out := make([]CreditDay, 0, len(keys))
	for _, k := range keys {
		out = append(out, *sums[k])
	}
	sortCreditDays(out)
	return out, nil
}

func sortCreditDays(out []CreditDay) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && creditBefore(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
}

func creditBefore(a, b CreditDay) bool {
	if !a.Day.Equal(b.Day) {
		return a.Day.Before(b.Day)
	}
	return a.Origin < b.Origin
}
