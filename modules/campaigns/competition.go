package campaigns

import (
	"context"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
)

// CompetitionInfo is a campaign's competition (its prize draw) as other modules see it.
type CompetitionInfo struct {
	ID         string // the competition uuid: the {x} of campaigns/{id}/enter-competition/{x}
	CampaignID string
	PanelID    string
	Name       string // the campaign's name in its default language
	Prize      string // in the campaign's default language
	Prizes     Text   // the prize in every language the campaign has
	PrizeMinor int64  // credited to each winner; 0 when the prize is not money
	Currency   string
	Winners    int
	DrawAt     *time.Time
	AutoDraw   bool // drawn by the service at DrawAt (competitions' periodic job), not by an operator
}

// competitionSpace names competition uuids: one per campaign, derived, so that a campaign
// re-imported keeps its competition and no table is needed to remember it.
var competitionSpace = uuid.MustParse("5b0b7e0e-54a4-4b8e-9a3c-6f1d2f0c1a77")

// CompetitionID is the uuid of the campaign's competition.
func CompetitionID(campaignID string) string {
	return uuid.NewSHA1(competitionSpace, []byte(campaignID)).String()
}

func competitionInfo(c *Campaign) (*CompetitionInfo, error) {
	comp := c.Definition.Competition
	if comp == nil {
		return nil, fmt.Errorf("campaign %s has no competition: %w", c.ID, web.ErrNotFound)
	}
	info := &CompetitionInfo{
		ID: CompetitionID(c.ID), CampaignID: c.ID, PanelID: c.PanelID,
		Name: c.Names.In(c.DefaultLanguage, c.DefaultLanguage), Prize: comp.Prize.In(c.DefaultLanguage, c.DefaultLanguage),
		Prizes:   comp.Prize,
		Currency: c.CurrencyCode, Winners: comp.Winners, DrawAt: comp.DrawAt,
		AutoDraw: comp.AutoDraw,
	}
	if comp.PrizeAmount != "" {
		minor, err := web.ParseMoney(comp.PrizeAmount, c.CurrencyCode)
		if err != nil {
			return nil, fmt.Errorf("campaign %s prize amount: %w", c.ID, err)
		}
		info.PrizeMinor = minor
	}
	return info, nil
}

// CompetitionOf is the campaign's competition; web.ErrNotFound when the panel has no such
// campaign or the campaign has no competition.
func (m *Module) CompetitionOf(ctx context.Context, panel *web.Panel, campaignID string) (*CompetitionInfo, error) {
	c, err := m.store.Campaign(ctx, panel.ID, campaignID)
	if err != nil {
		return nil, err
	}
	return competitionInfo(c)
}

// Competitions are every competition of the panel, the latest draw date first, for operators.
func (m *Module) Competitions(ctx context.Context, panel *web.Panel) ([]CompetitionInfo, error) {
	rows, err := m.store.competitions(ctx, panel.ID)
	if err != nil {
		return nil, fmt.Errorf("list competitions of panel %s: %w", panel.Key, err)
	}
	out := make([]CompetitionInfo, 0, len(rows))
	for i := range rows {
		info, err := competitionInfo(&rows[i])
		if err != nil {
			continue // a competition campaign always has the block; the importer sees to it
		}
		out = append(out, *info)
	}
	return out, nil
}
