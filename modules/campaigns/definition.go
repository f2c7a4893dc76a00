package campaigns

import (
	"bytes"
	"encoding/json"
	"time"
)

// Definition is one campaign as a tenant authors it (YAML or JSON, checked against
// schema/campaign.schema.json). It is stored whole with the campaign; the columns of the
// campaigns table copy what the feed filters and sorts on.
type Definition struct {
	UUID             string     `json:"uuid"`
	Type             string     `json:"type"` // survey, poll, profiler, competition
	DefaultLanguage  string     `json:"default_language,omitempty"`
	Name             Text       `json:"name"`
	Description      Text       `json:"description,omitempty"`
	Reward           string     `json:"reward"` // major units in the panel's currency: "0.50"
	EstimatedMinutes int        `json:"estimated_minutes"`
	MinAge           int        `json:"min_age,omitempty"` // see dobBlocked
	OpensAt          *time.Time `json:"opens_at,omitempty"`
	ClosesAt         *time.Time `json:"closes_at,omitempty"`
	Priority         int        `json:"priority,omitempty"` // higher comes first in the feed
	IsWelcome        bool       `json:"is_welcome,omitempty"`
	// Onboarding campaigns are answered before membership (modules/onboarding), never in the
	// feed; the one whose thank_you says is_final_onboarding_campaign ends onboarding.
	Onboarding      bool         `json:"onboarding,omitempty"`
	Competition     *Competition `json:"competition,omitempty"`
	SurveyThemeGUID string       `json:"survey_theme_guid,omitempty"`
	FooterLinks     []FooterLink `json:"footer_links,omitempty"` // up to 4
	ThankYou        ThankYou     `json:"thank_you"`
	Targeting       Targeting    `json:"targeting"`
	Quotas          []Quota      `json:"quotas,omitempty"`
	Questions       []Question   `json:"questions"`
}

// Campaign types.
const (
	TypeSurvey      = "survey"
	TypePoll        = "poll"
	TypeProfiler    = "profiler"
	TypeCompetition = "competition"
)

// Competition is the prize draw a campaign enters its completers into.
type Competition struct {
	Prize       Text       `json:"prize"`
	PrizeAmount string     `json:"prize_amount,omitempty"` // credited to each winner, major units
	Winners     int        `json:"winners"`
	DrawAt      *time.Time `json:"draw_at,omitempty"`
	Terms       Text       `json:"terms,omitempty"`
	// AutoDraw: the competition is drawn by the service at DrawAt (a periodic job), not by an
	// operator's command. Off by default.
	AutoDraw bool `json:"auto_draw,omitempty"`
}

// FooterLink is one of the survey footer's links; kept only with text and url (spec section 2).
type FooterLink struct {
	Label Text   `json:"label,omitempty"`
	Text  Text   `json:"text"`
	URL   string `json:"url"`
}

// ThankYou is the spec's thank-you object plus what the page says.
type ThankYou struct {
	Kind                      string `json:"kind,omitempty"` // "" or competition_invitation
	Title                     Text   `json:"title,omitempty"`
	Message                   Text   `json:"message,omitempty"`
	CompletionURL             string `json:"completion_url,omitempty"`
	RedirectURL               string `json:"redirect_url,omitempty"`
	OpenInNewTab              bool   `json:"open_in_new_tab,omitempty"`
	IsFinalOnboardingCampaign bool   `json:"is_final_onboarding_campaign,omitempty"`
}

// FooterLinksIn are the campaign's footer links in a language (else the fallback); spec: a
// footer link is kept only if it has text and url.
func (d *Definition) FooterLinksIn(lang, fallback string) []Link {
	out := []Link{}
	for _, l := range d.FooterLinks {
		if text := l.Text.In(lang, fallback); text != "" && l.URL != "" {
			out = append(out, Link{Label: l.Label.In(lang, fallback), Text: text, URL: l.URL})
		}
	}
	return out
}

// Link is a footer link in one language.
type Link struct {
	Label string `json:"label"`
	Text  string `json:"text"`
	URL   string `json:"url"`
}

// QuestionIndex is the position of the question with this id; -1 when there is none.
func (d *Definition) QuestionIndex(id string) int {
	for i := range d.Questions {
		if d.Questions[i].ID == id {
			return i
		}
	}
	return -1
}

// HasQuestion tells whether the campaign has a question with this id.
func (c *Campaign) HasQuestion(id string) bool { return c.Definition.QuestionIndex(id) >= 0 }

// ThankYouCompetitionInvitation is the thank-you page kind that invites to a competition.
const ThankYouCompetitionInvitation = "competition_invitation"

// Targeting says who may see a campaign: every condition must hold.
type Targeting struct {
	Languages []string    `json:"languages,omitempty"` // member languages; empty is every language
	Profile   []Condition `json:"profile,omitempty"`   // conditions on profile fields
}

// Condition tests one profile field (Field: languageCode, emailValidated,
// acceptedTermsConditions, metadata.KEY) or one earlier answer (Question: a question id).
type Condition struct {
	Field    string `json:"field,omitempty"`
	Question string `json:"question,omitempty"`
	Op       string `json:"op"`               // eq, ne, in, not_in, gt, gte, lt, lte, exists, not_exists
	Value    any    `json:"value,omitempty"`  // eq, ne, gt, gte, lt, lte
	Values   []any  `json:"values,omitempty"` // in, not_in; for choice answers: option ids
}

// Quota caps the completes that match its conditions (none: every complete). A full quota
// ends the survey of a member who would count towards it in quota_full.
type Quota struct {
	ID    string      `json:"id"`
	Limit int         `json:"limit"`
	When  []Condition `json:"when,omitempty"`
}

