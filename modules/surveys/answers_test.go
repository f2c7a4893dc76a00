package surveys

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func intp(n int) *int           { return &n }
func floatp(n float64) *float64 { return &n }

// opts are options with the given ids; an id ending in "!" is exclusive (the "!" dropped).
func opts(ids ...string) []campaigns.Option {
	out := make([]campaigns.Option, len(ids))
	for i, id := range ids {
		out[i] = campaigns.Option{ID: strings.TrimSuffix(id, "!"), Text: campaigns.Text{"en": id}, Exclusive: strings.HasSuffix(id, "!")}
	}
	return out
}

// scale is a Likert or smiley scale whose points store the given values.
func scale(values ...float64) []campaigns.Option {
	out := make([]campaigns.Option, len(values))
	for i, v := range values {
		out[i] = campaigns.Option{ID: "p" + string(rune('1'+i)), Value: floatp(v)}
	}
	return out
}

// The questions the answer cases are checked against, one or more per control type.
var (
	qText      = campaigns.Question{ID: "q", ControlType: campaigns.ControlText}
	qTextShort = campaigns.Question{ID: "q", ControlType: campaigns.ControlText, MinChars: intp(3), MaxChars: intp(5)}
	qTextArea  = campaigns.Question{ID: "q", ControlType: campaigns.ControlTextArea}
	qNumber    = campaigns.Question{ID: "q", ControlType: campaigns.ControlNumber, MinNum: floatp(0), MaxNum: floatp(100)}
	qNumStep   = campaigns.Question{ID: "q", ControlType: campaigns.ControlNumber, MinNum: floatp(1), MaxNum: floatp(10), Step: floatp(0.5)}
	qNumTenths = campaigns.Question{ID: "q", ControlType: campaigns.ControlNumber, Step: floatp(0.1)}
	qSpend     = campaigns.Question{ID: "q", ControlType: campaigns.ControlSpend, SpendMin: floatp(0), SpendMax: floatp(1000), SpendPeriod: []string{"week", "month"}}
	qDropdown  = campaigns.Question{ID: "q", ControlType: campaigns.ControlDropdown, Answers: opts("red", "green", "blue")}
	qRadio     = campaigns.Question{ID: "q", ControlType: campaigns.ControlRadio, Answers: opts("yes", "no")}
	qCheckbox  = campaigns.Question{ID: "q", ControlType: campaigns.ControlCheckbox, Answers: opts("a", "b", "c", "none!")}
	qCheck2to3 = campaigns.Question{ID: "q", ControlType: campaigns.ControlCheckbox, Answers: opts("a", "b", "c", "d"), MinAnswers: intp(2), MaxAnswers: intp(3)}
	qClickBar  = campaigns.Question{ID: "q", ControlType: campaigns.ControlClickBar, MinNum: floatp(1), MaxNum: floatp(5)}
	qImage     = campaigns.Question{ID: "q", ControlType: campaigns.ControlImageSelect, Answers: opts("cat", "dog")}
	qMultiImg  = campaigns.Question{ID: "q", ControlType: campaigns.ControlMultiImage, Answers: opts("cat", "dog", "fish", "none!")}
	qRanking   = campaigns.Question{ID: "q", ControlType: campaigns.ControlRanking, Answers: opts("x", "y", "z")}
	qMostLeast = campaigns.Question{ID: "q", ControlType: campaigns.ControlMostLeast, Answers: opts("price", "taste", "brand")}
	qSlider    = campaigns.Question{ID: "q", ControlType: campaigns.ControlSlider, MinNum: floatp(0), MaxNum: floatp(10), Step: floatp(1)}
	qStepper   = campaigns.Question{ID: "q", ControlType: campaigns.ControlStepper, MinNum: floatp(1), MaxNum: floatp(9), Step: floatp(2)}
	qNPS       = campaigns.Question{ID: "q", ControlType: campaigns.ControlNPS}
	qLikeDis   = campaigns.Question{ID: "q", ControlType: campaigns.ControlLikeDislike, Answers: opts("like", "dislike")}
	qLikert    = campaigns.Question{ID: "q", ControlType: campaigns.ControlLikert, ScaleAnswers: scale(-2, -1, 0, 1, 2)}
	qStar      = campaigns.Question{ID: "q", ControlType: campaigns.ControlStar}
	qStar10    = campaigns.Question{ID: "q", ControlType: campaigns.ControlStar, MaxNum: floatp(10)}
	qSmiley    = campaigns.Question{ID: "q", ControlType: campaigns.ControlSmiley, ScaleAnswers: scale(1, 2, 3)}
	qDate      = campaigns.Question{ID: "q", ControlType: campaigns.ControlDate}
	qLocation  = campaigns.Question{ID: "q", ControlType: campaigns.ControlLocation}
	qFrequency = campaigns.Question{ID: "q", ControlType: campaigns.ControlFrequency, FreqMin: intp(1), FreqMax: intp(7), FreqPeriod: []string{"week", "month"}}
	qFreqOpen  = campaigns.Question{ID: "q", ControlType: campaigns.ControlFrequency, FreqPeriod: []string{"day"}}
	qVideo     = campaigns.Question{ID: "q", ControlType: campaigns.ControlVideo, VideoID: "abc123"}
	qGrid      = campaigns.Question{ID: "q", ControlType: campaigns.ControlGrid, Rows: opts("r1", "r2"), Columns: opts("c1", "c2", "c3")}
	qGridMulti = campaigns.Question{ID: "q", ControlType: campaigns.ControlGrid, Rows: opts("r1", "r2"), Columns: opts("c1", "c2", "c3"), Multiple: true}
)

