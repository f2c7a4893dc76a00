package campaigns

import (
	"errors"

	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/campaigns"
	"github.com/gofiber/fiber/v3"
)

// GET /survey/:campaignUuid/*: the survey screen. Before the member starts, the invitation
// card with its Start button (opening it marks the campaign seen); then the survey box. A member whose welcome campaign is due is sent to it (spec section 8:
// invalid_start_go_to_welcome_campaign redirects to the welcome campaign).
func (m *Module) surveyPage(c fiber.Ctx) error {
	panel, who, lang := web.PanelOf(c), audience(c), web.LocaleOf(c)
	d, err := m.Load(c.Context(), panel, who, c.Params("campaignUuid"))
	var we *web.Error
	scr := screenOf(c)
	if errors.As(err, &we) && we.Body != nil {
		if welcome, ok := we.Body["welcome_campaign_uuid"].(string); ok {
			return c.Redirect().Status(fiber.StatusSeeOther).To(scr.url(welcome))
		}
	}
	if err != nil {
		return err
	}
	m.storeReturn(c)
	r, err := m.Peek(c.Context(), d, who)
	if err == nil {
		r, err = m.withCompetition(c.Context(), panel, who, r)
	}
	if err != nil {
		return err
	}
	if dobBlocked(&d.Campaign.Definition, who, m.now()) && !IsTerminal(r.Status) {
		r.Question, r.Answer, r.Action = nil, nil, ActionDOBBlock // as go answers it
	} else if r.Status == StatusNew && scr.widget && d.Availability == "" {
		// The widget has no room for the invitation card: it opens at the first question.
		if r, err = m.Go(c.Context(), panel, who, d.GUID); err != nil {
			return err
		}
	}
	if r.Status != StatusNew || r.Action != "" {
		// Started or finished: the survey box (the member's current question, or the outcome).
		return m.surveyBox(c, r, fiber.StatusOK, "", nil)
	}
	if d.Availability == "" {
		if err := m.store.markSeen(c.Context(), panel.ID, d.GUID, who.ParticipantID, m.now().UTC()); err != nil {
			return err
		}
	}
	def, fallback := d.Campaign.Definition, d.Campaign.DefaultLanguage
	props := view.InvitationProps{
		GUID: d.GUID, Name: d.Name, Description: d.Description, Lang: d.Language,
		Reward: web.FormatMoney(d.RewardMinor, d.CurrencyCode, lang), Minutes: d.EstimatedMinutes, Questions: d.QuestionCount,
		Base: scr.url(d.GUID), Embed: scr.embed,
	}
	if comp := def.Competition; comp != nil {
		props.Prize = comp.Prize.In(lang, fallback)
		if comp.DrawAt != nil {
			props.DrawDate = comp.DrawAt.UTC().Format("2006-01-02")
		}
	}
	if d.Availability != "" {
		props.Unavailable = m.kit.T(c, unavailableMessage(d.Availability), nil)
	}
	props.FooterLinks = viewFooterLinks(toDetailJSON(d, lang).FooterLinks)
	return m.kit.Render(c, fiber.StatusOK, view.Invitation(props))
}

// unavailableMessage says why a member cannot take a campaign, by its availability.
func unavailableMessage(availability string) string {
	switch availability {
	case StatusCompleted, StatusScreened, StatusExpired, StatusQuotaFull:
		return "survey.unavailable_" + availability
	}
	return "survey.unavailable"
}
