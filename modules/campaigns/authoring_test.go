package campaigns

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// campHeader is the start of a valid campaign (five lines); cases append their questions.
const campHeader = `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: survey
name: Coffee habits
reward: "0.50"
estimated_minutes: 3
`

// campRadioQ1 is a valid first question.
const campRadioQ1 = `questions:
  - id: q1
    control_type: radio
    text: Do you drink coffee?
    answers:
      - {id: "yes", text: "Yes"}
      - {id: "no", text: "No"}
`

// markedLine is the line of the document carrying the "#<" marker: the line a problem must name.
func markedLine(t *testing.T, doc string) int {
	t.Helper()
	for i, l := range strings.Split(doc, "\n") {
		if strings.Contains(l, "#<") {
			return i + 1
		}
	}
	t.Fatalf("the document has no #< marker:\n%s", doc)
	return 0
}

func problemsOf(t *testing.T, name, doc string) []Problem {
	t.Helper()
	def, err := ParseFile(name, []byte(doc))
	require.Error(t, err, "the document should be refused")
	assert.Nil(t, def)
	var probs *Problems
	require.True(t, errors.As(err, &probs), "a *Problems error, got %T: %v", err, err)
	require.NotEmpty(t, probs.List)
	return probs.List
}

func TestParseFileReadsAMinimalYAMLCampaign(t *testing.T) {
	t.Parallel()
	def, err := ParseFile("coffee.yaml", []byte(campHeader+campRadioQ1))
	require.NoError(t, err)
	assert.Equal(t, "3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11", def.UUID)
	assert.Equal(t, TypeSurvey, def.Type)
	assert.Equal(t, Text{"": "Coffee habits"}, def.Name)
	assert.Equal(t, "0.50", def.Reward)
	assert.Equal(t, 3, def.EstimatedMinutes)
	require.Len(t, def.Questions, 1)
	assert.Equal(t, ControlRadio, def.Questions[0].ControlType)
	assert.Equal(t, []Option{{ID: "yes", Text: Text{"": "Yes"}}, {ID: "no", Text: Text{"": "No"}}}, def.Questions[0].Answers)
}

func TestParseFileReadsAMinimalJSONCampaign(t *testing.T) {
	t.Parallel()
	doc := `{
  "uuid": "3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
  "type": "poll",
  "name": "Coffee habits",
  "reward": "0",
  "estimated_minutes": 1.0,
  "questions": [
    {"id": "q1", "control_type": "nps", "text": "Would you recommend us?"}
  ]
}`
	def, err := ParseFile("coffee.json", []byte(doc))
	require.NoError(t, err)
	assert.Equal(t, TypePoll, def.Type)
	assert.Equal(t, "0", def.Reward)
	assert.Equal(t, 1, def.EstimatedMinutes, "1.0 is a whole number")
	require.Len(t, def.Questions, 1)
	assert.Equal(t, ControlNPS, def.Questions[0].ControlType)
}

func TestParseFileKeepsYAMLTimestampsAsTheDatesWritten(t *testing.T) {
	t.Parallel()
	doc := campHeader + "opens_at: 2025-03-01T09:00:00Z\ncloses_at: 2025-04-01T09:00:00+02:00\n" + campRadioQ1
	def, err := ParseFile("dated.yml", []byte(doc))
	require.NoError(t, err)
	require.NotNil(t, def.OpensAt)
	require.NotNil(t, def.ClosesAt)
	assert.True(t, def.OpensAt.Equal(time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)))
	assert.True(t, def.ClosesAt.Equal(time.Date(2025, 4, 1, 7, 0, 0, 0, time.UTC)))
}

func TestParseFileTakesATextAsAPlainStringOrALanguageMap(t *testing.T) {
	t.Parallel()
	doc := `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: survey
default_language: en
name: {en: Coffee habits, es: Hábitos de café}
description: Three questions
reward: "0.50"
estimated_minutes: 3
questions:
  - id: q1
    control_type: text
    text:
      en: Why?
      pt-BR: Por quê?
`
	def, err := ParseFile("texts.yaml", []byte(doc))
	require.NoError(t, err)
	assert.Equal(t, Text{"en": "Coffee habits", "es": "Hábitos de café"}, def.Name)
	assert.Equal(t, Text{"": "Three questions"}, def.Description, "a plain string is the default language's text")
	assert.Equal(t, Text{"en": "Why?", "pt-BR": "Por quê?"}, def.Questions[0].Text)
	assert.Equal(t, "Hábitos de café", def.Name.In("es", def.DefaultLanguage))
}

