package campaigns

import (
	"context"
	"errors"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// goJSON is the spec's campaign go result.
type goJSON struct {
	CampaignStatus string        `json:"campaign_status"`
	ThankYou       *thankYouJSON `json:"thank_you"`
	Action         *actionJSON   `json:"action"`
	Question       *questionJSON `json:"question"`
	Progress       progressJSON  `json:"progress"`
	Campaign       goCampaign    `json:"campaign"`
}

type goCampaign struct {
	GUID          string `json:"guid"`
	Name          string `json:"name"`
	IsWelcome     bool   `json:"is_welcome"`
	IsCompetition bool   `json:"is_competition"`
	Invitation    struct {
		Name            string `json:"name"`
		QuestionsLength int    `json:"questionsLength"`
	} `json:"invitation"`
	Reward       string           `json:"reward"`
	CurrencyCode string           `json:"currency_code"`
	FooterLinks  []footerLinkJSON `json:"footer_links"`
}

type actionJSON struct {
	Type string `json:"type"`
}

type progressJSON struct {
	Answered  int `json:"answered"`
	Questions int `json:"questions"`
	Total     int `json:"total"` // percent
}

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

// optionJSON is an answer option, row, column or scale point in the member's language.
type optionJSON struct {
	ID        string     `json:"id"`
	Text      string     `json:"text,omitempty"`
	Image     *imageJSON `json:"image,omitempty"`
	Value     *float64   `json:"value,omitempty"`
	Exclusive bool       `json:"exclusive,omitempty"`
}

type imageJSON struct {
	URL string `json:"url"`
	Alt string `json:"alt,omitempty"`
}

// questionJSON carries every field of the spec's Question, texts in the member's language.
type questionJSON struct {
	ID           string            `json:"id"`
	Type         string            `json:"type"`
	ControlType  string            `json:"control_type"`
	Text         string            `json:"text"`
	Descr        string            `json:"descr,omitempty"`
	HTML         string            `json:"html,omitempty"`
	Image        *imageJSON        `json:"image,omitempty"`
	VideoID      string            `json:"videoid,omitempty"`
	Answers      []optionJSON      `json:"answers,omitempty"`
	Rows         []optionJSON      `json:"rows,omitempty"`
	Columns      []optionJSON      `json:"columns,omitempty"`
	Multiple     bool              `json:"multiple,omitempty"`
	MaxFields    *int              `json:"max_fields,omitempty"`
	MinChars     *int              `json:"min_chars,omitempty"`
	MaxChars     *int              `json:"max_chars,omitempty"`
	MinAnswers   *int              `json:"min_answers,omitempty"`
	MaxAnswers   *int              `json:"max_answers,omitempty"`
	MinNum       *float64          `json:"min_num,omitempty"`
	MaxNum       *float64          `json:"max_num,omitempty"`
	Step         *float64          `json:"step,omitempty"`
	SpendMin     *float64          `json:"spend_min,omitempty"`
	SpendMax     *float64          `json:"spend_max,omitempty"`
	SpendPeriod  []string          `json:"spend_period,omitempty"`
	FreqMin      *int              `json:"freq_min,omitempty"`
	FreqMax      *int              `json:"freq_max,omitempty"`
	FreqType     string            `json:"freq_type,omitempty"`
	FreqPeriod   []string          `json:"freq_period,omitempty"`
	ScaleAnswers []optionJSON      `json:"scale_answers,omitempty"`
	ScaleLabels  map[string]string `json:"scale_labels,omitempty"`
	Answer       any               `json:"answer"` // the member's earlier answer, null if none
}

func options(list []Option, lang, fallback string) []optionJSON {
	var out []optionJSON
	for _, o := range list {
		j := optionJSON{ID: o.ID, Text: o.Text.In(lang, fallback), Value: o.Value, Exclusive: o.Exclusive}
		if o.Image != nil {
			j.Image = &imageJSON{URL: o.Image.URL, Alt: o.Image.Alt.In(lang, fallback)}
		}
		out = append(out, j)
	}
	return out
}

func toQuestionJSON(q *Question, answer any, lang, fallback string) *questionJSON {
	j := &questionJSON{
		ID: q.ID, Type: q.ControlType, ControlType: q.ControlType, Text: q.Text.In(lang, fallback), Descr: q.Descr.In(lang, fallback),
		HTML: SanitizeHTML(q.HTML.In(lang, fallback)), VideoID: q.VideoID, Answers: options(q.Answers, lang, fallback), Rows: options(q.Rows, lang, fallback),
		Columns: options(q.Columns, lang, fallback), Multiple: q.Multiple, MaxFields: q.MaxFields, MinChars: q.MinChars, MaxChars: q.MaxChars,
		MinAnswers: q.MinAnswers, MaxAnswers: q.MaxAnswers, MinNum: q.MinNum, MaxNum: q.MaxNum, Step: q.Step, SpendMin: q.SpendMin,
		SpendMax: q.SpendMax, SpendPeriod: q.SpendPeriod, FreqMin: q.FreqMin, FreqMax: q.FreqMax, FreqType: q.FreqType,
		FreqPeriod: q.FreqPeriod, ScaleAnswers: options(q.ScaleAnswers, lang, fallback), Answer: answer,
	}
	if q.Image != nil {
		j.Image = &imageJSON{URL: q.Image.URL, Alt: q.Image.Alt.In(lang, fallback)}
	}
	if len(q.ScaleLabels) > 0 {
		j.ScaleLabels = map[string]string{}
		for k, t := range q.ScaleLabels {
			j.ScaleLabels[k] = t.In(lang, fallback)
		}
	}
	return j
}

func toGoJSON(r *GoResult) goJSON {
	c, lang := r.Campaign, r.Lang
	fallback := c.DefaultLanguage
	def := &c.Definition
	answered, questions, percent := r.Progress()
	out := goJSON{CampaignStatus: r.Status, Progress: progressJSON{Answered: answered, Questions: questions, Total: percent}}
	out.Campaign = goCampaign{GUID: c.ID, Name: c.Names.In(lang, fallback), IsWelcome: c.IsWelcome, IsCompetition: c.IsCompetition,
		Reward: web.MoneyString(c.RewardMinor, c.CurrencyCode), CurrencyCode: c.CurrencyCode, FooterLinks: footerLinks(def, lang, fallback)}
	out.Campaign.Invitation.Name, out.Campaign.Invitation.QuestionsLength = out.Campaign.Name, questions
	if r.Question != nil {
		out.Question = toQuestionJSON(r.Question, r.Answer, lang, fallback)
	}
	if r.Action != "" {
		out.Action = &actionJSON{Type: r.Action}
	}
	if IsTerminal(r.Status) {
		ty := def.ThankYou
		t := &thankYouJSON{Kind: ty.Kind, Title: ty.Title.In(lang, fallback), Message: ty.Message.In(lang, fallback),
			OpenInNewTab: ty.OpenInNewTab, IsFinalOnboardingCampaign: ty.IsFinalOnboardingCampaign, IsWelcome: c.IsWelcome}
		// Spec: for disqualified nothing from the thank-you is used.
		if r.Status != StatusDisqualified {
			t.CompletionURL, t.RedirectURL = ty.CompletionURL, ty.RedirectURL
		}
		if r.Status == StatusCompleted && c.RewardMinor > 0 {
			t.Payout, t.CurrencyCode = web.MoneyString(c.RewardMinor, c.CurrencyCode), c.CurrencyCode
		}
		t.Competition = toThankYouCompetition(r)
		out.ThankYou = t
	}
	return out
}

// GET campaigns/{id}/go
func (m *Module) apiGo(c fiber.Ctx) error {
	r, err := m.Go(c.Context(), web.PanelOf(c), audience(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(r))
}

// POST campaigns/{id}/question/{qid} {"answer": VALUE}
func (m *Module) apiAnswer(c fiber.Ctx) error {
	if !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
		return web.Fail(fiber.StatusUnsupportedMediaType, "error.unsupported_media_type", nil)
	}
	if len(c.Body()) > web.MaxJSONBody {
		return web.Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	r, err := m.Answer(c.Context(), web.PanelOf(c), audience(c), c.Params("id"), c.Params("qid"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(r))
}

// Rating is a member's rating of a finished campaign (spec "Rating": comment, rating).
type Rating struct {
	Rating  *int    `json:"rating"`
	Comment *string `json:"comment,omitempty"`
}

// Rate records the member's rating (1 to 5) of a campaign they finished; the comment is
// trimmed and dropped if empty. Rating again replaces it.
func (m *Module) Rate(ctx context.Context, panel *web.Panel, who Audience, id string, rating int, comment string) (*Rating, error) {
	if rating < 1 || rating > 5 {
		return nil, web.Invalid("rating", "error.rating", nil)
	}
	comment = strings.Join(strings.Fields(comment), " ")
	if len([]rune(comment)) > web.MaxReportText {
		return nil, web.Invalid("comment", "error.too_long", map[string]any{"Max": web.MaxReportText})
	}
	if _, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id); err != nil {
		return nil, err
	}
	now := m.now().UTC()
	var c *string
	if comment != "" {
		c = &comment
	}
	res := m.db.WithContext(ctx).Model(&Participation{}).Where("participant_id = ? AND campaign_id = ? AND status IN ?", who.ParticipantID, id, TerminalStatuses).
		Updates(map[string]any{"rating": rating, "rating_comment": c, "rated_at": now, "updated_at": now})
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, web.Fail(fiber.StatusConflict, "error.rate_unfinished", nil).WithCode("campaign_not_finished")
	}
	return &Rating{Rating: &rating, Comment: c}, nil
}

// RatingOf returns the member's rating of a campaign (null fields when none).
func (m *Module) RatingOf(ctx context.Context, panel *web.Panel, who Audience, id string) (*Rating, error) {
	if _, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id); err != nil {
		return nil, err
	}
	var p Participation
	err := m.db.WithContext(ctx).Where("participant_id = ? AND campaign_id = ?", who.ParticipantID, id).Take(&p).Error
	if err != nil && !errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, err
	}
	return &Rating{Rating: p.Rating, Comment: p.RatingComment}, nil
}

// GET campaigns/{id}/rating
func (m *Module) apiRating(c fiber.Ctx) error {
	r, err := m.RatingOf(c.Context(), web.PanelOf(c), audience(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// POST campaigns/{id}/rating {rating, comment}
func (m *Module) apiRate(c fiber.Ctx) error {
	var in struct {
		Rating  *int   `json:"rating"`
		Comment string `json:"comment"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if in.Rating == nil {
		return web.Invalid("rating", "error.rating", nil)
	}
	r, err := m.Rate(c.Context(), web.PanelOf(c), audience(c), c.Params("id"), *in.Rating, in.Comment)
	if err != nil {
		return err
	}
	return c.JSON(r)
}
