package surveys

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

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

// CompetitionState is the member's side of a completed campaign's competition invitation.
type CompetitionState struct {
	ID       string
	Decision string // DecisionEntered, DecisionRejected or ""
	Closed   bool   // drawn, or the draw date has passed: no more entries
}

// withCompetition adds the member's decision to a completed competition campaign's result,
// so the thank-you page shows the invitation, or what they chose, after a reload too.
func (m *Module) withCompetition(ctx context.Context, panel *web.Panel, who campaigns.Person, res *GoResult) (*GoResult, error) {
	comp := res.Campaign.Definition.Competition
	if m.competitions == nil || comp == nil || res.Status != campaigns.StatusCompleted {
		return res, nil
	}
	decision, err := m.competitions.Decision(ctx, panel, who.ID, res.Campaign.ID)
	if err != nil {
		return nil, fmt.Errorf("competition decision in %s: %w", res.Campaign.ID, err)
	}
	id := campaigns.CompetitionID(res.Campaign.ID)
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
	panel, who := web.PanelOf(c), respondent(c).Person()
	var err error
	switch c.FormValue("decision") {
	case "enter":
		err = m.competitions.Enter(c.Context(), panel, who.ID, id, c.FormValue("competition"), web.LocaleOf(c))
	case "reject":
		err = m.competitions.Reject(c.Context(), panel, who.ID, id)
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
