package surveys

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
)

func fuzzInt(n int) *int           { return &n }
func fuzzFloat(n float64) *float64 { return &n }

// fuzzOptions are options with these ids; an id ending in "!" is exclusive ("none of these").
func fuzzOptions(ids ...string) []campaigns.Option {
	out := make([]campaigns.Option, len(ids))
	for i, id := range ids {
		out[i] = campaigns.Option{ID: strings.TrimSuffix(id, "!"), Exclusive: strings.HasSuffix(id, "!")}
	}
	return out
}

// fuzzScale is a Likert or smiley scale storing these values.
func fuzzScale(values ...float64) []campaigns.Option {
	out := make([]campaigns.Option, len(values))
	for i, v := range values {
		out[i] = campaigns.Option{ID: "p" + string(rune('1'+i)), Value: fuzzFloat(v)}
	}
	return out
}

// fuzzQuestions are one question per control type as docs/campaigns.md's table authors them, plus
// the variants whose rules differ (bounds, exclusive options, multiple grids, open frequency).
var fuzzQuestions = []campaigns.Question{
	{ControlType: campaigns.ControlText},
	{ControlType: campaigns.ControlText, MinChars: fuzzInt(3), MaxChars: fuzzInt(5)},
	{ControlType: campaigns.ControlTextArea, MaxChars: fuzzInt(20)},
	{ControlType: campaigns.ControlNumber, MinNum: fuzzFloat(0), MaxNum: fuzzFloat(100)},
	{ControlType: campaigns.ControlNumber, Step: fuzzFloat(0.1)},
	{ControlType: campaigns.ControlSpend, SpendMin: fuzzFloat(0), SpendMax: fuzzFloat(1000), SpendPeriod: []string{"week", "month"}},
	{ControlType: campaigns.ControlDropdown, Answers: fuzzOptions("red", "green", "blue")},
	{ControlType: campaigns.ControlRadio, Answers: fuzzOptions("yes", "no")},
	{ControlType: campaigns.ControlCheckbox, Answers: fuzzOptions("a", "b", "c", "none!")},
	{ControlType: campaigns.ControlCheckbox, Answers: fuzzOptions("a", "b", "c", "d"), MinAnswers: fuzzInt(2), MaxAnswers: fuzzInt(3)},
	{ControlType: campaigns.ControlClickBar, MinNum: fuzzFloat(1), MaxNum: fuzzFloat(5)},
	{ControlType: campaigns.ControlImageSelect, Answers: fuzzOptions("cat", "dog")},
	{ControlType: campaigns.ControlMultiImage, Answers: fuzzOptions("cat", "dog", "fish", "none!"), MaxAnswers: fuzzInt(2)},
	{ControlType: campaigns.ControlRanking, Answers: fuzzOptions("x", "y", "z")},
	{ControlType: campaigns.ControlMostLeast, Answers: fuzzOptions("price", "taste", "brand")},
	{ControlType: campaigns.ControlSlider, MinNum: fuzzFloat(0), MaxNum: fuzzFloat(10), Step: fuzzFloat(1)},
	{ControlType: campaigns.ControlStepper, MinNum: fuzzFloat(1), MaxNum: fuzzFloat(9), Step: fuzzFloat(2)},
	{ControlType: campaigns.ControlNPS},
	{ControlType: campaigns.ControlLikeDislike, Answers: fuzzOptions("like", "dislike")},
	{ControlType: campaigns.ControlLikert, ScaleAnswers: fuzzScale(-2, -1, 0, 1, 2)},
	{ControlType: campaigns.ControlStar},
	{ControlType: campaigns.ControlStar, MaxNum: fuzzFloat(10)},
	{ControlType: campaigns.ControlSmiley, ScaleAnswers: fuzzScale(1, 2, 3)},
	{ControlType: campaigns.ControlDate},
	{ControlType: campaigns.ControlLocation},
	{ControlType: campaigns.ControlFrequency, FreqMin: fuzzInt(1), FreqMax: fuzzInt(7), FreqPeriod: []string{"week", "month"}},
	{ControlType: campaigns.ControlFrequency},
	{ControlType: campaigns.ControlVideo, VideoID: "abc123"},
	{ControlType: campaigns.ControlGrid, Rows: fuzzOptions("r1", "r2"), Columns: fuzzOptions("c1", "c2", "c3")},
	{ControlType: campaigns.ControlGrid, Rows: fuzzOptions("r1", "r2"), Columns: fuzzOptions("c1", "c2", "c3"), Multiple: true},
}