func TestEveryControlTypeAcceptsAValidAnswerAndReturnsItNormalised(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		q    campaigns.Question
		raw  string
		want any
	}{
		{"text is trimmed", qText, `"  Hello there \n"`, "Hello there"},
		{"text counts runes, not bytes, against min_chars", qTextShort, `"日本語"`, "日本語"},
		{"text counts runes, not bytes, against max_chars", qTextShort, `"ñandú"`, "ñandú"},
		{"text allows 1000 characters by default", qText, `"` + strings.Repeat("é", 1000) + `"`, strings.Repeat("é", 1000)},
		{"textarea allows 5000 characters by default", qTextArea, `"` + strings.Repeat("ж", 5000) + `"`, strings.Repeat("ж", 5000)},
		{"number within its range", qNumber, `42`, 42.0},
		{"number at its bounds", qNumber, `100`, 100.0},
		{"number on a step counted from min_num", qNumStep, `2.5`, 2.5},
		{"number on a decimal step despite float rounding", qNumTenths, `0.3`, 0.3},
		{"spend with an offered period", qSpend, `{"amount":12.5,"period":"month"}`, map[string]any{"amount": 12.5, "period": "month"}},
		{"dropdown option id", qDropdown, `"green"`, "green"},
		{"radio option id", qRadio, `"no"`, "no"},
		{"checkbox option ids in the order given", qCheckbox, `["c","a"]`, []string{"c", "a"}},
		{"checkbox exclusive option alone", qCheckbox, `["none"]`, []string{"none"}},
		{"checkbox within min and max answers", qCheck2to3, `["a","b","d"]`, []string{"a", "b", "d"}},
		{"click bar within its range", qClickBar, `3`, 3.0},
		{"image select option id", qImage, `"dog"`, "dog"},
		{"multi image option ids", qMultiImg, `["fish","cat"]`, []string{"fish", "cat"}},
		{"ranking of every option", qRanking, `["z","x","y"]`, []string{"z", "x", "y"}},
		{"most and least", qMostLeast, `{"most":"price","least":"brand"}`, map[string]any{"most": "price", "least": "brand"}},
		{"slider on its step", qSlider, `7`, 7.0},
		{"stepper on its step counted from min_num", qStepper, `5`, 5.0},
		{"nps zero", qNPS, `0`, 0.0},
		{"nps ten", qNPS, `10`, 10.0},
		{"like dislike option id", qLikeDis, `"dislike"`, "dislike"},
		{"likert scale value (negative)", qLikert, `-2`, -2.0},
		{"star within the default five", qStar, `5`, 5.0},
		{"star within its max_num", qStar10, `8`, 8.0},
		{"smiley scale value", qSmiley, `2`, 2.0},
		{"date in ISO format", qDate, `"2026-02-28"`, "2026-02-28"},
		{"location is trimmed", qLocation, `{"postcode":" 10115 ","id":" de-berlin-mitte "}`, map[string]any{"postcode": "10115", "id": "de-berlin-mitte"}},
		{"frequency with an offered period", qFrequency, `{"count":3,"period":"week"}`, map[string]any{"count": 3.0, "period": "week"}},
		{"frequency of zero when no freq_min is set", qFreqOpen, `{"count":0,"period":"day"}`, map[string]any{"count": 0.0, "period": "day"}},
		{"video watched", qVideo, `{"watched":true}`, map[string]any{"watched": true}},
		{"grid with one column per row", qGrid, `{"r1":"c1","r2":"c3"}`, map[string]any{"r1": "c1", "r2": "c3"}},
		{"multiple grid with columns per row", qGridMulti, `{"r1":["c1","c2"],"r2":["c3"]}`, map[string]any{"r1": []string{"c1", "c2"}, "r2": []string{"c3"}}},
	}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.q.ControlType] = true
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			got, err := ValidateAnswer(&q, json.RawMessage(tc.raw))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for _, ct := range campaigns.ControlTypes {
		assert.True(t, covered[ct], "control type %s has no valid-answer case", ct)
	}
}

