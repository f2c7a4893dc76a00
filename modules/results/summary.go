package results

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
)

// Summary is a campaign's results within a filter: how its runs ended, when they started, and
// each question's answers folded into the form that suits its control. The console's summary
// page draws it and the results API returns it as it is.
type Summary struct {
	CampaignID string `json:"campaignId"`
	Filter     Filter `json:"filter"`
	// Responses are the runs the whole filter keeps; Outcomes count every outcome of the runs
	// the filter keeps but for its outcome, and CompletionRate is completes among those.
	Responses      int            `json:"responses"`
	Outcomes       map[string]int `json:"outcomes"`
	CompletionRate float64        `json:"completionRate"`
	MedianMinutes  *float64       `json:"medianMinutes"`
	PerDay         []DayCount     `json:"perDay"`
	Questions      []Question     `json:"questions"`
	CrossTab       *CrossTab      `json:"crossTab,omitempty"`
}

// DayCount is the runs the filter keeps that started on a day (UTC).
type DayCount struct {
	Day   string `json:"day"`
	Count int    `json:"count"`
}

// Question kinds: the form a question's result takes.
const (
	KindChoice  = "choice"  // one option each
	KindMulti   = "multi"   // several options each: shares are of respondents
	KindScale   = "scale"   // numbers: a distribution, mean and median
	KindNPS     = "nps"     // 0-10: promoters, passives, detractors, score
	KindGrid    = "grid"    // rows × columns
	KindRanking = "ranking" // average rank per item
	KindMaxDiff = "maxdiff" // best - worst per item
	KindText    = "text"    // the answers themselves
	KindRecord  = "record"  // what location, video and date record, counted
)

// kindOf is the form of a control's result.
func kindOf(control string) string {
	switch control {
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		return KindChoice
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
		return KindMulti
	case campaigns.ControlNPS:
		return KindNPS
	case campaigns.ControlGrid:
		return KindGrid
	case campaigns.ControlRanking:
		return KindRanking
	case campaigns.ControlMostLeast:
		return KindMaxDiff
	case campaigns.ControlText, campaigns.ControlTextArea:
		return KindText
	case campaigns.ControlDate, campaigns.ControlLocation, campaigns.ControlVideo:
		return KindRecord
	}
	return KindScale
}

// Question is one question's result.
type Question struct {
	ID       string `json:"id"`
	N        int    `json:"n"` // 1-based position
	Text     string `json:"text"`
	Control  string `json:"control"`
	Kind     string `json:"kind"`
	Answered int    `json:"answered"`
	// Options count each option, scale point or recorded value (choice, multi, scale, nps,
	// record); Share is of Answered (for multi, of respondents: shares may add up past 1).
	Options []Count  `json:"options,omitempty"`
	Mean    *float64 `json:"mean,omitempty"`
	Median  *float64 `json:"median,omitempty"`
	// Per is the period Mean and Median are per (spend and frequency answers, made monthly).
	Per   string       `json:"per,omitempty"`
	NPS   *NPS         `json:"nps,omitempty"`
	Grid  *Grid        `json:"grid,omitempty"`
	Items []Item       `json:"items,omitempty"`
	Texts []TextAnswer `json:"texts,omitempty"` // the newest few (text)
}

// Count is how many chose one option (or gave one value).
type Count struct {
	ID    string  `json:"id"`
	Label string  `json:"label"`
	Count int     `json:"count"`
	Share float64 `json:"share"`
}

// NPS reads a 0-10 scale: promoters 9-10, passives 7-8, detractors 0-6; the score is the
// promoters' share less the detractors', in points (-100..100).
type NPS struct {
	Promoters  int     `json:"promoters"`
	Passives   int     `json:"passives"`
	Detractors int     `json:"detractors"`
	Score      float64 `json:"score"`
}