// answerSeeds are answer VALUEs: a valid one for every control type of fuzzQuestions, and
// hostile ones; testdata/fuzz/FuzzValidateAnswerNormalisesOnceOrRefusesWithA400 holds the same.
var answerSeeds = []struct{ name, raw string }{
	{"text", `"Hello there"`},
	{"text-to-trim", `"  Hello there \n"`},
	{"text-in-runes", `"日本語"`},
	{"date", `"2026-02-28"`},
	{"date-that-does-not-exist", `"2026-02-30"`},
	{"number", `42`},
	{"small-whole-number", `4`},
	{"odd-step-number", `5`},
	{"scale-point", `2`},
	{"radio-option-id", `"yes"`},
	{"image-option-id", `"dog"`},
	{"like-option-id", `"like"`},
	{"decimal-on-a-tenth-step", `0.3`},
	{"minus-zero", `-0`},
	{"likert-point", `-2`},
	{"number-as-string", `"42"`},
	{"number-out-of-float-range", `1e400`},
	{"nan", `NaN`},
	{"option-id", `"green"`},
	{"option-ids", `["c","a"]`},
	{"exclusive-option-alone", `["none"]`},
	{"exclusive-option-combined", `["a","none"]`},
	{"duplicate-option-ids", `["a","a"]`},
	{"ranking", `["z","x","y"]`},
	{"most-least", `{"most":"price","least":"brand"}`},
	{"grid", `{"r1":"c1","r2":"c3"}`},
	{"multiple-grid", `{"r1":["c1","c2"],"r2":["c3"]}`},
	{"grid-duplicate-keys", `{"r1":"c1","r1":"c2","r2":"c3"}`},
	{"spend", `{"amount":12.5,"period":"month"}`},
	{"spend-amount-as-string", `{"amount":"12.5","period":"month"}`},
	{"frequency", `{"count":3,"period":"week"}`},
	{"frequency-duplicate-keys", `{"count":3,"count":99,"period":"week"}`},
	{"location", `{"postcode":" 10115 ","id":" de-berlin-mitte "}`},
	{"video", `{"watched":true}`},
	{"null", `null`},
	{"empty-array", `[]`},
	{"empty-object", `{}`},
	{"array-where-object-expected", `[{"most":"price","least":"brand"}]`},
	{"object-where-array-expected", `{"0":"a","1":"b"}`},
	{"nul-escape", `"\u0000"`},
	{"nul-byte", "\"a\x00b\""},
	{"invalid-utf8", "\"\xff\xfe\""},
	{"right-to-left-override", `"‮evil"`},
	{"zero-width-joiner", `"👩‍💻"`},
	{"emoji-option", `["🍕"]`},
	{"script-tag", `"<script>alert(1)</script>"`},
	{"sql-and-like", `"' OR 1=1; -- %_\\"`},
	{"lone-surrogate", `"\ud800"`},
	{"not-json", `{"answer":`},
}

// checkAnswerRefusal: a refused answer is the 400 naming the answer, never another error.
func checkAnswerRefusal(t *testing.T, q *campaigns.Question, raw []byte, err error) {
	t.Helper()
	we, ok := err.(*web.Error)
	if !ok {
		t.Fatalf("%s refused %q with %T %v, not a *web.Error", q.ControlType, raw, err, err)
	}
	if we.Status != 400 || len(we.Details) == 0 || we.Details[0].Field != "answer" {
		t.Fatalf("%s refused %q with status %d details %+v, want a 400 naming the answer", q.ControlType, raw, we.Status, we.Details)
	}
}

// checkAnswerShape: an accepted answer has the shape docs/campaigns.md gives and keeps within the question's
// bounds.
func checkAnswerShape(t *testing.T, q *campaigns.Question, raw []byte, v any) {
	t.Helper()
	fail := func(why string) {
		t.Helper()
		t.Fatalf("%s accepted %q as %#v: %s", q.ControlType, raw, v, why)
	}
	switch q.ControlType {
	case campaigns.ControlText, campaigns.ControlTextArea:
		s, ok := v.(string)
		n := utf8.RuneCountInString(s)
		switch {
		case !ok || s != strings.TrimSpace(s) || !utf8.ValidString(s):
			fail("not a trimmed UTF-8 string")
		case n < 1 || (q.MinChars != nil && n < *q.MinChars) || (q.MaxChars != nil && n > *q.MaxChars):
			fail("outside min_chars and max_chars")
		}
	case campaigns.ControlNumber, campaigns.ControlSlider, campaigns.ControlStepper, campaigns.ControlClickBar,
		campaigns.ControlNPS, campaigns.ControlStar, campaigns.ControlLikert, campaigns.ControlSmiley:
		n, ok := v.(float64)
		if !ok || (q.MinNum != nil && n < *q.MinNum) || (q.MaxNum != nil && n > *q.MaxNum) {
			fail("not a number within min_num and max_num")
		}
	case campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect:
		if id, ok := v.(string); !ok || !slices.ContainsFunc(q.Answers, func(o campaigns.Option) bool { return o.ID == id }) {
			fail("not one of the question's option ids")
		}
	case campaigns.ControlCheckbox, campaigns.ControlMultiImage, campaigns.ControlRanking:
		ids, ok := v.([]string)
		if !ok || len(ids) == 0 || len(ids) > len(q.Answers) {
			fail("not a list of the question's option ids")
		}
	case campaigns.ControlDate, campaigns.ControlMostLeast, campaigns.ControlGrid, campaigns.ControlSpend,
		campaigns.ControlFrequency, campaigns.ControlLocation, campaigns.ControlVideo:
		switch v.(type) {
		case string, map[string]any:
		default:
			fail("not a string or an object")
		}
	default:
		fail("an answer to an unknown control")
	}
}

