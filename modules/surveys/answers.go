package surveys

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
)

// AnswerNullMessage is the spec's literal error for an answer payload that is null.
const AnswerNullMessage = "answer payload can't be null!"

// Default bounds where the author set none.
const (
	DefaultMaxText     = 1000
	DefaultMaxTextArea = 5000
	DefaultStars       = 5 // a star rating's most stars when the author set no max_num
)

// DecodeAnswerBody reads {"answer": VALUE}; a missing or null VALUE is the spec's error.
func DecodeAnswerBody(body []byte) (json.RawMessage, error) {
	var in struct {
		Answer json.RawMessage `json:"answer"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, web.Fail(400, "error.malformed_json", nil)
	}
	if err := web.ExactKeys(body, &in); err != nil {
		return nil, err
	}
	if len(in.Answer) == 0 || bytes.Equal(bytes.TrimSpace(in.Answer), []byte("null")) {
		return nil, web.Literal(400, AnswerNullMessage)
	}
	return in.Answer, nil
}

// badAnswer is a 400 naming the answer as the field.
func badAnswer(id string, data map[string]any) error { return web.Invalid("answer", id, data) }

// ValidateAnswer checks an answer VALUE against its question (ARCHITECTURE.md "Answers") and
// returns it normalised (text trimmed, ids as given) for storing and routing.
func ValidateAnswer(q *campaigns.Question, raw json.RawMessage) (any, error) {
	switch q.ControlType {
	case campaigns.ControlText, campaigns.ControlTextArea:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, badAnswer("error.answer_text", nil)
		}
		s = strings.TrimSpace(s)
		maxChars := DefaultMaxText
		if q.ControlType == campaigns.ControlTextArea {
			maxChars = DefaultMaxTextArea
		}
		if q.MaxChars != nil {
			maxChars = *q.MaxChars
		}
		minChars := 1
		if q.MinChars != nil && *q.MinChars > 1 {
			minChars = *q.MinChars
		}
		n := utf8.RuneCountInString(s)
		if n < minChars {
			return nil, badAnswer("error.answer_min_chars", map[string]any{"Min": minChars})
		}
		if n > maxChars {
			return nil, badAnswer("error.answer_max_chars", map[string]any{"Max": maxChars})
		}
		return s, nil
	case campaigns.ControlDate:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, badAnswer("error.date_format", nil)
		}
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return nil, badAnswer("error.date_format", nil)
		}
		return s, nil
	case campaigns.ControlNumber, campaigns.ControlSlider, campaigns.ControlStepper, campaigns.ControlClickBar:
		n, err := numberAnswer(raw)
		if err != nil {
			return nil, err
		}
		if err := inRange(n, q.MinNum, q.MaxNum); err != nil {
			return nil, err
		}
		if q.Step != nil && *q.Step > 0 {
			base := 0.0
			if q.MinNum != nil {
				base = *q.MinNum
			}
			if k := (n - base) / *q.Step; math.Abs(k-math.Round(k)) > 1e-9 {
				return nil, badAnswer("error.answer_step", map[string]any{"Step": *q.Step})
			}
		}
		return n, nil
	case campaigns.ControlNPS:
		n, err := numberAnswer(raw)
		if err != nil {
			return nil, err
		}
		zero, ten := 0.0, 10.0
		if n != math.Trunc(n) {
			return nil, badAnswer("error.answer_whole", nil)
		}
		return n, inRange(n, &zero, &ten)
	case campaigns.ControlStar:
		n, err := numberAnswer(raw)
		if err != nil {
			return nil, err
		}
		one, most := 1.0, float64(DefaultStars)
		if q.MaxNum != nil {
			most = *q.MaxNum
		}
		if n != math.Trunc(n) {
			return nil, badAnswer("error.answer_whole", nil)
		}
		return n, inRange(n, &one, &most)
	case campaigns.ControlLikert, campaigns.ControlSmiley:
		n, err := numberAnswer(raw)
		if err != nil {
			return nil, err
		}
		for i, o := range q.ScaleAnswers {
			if ScaleValue(o, i) == n {
				return n, nil
			}
		}
		return nil, badAnswer("error.answer_option", nil)
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		var id string
		if json.Unmarshal(raw, &id) != nil || !hasOption(q.Answers, id) {
			return nil, badAnswer("error.answer_option", nil)
		}
		return id, nil
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage, campaigns.ControlRanking:
		ids, err := optionList(q.Answers, raw)
		if err != nil {
			return nil, err
		}
		minN, maxN := 1, len(q.Answers)
		if q.ControlType == campaigns.ControlRanking {
			minN = len(q.Answers)
		}
		if q.MinAnswers != nil {
			minN = *q.MinAnswers
		}
		if q.MaxAnswers != nil {
			maxN = *q.MaxAnswers
		}
		if len(ids) < minN {
			return nil, badAnswer("error.answer_min_answers", map[string]any{"Min": minN})
		}
		if len(ids) > maxN {
			return nil, badAnswer("error.answer_max_answers", map[string]any{"Max": maxN})
		}
		if len(ids) > 1 {
			for _, o := range q.Answers {
				if o.Exclusive && slices.Contains(ids, o.ID) {
					return nil, badAnswer("error.answer_exclusive", nil)
				}
			}
		}
		return ids, nil
	case campaigns.ControlMostLeast:
		var v struct {
			Most  string `json:"most"`
			Least string `json:"least"`
		}
		if json.Unmarshal(raw, &v) != nil || !hasOption(q.Answers, v.Most) || !hasOption(q.Answers, v.Least) {
			return nil, badAnswer("error.answer_option", nil)
		}
		if v.Most == v.Least {
			return nil, badAnswer("error.answer_most_least", nil)
		}
		return map[string]any{"most": v.Most, "least": v.Least}, nil
	case campaigns.ControlGrid:
		return gridAnswer(q, raw)
	case campaigns.ControlSpend:
		var v struct {
			Amount *float64 `json:"amount"`
			Period string   `json:"period"`
		}
		if json.Unmarshal(raw, &v) != nil || v.Amount == nil {
			return nil, badAnswer("error.answer_number", nil)
		}
		if err := inRange(*v.Amount, q.SpendMin, q.SpendMax); err != nil {
			return nil, err
		}
		if err := period(q.SpendPeriod, v.Period); err != nil {
			return nil, err
		}
		return map[string]any{"amount": *v.Amount, "period": v.Period}, nil
	case campaigns.ControlFrequency:
		var v struct {
			Count  *float64 `json:"count"`
			Period string   `json:"period"`
		}
		if json.Unmarshal(raw, &v) != nil || v.Count == nil || *v.Count != math.Trunc(*v.Count) {
			return nil, badAnswer("error.answer_whole", nil)
		}
		var lo, hi *float64
		if q.FreqMin != nil {
			f := float64(*q.FreqMin)
			lo = &f
		} else {
			zero := 0.0
			lo = &zero
		}
		if q.FreqMax != nil {
			f := float64(*q.FreqMax)
			hi = &f
		}
		if err := inRange(*v.Count, lo, hi); err != nil {
			return nil, err
		}
		if err := period(q.FreqPeriod, v.Period); err != nil {
			return nil, err
		}
		return map[string]any{"count": *v.Count, "period": v.Period}, nil
	case campaigns.ControlLocation:
		var v struct {
			Postcode string `json:"postcode"`
			ID       string `json:"id"`
		}
		if json.Unmarshal(raw, &v) != nil || strings.TrimSpace(v.Postcode) == "" || strings.TrimSpace(v.ID) == "" {
			return nil, badAnswer("error.answer_location", nil)
		}
		return map[string]any{"postcode": strings.TrimSpace(v.Postcode), "id": strings.TrimSpace(v.ID)}, nil
	case campaigns.ControlVideo:
		var v struct {
			Watched bool `json:"watched"`
		}
		if json.Unmarshal(raw, &v) != nil || !v.Watched {
			return nil, badAnswer("error.answer_video", nil)
		}
		return map[string]any{"watched": true}, nil
	}
	return nil, badAnswer("error.answer_control", nil)
}

func numberAnswer(raw json.RawMessage) (float64, error) {
	var n *float64 // nil for null, which is no number (not 0)
	if json.Unmarshal(raw, &n) != nil || n == nil || math.IsNaN(*n) || math.IsInf(*n, 0) {
		return 0, badAnswer("error.answer_number", nil)
	}
	return *n, nil
}

func inRange(n float64, lo, hi *float64) error {
	if lo != nil && n < *lo {
		return badAnswer("error.answer_min_num", map[string]any{"Min": *lo})
	}
	if hi != nil && n > *hi {
		return badAnswer("error.answer_max_num", map[string]any{"Max": *hi})
	}
	return nil
}

func period(offered []string, p string) error {
	if len(offered) == 0 {
		offered = []string{"day", "week", "month", "year"}
	}
	if !slices.Contains(offered, p) {
		return badAnswer("error.answer_period", nil)
	}
	return nil
}

func hasOption(list []campaigns.Option, id string) bool {
	return id != "" && slices.ContainsFunc(list, func(o campaigns.Option) bool { return o.ID == id })
}

// optionList reads a list of distinct option ids of the question.
func optionList(list []campaigns.Option, raw json.RawMessage) ([]string, error) {
	var ids []string
	if json.Unmarshal(raw, &ids) != nil || ids == nil { // nil: null, which is no list
		return nil, badAnswer("error.answer_option", nil)
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if !hasOption(list, id) || seen[id] {
			return nil, badAnswer("error.answer_option", nil)
		}
		seen[id] = true
	}
	return ids, nil
}

// ScaleValue is the number a scale point stores: its value, else its position from 1.
func ScaleValue(o campaigns.Option, i int) float64 {
	if o.Value != nil {
		return *o.Value
	}
	return float64(i + 1)
}

// gridAnswer reads {rowId: columnId} (or {rowId: [columnIds]} for a multiple grid) with
// every row answered.
func gridAnswer(q *campaigns.Question, raw json.RawMessage) (any, error) {
	var v map[string]json.RawMessage
	if json.Unmarshal(raw, &v) != nil {
		return nil, badAnswer("error.answer_option", nil)
	}
	out := map[string]any{}
	for rowID, cell := range v {
		if !hasOption(q.Rows, rowID) {
			return nil, badAnswer("error.answer_option", nil)
		}
		if q.Multiple {
			ids, err := optionList(q.Columns, cell)
			if err != nil || len(ids) == 0 {
				return nil, badAnswer("error.answer_option", nil)
			}
			out[rowID] = ids
			continue
		}
		var id string
		if json.Unmarshal(cell, &id) != nil || !hasOption(q.Columns, id) {
			return nil, badAnswer("error.answer_option", nil)
		}
		out[rowID] = id
	}
	if len(out) != len(q.Rows) {
		return nil, badAnswer("error.answer_grid_rows", nil)
	}
	return out, nil
}
