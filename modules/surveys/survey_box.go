package surveys

import (
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/surveys"
	"github.com/gofiber/fiber/v3"
)

// surveyBox renders the survey box for a started or finished campaign.
func (m *Module) surveyBox(c fiber.Ctx, r *GoResult, status int, formErr string, submitted *view.QuestionView) error {
	return m.renderBox(c, r, status, formErr, submitted, "", "", nil)
}

// surveyBoxIn renders the box in a preview mode, its island talking to previewBase.
func (m *Module) surveyBoxIn(c fiber.Ctx, r *GoResult, mode, previewBase string) error {
	return m.renderBox(c, r, fiber.StatusOK, "", nil, mode, previewBase, nil)
}

func (m *Module) renderBox(c fiber.Ctx, r *GoResult, status int, formErr string, submitted *view.QuestionView, mode, previewBase string, w *WalkBox) error {
	lang := web.LocaleOf(c)
	if mode != "" {
		lang = r.Lang // a preview shows the campaign in the language of its link
	}
	camp := r.Campaign
	fallback := camp.DefaultLanguage
	_, _, percent := r.Progress()
	scr := screenOf(c)
	props := view.SurveyProps{
		GUID: camp.ID, Name: camp.Names.In(lang, fallback), Lang: lang, Percent: percent, Error: formErr, ThemeCSS: SurveyThemeOf(camp).CSS(),
		Base: scr.url(camp.ID), Embed: scr.embed, Widget: scr.widget, Blocked: m.blockedMessage(c, r),
		// Spec "Footer": Submit, not Next, in a widget whose invitation has exactly one question.
		Submit:   scr.widget && len(camp.Definition.Questions) == 1,
		BackHref: scr.url(camp.ID, "leave"), BackLabel: m.backLabel(c, r),
	}
	props.FooterLinks = viewFooterLinks(camp.Definition.FooterLinksIn(r.Lang, fallback))
	// The survey-box island takes over from the plain forms where JavaScript runs.
	props.Island = m.islandProps(c, r)
	if scr.embed || scr.widget {
		props.Island["embed"], props.Island["widget"] = scr.embed, scr.widget
	}
	props.Island["leave"] = map[string]string{"href": props.BackHref, "label": props.BackLabel}
	if props.Blocked != "" {
		props.Island["blocked"] = props.Blocked
	}
	if w != nil {
		w.adjust(&props)
	}
	if mode != "" {
		// A preview works only with the island: it keeps the answers, the server stores none.
		props.Island["previewMode"], props.Island["apiBase"], props.Island["lang"] = mode, previewBase, r.Lang
		props.Preview = true
	}
	web.UseIsland(c, "survey-box")
	switch {
	case r.Question != nil:
		props.Question = m.questionView(c, r.Question, r.Answer, lang, fallback)
		if submitted != nil {
			mergeSubmitted(props.Question, submitted)
		}
	case campaigns.IsTerminal(r.Status):
		props.Outcome = m.outcomeView(c, r, lang, w == nil)
		if props.Outcome.Rating > 0 && mode == "" {
			// A reload finds the member's rating as they left it, as the page without JavaScript does.
			props.Island["rating"] = map[string]any{"rating": props.Outcome.Rating, "comment": props.Outcome.Comment}
		}
	}
	page := m.kit.Page(c)
	if w != nil {
		page.Balance = "" // a visitor has none, and onboarding pays nothing until it ends
	}
	return m.kit.RenderPage(c, page, status, view.Survey(props))
}

// blockedMessage says why the campaign's min_age holds the member back (the dobblk action).
func (m *Module) blockedMessage(c fiber.Ctx, r *GoResult) string {
	if r.Action != ActionDOBBlock {
		return ""
	}
	return m.kit.T(c, "survey.blocked", map[string]any{"Age": r.Campaign.Definition.MinAge})
}

