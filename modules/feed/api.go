package feed

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// campaignJSON is a campaign in the panel-instance API (spec section 3 "Campaign").
type campaignJSON struct {
	ID               string         `json:"id"`
	GUID             string         `json:"guid"`
	Type             string         `json:"type"`
	Name             string         `json:"name"`
	Description      string         `json:"description"`
	Language         string         `json:"language"`
	CampaignStatus   string         `json:"campaign_status"`
	IsWelcome        bool           `json:"is_welcome"`
	IsCompetition    bool           `json:"is_competition"`
	IsNew            bool           `json:"is_new"`
	Reward           string         `json:"reward"`
	CurrencyCode     string         `json:"currency_code"`
	EstimatedMinutes int            `json:"estimated_minutes"`
	Invitation       invitationJSON `json:"invitation"`
	OpensAt          *time.Time     `json:"opens_at"`
	ClosesAt         *time.Time     `json:"closes_at"`
}

type invitationJSON struct {
	Name            string `json:"name"`
	QuestionsLength int    `json:"questionsLength"`
}

func toJSON(c Card) campaignJSON {
	return campaignJSON{
		ID: c.GUID, GUID: c.GUID, Type: c.Type, Name: c.Name, Description: c.Description, Language: c.Language,
		CampaignStatus: c.Status, IsWelcome: c.IsWelcome, IsCompetition: c.IsCompetition, IsNew: c.IsNew,
		Reward: web.MoneyString(c.RewardMinor, c.CurrencyCode), CurrencyCode: c.CurrencyCode, EstimatedMinutes: c.EstimatedMinutes,
		Invitation: invitationJSON{Name: c.Name, QuestionsLength: c.QuestionCount}, OpensAt: c.OpensAt, ClosesAt: c.ClosesAt,
	}
}

func listJSON(cards []Card) []campaignJSON {
	out := make([]campaignJSON, 0, len(cards))
	for _, c := range cards {
		out = append(out, toJSON(c))
	}
	return out
}

// member is the request's signed-in member as the audience rule judges them, in the
// request's language.
func member(c fiber.Ctx) campaigns.Person {
	return campaigns.PersonOf(web.MemberOf(c), web.LocaleOf(c))
}

// maxSkipBody bounds the skip list body: 1000 guids of 36 characters with quotes and commas.
const maxSkipBody = 48 << 10

// POST /api/v3/campaigns/paged?page=first|next&pageSize=&filter=&mode=list&skipCount= with a
// body that is the skip list: a JSON array of guids, or {"skip": [...]}.
func (m *Module) apiPaged(c fiber.Ctx) error {
	q := FeedQuery{Page: c.Query("page"), Filter: c.Query("filter")}
	var err error
	if q.PageSize, err = web.QueryInt(c, "pageSize", DefaultPageSize); err != nil {
		return err
	}
	if q.PageSize == 0 { // zero means "the default" only to Go callers
		return web.Invalid("pageSize", "error.feed_page_size", map[string]any{"Max": MaxPageSize})
	}
	if q.SkipCount, err = web.QueryInt(c, "skipCount", 0); err != nil {
		return err
	}
	if mode := c.Query("mode"); mode != "" && mode != "list" {
		return web.Invalid("mode", "error.feed_mode", nil)
	}
	if q.Skip, err = skipList(c.Body()); err != nil {
		return err
	}
	page, err := m.Feed(c.Context(), web.PanelOf(c), member(c), q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{
		"campaigns": listJSON(page.Cards), "pageSize": page.PageSize, "endOfFeed": page.EndOfFeed,
		"filter": page.Filter, "page": q.Page, "welcomeFirst": page.WelcomeFirst,
	})
}

func skipList(body []byte) ([]string, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, nil
	}
	if len(body) > maxSkipBody {
		return nil, web.Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	var list []string
	if body[0] == '[' {
		if err := json.Unmarshal(body, &list); err != nil {
			return nil, web.Invalid("skip", "error.malformed_json", nil)
		}
		return list, nil
	}
	var obj struct {
		Skip []string `json:"skip"`
	}
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, web.Invalid("skip", "error.malformed_json", nil)
	}
	if web.ExactKeys(body, &obj) != nil { // "SKIP": the field is named skip, exactly
		return nil, web.Invalid("skip", "error.unknown_field", nil)
	}
	return obj.Skip, nil
}

