package surveys

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
)

// What the operator console's campaigns part reads of the participations: completes per
// campaign for its list, and each campaign's funnel.

// Funnel is what became of the people who started a campaign: Started counts them all,
// InProgress those still answering, the others by how it ended (Other: skipped, expired and
// the rest). MedianMinutes is the median time from start to complete, nil without completes.
type Funnel struct {
	Started       int
	InProgress    int
	Completed     int
	Screened      int
	Disqualified  int
	QuotaFull     int
	Other         int
	MedianMinutes *float64
}

// CompletesByCampaign counts the completes of each campaign of a panel, by campaign id
// (campaigns without one are left out).
func (m *Module) CompletesByCampaign(ctx context.Context, panelID string) (map[string]int, error) {
	var rows []struct {
		CampaignID string
		N          int
	}
	err := m.db.WithContext(ctx).Model(&Participation{}).Select("campaign_id, COUNT(*) AS n").
		Where("panel_id = ? AND status = ?", panelID, campaigns.StatusCompleted).Group("campaign_id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count completes of panel %s: %w", panelID, err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.CampaignID] = r.N
	}
	return out, nil
}

// CampaignFunnel is the funnel of one campaign of a panel.
func (m *Module) CampaignFunnel(ctx context.Context, panelID, campaignID string) (Funnel, error) {
	var f Funnel
	var rows []struct {
		Status string
		N      int
	}
	err := m.db.WithContext(ctx).Model(&Participation{}).Select("status, COUNT(*) AS n").
		Where("panel_id = ? AND campaign_id = ? AND started_at IS NOT NULL", panelID, campaignID).Group("status").Scan(&rows).Error
	if err != nil {
		return f, fmt.Errorf("funnel of campaign %s: %w", campaignID, err)
	}
	for _, r := range rows {
		f.Started += r.N
		switch r.Status {
		case campaigns.StatusStarted:
			f.InProgress += r.N
		case campaigns.StatusCompleted:
			f.Completed += r.N
		case campaigns.StatusScreened:
			f.Screened += r.N
		case campaigns.StatusDisqualified:
			f.Disqualified += r.N
		case campaigns.StatusQuotaFull:
			f.QuotaFull += r.N
		default:
			f.Other += r.N
		}
	}
	if f.Completed == 0 {
		return f, nil
	}
	var times []struct {
		StartedAt  time.Time
		FinishedAt time.Time
	}
	err = m.db.WithContext(ctx).Model(&Participation{}).Select("started_at, finished_at").
		Where("panel_id = ? AND campaign_id = ? AND status = ? AND started_at IS NOT NULL AND finished_at IS NOT NULL", panelID, campaignID, campaigns.StatusCompleted).
		Scan(&times).Error
	if err != nil {
		return f, fmt.Errorf("funnel times of campaign %s: %w", campaignID, err)
	}
	mins := make([]float64, 0, len(times))
	for _, t := range times {
		mins = append(mins, t.FinishedAt.Sub(t.StartedAt).Minutes())
	}
	f.MedianMinutes = median(mins)
	return f, nil
}

// median of the values, to a tenth; nil for none.
func median(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	sort.Float64s(v)
	mid := v[len(v)/2]
	if len(v)%2 == 0 {
		mid = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	mid = math.Round(mid*10) / 10
	return &mid
}
