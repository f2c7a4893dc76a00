package surveys

import (
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/surveys"
	"github.com/gofiber/fiber/v3"
)

// The thank-you: what the member sees at the end of a campaign (the spec's thank_you object,
// the page's outcome with payout and star rating) and where its button takes them.

// thankYouJSON is the spec's thank-you object with what the page says and pays.
type thankYouJSON struct {
	Kind                      string `json:"kind,omitempty"`
	Title                     string `json:"title,omitempty"`
	Message                   string `json:"message,omitempty"`
	CompletionURL             string `json:"completion_url,omitempty"`
	RedirectURL               string `json:"redirect_url,omitempty"`
	OpenInNewTab              bool   `json:"open_in_new_tab"`
	IsFinalOnboardingCampaign bool   `json:"is_final_onboarding_campaign"`
	IsWelcome                 bool   `json:"is_welcome"`
	Payout                    string `json:"payout,omitempty"` // paid on completed only
	CurrencyCode              string `json:"currency_code,omitempty"`
	// Competition invites a member who completed a competition campaign into its draw.
	Competition *thankYouCompetitionJSON `json:"competition,omitempty"`
}

// toThankYouJSON is the thank-you of a finished run; nil while the run goes on.
func toThankYouJSON(r *GoResult) *thankYouJSON {
	if !campaigns.IsTerminal(r.Status) {
		return nil
	}
	c, lang := r.Campaign, r.Lang
	fallback := c.DefaultLanguage
	ty := c.Definition.ThankYou
	t := &thankYouJSON{Kind: ty.Kind, Title: ty.Title.In(lang, fallback), Message: ty.Message.In(lang, fallback),
		OpenInNewTab: ty.OpenInNewTab, IsFinalOnboardingCampaign: ty.IsFinalOnboardingCampaign, IsWelcome: c.IsWelcome}
	// Spec: for disqualified nothing from the thank-you is used.
	if r.Status != campaigns.StatusDisqualified {
		t.CompletionURL, t.RedirectURL = ty.CompletionURL, ty.RedirectURL
	}
	if r.Status == campaigns.StatusCompleted && c.RewardMinor > 0 {
		t.Payout, t.CurrencyCode = web.MoneyString(c.RewardMinor, c.CurrencyCode), c.CurrencyCode
	}
	t.Competition = toThankYouCompetition(r)
	return t
}

// outcomeView is the thank-you page of a finished run: its title (the campaign's, else the
// outcome's own), message, payout, continue address, competition invitation and, for a run the
// member keeps (rate), the rating they gave. A walk keeps no run, so it has no rating.
func (m *Module) outcomeView(c fiber.Ctx, r *GoResult, lang string, rate bool) *view.OutcomeView {
	ty := toThankYouJSON(r)
	o := &view.OutcomeView{Status: r.Status, Title: ty.Title, Message: ty.Message, OpenInNewTab: ty.OpenInNewTab, CanRate: rate}
	if o.Title == "" {
		o.Title = m.kit.T(c, "survey.outcome_"+outcomeKey(r.Status), nil)
	}
	if ty.Payout != "" {
		o.Payout = web.FormatMoney(r.Campaign.RewardMinor, r.Campaign.CurrencyCode, lang)
	}
	o.ContinueURL = ty.CompletionURL
	if o.ContinueURL == "" {
		o.ContinueURL = ty.RedirectURL
	}
	o.Invitation = r.Campaign.Definition.ThankYou.Kind == campaigns.ThankYouCompetitionInvitation
	if comp := toThankYouCompetition(r); comp != nil {
		o.Competition = &view.CompetitionView{ID: comp.UUID, Prize: comp.Prize, Terms: comp.Terms, Closed: comp.Closed}
		if comp.DrawAt != nil {
			o.Competition.DrawDate = m.kit.Date(c, *comp.DrawAt, false)
		}
		if comp.Decision != nil {
			o.Competition.Decision = *comp.Decision
		}
	}
	if !rate {
		return o
	}
	if rating, err := m.RatingOf(c.Context(), web.PanelOf(c), respondent(c), r.Campaign.ID); err == nil {
		if rating.Rating != nil {
			o.Rating = *rating.Rating
		}
		if rating.Comment != nil {
			o.Comment = *rating.Comment
		}
	}
	return o
}

func outcomeKey(status string) string {
	switch status {
	case campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusQuotaFull, campaigns.StatusDisqualified, campaigns.StatusExpired:
		return status
	}
	return "other"
}

// returnCookie keeps the spec's "previously stored redirect target" of the thank-you
// button: the address (and its own label) a survey link brought along as ?redirect= and
// ?redirectLabel=, until the button uses it.
const returnCookie = "survey-return"

// maxReturnLabel bounds a stored redirect's label (it becomes a button).
const maxReturnLabel = 60

// storeReturn keeps a safe ?redirect= (and its label) of the survey link for the thank-you
// button. An unsafe address is dropped, as every redirect target is.
func (m *Module) storeReturn(c fiber.Ctx) {
	target := web.SafeRedirect(c, c.Query("redirect"))
	if target == "" {
		return
	}
	label := strings.Join(strings.Fields(c.Query("redirectLabel")), " ")
	if r := []rune(label); len(r) > maxReturnLabel {
		label = string(r[:maxReturnLabel])
	}
	m.kit.SetCookie(c, &fiber.Cookie{Name: returnCookie, Value: url.Values{"to": {target}, "label": {label}}.Encode(), Path: "/", SessionOnly: true})
}

// storedReturn is the stored redirect target and label, checked again (the cookie is the
// browser's to change).
func storedReturn(c fiber.Ctx) (target, label string) {
	v, err := url.ParseQuery(c.Cookies(returnCookie))
	if err != nil {
		return "", ""
	}
	return web.SafeRedirect(c, v.Get("to")), v.Get("label")
}

// backLabel is the thank-you button's label: a stored redirect's own label, else the spec's
// 'Take me back to my feed'.
func (m *Module) backLabel(c fiber.Ctx, r *GoResult) string {
	if target, label := storedReturn(c); target != "" && label != "" && !r.Campaign.IsWelcome {
		return label
	}
	return m.kit.T(c, "error.default_button", nil)
}

// GET /survey/:campaignUuid/leave: the thank-you button 'Take me back to my feed', in the
// spec's order. After the welcome campaign, the first campaign of the member's feed; else the
// stored redirect target, which it clears; else the feed. (The onboarding flow's own box goes
// to the home root.)
func (m *Module) leave(c fiber.Ctx) error {
	panel := web.PanelOf(c)
	t, err := m.take(c, c.Params("campaignUuid"))
	if err != nil {
		return err
	}
	if t.Campaign.IsWelcome && m.feed != nil {
		next, err := m.feed.FirstAfter(c.Context(), panel, respondent(c).Person(), t.Campaign.ID)
		if err != nil {
			return err
		}
		if next != "" {
			return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(next))
		}
	}
	if target, _ := storedReturn(c); target != "" {
		m.kit.ClearCookie(c, returnCookie)
		return c.Redirect().Status(fiber.StatusSeeOther).To(target)
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To("/feed")
}