// Grid is a grid's rows by columns (cell shares of the row's respondents), or a cross-tab's
// (cell shares of the column's).
type Grid struct {
	Columns []Count   `json:"columns"` // Count: the column's total (cross-tab)
	Rows    []GridRow `json:"rows"`
}

// GridRow is one row and a cell per column, in the columns' order.
type GridRow struct {
	ID    string  `json:"id"`
	Label string  `json:"label"`
	N     int     `json:"n"`
	Cells []Count `json:"cells"`
}

// Item is a ranking's or a MaxDiff's item: its average rank (1 is best) and how often it was
// ranked first, or its best and worst counts and their difference.
type Item struct {
	ID    string  `json:"id"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
	First int     `json:"first,omitempty"`
	Best  int     `json:"best,omitempty"`
	Worst int     `json:"worst,omitempty"`
}

// TextAnswer is one free-text answer.
type TextAnswer struct {
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// CrossTab is a question's answers (rows) by a single-choice question's (columns).
type CrossTab struct {
	Row    string `json:"row"`
	Column string `json:"column"`
	Grid   Grid   `json:"grid"`
}

// Reader is what the results read of participations and answers (the survey engine's).
type Reader interface {
	OutcomeCounts(ctx context.Context, f surveys.ResultsFilter) (map[string]int, error)
	StartsPerDay(ctx context.Context, f surveys.ResultsFilter) ([]surveys.DayCount, error)
	CompleteMinutes(ctx context.Context, f surveys.ResultsFilter) (*float64, error)
	AnswerValueCounts(ctx context.Context, f surveys.ResultsFilter, questionIDs []string) ([]surveys.ValueCount, error)
	AnsweredCounts(ctx context.Context, f surveys.ResultsFilter, questionIDs []string) (map[string]int, error)
	CrossCounts(ctx context.Context, f surveys.ResultsFilter, rowQuestion, columnQuestion string) ([]surveys.CrossCount, error)
	TextAnswers(ctx context.Context, f surveys.ResultsFilter, questionID, search string, pg surveys.Page) (surveys.TextAnswersPage, error)
	Responses(ctx context.Context, f surveys.ResultsFilter, pg surveys.Page) (surveys.ResponsesPage, error)
	Response(ctx context.Context, panelID, campaignID, participationID string) (*surveys.Response, []surveys.ResponseAnswer, error)
	EachResponse(ctx context.Context, f surveys.ResultsFilter, fn func(surveys.ResponseWithAnswers) error) error
	Counted(ctx context.Context, c *campaigns.Campaign, by *surveys.AnswerMatch) (*surveys.CountedResults, error)
	CountedCross(ctx context.Context, c *campaigns.Campaign, rowQuestion, columnQuestion string) ([]surveys.CrossCount, error)
}

// counted tells whether the engine's counts answer a filter: completes, with at most one
// answer filter and nothing else (the summary's default, and its most common narrowing).
func counted(rf surveys.ResultsFilter) bool {
	return len(rf.Outcomes) == 1 && rf.Outcomes[0] == campaigns.StatusCompleted && rf.From == nil && rf.To == nil &&
		rf.Language == "" && rf.QuotaID == "" && len(rf.Answers) <= 1
}

// figures are what a summary is folded from: read live, or from the engine's counts.
type figures struct {
	outcomes map[string]int
	minutes  *float64
	days     []surveys.DayCount
	values   []surveys.ValueCount
	answered map[string]int // free-text questions
}

// liveFigures reads a summary's figures from every run the filter keeps.
func liveFigures(ctx context.Context, r Reader, rf surveys.ResultsFilter, counted, texts []string) (*figures, error) {
	f := &figures{}
	var err error
	if f.outcomes, err = r.OutcomeCounts(ctx, rf); err != nil {
		return nil, err
	}
	if f.minutes, err = r.CompleteMinutes(ctx, rf); err != nil {
		return nil, err
	}
	if f.days, err = r.StartsPerDay(ctx, rf); err != nil {
		return nil, err
	}
	if f.values, err = r.AnswerValueCounts(ctx, rf, counted); err != nil {
		return nil, err
	}
	if f.answered, err = r.AnsweredCounts(ctx, rf, texts); err != nil {
		return nil, err
	}
	return f, nil
}

// countedFigures reads a summary's figures from the engine's counts.
func countedFigures(ctx context.Context, r Reader, c *campaigns.Campaign, rf surveys.ResultsFilter, texts []string) (*figures, error) {
	var by *surveys.AnswerMatch
	if len(rf.Answers) == 1 {
		by = &rf.Answers[0]
	}
	got, err := r.Counted(ctx, c, by)
	if err != nil {
		return nil, err
	}
	f := &figures{outcomes: got.Outcomes, minutes: got.MedianMinutes, days: got.Days, answered: map[string]int{}}
	for _, v := range got.Values {
		if slices.Contains(texts, v.QuestionID) {
			f.answered[v.QuestionID] += v.N
		} else if v.Value != "" {
			f.values = append(f.values, v)
		}
	}
	return f, nil
}

// summaryTexts is how many newest text answers the summary shows per question.
const summaryTexts = 5

// Summarize reads a campaign's results within a checked filter, with its labels in lang (the
// campaign's default language where lang has none), and the cross-tab of rowQ by colQ when both
// are given (checked by CheckCross).
func Summarize(ctx context.Context, r Reader, c *campaigns.Campaign, f Filter, rf surveys.ResultsFilter, lang, rowQ, colQ string) (*Summary, error) {
	s := &Summary{CampaignID: c.ID, Filter: f, PerDay: []DayCount{}, Questions: []Question{}}
	def := &c.Definition
	var countedIDs, texts []string
	for _, q := range def.Questions {
		if kindOf(q.ControlType) == KindText {
			texts = append(texts, q.ID)
		} else {
			countedIDs = append(countedIDs, q.ID)
		}
	}
	var fig *figures
	var err error
	if counted(rf) {
		fig, err = countedFigures(ctx, r, c, rf, texts)
	} else {
		fig, err = liveFigures(ctx, r, rf, countedIDs, texts)
	}
	if err != nil {
		return nil, err
	}
	s.Outcomes, s.MedianMinutes, s.PerDay = fig.outcomes, fig.minutes, everyDay(fig.days)
	started := 0
	for _, o := range surveys.ResultOutcomes {
		started += s.Outcomes[o]
		if len(rf.Outcomes) == 0 || slices.Contains(rf.Outcomes, o) {
			s.Responses += s.Outcomes[o]
		}
	}
	if started > 0 {
		s.CompletionRate = float64(s.Outcomes[campaigns.StatusCompleted]) / float64(started)
	}
	byQuestion := map[string][]surveys.ValueCount{}
	for _, v := range fig.values {
		byQuestion[v.QuestionID] = append(byQuestion[v.QuestionID], v)
	}
	answered := fig.answered
	for i := range def.Questions {
		q := &def.Questions[i]
		out := Question{ID: q.ID, N: i + 1, Text: q.Text.In(lang, c.DefaultLanguage), Control: q.ControlType, Kind: kindOf(q.ControlType)}
		if out.Kind == KindText {
			out.Answered = answered[q.ID]
			page, err := r.TextAnswers(ctx, rf, q.ID, "", surveys.Page{Limit: summaryTexts})
			if err != nil {
				return nil, err
			}
			out.Texts = textAnswers(page.Rows)
		} else {
			fold(&out, q, byQuestion[q.ID], lang, c.DefaultLanguage)
		}
		s.Questions = append(s.Questions, out)
	}
	if rowQ != "" && colQ != "" {
		var counts []surveys.CrossCount
		if counted(rf) && len(rf.Answers) == 0 {
			counts, err = r.CountedCross(ctx, c, rowQ, colQ)
		} else {
			counts, err = r.CrossCounts(ctx, rf, rowQ, colQ)
		}
		if err != nil {
			return nil, err
		}
		s.CrossTab = crossTab(def, rowQ, colQ, counts, lang, c.DefaultLanguage)
	}
	return s, nil
}

// everyDay fills the days between the first and the last with zeros, so a chart's columns
// stand for equal time (up to two years; a longer span keeps its days with runs only).
func everyDay(days []surveys.DayCount) []DayCount {
	out := []DayCount{}
	if len(days) == 0 {
		return out
	}
	first, err1 := time.Parse(time.DateOnly, days[0].Day)
	last, err2 := time.Parse(time.DateOnly, days[len(days)-1].Day)
	if err1 != nil || err2 != nil || last.Sub(first) > 2*366*24*time.Hour {
		for _, d := range days {
			out = append(out, DayCount{Day: d.Day, Count: d.N})
		}
		return out
	}
	n := map[string]int{}
	for _, d := range days {
		n[d.Day] += d.N
	}
	for t := first; !t.After(last); t = t.AddDate(0, 0, 1) {
		d := t.Format(time.DateOnly)
		out = append(out, DayCount{Day: d, Count: n[d]})
	}
	return out
}

func textAnswers(rows []surveys.TextAnswer) []TextAnswer {
	out := make([]TextAnswer, 0, len(rows))
	for _, a := range rows {
		var s string
		if json.Unmarshal([]byte(a.Value), &s) != nil {
			s = a.Value
		}
		out = append(out, TextAnswer{Text: s, At: a.UpdatedAt.UTC()})
	}
	return out
}

// options are a question's fixed answers as (key, label) in the campaign's order: choice
// options, scale points (their stored numbers as keys), 0-10 or the stars. nil: no fixed list.
func options(q *campaigns.Question, lang, fallback string) []Count {
	var out []Count
	switch kindOf(q.ControlType) {
	case KindChoice, KindMulti, KindRanking, KindMaxDiff:
		for _, o := range q.Answers {
			out = append(out, Count{ID: o.ID, Label: label(o, lang, fallback)})
		}
	case KindNPS:
		for i := 0; i <= 10; i++ {
			out = append(out, Count{ID: strconv.Itoa(i), Label: strconv.Itoa(i)})
		}
	case KindScale:
		switch q.ControlType {
		case campaigns.ControlLikert, campaigns.ControlSmiley:
			for i, o := range q.ScaleAnswers {
				v := surveys.ScaleValue(o, i)
				out = append(out, Count{ID: number(v), Label: label(o, lang, fallback)})
			}
		case campaigns.ControlStar:
			most := surveys.DefaultStars
			if q.MaxNum != nil {
				most = int(*q.MaxNum)
			}
			for i := 1; i <= most; i++ {
				out = append(out, Count{ID: strconv.Itoa(i), Label: strconv.Itoa(i)})
			}
		}
	}
	return out
}

// label is an option's text in lang, else its id.
func label(o campaigns.Option, lang, fallback string) string {
	if s := o.Text.In(lang, fallback); s != "" {
		return s
	}
	if o.Image != nil {
		if s := o.Image.Alt.In(lang, fallback); s != "" {
			return s
		}
	}
	return o.ID
}

// number is a number as the results key and show it: no needless decimals.
func number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// fold sums a question's value counts into its result.
func fold(out *Question, q *campaigns.Question, values []surveys.ValueCount, lang, fallback string) {
	for _, v := range values {
		out.Answered += v.N
	}
	switch out.Kind {
	case KindChoice:
		counts := map[string]int{}
		for _, v := range values {
			var id string
			if json.Unmarshal([]byte(v.Value), &id) == nil {
				counts[id] += v.N
			}
		}
		out.Options = shares(ordered(options(q, lang, fallback), counts), out.Answered)
	case KindMulti:
		counts := map[string]int{}
		for _, v := range values {
			var ids []string
			if json.Unmarshal([]byte(v.Value), &ids) == nil {
				for _, id := range ids {
					counts[id] += v.N
				}
			}
		}
		out.Options = shares(ordered(options(q, lang, fallback), counts), out.Answered)
	case KindScale, KindNPS:
		foldNumbers(out, q, values, lang, fallback)
	case KindGrid:
		out.Grid = foldGrid(q, values, lang, fallback)
	case KindRanking:
		out.Items = foldRanking(q, values, lang, fallback)
	case KindMaxDiff:
		out.Items = foldMaxDiff(q, values, lang, fallback)
	case KindRecord:
		foldRecord(out, q, values)
	}
}

// ordered is the fixed options with their counts, then any value no option has any more (an
// option removed after answers were given) by count.
func ordered(opts []Count, counts map[string]int) []Count {
	out := make([]Count, 0, len(opts))
	known := map[string]bool{}
	for _, o := range opts {
		o.Count = counts[o.ID]
		known[o.ID] = true
		out = append(out, o)
	}
	var rest []Count
	for id, n := range counts {
		if !known[id] {
			rest = append(rest, Count{ID: id, Label: id, Count: n})
		}
	}
	sort.Slice(rest, func(i, j int) bool {
		if rest[i].Count != rest[j].Count {
			return rest[i].Count > rest[j].Count
		}
		return rest[i].ID < rest[j].ID
	})
	return append(out, rest...)
}

// shares sets each count's share of n.
func shares(cs []Count, n int) []Count {
	for i := range cs {
		if n > 0 {
			cs[i].Share = float64(cs[i].Count) / float64(n)
		}
	}
	return cs
}

// periodMonths are how many of a period a month holds: spend and frequency answers are made
// monthly so that "10 a week" and "40 a month" compare.
var periodMonths = map[string]float64{"day": 365.25 / 12, "week": 365.25 / 12 / 7, "month": 1, "year": 1.0 / 12}

// maxBars is the most distinct numbers a numeric result draws a bar for; more are grouped
// into equal ranges.
const maxBars = 12

// foldNumbers is a numeric question's distribution, mean and median (spend and frequency: per
// month, with a bar per period answered in).
func foldNumbers(out *Question, q *campaigns.Question, values []surveys.ValueCount, lang, fallback string) {
	var nums []weighted
	periods := map[string]int{}
	for _, v := range values {
		switch q.ControlType {
		case campaigns.ControlSpend, campaigns.ControlFrequency:
			var a struct {
				Amount *float64 `json:"amount"`
				Count  *float64 `json:"count"`
				Period string   `json:"period"`
			}
			if json.Unmarshal([]byte(v.Value), &a) != nil {
				continue
			}
			n := a.Amount
			if n == nil {
				n = a.Count
			}
			if n == nil || periodMonths[a.Period] == 0 {
				continue
			}
			periods[a.Period] += v.N
			nums = append(nums, weighted{*n * periodMonths[a.Period], v.N})
		default:
			var n float64
			if json.Unmarshal([]byte(v.Value), &n) == nil {
				nums = append(nums, weighted{n, v.N})
			}
		}
	}
	out.Mean, out.Median = mean(nums), medianOf(nums)
	if q.ControlType == campaigns.ControlSpend || q.ControlType == campaigns.ControlFrequency {
		out.Per = "month"
		var opts []Count
		for _, p := range []string{"day", "week", "month", "year"} {
			if periods[p] > 0 || slices.Contains(q.SpendPeriod, p) || slices.Contains(q.FreqPeriod, p) {
				opts = append(opts, Count{ID: p, Label: p, Count: periods[p]})
			}
		}
		out.Options = shares(opts, out.Answered)
	} else if fixed := options(q, lang, fallback); fixed != nil {
		counts := map[string]int{}
		for _, w := range nums {
			counts[number(w.v)] += w.n
		}
		out.Options = shares(ordered(fixed, counts), out.Answered)
	} else {
		out.Options = shares(histogram(nums), out.Answered)
	}
	if out.Kind == KindNPS && out.Answered > 0 {
		n := &NPS{}
		for _, w := range nums {
			switch {
			case w.v >= 9:
				n.Promoters += w.n
			case w.v >= 7:
				n.Passives += w.n
			default:
				n.Detractors += w.n
			}
		}
		n.Score = math.Round(float64(n.Promoters-n.Detractors)*1000/float64(out.Answered)) / 10
		out.NPS = n
	}
}

// weighted is a number given by n runs.
type weighted struct {
	v float64
	n int
}

func mean(ws []weighted) *float64 {
	sum, n := 0.0, 0
	for _, w := range ws {
		sum += w.v * float64(w.n)
		n += w.n
	}
	if n == 0 {
		return nil
	}
	m := math.Round(sum/float64(n)*100) / 100
	return &m
}

// medianOf is the median of weighted numbers: the middle one, or the mean of the two middle
// ones of an even count.
func medianOf(ws []weighted) *float64 {
	ws = slices.Clone(ws)
	sort.Slice(ws, func(i, j int) bool { return ws[i].v < ws[j].v })
	n := 0
	for _, w := range ws {
		n += w.n
	}
	if n == 0 {
		return nil
	}
	at := func(k int) float64 { // the k-th number, 0-based
		for _, w := range ws {
			if k < w.n {
				return w.v
			}
			k -= w.n
		}
		return ws[len(ws)-1].v
	}
	m := at(n / 2)
	if n%2 == 0 {
		m = (at(n/2-1) + m) / 2
	}
	m = math.Round(m*100) / 100
	return &m
}

// histogram is a bar per distinct number, or maxBars equal ranges when there are more.
func histogram(ws []weighted) []Count {
	counts := map[float64]int{}
	for _, w := range ws {
		counts[w.v] += w.n
	}
	keys := make([]float64, 0, len(counts))
	for v := range counts {
		keys = append(keys, v)
	}
	sort.Float64s(keys)
	out := []Count{}
	if len(keys) <= maxBars {
		for _, v := range keys {
			out = append(out, Count{ID: number(v), Label: number(v), Count: counts[v]})
		}
		return out
	}
	lo, hi := keys[0], keys[len(keys)-1]
	width := (hi - lo) / maxBars
	for i := 0; i < maxBars; i++ {
		a, b := lo+width*float64(i), lo+width*float64(i+1)
		c := Count{ID: number(a), Label: fmt.Sprintf("%s–%s", short(a), short(b))}
		for _, v := range keys {
			if (v >= a && v < b) || (i == maxBars-1 && v == hi) {
				c.Count += counts[v]
			}
		}
		out = append(out, c)
	}
	return out
}

// short is a range's end to three significant digits.
func short(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// foldGrid counts each row's columns; a cell's share is of the row's respondents.
func foldGrid(q *campaigns.Question, values []surveys.ValueCount, lang, fallback string) *Grid {
	g := &Grid{}
	for _, c := range q.Columns {
		g.Columns = append(g.Columns, Count{ID: c.ID, Label: label(c, lang, fallback)})
	}
	cells := map[string]map[string]int{}
	rowN := map[string]int{}
	for _, v := range values {
		var answer map[string]json.RawMessage
		if json.Unmarshal([]byte(v.Value), &answer) != nil {
			continue
		}
		for row, raw := range answer {
			var cols []string
			var one string
			if json.Unmarshal(raw, &one) == nil {
				cols = []string{one}
			} else if json.Unmarshal(raw, &cols) != nil {
				continue
			}
			if cells[row] == nil {
				cells[row] = map[string]int{}
			}
			rowN[row] += v.N
			for _, col := range cols {
				cells[row][col] += v.N
			}
		}
	}
	for _, r := range q.Rows {
		row := GridRow{ID: r.ID, Label: label(r, lang, fallback), N: rowN[r.ID]}
		for _, c := range g.Columns {
			row.Cells = append(row.Cells, Count{ID: c.ID, Label: c.Label, Count: cells[r.ID][c.ID]})
		}
		row.Cells = shares(row.Cells, row.N)
		g.Rows = append(g.Rows, row)
	}
	return g
}

// foldRanking is each item's average rank (1 is first) and how often it came first, best first.
func foldRanking(q *campaigns.Question, values []surveys.ValueCount, lang, fallback string) []Item {
	sum, n, first := map[string]int{}, map[string]int{}, map[string]int{}
	for _, v := range values {
		var ids []string
		if json.Unmarshal([]byte(v.Value), &ids) != nil {
			continue
		}
		for i, id := range ids {
			sum[id] += (i + 1) * v.N
			n[id] += v.N
			if i == 0 {
				first[id] += v.N
			}
		}
	}
	var out []Item
	for _, o := range options(q, lang, fallback) {
		it := Item{ID: o.ID, Label: o.Label, First: first[o.ID]}
		if n[o.ID] > 0 {
			it.Value = math.Round(float64(sum[o.ID])/float64(n[o.ID])*100) / 100
		}
		out = append(out, it)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Value, out[j].Value
		if a == 0 || b == 0 { // unranked items last
			return b == 0 && a != 0
		}
		return a < b
	})
	return out
}

// foldMaxDiff is each item's best and worst counts and best - worst, best first.
func foldMaxDiff(q *campaigns.Question, values []surveys.ValueCount, lang, fallback string) []Item {
	best, worst := map[string]int{}, map[string]int{}
	for _, v := range values {
		var a struct {
			Most  string `json:"most"`
			Least string `json:"least"`
		}
		if json.Unmarshal([]byte(v.Value), &a) != nil {
			continue
		}
		best[a.Most] += v.N
		worst[a.Least] += v.N
	}
	var out []Item
	for _, o := range options(q, lang, fallback) {
		out = append(out, Item{ID: o.ID, Label: o.Label, Best: best[o.ID], Worst: worst[o.ID], Value: float64(best[o.ID] - worst[o.ID])})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Value > out[j].Value })
	return out
}

// maxRecorded is how many distinct places or months a record's result lists; the rest are
// summed into one "other" row.
const maxRecorded = 10

// maxMonths is the most months a date's result shows; dates spread wider (a date of birth)
// are counted by year.
const maxMonths = 24

// byYear sums counts by month (YYYY-MM, in order) into counts by year.
func byYear(months []Count) []Count {
	var out []Count
	for _, m := range months {
		y := m.ID[:4]
		if len(out) == 0 || out[len(out)-1].ID != y {
			out = append(out, Count{ID: y, Label: y})
		}
		out[len(out)-1].Count += m.Count
	}
	return out
}

// foldRecord counts what location (postcode), date (month) and video (watched) record.
func foldRecord(out *Question, q *campaigns.Question, values []surveys.ValueCount) {
	counts := map[string]int{}
	for _, v := range values {
		switch q.ControlType {
		case campaigns.ControlLocation:
			var a struct {
				Postcode string `json:"postcode"`
			}
			if json.Unmarshal([]byte(v.Value), &a) == nil {
				counts[strings.ToUpper(strings.TrimSpace(a.Postcode))] += v.N
			}
		case campaigns.ControlDate:
			var d string
			if json.Unmarshal([]byte(v.Value), &d) == nil && len(d) >= 7 {
				counts[d[:7]] += v.N
			}
		case campaigns.ControlVideo:
			counts["watched"] += v.N
		}
	}
	var cs []Count
	for k, n := range counts {
		cs = append(cs, Count{ID: k, Label: k, Count: n})
	}
	sort.Slice(cs, func(i, j int) bool {
		if q.ControlType == campaigns.ControlDate {
			return cs[i].ID < cs[j].ID
		}
		if cs[i].Count != cs[j].Count {
			return cs[i].Count > cs[j].Count
		}
		return cs[i].ID < cs[j].ID
	})
	if q.ControlType == campaigns.ControlDate && len(cs) > maxMonths {
		cs = byYear(cs)
	}
	if len(cs) > maxRecorded && q.ControlType == campaigns.ControlLocation {
		other := Count{ID: "", Label: ""}
		for _, c := range cs[maxRecorded:] {
			other.Count += c.Count
		}
		cs = append(cs[:maxRecorded], other)
	}
	out.Options = shares(cs, out.Answered)
}

// Crossable tells whether a question can be a cross-tab's rows (it has a fixed list of
// answers), and Columnable whether its columns (one option each).
func Crossable(q *campaigns.Question) bool {
	return options(q, "", "") != nil && q.ControlType != campaigns.ControlRanking && q.ControlType != campaigns.ControlMostLeast
}

func Columnable(q *campaigns.Question) bool { return kindOf(q.ControlType) == KindChoice }

// keys are the option keys a stored answer gives (several for a multiple choice).
func keys(q *campaigns.Question, value string) []string {
	switch kindOf(q.ControlType) {
	case KindChoice:
		var id string
		if json.Unmarshal([]byte(value), &id) == nil {
			return []string{id}
		}
	case KindMulti:
		var ids []string
		if json.Unmarshal([]byte(value), &ids) == nil {
			return ids
		}
	default:
		var n float64
		if json.Unmarshal([]byte(value), &n) == nil {
			return []string{number(n)}
		}
	}
	return nil
}

// crossTab folds counts of the row question's answers by the column question's into a table
// whose cells are shares of their column.
func crossTab(def *campaigns.Definition, rowQ, colQ string, counts []surveys.CrossCount, lang, fallback string) *CrossTab {
	rq, cq := &def.Questions[def.QuestionIndex(rowQ)], &def.Questions[def.QuestionIndex(colQ)]
	cells := map[string]map[string]int{}
	colN := map[string]int{}
	for _, c := range counts {
		col := keys(cq, c.Column)
		if len(col) != 1 {
			continue
		}
		colN[col[0]] += c.N
		for _, r := range keys(rq, c.Row) {
			if cells[r] == nil {
				cells[r] = map[string]int{}
			}
			cells[r][col[0]] += c.N
		}
	}
	g := Grid{}
	colCounts := map[string]int{}
	for _, o := range options(cq, lang, fallback) {
		colCounts[o.ID] = colN[o.ID]
	}
	g.Columns = ordered(options(cq, lang, fallback), colCounts)
	rowCounts := map[string]int{}
	for r, byCol := range cells {
		for _, n := range byCol {
			rowCounts[r] += n
		}
	}
	for _, o := range ordered(options(rq, lang, fallback), rowCounts) {
		row := GridRow{ID: o.ID, Label: o.Label, N: o.Count}
		for _, col := range g.Columns {
			cell := Count{ID: col.ID, Label: col.Label, Count: cells[o.ID][col.ID]}
			if col.Count > 0 {
				cell.Share = float64(cell.Count) / float64(col.Count)
			}
			row.Cells = append(row.Cells, cell)
		}
		g.Rows = append(g.Rows, row)
	}
	return &CrossTab{Row: rowQ, Column: colQ, Grid: g}
}

// CheckCross validates a cross-tab's questions: both or neither, the rows a question with
// fixed answers, the columns a single-choice question.
func CheckCross(def *campaigns.Definition, rowQ, colQ string) bool {
	if rowQ == "" && colQ == "" {
		return true
	}
	ri, ci := def.QuestionIndex(rowQ), def.QuestionIndex(colQ)
	return ri >= 0 && ci >= 0 && ri != ci && Crossable(&def.Questions[ri]) && Columnable(&def.Questions[ci])
}