func TestAnInvalidAnswerIsA400NamingTheAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		q    campaigns.Question
		raw  string
		id   string // the message id of the error
	}{
		// text and textarea
		{"text given as a number", qText, `5`, "error.answer_text"},
		{"text given as a list", qTextArea, `["a"]`, "error.answer_text"},
		{"empty text", qText, `""`, "error.answer_min_chars"},
		{"whitespace-only text", qText, `"  \t\n "`, "error.answer_min_chars"},
		{"text shorter than min_chars in runes", qTextShort, `"日本"`, "error.answer_min_chars"},
		{"text shorter than min_chars once trimmed", qTextShort, `"  ab  "`, "error.answer_min_chars"},
		{"text longer than max_chars in runes", qTextShort, `"日本語日本語"`, "error.answer_max_chars"},
		{"text over the default 1000 characters", qText, `"` + strings.Repeat("a", 1001) + `"`, "error.answer_max_chars"},
		{"textarea over the default 5000 characters", qTextArea, `"` + strings.Repeat("ж", 5001) + `"`, "error.answer_max_chars"},
		// numbers
		{"number given as a string", qNumber, `"42"`, "error.answer_number"},
		{"number given as a bool", qNumber, `true`, "error.answer_number"},
		{"number out of float range", qNumber, `1e400`, "error.answer_number"},
		{"number below min_num", qNumber, `-1`, "error.answer_min_num"},
		{"number above max_num", qNumber, `100.5`, "error.answer_max_num"},
		{"number off its step", qNumStep, `2.25`, "error.answer_step"},
		{"slider off its step", qSlider, `2.5`, "error.answer_step"},
		{"slider above max_num", qSlider, `11`, "error.answer_max_num"},
		{"stepper off its step counted from min_num", qStepper, `4`, "error.answer_step"},
		{"click bar below min_num", qClickBar, `0`, "error.answer_min_num"},
		{"nps not whole", qNPS, `7.5`, "error.answer_whole"},
		{"nps above ten", qNPS, `11`, "error.answer_max_num"},
		{"nps below zero", qNPS, `-1`, "error.answer_min_num"},
		{"nps given as a string", qNPS, `"7"`, "error.answer_number"},
		{"star not whole", qStar, `4.5`, "error.answer_whole"},
		{"star of zero", qStar, `0`, "error.answer_min_num"},
		{"star above the default five", qStar, `6`, "error.answer_max_num"},
		{"star above its max_num", qStar10, `11`, "error.answer_max_num"},
		{"likert value that is no scale point", qLikert, `3`, "error.answer_option"},
		{"likert given as a string", qLikert, `"1"`, "error.answer_number"},
		{"smiley value between scale points", qSmiley, `2.5`, "error.answer_option"},
		// single choice
		{"radio with an unknown option id", qRadio, `"maybe"`, "error.answer_option"},
		{"radio with an empty id", qRadio, `""`, "error.answer_option"},
		{"radio given as a number", qRadio, `1`, "error.answer_option"},
		{"radio given as a list", qRadio, `["yes"]`, "error.answer_option"},
		{"dropdown with an unknown option id", qDropdown, `"purple"`, "error.answer_option"},
		{"like dislike with an unknown option id", qLikeDis, `"meh"`, "error.answer_option"},
		{"image select with an unknown option id", qImage, `"bird"`, "error.answer_option"},
		// multiple choice
		{"checkbox given as a string", qCheckbox, `"a"`, "error.answer_option"},
		{"checkbox with an unknown option id", qCheckbox, `["a","zz"]`, "error.answer_option"},
		{"checkbox with a duplicate id", qCheckbox, `["a","a"]`, "error.answer_option"},
		{"checkbox with no answer", qCheckbox, `[]`, "error.answer_min_answers"},
		{"checkbox with fewer than min_answers", qCheck2to3, `["a"]`, "error.answer_min_answers"},
		{"checkbox with more than max_answers", qCheck2to3, `["a","b","c","d"]`, "error.answer_max_answers"},
		{"checkbox with the exclusive option combined", qCheckbox, `["a","none"]`, "error.answer_exclusive"},
		{"multi image with the exclusive option combined", qMultiImg, `["none","dog"]`, "error.answer_exclusive"},
		{"multi image with a duplicate id", qMultiImg, `["dog","dog"]`, "error.answer_option"},
		{"ranking that leaves an option out", qRanking, `["x","y"]`, "error.answer_min_answers"},
		{"ranking with a duplicate id", qRanking, `["x","x","y"]`, "error.answer_option"},
		{"ranking with an unknown id", qRanking, `["x","y","w"]`, "error.answer_option"},
		{"most equal to least", qMostLeast, `{"most":"taste","least":"taste"}`, "error.answer_most_least"},
		{"most least with an unknown id", qMostLeast, `{"most":"taste","least":"colour"}`, "error.answer_option"},
		{"most least without least", qMostLeast, `{"most":"taste"}`, "error.answer_option"},
		{"most least given as a string", qMostLeast, `"taste"`, "error.answer_option"},
		// grid
		{"grid missing a row", qGrid, `{"r1":"c1"}`, "error.answer_grid_rows"},
		{"grid with no rows", qGrid, `{}`, "error.answer_grid_rows"},
		{"grid with an unknown row", qGrid, `{"r1":"c1","r2":"c2","r9":"c1"}`, "error.answer_option"},
		{"grid with an unknown column", qGrid, `{"r1":"c1","r2":"c9"}`, "error.answer_option"},
		{"single grid given a list of columns", qGrid, `{"r1":["c1"],"r2":"c2"}`, "error.answer_option"},
		{"grid given as a list", qGrid, `["c1","c2"]`, "error.answer_option"},
		{"multiple grid missing a row", qGridMulti, `{"r1":["c1"]}`, "error.answer_grid_rows"},
		{"multiple grid with an empty row", qGridMulti, `{"r1":[],"r2":["c1"]}`, "error.answer_option"},
		{"multiple grid with a duplicate column", qGridMulti, `{"r1":["c1","c1"],"r2":["c2"]}`, "error.answer_option"},
		{"multiple grid with an unknown column", qGridMulti, `{"r1":["c1"],"r2":["c7"]}`, "error.answer_option"},
		{"multiple grid given one column per row", qGridMulti, `{"r1":"c1","r2":"c2"}`, "error.answer_option"},
		// spend and frequency
		{"spend with a period not offered", qSpend, `{"amount":10,"period":"day"}`, "error.answer_period"},
		{"spend without a period", qSpend, `{"amount":10}`, "error.answer_period"},
		{"spend without an amount", qSpend, `{"period":"week"}`, "error.answer_number"},
		{"spend with the amount as a string", qSpend, `{"amount":"10","period":"week"}`, "error.answer_number"},
		{"spend below spend_min", qSpend, `{"amount":-0.01,"period":"week"}`, "error.answer_min_num"},
		{"spend above spend_max", qSpend, `{"amount":1000.01,"period":"week"}`, "error.answer_max_num"},
		{"frequency with a period not offered", qFrequency, `{"count":2,"period":"day"}`, "error.answer_period"},
		{"frequency count not whole", qFrequency, `{"count":2.5,"period":"week"}`, "error.answer_whole"},
		{"frequency without a count", qFrequency, `{"period":"week"}`, "error.answer_whole"},
		{"frequency below freq_min", qFrequency, `{"count":0,"period":"week"}`, "error.answer_min_num"},
		{"frequency above freq_max", qFrequency, `{"count":8,"period":"week"}`, "error.answer_max_num"},
		{"frequency below zero without freq_min", qFreqOpen, `{"count":-1,"period":"day"}`, "error.answer_min_num"},
		// date, location, video
		{"date in another format", qDate, `"28/02/2026"`, "error.date_format"},
		{"date that does not exist", qDate, `"2026-02-30"`, "error.date_format"},
		{"date given as a number", qDate, `20260228`, "error.date_format"},
		{"empty location", qLocation, `{"postcode":"","id":""}`, "error.answer_location"},
		{"location without an id", qLocation, `{"postcode":"10115","id":"  "}`, "error.answer_location"},
		{"location without a postcode", qLocation, `{"id":"de-berlin"}`, "error.answer_location"},
		{"location given as a string", qLocation, `"10115"`, "error.answer_location"},
		{"video not watched", qVideo, `{"watched":false}`, "error.answer_video"},
		{"video without watched", qVideo, `{}`, "error.answer_video"},
		{"video given as a bool", qVideo, `true`, "error.answer_video"},
		// no such control
		{"an unknown control type", campaigns.Question{ID: "q", ControlType: "hologram"}, `"x"`, "error.answer_control"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := tc.q
			_, err := ValidateAnswer(&q, json.RawMessage(tc.raw))
			requireAnswerError(t, err, tc.id)
		})
	}
}