func TestParseFileReadsEveryFieldOfARichCampaign(t *testing.T) {
	t.Parallel()
	doc := `uuid: 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11
type: competition
default_language: en
name: {en: Win a trip, es: Gana un viaje}
reward: "1.25"
estimated_minutes: 10
priority: 5
opens_at: 2025-03-01T09:00:00Z
closes_at: 2025-06-01T09:00:00Z
competition: {prize: A trip, prize_amount: "500", winners: 2, draw_at: 2025-06-02T09:00:00Z, auto_draw: true}
footer_links: [{text: Terms, url: "https://example.com/terms"}]
thank_you: {kind: competition_invitation, title: Thanks, redirect_url: /feed, open_in_new_tab: true}
targeting:
  languages: [en, es]
  profile: [{field: metadata.country, op: in, values: [GB, IE]}]
quotas:
  - {id: all, limit: 100}
  - {id: young, limit: 20, when: [{field: metadata.age, op: lt, value: 30}]}
  - {id: tea, limit: 10, when: [{question: drink, op: eq, value: tea}]}
questions:
  - id: drink
    control_type: radio
    text: What do you drink?
    answers: [{id: coffee, text: Coffee}, {id: tea, text: Tea}, {id: none, text: Neither}]
    routes:
      - {when: [{question: drink, op: eq, value: none}], then: screen_out}
      - {when: [{question: drink, op: in, values: [tea]}], then: skip_to, target: grid}
  - id: cups
    control_type: slider
    text: Cups a day?
    min_num: 0
    max_num: 10
    step: 1
  - id: grid
    control_type: grid
    text: Rate
    rows: [{id: taste, text: Taste}]
    columns: [{id: bad, text: Bad}, {id: good, text: Good}]
  - id: mood
    control_type: likert
    text: Mood?
    scale_answers: [{id: s1, value: 1}, {id: s2, value: 2}]
    scale_labels: {min: Low, max: High}
  - id: spend
    control_type: spend
    text: How much?
    spend_period: [week, month]
  - id: freq
    control_type: frequency
    text: How often?
    freq_type: times
    freq_period: [day]
  - id: ad
    control_type: video
    text: Watch
    videoid: abc123
  - id: pics
    control_type: multi_image
    text: Pick
    max_answers: 2
    answers:
      - {id: p1, image: {url: "https://cdn.example.com/1.png"}}
      - {id: p2, image: {url: /static/img/2.png, alt: Two}}
`
	def, err := ParseFile("rich.yaml", []byte(doc))
	require.NoError(t, err)
	assert.Equal(t, 5, def.Priority)
	require.NotNil(t, def.Competition)
	assert.Equal(t, 2, def.Competition.Winners)
	assert.True(t, def.Competition.AutoDraw, "the competition asks to be drawn automatically")
	assert.Equal(t, ThankYouCompetitionInvitation, def.ThankYou.Kind)
	assert.Equal(t, []string{"en", "es"}, def.Targeting.Languages)
	assert.Equal(t, []Condition{{Field: "metadata.country", Op: OpIn, Values: []any{"GB", "IE"}}}, def.Targeting.Profile)
	require.Len(t, def.Quotas, 3)
	assert.Equal(t, 30.0, def.Quotas[1].When[0].Value)
	assert.Equal(t, Route{When: []Condition{{Question: "drink", Op: OpIn, Values: []any{"tea"}}}, Then: ThenSkipTo, Target: "grid"}, def.Questions[0].Routes[1])
	require.NotNil(t, def.Questions[1].MaxNum)
	assert.Equal(t, 10.0, *def.Questions[1].MaxNum)
	assert.Equal(t, Text{"": "High"}, def.Questions[3].ScaleLabels["max"])
	assert.Equal(t, []string{"week", "month"}, def.Questions[4].SpendPeriod)
}

