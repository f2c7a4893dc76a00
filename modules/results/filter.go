package results

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
)

// Filter is what an operator narrows a campaign's results to, as the query string of every
// results page, API call and export carries it: outcome, the days the runs started, the
// language answered in, the quota counted towards, and answers to choice questions.
type Filter struct {
	Outcome  string   `json:"outcome"`            // surveys.ResultOutcomes or OutcomeAll; "" is completed
	From     string   `json:"from,omitempty"`     // YYYY-MM-DD, inclusive
	To       string   `json:"to,omitempty"`       // YYYY-MM-DD, inclusive
	Language string   `json:"language,omitempty"` // a language of the panel
	Quota    string   `json:"quota,omitempty"`    // a quota of the campaign
	Answers  []string `json:"answers,omitempty"`  // QUESTION_ID=OPTION_ID, each must hold
}

// OutcomeAll is the filter's outcome for every run that started.
const OutcomeAll = "all"

// Outcomes are the outcome filter's values, in the order the form lists them.
var Outcomes = append(slices.Clone(surveys.ResultOutcomes), OutcomeAll)

// FilterOf reads a filter from a query string's values.
func FilterOf(q url.Values) Filter {
	f := Filter{
		Outcome: strings.TrimSpace(q.Get("outcome")), From: strings.TrimSpace(q.Get("from")), To: strings.TrimSpace(q.Get("to")),
		Language: strings.TrimSpace(q.Get("lang")), Quota: strings.TrimSpace(q.Get("quota")),
	}
	for _, a := range q["answer"] {
		if a = strings.TrimSpace(a); a != "" && !slices.Contains(f.Answers, a) {
			f.Answers = append(f.Answers, a)
		}
	}
	if f.Outcome == "" {
		f.Outcome = campaigns.StatusCompleted
	}
	return f
}

// Values are the filter as query values, leaving out what is the default.
func (f Filter) Values() url.Values {
	v := url.Values{}
	if f.Outcome != "" && f.Outcome != campaigns.StatusCompleted {
		v.Set("outcome", f.Outcome)
	}
	for k, s := range map[string]string{"from": f.From, "to": f.To, "lang": f.Language, "quota": f.Quota} {
		if s != "" {
			v.Set(k, s)
		}
	}
	for _, a := range f.Answers {
		v.Add("answer", a)
	}
	return v
}

// Query is the filter as a query string ("" for the default filter).
func (f Filter) Query() string { return f.Values().Encode() }

// answerFilter is one QUESTION_ID=OPTION_ID of a filter.
func answerFilter(s string) (question, option string) {
	question, option, _ = strings.Cut(s, "=")
	return question, option
}

// refusals are the message of each field of the filter a check may refuse, in the form's order.
var refusals = []struct{ field, id string }{
	{"outcome", "console.results.error.outcome"},
	{"from", "console.results.error.date"},
	{"to", "console.results.error.date"},
	{"lang", "console.results.error.language"},
	{"quota", "console.results.error.quota"},
	{"answer", "console.results.error.answer"},
}

// Check validates the filter against the panel and the campaign and gives the survey engine's
// filter; each refused part is a field of a 400 (the pages show them above the form).
func (f Filter) Check(panel *web.Panel, c *campaigns.Campaign) (surveys.ResultsFilter, error) {
	rf := surveys.ResultsFilter{PanelID: panel.ID, CampaignID: c.ID}
	var bad *web.Error
	invalid := func(field, id string) {
		if bad == nil {
			bad = web.Invalid(field, id, nil)
		} else {
			bad.Also(field, id, nil)
		}
	}
	switch {
	case f.Outcome == "" || f.Outcome == campaigns.StatusCompleted:
		rf.Outcomes = []string{campaigns.StatusCompleted}
	case f.Outcome == OutcomeAll:
	case slices.Contains(surveys.ResultOutcomes, f.Outcome):
		rf.Outcomes = []string{f.Outcome}
	default:
		invalid("outcome", "console.results.error.outcome")
	}
	from, okFrom := day(f.From)
	to, okTo := day(f.To)
	if !okFrom {
		invalid("from", "console.results.error.date")
	}
	if !okTo {
		invalid("to", "console.results.error.date")
	}
	if okFrom && okTo {
		rf.From = from
		if to != nil {
			end := to.AddDate(0, 0, 1) // the To day is included
			rf.To = &end
		}
	}
	if f.Language != "" {
		if !slices.ContainsFunc(panel.Languages, func(l web.Language) bool { return l.Code == f.Language }) {
			invalid("lang", "console.results.error.language")
		}
		rf.Language = f.Language
	}
	if f.Quota != "" {
		if !slices.ContainsFunc(c.Definition.Quotas, func(q campaigns.Quota) bool { return q.ID == f.Quota }) {
			invalid("quota", "console.results.error.quota")
		}
		rf.QuotaID = f.Quota
	}
	for _, a := range f.Answers {
		question, option := answerFilter(a)
		i := c.Definition.QuestionIndex(question)
		if i < 0 || !surveys.FilterableControl(c.Definition.Questions[i].ControlType) ||
			!slices.ContainsFunc(c.Definition.Questions[i].Answers, func(o campaigns.Option) bool { return o.ID == option }) {
			invalid("answer", "console.results.error.answer")
			continue
		}
		rf.Answers = append(rf.Answers, surveys.AnswerMatch{QuestionID: question, Option: option})
	}
	if bad != nil {
		return rf, bad
	}
	return rf, nil
}

// day reads YYYY-MM-DD (UTC midnight); "" is no day.
func day(s string) (*time.Time, bool) {
	if s == "" {
		return nil, true
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, false
	}
	return &t, true
}
