package surveys

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// A member's participation is also their standing with the campaign, which other modules
// read and mark through this file only: the audience rule (what they finished or hid), the
// feed (seen, hidden) and competitions (who completed).

// Standing publishes the members' standing to the audience rule's lists
// (campaigns.StandingJoin): their participations, joined in the list's own query.
type Standing struct{}

// JoinStanding left-joins the person's participation in each campaign as s.
func (Standing) JoinStanding(q *gorm.DB, personID string) *gorm.DB {
	return q.Joins("LEFT JOIN participations AS s ON s.campaign_id = c.id AND s.participant_id = ?", personID)
}

// Standings reads the person's standing with every campaign they touched, by campaign id.
// It scans by hand: the feed asks on every view, and GORM's reflective Find cost more.
func (Standing) Standings(db *gorm.DB, personID string) (map[string]campaigns.Standing, error) {
	rows, err := db.Raw(`SELECT campaign_id, status, seen_at, hidden_at FROM participations WHERE participant_id = ?`, personID).Rows()
	if err != nil {
		return nil, fmt.Errorf("read standings: %w", err)
	}
	defer rows.Close()
	out := map[string]campaigns.Standing{}
	for rows.Next() {
		var id, status string
		var seen, hidden sql.NullTime
		if err := rows.Scan(&id, &status, &seen, &hidden); err != nil {
			return nil, fmt.Errorf("read standings: %w", err)
		}
		st := campaigns.Standing{Status: &status}
		if seen.Valid {
			st.SeenAt = &seen.Time
		}
		if hidden.Valid {
			st.HiddenAt = &hidden.Time
		}
		out[id] = st
	}
	return out, rows.Err()
}

// MarkSeen records that the member opened or was shown a campaign (the first time only).
func (m *Module) MarkSeen(ctx context.Context, panel *web.Panel, participantID, campaignID string) error {
	return markSeen(ctx, m.db, panel.ID, campaignID, participantID, m.now().UTC())
}

// Hide takes a campaign out of the member's lists (the feed's skip).
func (m *Module) Hide(ctx context.Context, panel *web.Panel, participantID, campaignID string) error {
	return hide(ctx, m.db, panel.ID, campaignID, participantID, m.now().UTC())
}

// HideTx is Hide inside the caller's transaction, at the caller's time (a report hides the
// campaign it reports, together or not at all).
func (m *Module) HideTx(tx *gorm.DB, panel *web.Panel, participantID, campaignID string, at time.Time) error {
	return hide(tx.Statement.Context, tx, panel.ID, campaignID, participantID, at)
}

// Completed tells whether the member completed the campaign: only completers are invited to
// a competition's draw.
func (m *Module) Completed(ctx context.Context, panel *web.Panel, participantID, campaignID string) (bool, error) {
	p, err := m.store.participation(ctx, participantID, campaignID)
	if err != nil {
		return false, err
	}
	return p != nil && p.PanelID == panel.ID && p.Status == campaigns.StatusCompleted, nil
}

// Participations lists one page (from 1) of what the member started or finished, newest
// first, with the total.
func (m *Module) Participations(ctx context.Context, participantID string, page, pageSize int) ([]Participation, int64, error) {
	if page < 1 || page > 100000 {
		return nil, 0, web.Invalid("page", "error.page", nil)
	}
	if pageSize < 1 || pageSize > maxParticipationsPage {
		return nil, 0, web.Invalid("pageSize", "error.feed_page_size", map[string]any{"Max": maxParticipationsPage})
	}
	rows, total, err := m.store.participations(ctx, participantID, (page-1)*pageSize, pageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("participations: %w", err)
	}
	return rows, total, nil
}

// Participations paging: the feed's page sizes.
const (
	defaultParticipationsPage = 10
	maxParticipationsPage     = 50
)