func TestParseFileNamesFileLineAndPathOfEverySchemaProblem(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc, path, message string
	}{
		{"an unknown top-level field is caught and a near name suggested", campHeader + "nmae: Coffee #<\n" + campRadioQ1,
			"/nmae", `unknown field "nmae" (did you mean "name"?)`},
		{"an unknown question field is caught", campHeader + campRadioQ1 + "    txt: Hello #<\n",
			"/questions/0/txt", `unknown field "txt" (did you mean "text"?)`},
		{"an unknown campaign type lists the types", strings.Replace(campHeader, "type: survey", "type: surevy #<", 1) + campRadioQ1,
			"/type", `must be one of "survey", "poll", "profiler", "competition"; got "surevy" (did you mean "survey"?)`},
		{"an unknown control type is caught", campHeader + strings.Replace(campRadioQ1, "control_type: radio", "control_type: radoi #<", 1),
			"/questions/0/control_type", `got "radoi" (did you mean "radio"?)`},
		{"a missing question field names the field on the question's line", campHeader + "questions:\n  - id: q1 #<\n    control_type: nps\n",
			"/questions/0/text", `required field "text" is missing`},
		{"a missing campaign field names the field", strings.Replace(strings.Replace(campHeader, "estimated_minutes: 3\n", "", 1), "\n", " #<\n", 1) + campRadioQ1,
			"/estimated_minutes", `required field "estimated_minutes" is missing`},
		{"an upper-case uuid is refused", strings.Replace(campHeader, "uuid: 3f0c", "uuid: 3F0C", 1) + campRadioQ1,
			"/uuid", "must be a lowercase UUID"},
		{"an id with a space is refused", campHeader + strings.Replace(campRadioQ1, "- id: q1", "- id: q 1 #<", 1),
			"/questions/0/id", "must be an id of 1 to 64 letters, digits, _ or -"},
		{"an unquoted reward asks for quotes", strings.Replace(campHeader, `reward: "0.50"`, "reward: 0.50 #<", 1) + campRadioQ1,
			"/reward", "must be a string, got a number (put the value in quotes"},
		{"a reward with four decimals is refused", strings.Replace(campHeader, `reward: "0.50"`, `reward: "0.5055" #<`, 1) + campRadioQ1,
			"/reward", `must be a decimal amount as a string such as "0.50"`},
		{"a date without a time is refused", campHeader + "opens_at: 2025-03-01 #<\n" + campRadioQ1,
			"/opens_at", "must be a date and time with a zone such as 2025-03-01T09:00:00Z"},
		{"a language map with a bad language code names the key", strings.Replace(campHeader, "name: Coffee habits", "default_language: en\nname: {english: Coffee} #<", 1) + campRadioQ1,
			"/name/english", `"english" is not a language code such as en or pt-BR`},
		{"a number where a text belongs is refused", campHeader + strings.Replace(campRadioQ1, "text: Do you drink coffee?", "text: 5 #<", 1),
			"/questions/0/text", "must be a text (a string, or a map of language code to string), got a number"},
		{"a string where a whole number belongs is refused", strings.Replace(campHeader, "estimated_minutes: 3", `estimated_minutes: "three" #<`, 1) + campRadioQ1,
			"/estimated_minutes", "must be a whole number, got a string"},
		{"five footer links are too many", campHeader + "footer_links: #<\n" + strings.Repeat("  - {text: T, url: /t}\n", 5) + campRadioQ1,
			"/footer_links", "may have at most 4 items, has 5"},
		{"a campaign without questions is refused", campHeader + "questions: [] #<\n",
			"/questions", "must not be empty"},
		{"an unknown condition operator is caught", campHeader + campRadioQ1 + "    routes:\n      - when:\n          - {question: q1, op: equals, value: \"yes\"} #<\n        then: complete\n",
			"/questions/0/routes/0/when/0/op", `must be one of "eq", "ne", "in"`},
		{"an unknown route outcome is caught", campHeader + campRadioQ1 + "    routes:\n      - then: finish #<\n",
			"/questions/0/routes/0/then", `got "finish"`},
		{"an unknown profile field is caught", campHeader + "targeting:\n  profile:\n    - {field: country, op: exists} #<\n" + campRadioQ1,
			"/targeting/profile/0/field", "must be a profile field: languageCode, emailValidated, acceptedTermsConditions or metadata.KEY"},
		{"a quota limit of zero is refused", campHeader + "quotas:\n  - id: all\n    limit: 0 #<\n" + campRadioQ1,
			"/quotas/0/limit", "must be at least 1, got 0"},
		{"a repeated spend period is caught", campHeader + "questions:\n  - id: s\n    control_type: spend\n    text: Spend?\n    spend_period:\n      - week\n      - week #<\n",
			"/questions/0/spend_period/1", "repeats item 0"},
		{"a duplicate YAML key is caught", campHeader + "name: Again #<\n" + campRadioQ1,
			"/name", `duplicate key "name" (first at line 3)`},
		{"an unknown thank-you kind is caught", campHeader + "thank_you: {kind: invite} #<\n" + campRadioQ1,
			"/thank_you/kind", `must be one of "", "competition_invitation"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := problemsOf(t, "camp.yaml", c.doc)
			line := 1
			if strings.Contains(c.doc, "#<") {
				line = markedLine(t, c.doc)
			}
			var paths []string
			for _, p := range probs {
				paths = append(paths, p.String())
				if p.Path == c.path {
					assert.Equal(t, "camp.yaml", p.File)
					assert.Equal(t, line, p.Line, "line of %s", p)
					assert.Contains(t, p.Message, c.message)
					return
				}
			}
			t.Fatalf("no problem at %s; got:\n%s", c.path, strings.Join(paths, "\n"))
		})
	}
}

func TestParseFileNamesFileLineAndPathOfEverySemanticProblem(t *testing.T) {
	t.Parallel()
	q := func(body string) string { return campHeader + "questions:\n" + body }
	cases := []struct {
		name, doc, path, message string
	}{
		{"question ids are unique", q("  - {id: q1, control_type: nps, text: A}\n  - {id: q1, control_type: nps, text: B} #<\n"),
			"/questions/1/id", `duplicate question id "q1" (also at /questions/0/id)`},
		{"option ids are unique within a question's answers", q("  - id: q1\n    control_type: radio\n    text: A\n    answers:\n      - {id: a}\n      - {id: a} #<\n"),
			"/questions/0/answers/1/id", `duplicate option id "a"`},
		{"grid column ids are unique", q("  - id: g\n    control_type: grid\n    text: A\n    rows: [{id: r}]\n    columns:\n      - {id: c}\n      - {id: c} #<\n"),
			"/questions/0/columns/1/id", `duplicate option id "c"`},
		{"a radio needs two answers", q("  - id: q1\n    control_type: radio\n    text: A\n    answers: #<\n      - {id: a}\n"),
			"/questions/0/answers", "radio needs at least 2 answers, has 1"},
		{"a checkbox without answers names the missing list on the question", q("  - id: q1 #<\n    control_type: checkbox\n    text: A\n"),
			"/questions/0/answers", "checkbox needs at least 2 answers, has 0"},
		{"like/dislike needs exactly two answers", q("  - id: q1\n    control_type: like_dislike\n    text: A\n    answers: #<\n      - {id: a}\n      - {id: b}\n      - {id: c}\n"),
			"/questions/0/answers", "like_dislike needs exactly 2 answers"},
		{"image select answers need an image", q("  - id: q1\n    control_type: image_select\n    text: A\n    answers:\n      - {id: a, image: {url: /a.png}}\n      - {id: b} #<\n"),
			"/questions/0/answers/1/image", "image_select answers need an image with a url"},
		{"a grid needs a row", q("  - id: g #<\n    control_type: grid\n    text: A\n    columns: [{id: a}, {id: b}]\n"),
			"/questions/0/rows", "grid needs at least 1 row"},
		{"a grid needs two columns", q("  - id: g\n    control_type: grid\n    text: A\n    rows: [{id: r}]\n    columns: [{id: a}] #<\n"),
			"/questions/0/columns", "grid needs at least 2 columns, has 1"},
		{"likert points need values", q("  - id: l\n    control_type: likert\n    text: A\n    scale_answers:\n      - {id: a, value: 1}\n      - {id: b} #<\n"),
			"/questions/0/scale_answers/1/value", "a scale point needs a value"},
		{"a smiley needs two points", q("  - id: l\n    control_type: smiley\n    text: A\n    scale_answers: #<\n      - {id: a, value: 1}\n"),
			"/questions/0/scale_answers", "smiley needs at least 2 scale_answers, has 1"},
		{"a slider's minimum is not above its maximum", q("  - id: s\n    control_type: slider\n    text: A\n    min_num: 10 #<\n    max_num: 1\n"),
			"/questions/0/min_num", "min_num (10) is greater than max_num (1)"},
		{"min_chars is not above max_chars", q("  - id: s\n    control_type: text\n    text: A\n    min_chars: 10 #<\n    max_chars: 5\n"),
			"/questions/0/min_chars", "min_chars (10) is greater than max_chars (5)"},
		{"min_answers is not above max_answers", q("  - id: c\n    control_type: checkbox\n    text: A\n    answers: [{id: a}, {id: b}]\n    min_answers: 2 #<\n    max_answers: 1\n"),
			"/questions/0/min_answers", "min_answers (2) is greater than max_answers (1)"},
		{"max_answers is not above the number of answers", q("  - id: c\n    control_type: checkbox\n    text: A\n    answers: [{id: a}, {id: b}]\n    max_answers: 3 #<\n"),
			"/questions/0/max_answers", "max_answers (3) is more than the number of answers (2)"},
		{"spend needs its periods", q("  - id: s #<\n    control_type: spend\n    text: A\n"),
			"/questions/0/spend_period", "spend needs spend_period"},
		{"frequency needs its periods", q("  - id: f #<\n    control_type: frequency\n    text: A\n"),
			"/questions/0/freq_period", "frequency needs freq_period"},
		{"video needs a video id", q("  - id: v #<\n    control_type: video\n    text: A\n"),
			"/questions/0/videoid", "video needs videoid"},
		{"skip_to must go forward", q("  - {id: q1, control_type: nps, text: A}\n  - id: q2\n    control_type: nps\n    text: B\n    routes:\n      - then: skip_to\n        target: q1 #<\n"),
			"/questions/1/routes/0/target", `must name a later question: "q1" is /questions/0`},
		{"skip_to must name a question that exists", q("  - id: q1\n    control_type: nps\n    text: A\n    routes:\n      - then: skip_to\n        target: q9 #<\n"),
			"/questions/0/routes/0/target", `no question has the id "q9"`},
		{"skip_to needs a target", q("  - id: q1\n    control_type: nps\n    text: A\n    routes:\n      - then: skip_to #<\n  - {id: q2, control_type: nps, text: B}\n"),
			"/questions/0/routes/0/target", "skip_to needs a target"},
		{"a route condition cannot read a later question", q("  - id: q1\n    control_type: nps\n    text: A\n    routes:\n      - when:\n          - {question: q2, op: exists} #<\n        then: complete\n  - {id: q2, control_type: nps, text: B}\n"),
			"/questions/0/routes/0/when/0/question", `must name this question or an earlier one: "q2" is /questions/1`},
		{"a choice condition names option ids", campHeader + campRadioQ1 + "    routes:\n      - when:\n          - question: q1\n            op: in\n            values:\n              - \"yes\"\n              - maybe #<\n        then: screen_out\n",
			"/questions/0/routes/0/when/0/values/1", `"maybe" is not an option id of question "q1" (yes, no)`},
		{"a condition gives field or question, not both", campHeader + campRadioQ1 + "    routes:\n      - when:\n          - {field: languageCode, question: q1, op: exists} #<\n        then: complete\n",
			"/questions/0/routes/0/when/0", "give either field or question, not both"},
		{"a condition gives field or question", campHeader + campRadioQ1 + "    routes:\n      - when:\n          - {op: exists} #<\n        then: complete\n",
			"/questions/0/routes/0/when/0", "needs field (a profile field) or question (a question id)"},
		{"op in needs values", campHeader + campRadioQ1 + "    routes:\n      - when:\n          - {question: q1, op: in} #<\n        then: complete\n",
			"/questions/0/routes/0/when/0/values", "op in needs values"},
		{"targeting reads profile fields only", campHeader + "targeting:\n  profile:\n    - {question: q1, op: exists} #<\n" + campRadioQ1,
			"/targeting/profile/0/question", "targeting tests profile fields only"},
		{"quota ids are unique", campHeader + "quotas:\n  - {id: all, limit: 5}\n  - {id: all, limit: 6} #<\n" + campRadioQ1,
			"/quotas/1/id", `duplicate quota id "all"`},
		{"a campaign closes after it opens", campHeader + "opens_at: 2025-03-01T09:00:00Z\ncloses_at: 2025-02-01T09:00:00Z #<\n" + campRadioQ1,
			"/closes_at", "must be after opens_at (2025-03-01T09:00:00Z)"},
		{"a competition needs its block", strings.Replace(campHeader, "type: survey", "type: competition #<", 1) + campRadioQ1,
			"/competition", "type competition needs a competition block"},
		{"a competition needs a prize", campHeader + "competition: {prize: \"\", winners: 1} #<\n" + campRadioQ1,
			"/competition/prize", "a competition needs a prize"},
		{"an automatic draw needs a draw date", campHeader + "competition: {prize: A mug, winners: 1, auto_draw: true} #<\n" + campRadioQ1,
			"/competition/auto_draw", "an automatic draw needs a draw_at to draw at"},
		{"an automatic draw is true or false", campHeader + "competition: {prize: A mug, winners: 1, auto_draw: \"yes\"} #<\n" + campRadioQ1,
			"/competition/auto_draw", "must be true or false, got a string"},
		{"a welcome campaign is not a competition", campHeader + "is_welcome: true #<\ncompetition: {prize: A mug, winners: 1}\n" + campRadioQ1,
			"/is_welcome", "a welcome campaign cannot be a competition"},
		{"an onboarding campaign is no welcome campaign", campHeader + "onboarding: true #<\nis_welcome: true\n" + campRadioQ1,
			"/onboarding", "an onboarding campaign cannot be a welcome campaign or a competition"},
		{"an onboarding campaign has no min_age", campHeader + "onboarding: true\nmin_age: 18 #<\n" + campRadioQ1,
			"/min_age", "an onboarding campaign cannot have a min_age: a visitor has no date of birth yet"},
		{"only an onboarding campaign is the final one", campHeader + "thank_you: {is_final_onboarding_campaign: true} #<\n" + campRadioQ1,
			"/thank_you/is_final_onboarding_campaign", "only an onboarding campaign (onboarding: true) can be the final onboarding campaign"},
		{"texts per language need a default language", campHeader + strings.Replace(campRadioQ1, "text: Do you drink coffee?", `text: {en: "Coffee?", es: "¿Café?"} #<`, 1),
			"/default_language", "is required because texts are written per language (first at /questions/0/text)"},
		{"the name exists in the default language", strings.Replace(campHeader, "name: Coffee habits", "default_language: es\nname: {en: Coffee} #<", 1) + campRadioQ1,
			"/name", `has no text in the default language "es"`},
		{"a slider needs its range", q("  - id: s #<\n    control_type: slider\n    text: A\n    min_num: 0\n"),
			"/questions/0/max_num", "slider needs min_num and max_num"},
		{"a click bar needs its range", q("  - id: s #<\n    control_type: click_bar\n    text: A\n"),
			"/questions/0/max_num", "click_bar needs min_num and max_num"},
		{"nps is always 0 to 10", q("  - id: n\n    control_type: nps\n    text: A\n    min_num: 1 #<\n"),
			"/questions/0/min_num", "nps is always scored 0 to 10"},
		{"exclusive belongs to checkboxes", q("  - id: q1\n    control_type: radio\n    text: A\n    answers:\n      - {id: a}\n      - {id: b, exclusive: true} #<\n"),
			"/questions/0/answers/1/exclusive", "exclusive is only for checkbox and multi_image answers"},
		{"a competition invitation needs a competition", campHeader + "thank_you: {kind: competition_invitation} #<\n" + campRadioQ1,
			"/thank_you/kind", "a competition_invitation thank-you needs a competition"},
		{"opening in a new tab needs an address", campHeader + "thank_you: {open_in_new_tab: true} #<\n" + campRadioQ1,
			"/thank_you/open_in_new_tab", "needs a completion_url or redirect_url"},
		{"an empty name is refused", strings.Replace(campHeader, "name: Coffee habits", `name: "" #<`, 1) + campRadioQ1,
			"/name", "must not be empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := problemsOf(t, "camp.yaml", c.doc)
			line := markedLine(t, c.doc)
			var all []string
			for _, p := range probs {
				all = append(all, p.String())
				if p.Path == c.path {
					assert.Equal(t, line, p.Line, "line of %s", p)
					assert.Contains(t, p.Message, c.message)
					return
				}
			}
			t.Fatalf("no problem at %s; got:\n%s", c.path, strings.Join(all, "\n"))
		})
	}
}

