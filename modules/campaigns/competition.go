package campaigns

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"
	"gorm.io/gorm"
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
}

// competitionSpace names competition uuids: one per campaign, derived, so that a campaign
// re-imported keeps its competition and no table is needed to remember it.
var competitionSpace = uuid.MustParse("5b0b7e0e-54a4-4b8e-9a3c-6f1d2f0c1a77")

// CompetitionID is the uuid of the campaign's competition.
func CompetitionID(campaignID string) string {
	return uuid.NewSHA1(competitionSpace, []byte(campaignID)).String()
}

// CompetitionEntries keeps the members' answers to competition invitations (the competitions
// module); the survey screen shows the answer and takes it.
type CompetitionEntries interface {
	// Decision is "entered", "rejected" or "" for the member and the campaign's competition.
	Decision(ctx context.Context, panel *web.Panel, participantID, campaignID string) (string, error)
	// Enter enters the member; lang is the member's language, which their history is kept in.
	Enter(ctx context.Context, panel *web.Panel, participantID, campaignID, competitionID, lang string) error
	Reject(ctx context.Context, panel *web.Panel, participantID, campaignID string) error
	// Drawn tells whether the competition has been drawn (an operator may draw early).
	Drawn(ctx context.Context, competitionID string) (bool, error)
}

// Decisions on a competition invitation.
const (
	DecisionEntered  = "entered"
	DecisionRejected = "rejected"
)

// SetCompetitionEntries plugs in the competitions module (it depends on this one).
func (m *Module) SetCompetitionEntries(e CompetitionEntries) { m.competitions = e }

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
	var rows []Campaign
	if err := m.db.WithContext(ctx).Where("panel_id = ? AND is_competition = ?", panel.ID, true).Order("published_at DESC").Find(&rows).Error; err != nil {
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

// Completed tells whether the member completed the campaign: only completers are invited.
func (m *Module) Completed(ctx context.Context, panel *web.Panel, participantID, campaignID string) (bool, error) {
	var p Participation
	err := m.db.WithContext(ctx).Select("status").Where("panel_id = ? AND participant_id = ? AND campaign_id = ?", panel.ID, participantID, campaignID).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("participation of %s in %s: %w", participantID, campaignID, err)
	}
	return p.Status == StatusCompleted, nil
}

// CompetitionState is the member's side of a completed campaign's competition invitation.
type CompetitionState struct {
	ID       string
	Decision string // DecisionEntered, DecisionRejected or ""
	Closed   bool   // drawn, or the draw date has passed: no more entries
}

// withCompetition adds the member's decision to a completed competition campaign's result,
// so the thank-you page shows the invitation, or what they chose, after a reload too.
func (m *Module) withCompetition(ctx context.Context, panel *web.Panel, who Audience, res *GoResult) (*GoResult, error) {
	comp := res.Campaign.Definition.Competition
	if m.competitions == nil || comp == nil || res.Status != StatusCompleted {
		return res, nil
	}
	decision, err := m.competitions.Decision(ctx, panel, who.ParticipantID, res.Campaign.ID)
	if err != nil {
		return nil, fmt.Errorf("competition decision in %s: %w", res.Campaign.ID, err)
	}
	id := CompetitionID(res.Campaign.ID)
	closed := comp.DrawAt != nil && !m.now().Before(*comp.DrawAt)
	if !closed {
		if closed, err = m.competitions.Drawn(ctx, id); err != nil {
			return nil, fmt.Errorf("competition %s drawn: %w", id, err)
		}
	}
	res.Competition = &CompetitionState{ID: id, Decision: decision, Closed: closed}
	return res, nil
}

// competitionJSON is the thank-you's competition invitation: the prize, the draw and the
// member's decision (null until they enter or reject).
type thankYouCompetitionJSON struct {
	UUID         string     `json:"uuid"`
	Prize        string     `json:"prize"`
	PrizeAmount  string     `json:"prize_amount,omitempty"`
	CurrencyCode string     `json:"currency_code,omitempty"`
	Winners      int        `json:"winners"`
	DrawAt       *time.Time `json:"draw_at,omitempty"`
	Terms        string     `json:"terms,omitempty"`
	Decision     *string    `json:"decision"`
	Closed       bool       `json:"closed"`
}

func toThankYouCompetition(r *GoResult) *thankYouCompetitionJSON {
	if r.Competition == nil || r.Campaign.Definition.Competition == nil {
		return nil
	}
	c, comp := r.Campaign, r.Campaign.Definition.Competition
	out := &thankYouCompetitionJSON{
		UUID: r.Competition.ID, Prize: comp.Prize.In(r.Lang, c.DefaultLanguage), Winners: comp.Winners, DrawAt: comp.DrawAt,
		Terms: comp.Terms.In(r.Lang, c.DefaultLanguage), Closed: r.Competition.Closed,
	}
	if comp.PrizeAmount != "" {
		out.PrizeAmount, out.CurrencyCode = comp.PrizeAmount, c.CurrencyCode
	}
	if r.Competition.Decision != "" {
		d := r.Competition.Decision
		out.Decision = &d
	}
	return out
}

// POST {screen}/{id}/competition (decision=enter|reject, competition=uuid): the thank-you
// page's invitation without JavaScript. The page shows the decision; a refusal (closed, not
// completed, entered already) comes back as a message on it.
func (m *Module) competitionSubmit(c fiber.Ctx) error {
	id := c.Params("campaignUuid")
	if m.competitions == nil {
		return web.NotFound()
	}
	panel, who := web.PanelOf(c), audience(c)
	var err error
	switch c.FormValue("decision") {
	case "enter":
		err = m.competitions.Enter(c.Context(), panel, who.ParticipantID, id, c.FormValue("competition"), web.LocaleOf(c))
	case "reject":
		err = m.competitions.Reject(c.Context(), panel, who.ParticipantID, id)
	default:
		return web.Invalid("decision", "error.bad_request", nil)
	}
	var we *web.Error
	if errors.As(err, &we) && we.Status < 500 && we.Status != fiber.StatusNotFound && we.ID != "" {
		m.kit.FlashNext(c, "error", we.ID)
	} else if err != nil {
		return err
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
}
