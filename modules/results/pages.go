package results

import (
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	resultviews "github.com/canvass/canvass/views/console/results"
	"github.com/gofiber/fiber/v3"
)

// The console's results pages: GET forms all the way, so they work without JavaScript and a
// filtered page's address can be kept and shared. A refused filter is a 400 page that says
// what is wrong above the form and shows the unfiltered results.

// checked is a request's filter, checked against its panel and campaign: the engine's filter,
// and the refusal's messages when part of it was refused (then the default filter applies).
type checked struct {
	filter  Filter
	rf      surveys.ResultsFilter
	refused *web.Error
}

func (p *Part) check(c fiber.Ctx, panel *web.Panel, camp *campaigns.Campaign) checked {
	f := FilterOf(query(c))
	rf, err := f.Check(panel, camp)
	var refused *web.Error
	if errors.As(err, &refused) {
		f = Filter{Outcome: campaigns.StatusCompleted}
		rf, _ = f.Check(panel, camp)
	}
	return checked{filter: f, rf: rf, refused: refused}
}

// refusal is a refused filter's messages, one sentence each, in the form's order.
func (p *Part) refusal(c fiber.Ctx, e *web.Error) string {
	if e == nil {
		return ""
	}
	var out []string
	for _, r := range refusals {
		if slices.ContainsFunc(e.Details, func(d web.Detail) bool { return d.Field == r.field }) {
			if msg := p.m.T(c, r.id, nil); !slices.Contains(out, msg) {
				out = append(out, msg)
			}
		}
	}
	return strings.Join(out, " ")
}

func (p *Part) head(c fiber.Ctx, a console.PanelAccess, camp *campaigns.Campaign) resultviews.Head {
	h := resultviews.Head{PanelKey: a.Panel.Key, CampaignID: camp.ID, Lang: camp.DefaultLanguage,
		Name: camp.Names.In(camp.DefaultLanguage, "")}
	if op := console.OperatorOf(c); op != nil {
		h.Email = op.Email
	}
	return h
}

func (p *Part) summaryPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	ch := p.check(c, panel, camp)
	status := fiber.StatusOK
	rowQ, colQ := c.Query("row"), c.Query("col")
	crossErr := ""
	if !CheckCross(&camp.Definition, rowQ, colQ) {
		status, crossErr, rowQ, colQ = fiber.StatusBadRequest, p.m.T(c, "console.results.error.cross", nil), "", ""
	}
	if ch.refused != nil {
		status = fiber.StatusBadRequest
	}
	sum, err := Summarize(c.Context(), p.d.Reader, camp, ch.filter, ch.rf, camp.DefaultLanguage, rowQ, colQ)
	if err != nil {
		return err
	}
	props := resultviews.SummaryProps{Head: p.head(c, a, camp), Filter: p.filterForm(c, panel, camp, ch)}
	if crossErr != "" {
		props.Filter.Error = strings.TrimSpace(props.Filter.Error + " " + crossErr)
	}
	props.Overview = p.overview(c, sum)
	for _, q := range sum.Questions {
		props.Questions = append(props.Questions, p.question(c, a, camp, ch.filter, q))
	}
	props.CrossForm = p.crossForm(camp, rowQ, colQ)
	if sum.CrossTab != nil {
		props.CrossTab = p.crossTab(c, camp, sum.CrossTab)
	}
	if props.Exports, err = p.exportSection(c, a, camp, sum.Responses); err != nil {
		return err
	}
	return p.m.Render(c, status, resultviews.Summary(props))
}

// percent is a share as the pages show it: "42 %", "0.5 %" below one per cent.
func percent(share float64) string {
	pc := share * 100
	if pc > 0 && pc < 1 {
		return strconv.FormatFloat(pc, 'f', 1, 64) + " %"
	}
	return strconv.FormatFloat(pc, 'f', 0, 64) + " %"
}

func bar(code, label string, count int, share float64) resultviews.Bar {
	return resultviews.Bar{Code: code, Label: label, Count: count, Share: share, ShareText: percent(share)}
}