func TestParseFileReportsEveryProblemOfAFileAtOnce(t *testing.T) {
	t.Parallel()
	doc := `uuid: not-a-uuid
type: survey
name: Coffee
reward: 0.50
estimated_minutes: 3
colour: blue
questions:
  - id: q1
    control_type: radio
    text: A
    answers: [{id: a}]
  - id: q1
    control_type: nps
    text: B
`
	probs := problemsOf(t, "many.yaml", doc)
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{
		`many.yaml:1: /uuid: must be a lowercase UUID such as 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11; got "not-a-uuid"`,
		`many.yaml:4: /reward: must be a string, got a number (put the value in quotes, e.g. "0.50")`,
		`many.yaml:6: /colour: unknown field "colour"`,
		`many.yaml:11: /questions/0/answers: radio needs at least 2 answers, has 1`,
		`many.yaml:12: /questions/1/id: duplicate question id "q1" (also at /questions/0/id)`,
	}, got, "schema and semantic problems together, in line order; a value of the wrong type does not hide the rest")
}

func TestProblemsPrintOneProblemPerLine(t *testing.T) {
	t.Parallel()
	err := &Problems{List: []Problem{
		{File: "a.yaml", Line: 3, Path: "/type", Message: "bad"},
		{File: "a.yaml", Path: "", Message: "the file is empty"},
	}}
	assert.Equal(t, "a.yaml:3: /type: bad\na.yaml: the file is empty", err.Error())
}