func fmtNum(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

// questionView is a question as the server-rendered form shows it, with the answer so far.
func (m *Module) questionView(c fiber.Ctx, q *campaigns.Question, answer any, lang, fallback string) *view.QuestionView {
	v := &view.QuestionView{
		ID: q.ID, Control: q.ControlType, Text: q.Text.In(lang, fallback), Descr: q.Descr.In(lang, fallback), HTML: SanitizeHTML(q.HTML.In(lang, fallback)),
		Min: fmtNum(q.MinNum), Max: fmtNum(q.MaxNum), Step: fmtNum(q.Step), Multiple: q.Multiple,
		Chosen: map[string]bool{}, Grid: map[string]map[string]bool{}, Rank: map[string]string{},
		LowLabel: q.ScaleLabels["min"].In(lang, fallback), HighLabel: q.ScaleLabels["max"].In(lang, fallback),
	}
	if q.MaxChars != nil {
		v.MaxChars = *q.MaxChars
	}
	if q.Image != nil {
		v.ImageURL, v.ImageAlt = q.Image.URL, q.Image.Alt.In(lang, fallback)
	}
	if q.VideoID != "" {
		v.VideoURL = "https://www.youtube-nocookie.com/embed/" + q.VideoID
	}
	opt := func(list []campaigns.Option) []view.OptionView {
		out := make([]view.OptionView, 0, len(list))
		for _, o := range list {
			ov := view.OptionView{ID: o.ID, Text: o.Text.In(lang, fallback)}
			if o.Image != nil {
				ov.ImageURL = o.Image.URL
			}
			out = append(out, ov)
		}
		return out
	}
	v.Options, v.Rows, v.Columns = opt(q.Answers), opt(q.Rows), opt(q.Columns)
	points := func(lo, hi, step float64) {
		v.Options = nil
		for x := lo; x <= hi+1e-9 && len(v.Options) < 101; x += step {
			s := strconv.FormatFloat(x, 'f', -1, 64)
			v.Options = append(v.Options, view.OptionView{ID: s, Text: s})
		}
	}
	switch q.ControlType {
	case campaigns.ControlNPS:
		points(0, 10, 1)
	case campaigns.ControlStar:
		most := float64(DefaultStars)
		if q.MaxNum != nil {
			most = *q.MaxNum
		}
		points(1, most, 1)
		for i := range v.Options {
			v.Options[i].Text = m.kit.Locales.Translate(lang, "survey.stars", map[string]any{"Count": i + 1}, i+1)
		}
	case campaigns.ControlClickBar:
		lo, hi, step := 1.0, 10.0, 1.0
		if q.MinNum != nil {
			lo = *q.MinNum
		}
		if q.MaxNum != nil {
			hi = *q.MaxNum
		}
		if q.Step != nil && *q.Step > 0 {
			step = *q.Step
		}
		points(lo, hi, step)
	case campaigns.ControlLikert, campaigns.ControlSmiley:
		v.Options = nil
		for i, o := range q.ScaleAnswers {
			s := strconv.FormatFloat(ScaleValue(o, i), 'f', -1, 64)
			v.Options = append(v.Options, view.OptionView{ID: s, Text: o.Text.In(lang, fallback)})
		}
	case campaigns.ControlSpend, campaigns.ControlFrequency:
		periods := q.SpendPeriod
		if q.ControlType == campaigns.ControlFrequency {
			periods = q.FreqPeriod
			v.Min, v.Max = intStr(q.FreqMin), intStr(q.FreqMax)
		} else {
			v.Min, v.Max = fmtNum(q.SpendMin), fmtNum(q.SpendMax)
		}
		if len(periods) == 0 {
			periods = []string{"day", "week", "month", "year"}
		}
		for _, p := range periods {
			v.Periods = append(v.Periods, view.OptionView{ID: p, Text: m.kit.T(c, "survey.per_"+p, nil)})
		}
	}
	v.Fill(answer)
	return v
}

func intStr(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

func mergeSubmitted(v, s *view.QuestionView) {
	v.Value, v.Chosen, v.Grid, v.Rank, v.Most, v.Least, v.Amount, v.Period, v.Postcode = s.Value, s.Chosen, s.Grid, s.Rank, s.Most, s.Least, s.Amount, s.Period, s.Postcode
}

// formAnswer turns a plain form post into the answer VALUE of ARCHITECTURE.md "Answers",
// and what the member submitted, to show again if it is refused.
func formAnswer(c fiber.Ctx, q *campaigns.Question) (json.RawMessage, *view.QuestionView) {
	args := c.Request().PostArgs()
	multi := func(name string) []string {
		var out []string
		for _, b := range args.PeekMulti(name) {
			out = append(out, string(b))
		}
		return out
	}
	sub := &view.QuestionView{Chosen: map[string]bool{}, Grid: map[string]map[string]bool{}, Rank: map[string]string{}}
	one := strings.TrimSpace(c.FormValue("answer"))
	sub.Value = one
	num := func(s string) any {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
		return s // refused by validation: "Please enter a number."
	}
	var value any
	switch q.ControlType {
	case campaigns.ControlText, campaigns.ControlTextArea, campaigns.ControlDate, campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		value = c.FormValue("answer")
	case campaigns.ControlNumber, campaigns.ControlSlider, campaigns.ControlStepper, campaigns.ControlClickBar, campaigns.ControlNPS, campaigns.ControlStar, campaigns.ControlLikert, campaigns.ControlSmiley:
		value = num(one)
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
		ids := multi("answer")
		for _, id := range ids {
			sub.Chosen[id] = true
		}
		value = ids
	case campaigns.ControlRanking:
		type ranked struct {
			id   string
			rank int
		}
		var list []ranked
		for _, o := range q.Answers {
			r := c.FormValue("rank." + o.ID)
			sub.Rank[o.ID] = r
			if n, err := strconv.Atoi(r); err == nil {
				list = append(list, ranked{o.ID, n})
			}
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].rank < list[j].rank })
		ids := []string{}
		for i, r := range list {
			if i > 0 && list[i-1].rank == r.rank {
				ids = append(ids, ids[len(ids)-1]) // two options on one rank: refused as a duplicate
				continue
			}
			ids = append(ids, r.id)
		}
		value = ids
	case campaigns.ControlMostLeast:
		sub.Most, sub.Least = c.FormValue("most"), c.FormValue("least")
		value = map[string]any{"most": sub.Most, "least": sub.Least}
	case campaigns.ControlGrid:
		grid := map[string]any{}
		for _, row := range q.Rows {
			cols := multi("row." + row.ID)
			if len(cols) == 0 {
				continue
			}
			sub.Grid[row.ID] = map[string]bool{}
			for _, col := range cols {
				sub.Grid[row.ID][col] = true
			}
			if q.Multiple {
				grid[row.ID] = cols
			} else {
				grid[row.ID] = cols[0]
			}
		}
		value = grid
	case campaigns.ControlSpend, campaigns.ControlFrequency:
		sub.Amount, sub.Period = c.FormValue("amount"), c.FormValue("period")
		key := "amount"
		if q.ControlType == campaigns.ControlFrequency {
			key = "count"
		}
		value = map[string]any{key: num(sub.Amount), "period": sub.Period}
	case campaigns.ControlLocation:
		sub.Postcode = strings.TrimSpace(c.FormValue("postcode"))
		// Without the lookup the postcode is its own place id.
		value = map[string]any{"postcode": sub.Postcode, "id": strings.ToUpper(strings.ReplaceAll(sub.Postcode, " ", ""))}
	case campaigns.ControlVideo:
		sub.Value = c.FormValue("watched")
		value = map[string]any{"watched": sub.Value == "true"}
	}
	raw, _ := json.Marshal(map[string]any{"answer": value})
	return raw, sub
}