func (p *Part) outcomeLabel(c fiber.Ctx, outcome string) string {
	return p.m.T(c, "console.results.outcome."+outcome, nil)
}

func (p *Part) controlLabel(c fiber.Ctx, control string) string {
	return p.m.T(c, "console.results.control."+control, nil)
}

func (p *Part) overview(c fiber.Ctx, s *Summary) resultviews.Overview {
	o := resultviews.Overview{Responses: s.Responses, CompletionRate: percent(s.CompletionRate), MedianMinutes: "—"}
	started := 0
	for _, out := range surveys.ResultOutcomes {
		started += s.Outcomes[out]
	}
	for _, out := range surveys.ResultOutcomes {
		share := 0.0
		if started > 0 {
			share = float64(s.Outcomes[out]) / float64(started)
		}
		o.Outcomes = append(o.Outcomes, bar(out, p.outcomeLabel(c, out), s.Outcomes[out], share))
	}
	if s.MedianMinutes != nil {
		o.MedianMinutes = p.m.T(c, "console.campaigns.minutes", map[string]any{"Minutes": number(*s.MedianMinutes)})
	}
	for _, d := range s.PerDay {
		o.PerDay = append(o.PerDay, resultviews.Day{Date: d.Day, Label: d.Day, Count: d.Count})
	}
	return o
}

func (p *Part) question(c fiber.Ctx, a console.PanelAccess, camp *campaigns.Campaign, f Filter, q Question) resultviews.Question {
	out := resultviews.Question{N: q.N, ID: q.ID, Text: q.Text, Lang: camp.DefaultLanguage, Control: q.Control,
		ControlLabel: p.controlLabel(c, q.Control), Kind: q.Kind, Answered: q.Answered}
	for _, o := range q.Options {
		label := o.Label
		switch {
		case q.Per != "":
			label = p.m.T(c, "console.results.period."+o.ID, nil)
		case q.Control == campaigns.ControlVideo:
			label = p.m.T(c, "console.results.watched", nil)
		case o.ID == "" && q.Kind == KindRecord:
			label = p.m.T(c, "console.results.other", nil)
		}
		out.Bars = append(out.Bars, bar(o.ID, label, o.Count, o.Share))
	}
	if q.Kind == KindMulti {
		out.Note = p.m.T(c, "console.results.multi_note", nil)
	}
	if q.Mean != nil {
		meanID, medianID := "console.results.mean", "console.results.median"
		if q.Per != "" {
			meanID, medianID = "console.results.mean_per_month", "console.results.median_per_month"
		}
		out.Stats = append(out.Stats, resultviews.Stat{Label: p.m.T(c, meanID, nil), Value: number(*q.Mean)})
		if q.Median != nil {
			out.Stats = append(out.Stats, resultviews.Stat{Label: p.m.T(c, medianID, nil), Value: number(*q.Median)})
		}
	}
	if n := q.NPS; n != nil && q.Answered > 0 {
		share := func(k int) float64 { return float64(k) / float64(q.Answered) }
		out.NPS = &resultviews.NPS{
			Promoters:  bar("promoters", p.m.T(c, "console.results.nps.promoters", nil), n.Promoters, share(n.Promoters)),
			Passives:   bar("passives", p.m.T(c, "console.results.nps.passives", nil), n.Passives, share(n.Passives)),
			Detractors: bar("detractors", p.m.T(c, "console.results.nps.detractors", nil), n.Detractors, share(n.Detractors)),
			Score:      number(n.Score),
		}
	}
	if q.Grid != nil {
		g := gridView(q.Grid, false)
		out.Grid = &g
	}
	for _, it := range q.Items {
		item := resultviews.Item{Label: it.Label, Value: it.Value, ValueText: number(it.Value)}
		if q.Kind == KindRanking {
			item.Detail = p.m.T(c, "console.results.ranking_detail", map[string]any{"First": it.First})
			if it.Value == 0 {
				item.ValueText = "—"
			}
		} else {
			item.Detail = p.m.T(c, "console.results.maxdiff_detail", map[string]any{"Best": it.Best, "Worst": it.Worst})
		}
		out.Items = append(out.Items, item)
	}
	if q.Kind == KindText {
		t := &resultviews.Texts{}
		for _, ans := range q.Texts {
			t.Answers = append(t.Answers, resultviews.TextAnswer{Text: ans.Text, When: when(&ans.At)})
		}
		if q.Answered > len(q.Texts) {
			t.Next = resultviews.WithQuery(resultviews.TextPath(a.Panel.Key, camp.ID, q.ID), f.Query())
		}
		out.Texts = t
	}
	return out
}

