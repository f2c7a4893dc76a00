package results

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
)

// An export is a table: one row per response, one column (a Variable) per question, or per
// option of a multiple choice, per row of a grid, per item of a ranking. Choices are numeric
// codes (the option's place in the campaign, from 1) so that statistics packages read them as
// categories; the codebook lists every variable with its question and every code with its
// option's id and label, in the panel's default language.

// Variable is one column of an export.
type Variable struct {
	Name     string // unique, a valid SPSS and Stata name: letters, digits and _ (64 at most)
	Question string // the question's id; "" for the response's own columns
	Label    string // what it holds, for people
	Numeric  bool
	Width    int          // a string's longest value, in characters (SPSS's A format)
	Values   []ValueLabel // the codes it may hold
	cell     func(answer string) string
}

// ValueLabel is a code of a variable and the option it stands for.
type ValueLabel struct {
	Code   string
	Option string // the option's id ("" for a code with no option: 0 and 1 of a tick)
	Label  string
}

// Words are the few words an export writes itself, in the panel's default language.
type Words struct {
	Response, Member, Outcome, Started, Finished, Language string
	Chosen, NotChosen, Most, Least, Amount, Period         string
	Periods                                                map[string]string // day, week, month, year
}

// periods are the periods of spend and frequency answers, in code order.
var periods = []string{"day", "week", "month", "year"}

// Variables are a campaign's export columns: the response's own, then each question's.
func Variables(c *campaigns.Campaign, lang string, w Words) []Variable {
	vars := []Variable{
		{Name: "response_id", Label: w.Response, Width: 36},
		{Name: "member_id", Label: w.Member, Width: 36},
		{Name: "outcome", Label: w.Outcome, Width: 16},
		{Name: "started_at", Label: w.Started, Width: 20},
		{Name: "finished_at", Label: w.Finished, Width: 20},
		{Name: "language", Label: w.Language, Width: 8},
	}
	names := map[string]bool{}
	for _, v := range vars {
		names[v.Name] = true
	}
	add := func(v Variable) {
		v.Name = uniqueName(v.Name, names)
		vars = append(vars, v)
	}
	def := c.Definition
	for i := range def.Questions {
		q := &def.Questions[i]
		text := q.Text.In(lang, c.DefaultLanguage)
		stem := fmt.Sprintf("q%d_%s", i+1, q.ID)
		codes := func(opts []campaigns.Option) []ValueLabel {
			out := make([]ValueLabel, len(opts))
			for k, o := range opts {
				out[k] = ValueLabel{Code: strconv.Itoa(k + 1), Option: o.ID, Label: label(o, lang, c.DefaultLanguage)}
			}
			return out
		}
		tick := []ValueLabel{{Code: "0", Label: w.NotChosen}, {Code: "1", Label: w.Chosen}}
		switch q.ControlType {
		case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
			values := codes(q.Answers)
			add(Variable{Name: stem, Question: q.ID, Label: text, Numeric: true, Values: values, cell: func(a string) string {
				var id string
				if json.Unmarshal([]byte(a), &id) != nil {
					return ""
				}
				return codeOf(values, id)
			}})
		case campaigns.ControlCheckbox, campaigns.ControlMultiImage:
			for _, o := range q.Answers {
				option := o.ID
				add(Variable{Name: stem + "_" + o.ID, Question: q.ID, Label: text + ": " + label(o, lang, c.DefaultLanguage), Numeric: true, Values: tick,
					cell: func(a string) string {
						var ids []string
						if json.Unmarshal([]byte(a), &ids) != nil {
							return ""
						}
						for _, id := range ids {
							if id == option {
								return "1"
							}
						}
						return "0"
					}})
			}
		case campaigns.ControlRanking:
			for _, o := range q.Answers {
				option := o.ID
				add(Variable{Name: stem + "_" + o.ID, Question: q.ID, Label: text + ": " + label(o, lang, c.DefaultLanguage), Numeric: true,
					cell: func(a string) string {
						var ids []string
						if json.Unmarshal([]byte(a), &ids) != nil {
							return ""
						}
						for k, id := range ids {
							if id == option {
								return strconv.Itoa(k + 1)
							}
						}
						return ""
					}})
			}
		case campaigns.ControlMostLeast:
			values := codes(q.Answers)
			for _, end := range []struct{ key, word string }{{"most", w.Most}, {"least", w.Least}} {
				key := end.key
				add(Variable{Name: stem + "_" + key, Question: q.ID, Label: text + ": " + end.word, Numeric: true, Values: values, cell: func(a string) string {
					var v map[string]string
					if json.Unmarshal([]byte(a), &v) != nil {
						return ""
					}
					return codeOf(values, v[key])
				}})
			}
		case campaigns.ControlGrid:
			columns := codes(q.Columns)
			for _, r := range q.Rows {
				row := r.ID
				rowText := text + ": " + label(r, lang, c.DefaultLanguage)
				if !q.Multiple {
					add(Variable{Name: stem + "_" + row, Question: q.ID, Label: rowText, Numeric: true, Values: columns, cell: func(a string) string {
						var v map[string]string
						if json.Unmarshal([]byte(a), &v) != nil {
							return ""
						}
						return codeOf(columns, v[row])
					}})
					continue
				}
				for _, col := range q.Columns {
					column := col.ID
					add(Variable{Name: stem + "_" + row + "_" + column, Question: q.ID, Label: rowText + " / " + label(col, lang, c.DefaultLanguage),
						Numeric: true, Values: tick, cell: func(a string) string {
							var v map[string][]string
							if json.Unmarshal([]byte(a), &v) != nil {
								return ""
							}
							for _, id := range v[row] {
								if id == column {
									return "1"
								}
							}
							return "0"
						}})
				}
			}
		case campaigns.ControlSpend, campaigns.ControlFrequency:
			key := "amount"
			if q.ControlType == campaigns.ControlFrequency {
				key = "count"
			}
			add(Variable{Name: stem + "_" + key, Question: q.ID, Label: text + ": " + w.Amount, Numeric: true, cell: func(a string) string {
				var v map[string]any
				if json.Unmarshal([]byte(a), &v) != nil {
					return ""
				}
				n, ok := v[key].(float64)
				if !ok {
					return ""
				}
				return number(n)
			}})
			var values []ValueLabel
			for k, p := range periods {
				values = append(values, ValueLabel{Code: strconv.Itoa(k + 1), Option: p, Label: w.Periods[p]})
			}
			add(Variable{Name: stem + "_period", Question: q.ID, Label: text + ": " + w.Period, Numeric: true, Values: values, cell: func(a string) string {
				var v struct{ Period string }
				if json.Unmarshal([]byte(a), &v) != nil {
					return ""
				}
				return codeOf(values, v.Period)
			}})
		case campaigns.ControlLikert, campaigns.ControlSmiley:
			var values []ValueLabel
			for k, o := range q.ScaleAnswers {
				values = append(values, ValueLabel{Code: number(surveys.ScaleValue(o, k)), Option: o.ID, Label: label(o, lang, c.DefaultLanguage)})
			}
			add(Variable{Name: stem, Question: q.ID, Label: text, Numeric: true, Values: values, cell: numberCell})
		case campaigns.ControlVideo:
			add(Variable{Name: stem, Question: q.ID, Label: text, Numeric: true, Values: []ValueLabel{{Code: "1", Label: w.Chosen}}, cell: func(a string) string {
				return "1"
			}})
		case campaigns.ControlLocation:
			add(Variable{Name: stem, Question: q.ID, Label: text, Width: 16, cell: func(a string) string {
				var v struct{ Postcode string }
				if json.Unmarshal([]byte(a), &v) != nil {
					return ""
				}
				return v.Postcode
			}})
		case campaigns.ControlText, campaigns.ControlTextArea, campaigns.ControlDate:
			width := 10
			if q.ControlType != campaigns.ControlDate {
				width = textWidth(q)
			}
			add(Variable{Name: stem, Question: q.ID, Label: text, Width: width, cell: func(a string) string {
				var s string
				if json.Unmarshal([]byte(a), &s) != nil {
					return ""
				}
				return s
			}})
		default: // number, slider, stepper, click bar, NPS, stars
			add(Variable{Name: stem, Question: q.ID, Label: text, Numeric: true, cell: numberCell})
		}
	}
	return vars
}