func FuzzValidateAnswerNormalisesOnceOrRefusesWithA400(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add([]byte(s.raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for i := range fuzzQuestions {
			q := fuzzQuestions[i]
			v, err := ValidateAnswer(&q, raw)
			if err != nil {
				checkAnswerRefusal(t, &q, raw, err)
				continue
			}
			// null is no answer (the body's null is the spec's literal error): never 0 or [].
			if bytes.Equal(bytes.Trim(raw, " \t\r\n"), []byte("null")) {
				t.Fatalf("%s accepted null as %#v", q.ControlType, v)
			}
			checkAnswerShape(t, &q, raw, v)
			// What is stored is what a member could have sent: sent again, it is accepted
			// and normalised to the same value.
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: the normalised answer %#v does not marshal: %v", q.ControlType, v, err)
			}
			v2, err := ValidateAnswer(&q, again)
			if err != nil {
				t.Fatalf("%s accepted %q as %#v, but refuses it sent again as %s: %v", q.ControlType, raw, v, again, err)
			}
			if !reflect.DeepEqual(v, v2) {
				t.Fatalf("%s normalised %q to %#v, and that sent again (%s) to %#v", q.ControlType, raw, v, again, v2)
			}
		}
	})
}

// answerBodySeeds are request bodies; testdata/fuzz/FuzzDecodeAnswerBodyRefusesANullAnswerWithTheSpecsMessage
// holds the same.
var answerBodySeeds = []struct{ name, body string }{
	{"answer", `{"answer":"yes"}`},
	{"null-answer", `{"answer":null}`},
	{"spaced-null-answer", `{ "answer" : null }`},
	{"missing-answer", `{}`},
	{"other-field", `{"other":1}`},
	{"null-body", `null`},
	{"empty-body", ``},
	{"answer-in-capitals", `{"ANSWER":[1,2]}`},
	{"duplicate-keys-null-last", `{"answer":1,"answer":null}`},
	{"duplicate-keys-null-first", `{"answer":null,"answer":1}`},
	{"folded-key", `{"anſwer":1}`},
	{"array-body", `[{"answer":1}]`},
	{"string-body", `"answer"`},
	{"number-out-of-range", `{"answer":1e400}`},
	{"nan", `{"answer":NaN}`},
	{"trailing-garbage", `{"answer":1}x`},
	{"nul-byte", "{\"answer\":\"\x00\"}"},
	{"invalid-utf8", "{\"answer\":\"\xff\xfe\"}"},
	{"invalid-utf8-key", "{\"answer\xff\":1}"},
	{"right-to-left-override", `{"answer":"‮"}`},
	{"script-tag", `{"answer":"<script>alert(1)</script>"}`},
}

// answerMembers lists the top-level members of a JSON object body in order, with duplicates;
// ok is false when the body is no JSON object.
func answerMembers(body []byte) (keys []string, values []json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		keys, values = append(keys, tok.(string)), append(values, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, nil, false
	}
	return keys, values, true
}

func FuzzDecodeAnswerBodyRefusesANullAnswerWithTheSpecsMessage(f *testing.F) {
	for _, s := range answerBodySeeds {
		f.Add([]byte(s.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		raw, err := DecodeAnswerBody(body)
		if err != nil {
			we, ok := err.(*web.Error)
			if !ok || we.Status < 400 || we.Status > 499 {
				t.Fatalf("DecodeAnswerBody(%q) = %T %v, want a 4xx *web.Error", body, err, err)
			}
		}

		// The member keyed exactly "answer" decides (the last, when there are several); a key
		// encoding/json would take for it ignoring case ("ANSWER", "anſwer") is refused, naming
		// it, rather than read as the answer.
		keys, values, isObject := answerMembers(body)
		var answer json.RawMessage
		inexact := false
		for i, k := range keys {
			switch {
			case k == "answer":
				answer = values[i]
			case strings.EqualFold(k, "answer"):
				inexact = true
			}
		}
		switch {
		case isObject && inexact:
			we, ok := err.(*web.Error)
			if !ok || we.ID != "error.unknown_field" {
				t.Fatalf("DecodeAnswerBody(%q) = %q, %v; want the key in other letters refused", body, raw, err)
			}
		case isObject && (answer == nil || string(answer) == "null"), bytes.Equal(bytes.Trim(body, " \t\r\n"), []byte("null")):
			if err == nil || err.Error() != AnswerNullMessage {
				t.Fatalf("DecodeAnswerBody(%q) = %q, %v; want %q", body, raw, err, AnswerNullMessage)
			}
		case isObject:
			if err != nil || !bytes.Equal(raw, answer) {
				t.Fatalf("DecodeAnswerBody(%q) = %q, %v; want the answer %q", body, raw, err, answer)
			}
		default:
			if err == nil || err.Error() == AnswerNullMessage {
				t.Fatalf("DecodeAnswerBody(%q) of no JSON object = %q, %v; want malformed JSON", body, raw, err)
			}
		}
	})
}