func TestParseFileGivesJSONProblemsTheirLines(t *testing.T) {
	t.Parallel()
	doc := `{
  "uuid": "3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
  "type": "survey",
  "name": "Coffee",
  "reward": "0.50",
  "estimated_minutes": 3,
  "questions": [
    {"id": "q1", "control_type": "radio", "text": "A",
     "answers": [{"id": "a"}, {"id": "b"}]},
    {
      "id": "q2",
      "control_type": "nps",
      "txt": "B"
    }
  ]
}`
	probs := problemsOf(t, "camp.json", doc)
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{
		`camp.json:10: /questions/1/text: required field "text" is missing`,
		`camp.json:13: /questions/1/txt: unknown field "txt" (did you mean "text"?)`,
	}, got)
}

func TestParseFileReportsSyntaxErrorsWithTheirLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file, doc string
		line            int
		message         string
	}{
		{"YAML with a bad indent", "bad.yaml", "uuid: x\ntype: survey\n  name: oops\n", 3, "YAML syntax"},
		{"JSON with a missing comma", "bad.json", "{\n  \"uuid\": \"x\"\n  \"type\": \"survey\"\n}", 3, "JSON syntax"},
		{"an empty file", "empty.yaml", "", 0, "the file is empty"},
		{"an unsupported extension", "camp.toml", "uuid = 1", 0, "unsupported file type"},
		{"two YAML documents", "two.yaml", campHeader + campRadioQ1 + "---\n" + campHeader + campRadioQ1, 13, "one campaign"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probs := problemsOf(t, c.file, c.doc)
			assert.Equal(t, c.line, probs[0].Line, "%s", probs[0])
			assert.Contains(t, probs[0].Message, c.message)
			assert.Equal(t, c.file, probs[0].File)
		})
	}
}

func TestTheEmbeddedSchemaCompiles(t *testing.T) {
	t.Parallel()
	_, err := campaignSchema()
	require.NoError(t, err)
	assert.Contains(t, string(SchemaJSON()), `"$schema": "https://json-schema.org/draft/2020-12/schema"`)
}

func TestTheSchemaListsEveryControlTypeInTheSpecsOrder(t *testing.T) {
	t.Parallel()
	question := campaignSchemaDoc()["$defs"].(map[string]any)["question"].(map[string]any)
	enum := question["properties"].(map[string]any)["control_type"].(map[string]any)["enum"].([]any)
	var got []string
	for _, v := range enum {
		got = append(got, v.(string))
	}
	assert.Equal(t, ControlTypes, got)
	assert.Len(t, got, 24)
}