// textWidth is the longest a free-text answer may be (the engine's bounds).
func textWidth(q *campaigns.Question) int {
	if q.MaxChars != nil && *q.MaxChars > 0 {
		return *q.MaxChars
	}
	if q.ControlType == campaigns.ControlTextArea {
		return surveys.DefaultMaxTextArea
	}
	return surveys.DefaultMaxText
}

func numberCell(a string) string {
	var n float64
	if json.Unmarshal([]byte(a), &n) != nil {
		return ""
	}
	return number(n)
}

func codeOf(values []ValueLabel, option string) string {
	for _, v := range values {
		if v.Option == option {
			return v.Code
		}
	}
	return ""
}

var notName = regexp.MustCompile(`[^A-Za-z0-9_]`)

// uniqueName makes a variable name SPSS and Stata take: letters, digits and _, starting with a
// letter, 32 characters at most (Stata's limit), unique in the export.
func uniqueName(name string, taken map[string]bool) string {
	name = notName.ReplaceAllString(name, "_")
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
		name = "v_" + name
	}
	if len(name) > 32 {
		name = name[:32]
	}
	out := name
	for n := 2; taken[strings.ToLower(out)]; n++ {
		suffix := "_" + strconv.Itoa(n)
		base := name
		if len(base)+len(suffix) > 32 {
			base = base[:32-len(suffix)]
		}
		out = base + suffix
	}
	taken[strings.ToLower(out)] = true
	return out
}

// Row is a response as the export's cells, in the variables' order.
func Row(vars []Variable, r surveys.ResponseWithAnswers) []string {
	out := make([]string, len(vars))
	finished := ""
	if r.FinishedAt != nil {
		finished = r.FinishedAt.UTC().Format(time.DateTime)
	}
	language := ""
	if r.Language != nil {
		language = *r.Language
	}
	own := []string{r.ID, r.ParticipantID, r.Outcome(), r.StartedAt.UTC().Format(time.DateTime), finished, language}
	for i, v := range vars {
		if v.Question == "" {
			out[i] = own[i]
			continue
		}
		if a, ok := r.Answers[v.Question]; ok && v.cell != nil {
			out[i] = v.cell(a)
		}
	}
	return out
}