// gridView is a grid or a cross-tab's table as the page draws it; a cross-tab has column totals.
func gridView(g *Grid, totals bool) resultviews.Grid {
	out := resultviews.Grid{}
	for _, col := range g.Columns {
		out.Columns = append(out.Columns, col.Label)
		if totals {
			out.Totals = append(out.Totals, col.Count)
		}
	}
	for _, r := range g.Rows {
		row := resultviews.GridRow{Label: r.Label, N: r.N}
		for _, cell := range r.Cells {
			row.Cells = append(row.Cells, resultviews.Cell{Count: cell.Count, Share: cell.Share, ShareText: percent(cell.Share)})
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func (p *Part) crossTab(c fiber.Ctx, camp *campaigns.Campaign, x *CrossTab) *resultviews.CrossTab {
	def := &camp.Definition
	text := func(id string) string {
		i := def.QuestionIndex(id)
		return p.m.T(c, "console.results.question_n", map[string]any{"N": i + 1}) + " " + def.Questions[i].Text.In(camp.DefaultLanguage, "")
	}
	return &resultviews.CrossTab{Row: text(x.Row), Column: text(x.Column), Grid: gridView(&x.Grid, true)}
}

func (p *Part) crossForm(camp *campaigns.Campaign, rowQ, colQ string) resultviews.CrossForm {
	f := resultviews.CrossForm{
		Rows:    []resultviews.Choice{{Value: "", Label: "—"}},
		Columns: []resultviews.Choice{{Value: "", Label: "—"}},
	}
	for i := range camp.Definition.Questions {
		q := &camp.Definition.Questions[i]
		label := strconv.Itoa(i+1) + ". " + q.Text.In(camp.DefaultLanguage, "")
		if Crossable(q) {
			f.Rows = append(f.Rows, resultviews.Choice{Value: q.ID, Label: label, Selected: q.ID == rowQ})
		}
		if Columnable(q) {
			f.Columns = append(f.Columns, resultviews.Choice{Value: q.ID, Label: label, Selected: q.ID == colQ})
		}
	}
	return f
}

// filterForm is the filter form with the checked filter chosen, and the filter in words.
func (p *Part) filterForm(c fiber.Ctx, panel *web.Panel, camp *campaigns.Campaign, ch checked) resultviews.Filter {
	f := ch.filter
	out := resultviews.Filter{From: f.From, To: f.To, Query: f.Query(), Error: p.refusal(c, ch.refused)}
	for _, o := range Outcomes {
		out.Outcomes = append(out.Outcomes, resultviews.Choice{Value: o, Label: p.outcomeLabel(c, o), Selected: f.Outcome == o})
	}
	if f.Outcome != campaigns.StatusCompleted {
		out.Active = append(out.Active, p.m.T(c, "console.results.filter.outcome", map[string]any{"Outcome": p.outcomeLabel(c, f.Outcome)}))
	}
	if f.From != "" || f.To != "" {
		out.Active = append(out.Active, p.m.T(c, "console.results.filter.dates", map[string]any{"From": dash(f.From), "To": dash(f.To)}))
	}
	out.Languages = []resultviews.Choice{{Value: "", Label: p.m.T(c, "console.results.any_language", nil)}}
	for _, l := range panel.Languages {
		out.Languages = append(out.Languages, resultviews.Choice{Value: l.Code, Label: l.Name, Selected: f.Language == l.Code})
		if f.Language == l.Code {
			out.Active = append(out.Active, p.m.T(c, "console.results.filter.language", map[string]any{"Language": l.Name}))
		}
	}
	if len(camp.Definition.Quotas) > 0 {
		out.Quotas = []resultviews.Choice{{Value: "", Label: p.m.T(c, "console.results.any_quota", nil)}}
		for _, q := range camp.Definition.Quotas {
			out.Quotas = append(out.Quotas, resultviews.Choice{Value: q.ID, Label: q.ID, Selected: f.Quota == q.ID})
		}
		if f.Quota != "" {
			out.Active = append(out.Active, p.m.T(c, "console.results.filter.quota", map[string]any{"Quota": f.Quota}))
		}
	}
	out.Answers = []resultviews.Choice{{Value: "", Label: p.m.T(c, "console.results.no_answer_filter", nil)}}
	for i := range camp.Definition.Questions {
		q := &camp.Definition.Questions[i]
		if !surveys.FilterableControl(q.ControlType) {
			continue
		}
		for _, o := range q.Answers {
			value := q.ID + "=" + o.ID
			text := p.m.T(c, "console.results.filter.answer", map[string]any{"N": i + 1, "Option": label(o, camp.DefaultLanguage, "")})
			chosen := slices.Contains(f.Answers, value)
			out.Answers = append(out.Answers, resultviews.Choice{Value: value, Label: text, Selected: chosen})
			if chosen {
				out.Active = append(out.Active, text)
			}
		}
	}
	return out
}

func dash(s string) string {
	if s == "" {
		return "…"
	}
	return s
}

func (p *Part) textPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	q := textQuestion(camp, c.Params("question"))
	if q == nil {
		return fiber.ErrNotFound
	}
	qi := camp.Definition.QuestionIndex(q.ID)
	ch := p.check(c, panel, camp)
	pg, err := pageOf(c, pageSize)
	if err != nil {
		return fiber.ErrNotFound
	}
	search := strings.TrimSpace(c.Query("q"))
	page, err := p.d.Reader.TextAnswers(c.Context(), ch.rf, q.ID, search, pg)
	if err != nil {
		return err
	}
	answered, err := p.d.Reader.AnsweredCounts(c.Context(), ch.rf, []string{q.ID})
	if err != nil {
		return err
	}
	view := resultviews.Question{N: qi + 1, ID: q.ID, Text: q.Text.In(camp.DefaultLanguage, ""), Lang: camp.DefaultLanguage,
		Control: q.ControlType, ControlLabel: p.controlLabel(c, q.ControlType), Kind: KindText, Answered: answered[q.ID],
		Texts: &resultviews.Texts{Search: search}}
	for _, t := range textAnswers(page.Rows) {
		view.Texts.Answers = append(view.Texts.Answers, resultviews.TextAnswer{Text: t.Text, When: when(&t.At)})
	}
	path := resultviews.TextPath(a.Panel.Key, camp.ID, q.ID)
	extra := url.Values{}
	if search != "" {
		extra.Set("q", search)
	}
	view.Texts.First, view.Texts.Next = pager(path, ch.filter, extra, pg, page.More,
		func(i int) *surveys.Cursor { return page.Rows[i].Cursor() }, len(page.Rows))
	status := fiber.StatusOK
	if ch.refused != nil {
		status = fiber.StatusBadRequest
	}
	return p.m.Render(c, status, resultviews.Text(resultviews.TextProps{
		Head: p.head(c, a, camp), Filter: p.filterForm(c, panel, camp, ch), Question: view,
		Back: resultviews.WithQuery(resultviews.SummaryPath(a.Panel.Key, camp.ID), ch.filter.Query()),
	}))
}

// textQuestion is the campaign's free-text question of that id; nil when it has none.
func textQuestion(camp *campaigns.Campaign, id string) *campaigns.Question {
	qi := camp.Definition.QuestionIndex(id)
	if qi < 0 || kindOf(camp.Definition.Questions[qi].ControlType) != KindText {
		return nil
	}
	return &camp.Definition.Questions[qi]
}

// pageOf reads a keyset page from the query (after= or before=); a cursor the results did not
// give is refused.
func pageOf(c fiber.Ctx, limit int) (surveys.Page, error) {
	pg := surveys.Page{Limit: limit}
	var err error
	if pg.After, err = surveys.ParseCursor(c.Query("after")); err != nil {
		return pg, err
	}
	if pg.Before, err = surveys.ParseCursor(c.Query("before")); err != nil {
		return pg, err
	}
	if pg.After != nil && pg.Before != nil {
		return pg, surveys.ErrBadCursor
	}
	return pg, nil
}

// pager is the addresses of the first page and of the next (older) one around a keyset page
// of n rows (cursor(i) is row i's position): the first when this page was reached by paging,
// the next when rows are left after it.
func pager(path string, f Filter, extra url.Values, pg surveys.Page, more bool, cursor func(int) *surveys.Cursor, n int) (first, next string) {
	v := f.Values()
	for k, vs := range extra {
		v[k] = vs
	}
	if pg.After != nil || pg.Before != nil {
		first = resultviews.WithQuery(path, v.Encode())
	}
	if n > 0 && (more || pg.Before != nil) {
		v.Set("after", cursor(n-1).String())
		next = path + "?" + v.Encode()
	}
	return first, next
}

func (p *Part) responsesPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	ch := p.check(c, panel, camp)
	pg, err := pageOf(c, pageSize)
	if err != nil {
		return fiber.ErrNotFound
	}
	page, err := p.d.Reader.Responses(c.Context(), ch.rf, pg)
	if err != nil {
		return err
	}
	props := resultviews.ResponsesProps{Head: p.head(c, a, camp), Filter: p.filterForm(c, panel, camp, ch)}
	for _, r := range page.Rows {
		props.Rows = append(props.Rows, p.responseRow(c, panel, r))
	}
	props.First, props.Next = pager(resultviews.ResponsesPath(a.Panel.Key, camp.ID), ch.filter, nil, pg, page.More,
		func(i int) *surveys.Cursor { return page.Rows[i].Cursor() }, len(page.Rows))
	status := fiber.StatusOK
	if ch.refused != nil {
		status = fiber.StatusBadRequest
	}
	return p.m.Render(c, status, resultviews.Responses(props))
}

func (p *Part) responseRow(c fiber.Ctx, panel *web.Panel, r surveys.Response) resultviews.ResponseRow {
	row := resultviews.ResponseRow{ID: r.ID, Member: r.ParticipantID, Outcome: r.Outcome(), Started: when(&r.StartedAt), Finished: when(r.FinishedAt),
		Language: p.m.T(c, "console.results.unknown_language", nil)}
	row.OutcomeLabel = p.outcomeLabel(c, row.Outcome)
	if r.Language != nil {
		row.Language = *r.Language
		for _, l := range panel.Languages {
			if l.Code == *r.Language {
				row.Language = l.Name
			}
		}
	}
	return row
}

func (p *Part) responsePage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	r, answers, err := p.response(c, a, panel, camp)
	if err != nil {
		return err
	}
	props := resultviews.ResponseProps{Head: p.head(c, a, camp), Row: p.responseRow(c, panel, *r),
		Back: resultviews.WithQuery(resultviews.ResponsesPath(a.Panel.Key, camp.ID), FilterOf(query(c)).Query())}
	byID := map[string]string{}
	for _, ans := range answers {
		byID[ans.QuestionID] = ans.Value
	}
	for i := range camp.Definition.Questions {
		q := &camp.Definition.Questions[i]
		text := "—"
		if v, ok := byID[q.ID]; ok {
			text = p.answerText(c, camp, q, v)
		}
		props.Answers = append(props.Answers, resultviews.AnswerRow{N: i + 1, Question: q.Text.In(camp.DefaultLanguage, ""), Answer: text})
	}
	return p.m.Render(c, fiber.StatusOK, resultviews.Response(props))
}