// GET campaigns/welcome?mode=list
func (m *Module) apiWelcome(c fiber.Ctx) error {
	list, err := m.Welcome(c.Context(), web.PanelOf(c), member(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"campaigns": listJSON(list)})
}

// detailJSON adds what one campaign's page needs to the feed's fields.
type detailJSON struct {
	campaignJSON
	Available       bool             `json:"available"`
	SurveyThemeGUID string           `json:"survey_theme_guid"`
	Competition     *competitionJSON `json:"competition"`
	FooterLinks     []campaigns.Link `json:"footer_links"`
}

type competitionJSON struct {
	Prize       string     `json:"prize"`
	PrizeAmount string     `json:"prize_amount,omitempty"`
	Winners     int        `json:"winners"`
	DrawAt      *time.Time `json:"draw_at"`
	Terms       string     `json:"terms,omitempty"`
}

func toDetailJSON(d *Detail, lang string) detailJSON {
	def, fallback := d.Campaign.Definition, d.Campaign.DefaultLanguage
	out := detailJSON{campaignJSON: toJSON(d.Card), Available: d.Availability == "", SurveyThemeGUID: d.Campaign.SurveyThemeGUID, FooterLinks: def.FooterLinksIn(lang, fallback)}
	if d.Availability != "" {
		out.CampaignStatus = d.Availability
	}
	if comp := def.Competition; comp != nil {
		out.Competition = &competitionJSON{Prize: comp.Prize.In(lang, fallback), PrizeAmount: comp.PrizeAmount, Winners: comp.Winners, DrawAt: comp.DrawAt, Terms: comp.Terms.In(lang, fallback)}
	}
	return out
}

// GET campaigns/{id}
func (m *Module) apiCampaign(c fiber.Ctx) error {
	d, err := m.Load(c.Context(), web.PanelOf(c), member(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(toDetailJSON(d, web.LocaleOf(c)))
}

// POST campaigns/{id}/seen
func (m *Module) apiSeen(c fiber.Ctx) error {
	if err := m.Seen(c.Context(), web.PanelOf(c), member(c), c.Params("id")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"guid": c.Params("id"), "seen": true})
}

// POST campaigns/{id}/skip: hide the campaign from the member's feed.
func (m *Module) apiSkip(c fiber.Ctx) error {
	if err := m.Hide(c.Context(), web.PanelOf(c), member(c), c.Params("id")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"guid": c.Params("id"), "hidden": true})
}

func (m *Module) reportJSON(r Report) web.ReportJSON {
	return web.ReportJSON{ID: r.ID, CampaignUUID: &r.CampaignID, ReasonCode: r.ReasonCode, ReasonText: r.ReasonText, CreatedAt: r.CreatedAt, Recent: m.IsRecent(r)}
}

// POST campaigns/{id}/report-broken {reasonCode, reasonText}
func (m *Module) apiReportBroken(c fiber.Ctx) error {
	return web.ReportBroken(c, func(in web.BrokenReport) (web.ReportJSON, bool, error) {
		r, created, err := m.Report(c.Context(), web.PanelOf(c), member(c), c.Params("id"), in.ReasonCode, in.ReasonText)
		if err != nil {
			return web.ReportJSON{}, false, err
		}
		return m.reportJSON(*r), created, nil
	})
}

// GET /api/v3/user/reports
func (m *Module) apiReports(c fiber.Ctx) error {
	list, err := m.Reports(c.Context(), member(c))
	if err != nil {
		return err
	}
	out := make([]web.ReportJSON, 0, len(list))
	for _, r := range list {
		out = append(out, m.reportJSON(r))
	}
	for _, source := range m.reportSources {
		more, err := source(c.Context(), member(c).ID)
		if err != nil {
			return err
		}
		out = append(out, more...)
	}
	// Newest first across campaign and transaction reports.
	slices.SortStableFunc(out, func(a, b web.ReportJSON) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return c.JSON(fiber.Map{"reports": out})
}