// Route is a question's routing rule, tried in order after it is answered; the first whose
// conditions all hold decides. No match: the next question.
type Route struct {
	When   []Condition `json:"when"`
	Then   string      `json:"then"`             // screen_out, disqualify, skip_to, complete
	Target string      `json:"target,omitempty"` // skip_to: a later question's id
}

// Route outcomes.
const (
	ThenScreenOut  = "screen_out"
	ThenDisqualify = "disqualify"
	ThenSkipTo     = "skip_to"
	ThenComplete   = "complete"
)

// Question carries every field of the spec's Question entity. Answers, rows and columns
// have stable string ids: answers refer to them (ARCHITECTURE.md "Answers").
type Question struct {
	ID          string   `json:"id"`
	ControlType string   `json:"control_type"`
	Text        Text     `json:"text"`
	Descr       Text     `json:"descr,omitempty"`
	HTML        Text     `json:"html,omitempty"` // rich text shown above the control (sanitised when rendered)
	Image       *Image   `json:"image,omitempty"`
	VideoID     string   `json:"videoid,omitempty"`
	Answers     []Option `json:"answers,omitempty"`  // choice controls, ranking, most/least
	Rows        []Option `json:"rows,omitempty"`     // grid
	Columns     []Option `json:"columns,omitempty"`  // grid
	Multiple    bool     `json:"multiple,omitempty"` // grid: several columns per row
	MaxFields   *int     `json:"max_fields,omitempty"`
	MinChars    *int     `json:"min_chars,omitempty"`
	MaxChars    *int     `json:"max_chars,omitempty"`
	MinAnswers  *int     `json:"min_answers,omitempty"`
	MaxAnswers  *int     `json:"max_answers,omitempty"`
	MinNum      *float64 `json:"min_num,omitempty"`
	MaxNum      *float64 `json:"max_num,omitempty"`
	Step        *float64 `json:"step,omitempty"`
	SpendMin    *float64 `json:"spend_min,omitempty"`
	SpendMax    *float64 `json:"spend_max,omitempty"`
	SpendPeriod []string `json:"spend_period,omitempty"` // periods offered: day, week, month, year
	FreqMin     *int     `json:"freq_min,omitempty"`
	FreqMax     *int     `json:"freq_max,omitempty"`
	FreqType    string   `json:"freq_type,omitempty"`   // times, days, hours
	FreqPeriod  []string `json:"freq_period,omitempty"` // periods offered: day, week, month, year
	// ScaleAnswers are the points of Likert and smiley scales (value is what is stored); click bar,
	// slider and stepper are numeric ranges (min_num, max_num, step).
	ScaleAnswers []Option `json:"scale_answers,omitempty"`
	// ScaleLabels name the ends (and middle) of a scale: min, mid, max.
	ScaleLabels map[string]Text `json:"scale_labels,omitempty"`
	Routes      []Route         `json:"routes,omitempty"`
}

// Control types: every answer control of spec section 2.
const (
	ControlText        = "text"
	ControlTextArea    = "textarea"
	ControlNumber      = "number"
	ControlSpend       = "spend"
	ControlDropdown    = "dropdown"
	ControlRadio       = "radio"
	ControlCheckbox    = "checkbox"
	ControlClickBar    = "click_bar"
	ControlImageSelect = "image_select"
	ControlMultiImage  = "multi_image"
	ControlRanking     = "ranking"
	ControlMostLeast   = "most_least"
	ControlSlider      = "slider"
	ControlStepper     = "stepper"
	ControlNPS         = "nps"
	ControlLikeDislike = "like_dislike"
	ControlLikert      = "likert"
	ControlStar        = "star"
	ControlSmiley      = "smiley"
	ControlDate        = "date"
	ControlLocation    = "location"
	ControlFrequency   = "frequency"
	ControlVideo       = "video"
	ControlGrid        = "grid"
)

// ControlTypes lists every control, in the spec's order.
var ControlTypes = []string{
	ControlText, ControlTextArea, ControlNumber, ControlSpend, ControlDropdown, ControlRadio, ControlCheckbox,
	ControlClickBar, ControlImageSelect, ControlMultiImage, ControlRanking, ControlMostLeast, ControlSlider,
	ControlStepper, ControlNPS, ControlLikeDislike, ControlLikert, ControlStar, ControlSmiley, ControlDate,
	ControlLocation, ControlFrequency, ControlVideo, ControlGrid,
}

// Option is an answer option, grid row or column, or scale point.
type Option struct {
	ID        string   `json:"id"`
	Text      Text     `json:"text,omitempty"`
	Image     *Image   `json:"image,omitempty"`
	Value     *float64 `json:"value,omitempty"`     // scale points: the number stored as the answer
	Exclusive bool     `json:"exclusive,omitempty"` // checkbox: "none of these" clears the others
}

// Image is the spec's image{url}.
type Image struct {
	URL string `json:"url"`
	Alt Text   `json:"alt,omitempty"`
}

// Text is a text in one or more languages. Authors write a plain string (the campaign's
// default language) or a map of language code to text.
type Text map[string]string

// UnmarshalJSON takes a string or an object of language code to string.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text{"": s}
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = m
	return nil
}

// In returns the text in lang, else in fallback (the campaign's default language), else the
// unlabelled text, else any.
func (t Text) In(lang, fallback string) string {
	for _, k := range []string{lang, fallback, ""} {
		if s, ok := t[k]; ok && s != "" {
			return s
		}
	}
	// Deterministic last resort: the first language in code order.
	best := ""
	for k, s := range t {
		if s != "" && (best == "" || k < best) {
			best = k
		}
	}
	return t[best]
}

// Has tells whether the text exists in lang.
func (t Text) Has(lang string) bool { return t[lang] != "" }
