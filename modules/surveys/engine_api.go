package surveys

import (
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
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
	FooterLinks  []campaigns.Link `json:"footer_links"`
}

type actionJSON struct {
	Type string `json:"type"`
}

type progressJSON struct {
	Answered  int `json:"answered"`
	Questions int `json:"questions"`
	Total     int `json:"total"` // percent
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

func options(list []campaigns.Option, lang, fallback string) []optionJSON {
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

func toQuestionJSON(q *campaigns.Question, answer any, lang, fallback string) *questionJSON {
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
		Reward: web.MoneyString(c.RewardMinor, c.CurrencyCode), CurrencyCode: c.CurrencyCode, FooterLinks: def.FooterLinksIn(lang, fallback)}
	out.Campaign.Invitation.Name, out.Campaign.Invitation.QuestionsLength = out.Campaign.Name, questions
	if r.Question != nil {
		out.Question = toQuestionJSON(r.Question, r.Answer, lang, fallback)
	}
	if r.Action != "" {
		out.Action = &actionJSON{Type: r.Action}
	}
	out.ThankYou = toThankYouJSON(r)
	return out
}

// GET campaigns/{id}/go
func (m *Module) apiGo(c fiber.Ctx) error {
	r, err := m.Go(c.Context(), web.PanelOf(c), respondent(c), c.Params("id"))
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
	r, err := m.Answer(c.Context(), web.PanelOf(c), respondent(c), c.Params("id"), c.Params("qid"), c.Body())
	if err != nil {
		return err
	}
	return c.JSON(toGoJSON(r))
}

// respondent is the request's signed-in member as a respondent, in the request's language.
func respondent(c fiber.Ctx) Member {
	return Member(campaigns.PersonOf(web.MemberOf(c), web.LocaleOf(c)))
}

// GET /api/v3/participations/paged?page=1&pageSize=10: what the member started or finished.
func (m *Module) apiParticipations(c fiber.Ctx) error {
	page, err := web.QueryInt(c, "page", 1)
	if err != nil {
		return err
	}
	size, err := web.QueryInt(c, "pageSize", defaultParticipationsPage)
	if err != nil {
		return err
	}
	panel, lang := web.PanelOf(c), web.LocaleOf(c)
	rows, total, err := m.Participations(c.Context(), respondent(c).ID, page, size)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.CampaignID)
	}
	listed, err := m.catalogue.Listings(c.Context(), panel, ids)
	if err != nil {
		return err
	}
	type participationJSON struct {
		ID           string     `json:"id"`
		CampaignUUID string     `json:"campaignUuid"`
		Name         string     `json:"name"`
		Type         string     `json:"type"`
		Status       string     `json:"campaign_status"`
		Reward       string     `json:"reward"`
		CurrencyCode string     `json:"currency_code"`
		SeenAt       *time.Time `json:"seenAt"`
		StartedAt    *time.Time `json:"startedAt"`
		FinishedAt   *time.Time `json:"finishedAt"`
		UpdatedAt    time.Time  `json:"updatedAt"`
	}
	out := make([]participationJSON, 0, len(rows))
	for _, r := range rows {
		l := listed[r.CampaignID]
		out = append(out, participationJSON{
			ID: r.ID, CampaignUUID: r.CampaignID, Name: l.Names.In(lang, l.DefaultLanguage), Type: l.Type, Status: r.Status,
			Reward: web.MoneyString(l.RewardMinor, l.CurrencyCode), CurrencyCode: l.CurrencyCode,
			SeenAt: r.SeenAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, UpdatedAt: r.UpdatedAt,
		})
	}
	return c.JSON(fiber.Map{"participations": out, "page": page, "pageSize": size, "total": total})
}