// response is one respondent's run and answers; reading it is audited (member data).
func (p *Part) response(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, camp *campaigns.Campaign) (*surveys.Response, []surveys.ResponseAnswer, error) {
	r, answers, err := p.d.Reader.Response(c.Context(), panel.ID, camp.ID, c.Params("response"))
	if errors.Is(err, web.ErrNotFound) {
		return nil, nil, fiber.ErrNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if err := p.m.Audit(c, a.Panel.ID, "response.read", r.ID, nil, map[string]any{"campaign": camp.ID, "member": r.ParticipantID}); err != nil {
		return nil, nil, err
	}
	return r, answers, nil
}

// answerText is a stored answer in words: option labels, numbers, a grid's rows, a ranking's order.
func (p *Part) answerText(c fiber.Ctx, camp *campaigns.Campaign, q *campaigns.Question, value string) string {
	lang := camp.DefaultLanguage
	optionLabel := func(opts []campaigns.Option, id string) string {
		for _, o := range opts {
			if o.ID == id {
				return label(o, lang, "")
			}
		}
		return id
	}
	labels := func(opts []campaigns.Option, ids []string, sep string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = optionLabel(opts, id)
		}
		return strings.Join(out, sep)
	}
	switch q.ControlType {
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		var id string
		if json.Unmarshal([]byte(value), &id) == nil {
			return optionLabel(q.Answers, id)
		}
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
		var ids []string
		if json.Unmarshal([]byte(value), &ids) == nil {
			return labels(q.Answers, ids, "; ")
		}
	case campaigns.ControlRanking:
		var ids []string
		if json.Unmarshal([]byte(value), &ids) == nil {
			for i := range ids {
				ids[i] = strconv.Itoa(i+1) + ". " + optionLabel(q.Answers, ids[i])
			}
			return strings.Join(ids, "; ")
		}
	case campaigns.ControlMostLeast:
		var v struct{ Most, Least string }
		if json.Unmarshal([]byte(value), &v) == nil {
			return p.m.T(c, "console.results.most_least", map[string]any{"Most": optionLabel(q.Answers, v.Most), "Least": optionLabel(q.Answers, v.Least)})
		}
	case campaigns.ControlLikert, campaigns.ControlSmiley:
		var n float64
		if json.Unmarshal([]byte(value), &n) == nil {
			for i, o := range q.ScaleAnswers {
				if surveys.ScaleValue(o, i) == n {
					return label(o, lang, "") + " (" + number(n) + ")"
				}
			}
			return number(n)
		}
	case campaigns.ControlGrid:
		var v map[string]json.RawMessage
		if json.Unmarshal([]byte(value), &v) == nil {
			var parts []string
			for _, r := range q.Rows {
				raw, ok := v[r.ID]
				if !ok {
					continue
				}
				var one string
				var many []string
				cols := ""
				if json.Unmarshal(raw, &one) == nil {
					cols = optionLabel(q.Columns, one)
				} else if json.Unmarshal(raw, &many) == nil {
					cols = labels(q.Columns, many, ", ")
				}
				parts = append(parts, label(r, lang, "")+": "+cols)
			}
			return strings.Join(parts, "; ")
		}
	case campaigns.ControlSpend, campaigns.ControlFrequency:
		var v struct {
			Amount *float64 `json:"amount"`
			Count  *float64 `json:"count"`
			Period string   `json:"period"`
		}
		if json.Unmarshal([]byte(value), &v) == nil {
			n := v.Amount
			if n == nil {
				n = v.Count
			}
			if n != nil {
				return p.m.T(c, "console.results.per_period", map[string]any{"Amount": number(*n), "Period": p.m.T(c, "console.results.period."+v.Period, nil)})
			}
		}
	case campaigns.ControlLocation:
		var v struct{ Postcode string }
		if json.Unmarshal([]byte(value), &v) == nil {
			return v.Postcode
		}
	case campaigns.ControlVideo:
		return p.m.T(c, "console.results.watched", nil)
	default:
		var s string
		if json.Unmarshal([]byte(value), &s) == nil {
			return s
		}
		var n float64
		if json.Unmarshal([]byte(value), &n) == nil {
			return number(n)
		}
	}
	return value
}