// requireAnswerError checks err is the 400 that names the answer, with message id id.
func requireAnswerError(t *testing.T, err error, id string) {
	t.Helper()
	require.Error(t, err)
	var we *web.Error
	require.True(t, errors.As(err, &we), "a *web.Error, got %T: %v", err, err)
	assert.Equal(t, 400, we.Status)
	require.NotEmpty(t, we.Details)
	assert.Equal(t, "answer", we.Details[0].Field)
	assert.Equal(t, id, we.ID)
}

func TestTheAnswerBodyMustHoldANonNullAnswer(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"answer":null}`, `{ "answer" : null }`, `{}`, `null`, `{"other":1}`} {
		t.Run("null: "+body, func(t *testing.T) {
			_, err := DecodeAnswerBody([]byte(body))
			var we *web.Error
			require.True(t, errors.As(err, &we), "got %v", err)
			assert.Equal(t, 400, we.Status)
			assert.Equal(t, "answer payload can't be null!", we.Message, "the spec's literal text")
			assert.Empty(t, we.ID, "a literal message, not a translated one")
		})
	}
	for _, body := range []string{``, `{`, `{"answer":}`, `not json`, `[1,2]`, `"answer"`, `{"answer":"x"`} {
		t.Run("malformed: "+body, func(t *testing.T) {
			_, err := DecodeAnswerBody([]byte(body))
			var we *web.Error
			require.True(t, errors.As(err, &we), "got %v", err)
			assert.Equal(t, 400, we.Status)
			assert.Equal(t, "error.malformed_json", we.ID)
		})
	}
	for body, want := range map[string]string{
		`{"answer":"yes"}`:              `"yes"`,
		`{"answer":0}`:                  `0`,
		`{"answer":false}`:              `false`,
		`{"answer":""}`:                 `""`,
		`{"answer":[]}`:                 `[]`,
		`{"answer":{"watched":true}}`:   `{"watched":true}`,
		`{"answer":"nullish","x":null}`: `"nullish"`,
	} {
		t.Run("value: "+body, func(t *testing.T) {
			raw, err := DecodeAnswerBody([]byte(body))
			require.NoError(t, err)
			assert.JSONEq(t, want, string(raw))
		})
	}
}