// POST /survey/:campaignUuid/start: the invitation's Start button.
func (m *Module) startSubmit(c fiber.Ctx) error {
	id := c.Params("campaignUuid")
	if _, err := m.Go(c.Context(), web.PanelOf(c), respondent(c), id); err != nil {
		return err
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
}

// POST /survey/:campaignUuid/answer: one question answered with a plain form.
func (m *Module) answerSubmit(c fiber.Ctx) error {
	panel, who, id := web.PanelOf(c), respondent(c), c.Params("campaignUuid")
	t, err := m.take(c, id)
	if err != nil {
		return err
	}
	qid := c.FormValue("qid")
	qi := t.Campaign.Definition.QuestionIndex(qid)
	if qi < 0 {
		return web.Invalid("qid", "error.bad_request", nil)
	}
	body, submitted := formAnswer(c, &t.Campaign.Definition.Questions[qi])
	_, err = m.Answer(c.Context(), panel, who, id, qid, body)
	var we *web.Error
	if errors.As(err, &we) && we.Status == fiber.StatusBadRequest {
		// Show the question again with what was submitted and why it was refused.
		r, perr := m.peek(c.Context(), t, who.Person())
		if perr != nil {
			return perr
		}
		msg := we.ToAPI(m.kit.Tr(c)).Message
		if r.Question == nil || r.Question.ID != qid {
			return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
		}
		return m.surveyBox(c, r, fiber.StatusBadRequest, msg, submitted)
	}
	if err != nil && !(errors.As(err, &we) && we.Status == fiber.StatusConflict) {
		return err
	}
	// Answered, or already past this question (a second click, the back button): carry on.
	return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
}

// POST /survey/:campaignUuid/rating: the thank-you page's star rating.
func (m *Module) ratingSubmit(c fiber.Ctx) error {
	id := c.Params("campaignUuid")
	rating, err := strconv.Atoi(c.FormValue("rating"))
	if err != nil {
		rating = 0
	}
	if _, err := m.Rate(c.Context(), web.PanelOf(c), respondent(c), id, rating, c.FormValue("comment")); err != nil {
		var we *web.Error
		if errors.As(err, &we) && we.Status < 500 && we.Status != fiber.StatusNotFound {
			m.kit.FlashNext(c, "error", "flash.rating_invalid")
			return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
		}
		return err
	}
	m.kit.FlashNext(c, "success", "flash.rating_saved")
	return c.Redirect().Status(fiber.StatusSeeOther).To(screenOf(c).url(id))
}

// surveyLabelKeys are the texts the survey-box island and its controls show.
var surveyLabelKeys = []string{
	"survey.next", "survey.progress", "survey.submit", "survey.percent_complete", "survey.preview_only", "survey.back", "survey.restart",
	"survey.close_preview", "survey.go_to_homepage", "survey.continue_website", "survey.open_new_tab", "error.default_button", "embed.close",
	"survey.payout", "survey.rate", "survey.comment", "survey.send_rating", "survey.rating_saved", "survey.control_failed",
	"survey.retry", "survey.balance", "survey.outcome_completed", "survey.outcome_screened", "survey.outcome_quota_full",
	"survey.outcome_disqualified", "survey.outcome_expired", "survey.outcome_other", "survey.choose", "survey.most",
	"survey.least", "survey.postcode", "survey.watched", "survey.move_up", "survey.move_down", "survey.keep_order",
	"survey.per_day", "survey.per_week", "survey.per_month", "survey.per_year", "survey.amount", "survey.how_often",
	"survey.characters_left", "survey.decrease", "survey.increase", "survey.like", "survey.dislike", "common.loading",
	"survey.rank", "survey.period", "survey.competition_title", "survey.competition_prize", "survey.competition_draw",
	"survey.competition_terms", "survey.competition_enter", "survey.competition_reject", "survey.competition_entered",
	"survey.competition_rejected", "survey.competition_change", "survey.competition_closed",
}

// islandProps are the survey-box island's props (SurveyBoxProps in
// islands/survey-box/contract.ts), but for the balance, which the layout adds.
func (m *Module) islandProps(c fiber.Ctx, r *GoResult) map[string]any {
	panel := web.PanelOf(c)
	labels := make(map[string]string, len(surveyLabelKeys)+5)
	for _, k := range surveyLabelKeys {
		labels[k] = m.kit.Locales.ClientTemplate(web.LocaleOf(c), k)
	}
	for n := 1; n <= 5; n++ {
		labels["survey.stars."+strconv.Itoa(n)] = m.kit.Locales.Translate(web.LocaleOf(c), "survey.stars", map[string]any{"Count": n}, n)
	}
	return map[string]any{
		"apiBase":     "/api/v1/" + panel.InstanceCode + "/campaigns/" + r.Campaign.ID,
		"go":          toGoJSON(r),
		"lang":        web.LocaleOf(c),
		"labels":      labels,
		"instanceKey": panel.InstanceKey,
	}
}

// GET campaigns/{id}/follow?token=&lang=: the spec's built follow URL (not fetched, opened)
// leads to the survey screen, carrying the token (the page turns it into the session cookie)
// and the language.
func (m *Module) apiFollow(c fiber.Ctx) error {
	id := c.Params("id")
	if _, err := m.take(c, id); err != nil {
		welcome, ok := campaigns.WelcomeFirstOf(err)
		if !ok {
			return err
		}
		id = welcome // the welcome campaign comes first
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(withTokenAndLang(c, screens[0].url(id)))
}

// viewFooterLinks are footer links as the templates show them.
func viewFooterLinks(list []campaigns.Link) []view.FooterLink {
	out := make([]view.FooterLink, 0, len(list))
	for _, l := range list {
		out = append(out, view.FooterLink{Label: l.Label, Text: l.Text, URL: l.URL})
	}
	return out
}
