package surveys

import (
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/surveys"
	"github.com/gofiber/fiber/v3"
)

// GET /survey/:campaignUuid/*: the survey screen. Before the member starts, the invitation
// card with its Start button (opening it marks the campaign seen); then the survey box. A
// member whose welcome campaign is due is sent to it (spec section 8:
// invalid_start_go_to_welcome_campaign redirects to the welcome campaign).
func (m *Module) surveyPage(c fiber.Ctx) error {
	panel, lang, scr := web.PanelOf(c), web.LocaleOf(c), screenOf(c)
	who := respondent(c)
	t, err := m.take(c, c.Params("campaignUuid"))
	if welcome, ok := campaigns.WelcomeFirstOf(err); ok {
		return c.Redirect().Status(fiber.StatusSeeOther).To(scr.url(welcome))
	}
	if err != nil {
		return err
	}
	m.storeReturn(c)
	r, err := m.peek(c.Context(), t, who.Person())
	if err == nil {
		r, err = m.withCompetition(c.Context(), panel, who.Person(), r)
	}
	if err != nil {
		return err
	}
	id := t.Campaign.ID
	if t.TooYoung && !campaigns.IsTerminal(r.Status) {
		r.Question, r.Answer, r.Action = nil, nil, ActionDOBBlock // as go answers it
	} else if r.Status == campaigns.StatusNew && scr.widget && t.Reason == "" {
		// The widget has no room for the invitation card: it opens at the first question.
		if r, err = m.Go(c.Context(), panel, who, id); err != nil {
			return err
		}
	}
	if r.Status != campaigns.StatusNew || r.Action != "" {
		// Started or finished: the survey box (the member's current question, or the outcome).
		return m.surveyBox(c, r, fiber.StatusOK, "", nil)
	}
	if t.Reason == "" && t.Listing.Standing.SeenAt == nil { // seen once is seen: no write on every view
		if err := m.MarkSeen(c.Context(), panel, who.ID, id); err != nil {
			return err
		}
	}
	l, def, fallback := t.Listing, t.Campaign.Definition, t.Campaign.DefaultLanguage
	props := view.InvitationProps{
		GUID: id, Name: l.Names.In(lang, fallback), Description: l.Descriptions.In(lang, fallback), Lang: l.LanguageFor(lang),
		Reward: web.FormatMoney(l.RewardMinor, l.CurrencyCode, lang), Minutes: l.EstimatedMinutes, Questions: l.QuestionCount,
		Base: scr.url(id), Embed: scr.embed,
	}
	if comp := def.Competition; comp != nil {
		props.Prize = comp.Prize.In(lang, fallback)
		if comp.DrawAt != nil {
			props.DrawDate = comp.DrawAt.UTC().Format("2006-01-02")
		}
	}
	if t.Reason != "" {
		props.Unavailable = m.kit.T(c, unavailableMessage(t.Reason), nil)
	}
	props.FooterLinks = viewFooterLinks(def.FooterLinksIn(lang, fallback))
	return m.kit.Render(c, fiber.StatusOK, view.Invitation(props))
}

// unavailableMessage says why a member cannot take a campaign, by its availability.
func unavailableMessage(availability string) string {
	switch availability {
	case campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusExpired, campaigns.StatusQuotaFull:
		return "survey.unavailable_" + availability
	}
	return "survey.unavailable"
}
