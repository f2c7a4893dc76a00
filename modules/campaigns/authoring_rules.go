package campaigns

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/web"
)

// Semantic checks: the rules the schema cannot express.

// defIssue is a problem the schema cannot see. LineAt, when set, is the pointer whose line to
// show (the value at Path may be missing from the file).
type defIssue struct {
	Path    string
	LineAt  string
	Message string
}

// authoringMoneyCurrency is an ISO currency with three decimals, the most any currency has:
// authored amounts are checked against it here, and against the panel's currency at import.
const authoringMoneyCurrency = "BHD"

var campaignUUIDPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// choiceControlTypes answer with option ids of the question's answers.
var choiceControlTypes = []string{ControlRadio, ControlDropdown, ControlCheckbox, ControlImageSelect, ControlMultiImage, ControlLikeDislike, ControlRanking, ControlMostLeast}

var conditionOperators = []string{OpEq, OpNe, OpIn, OpNotIn, OpGt, OpGte, OpLt, OpLte, OpExists, OpNotExists}

type defChecker struct {
	def    *Definition
	qIndex map[string]int // question id -> its first position
	issues []defIssue
}

func (c *defChecker) addf(path, format string, args ...any) {
	c.issues = append(c.issues, defIssue{Path: path, Message: fmt.Sprintf(format, args...)})
}

// jsonPointer builds a JSON pointer from field names and indexes.
func jsonPointer(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			if strings.HasPrefix(p, "/") { // an already built pointer
				b.WriteString(p)
			} else {
				b.WriteString("/" + escapePointerToken(p))
			}
		case int:
			b.WriteString("/" + strconv.Itoa(p))
		}
	}
	return b.String()
}

// checkDefinition runs the rules the schema cannot express: references between questions,
// options, routes and quotas, per-control needs, dates, languages and money. Import runs it
// too, so a Definition built in code meets the same rules as an authored file.
func checkDefinition(def *Definition) []defIssue {
	c := &defChecker{def: def, qIndex: map[string]int{}}
	if !campaignUUIDPattern.MatchString(def.UUID) {
		c.addf("/uuid", "must be a lowercase UUID; got %q", def.UUID)
	}
	if !slices.Contains([]string{TypeSurvey, TypePoll, TypeProfiler, TypeCompetition}, def.Type) {
		c.addf("/type", "must be one of survey, poll, profiler, competition; got %q", def.Type)
	}
	if len(def.Questions) == 0 {
		c.addf("/questions", "must not be empty")
	}
	for i, q := range def.Questions {
		if j, dup := c.qIndex[q.ID]; dup {
			c.addf(jsonPointer("questions", i, "id"), "duplicate question id %q (also at /questions/%d/id)", q.ID, j)
			continue
		}
		c.qIndex[q.ID] = i
	}
	for i := range def.Questions {
		c.question(i)
	}

	for i, cond := range def.Targeting.Profile {
		p := jsonPointer("targeting", "profile", i)
		if cond.Question != "" {
			c.addf(p+"/question", "targeting tests profile fields only: use field, not question")
			continue
		}
		c.condition(p, cond, -1)
	}

	quotaIDs := map[string]int{}
	for i, q := range def.Quotas {
		p := jsonPointer("quotas", i)
		if j, dup := quotaIDs[q.ID]; dup {
			c.addf(p+"/id", "duplicate quota id %q (also at /quotas/%d/id)", q.ID, j)
		} else {
			quotaIDs[q.ID] = i
		}
		if q.Limit < 1 {
			c.addf(p+"/limit", "must be at least 1, got %d", q.Limit)
		}
		for w, cond := range q.When {
			c.condition(jsonPointer(p, "when", w), cond, len(def.Questions)-1)
		}
	}

	if len(def.FooterLinks) > 4 {
		c.addf("/footer_links", "may have at most 4 links, has %d", len(def.FooterLinks))
	}
	if def.OpensAt != nil && def.ClosesAt != nil && !def.ClosesAt.After(*def.OpensAt) {
		c.addf("/closes_at", "must be after opens_at (%s)", def.OpensAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	}

	isCompetition := def.Type == TypeCompetition || def.Competition != nil
	if def.Type == TypeCompetition && def.Competition == nil {
		c.issues = append(c.issues, defIssue{Path: "/competition", LineAt: "/type", Message: "type competition needs a competition block (prize and winners)"})
	}
	if comp := def.Competition; comp != nil {
		if comp.Winners < 1 {
			c.addf("/competition/winners", "a competition needs at least 1 winner")
		}
		if textIsEmpty(comp.Prize) {
			c.addf("/competition/prize", "a competition needs a prize")
		}
		if comp.PrizeAmount != "" {
			c.money("/competition/prize_amount", comp.PrizeAmount)
		}
		if comp.AutoDraw && comp.DrawAt == nil {
			c.addf("/competition/auto_draw", "an automatic draw needs a draw_at to draw at")
		}
	}
	if def.ThankYou.Kind == ThankYouCompetitionInvitation && !isCompetition {
		c.addf("/thank_you/kind", "a competition_invitation thank-you needs a competition")
	}
	if def.ThankYou.OpenInNewTab && def.ThankYou.CompletionURL == "" && def.ThankYou.RedirectURL == "" {
		c.addf("/thank_you/open_in_new_tab", "open_in_new_tab needs a completion_url or redirect_url to open")
	}
	if def.IsWelcome && isCompetition {
		c.addf("/is_welcome", "a welcome campaign cannot be a competition")
	}
	// Onboarding comes before membership: nothing there is a member's welcome or prize draw.
	if def.Onboarding && (def.IsWelcome || isCompetition) {
		c.addf("/onboarding", "an onboarding campaign cannot be a welcome campaign or a competition")
	}
	if def.Onboarding && def.MinAge > 0 {
		c.addf("/min_age", "an onboarding campaign cannot have a min_age: a visitor has no date of birth yet")
	}
	if def.ThankYou.IsFinalOnboardingCampaign && !def.Onboarding {
		c.addf("/thank_you/is_final_onboarding_campaign", "only an onboarding campaign (onboarding: true) can be the final onboarding campaign")
	}

	c.languages()
	c.money("/reward", def.Reward)
	return c.issues
}

func textIsEmpty(t Text) bool {
	for _, s := range t {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

func (c *defChecker) money(path, s string) {
	if strings.HasPrefix(strings.TrimSpace(s), "-") {
		c.addf(path, "must not be negative; got %q", s)
		return
	}
	_, err := web.ParseMoney(s, authoringMoneyCurrency)
	switch {
	case err == nil:
	case errors.Is(err, web.ErrMoneyDecimals):
		c.addf(path, "has more than 3 decimals; got %q", s)
	case errors.Is(err, web.ErrMoneyRange):
		c.addf(path, "is too large; got %q", s)
	default:
		c.addf(path, `must be a decimal amount as a string such as "0.50"; got %q`, s)
	}
}

func (c *defChecker) question(i int) {
	q := c.def.Questions[i]
	p := jsonPointer("questions", i)
	if !slices.Contains(ControlTypes, q.ControlType) {
		c.addf(p+"/control_type", "unknown control type %q", q.ControlType)
	}
	c.uniqueOptions(p+"/answers", q.Answers)
	c.uniqueOptions(p+"/rows", q.Rows)
	c.uniqueOptions(p+"/columns", q.Columns)
	c.uniqueOptions(p+"/scale_answers", q.ScaleAnswers)

	switch q.ControlType {
	case ControlRadio, ControlDropdown, ControlCheckbox, ControlImageSelect, ControlMultiImage, ControlRanking, ControlMostLeast:
		if len(q.Answers) < 2 {
			c.addf(p+"/answers", "%s needs at least 2 answers, has %d", q.ControlType, len(q.Answers))
		}
	case ControlLikeDislike:
		if len(q.Answers) != 2 {
			c.addf(p+"/answers", "like_dislike needs exactly 2 answers (like and dislike), has %d", len(q.Answers))
		}
	case ControlGrid:
		if len(q.Rows) < 1 {
			c.addf(p+"/rows", "grid needs at least 1 row")
		}
		if len(q.Columns) < 2 {
			c.addf(p+"/columns", "grid needs at least 2 columns, has %d", len(q.Columns))
		}
	case ControlLikert, ControlSmiley:
		if len(q.ScaleAnswers) < 2 {
			c.addf(p+"/scale_answers", "%s needs at least 2 scale_answers, has %d", q.ControlType, len(q.ScaleAnswers))
		}
		for j, o := range q.ScaleAnswers {
			if o.Value == nil {
				c.issues = append(c.issues, defIssue{Path: jsonPointer(p, "scale_answers", j, "value"), Message: "a scale point needs a value: the number stored as the answer"})
			}
		}
	case ControlSpend:
		if len(q.SpendPeriod) == 0 {
			c.addf(p+"/spend_period", "spend needs spend_period: the periods offered (day, week, month, year)")
		}
	case ControlFrequency:
		if len(q.FreqPeriod) == 0 {
			c.addf(p+"/freq_period", "frequency needs freq_period: the periods offered (day, week, month, year)")
		}
	case ControlSlider, ControlClickBar:
		if q.MinNum == nil || q.MaxNum == nil {
			c.addf(p+"/max_num", "%s needs min_num and max_num: the ends of its range", q.ControlType)
		}
	case ControlNPS:
		if (q.MinNum != nil && *q.MinNum != 0) || (q.MaxNum != nil && *q.MaxNum != 10) {
			c.addf(p+"/min_num", "nps is always scored 0 to 10: leave min_num and max_num out")
		}
	case ControlVideo:
		if strings.TrimSpace(q.VideoID) == "" {
			c.addf(p+"/videoid", "video needs videoid: the video the member watches")
		}
	}
	if q.ControlType == ControlImageSelect || q.ControlType == ControlMultiImage {
		for j, o := range q.Answers {
			if o.Image == nil || strings.TrimSpace(o.Image.URL) == "" {
				c.addf(jsonPointer(p, "answers", j, "image"), "%s answers need an image with a url", q.ControlType)
			}
		}
	}

	if q.ControlType != ControlCheckbox && q.ControlType != ControlMultiImage {
		for j, o := range q.Answers {
			if o.Exclusive {
				c.addf(jsonPointer(p, "answers", j, "exclusive"), "exclusive is only for checkbox and multi_image answers")
			}
		}
	}
	if q.MinNum != nil && q.MaxNum != nil && *q.MinNum > *q.MaxNum {
		c.addf(p+"/min_num", "min_num (%v) is greater than max_num (%v)", *q.MinNum, *q.MaxNum)
	}
	if q.MinChars != nil && q.MaxChars != nil && *q.MinChars > *q.MaxChars {
		c.addf(p+"/min_chars", "min_chars (%d) is greater than max_chars (%d)", *q.MinChars, *q.MaxChars)
	}
	if q.SpendMin != nil && q.SpendMax != nil && *q.SpendMin > *q.SpendMax {
		c.addf(p+"/spend_min", "spend_min (%v) is greater than spend_max (%v)", *q.SpendMin, *q.SpendMax)
	}
	if q.FreqMin != nil && q.FreqMax != nil && *q.FreqMin > *q.FreqMax {
		c.addf(p+"/freq_min", "freq_min (%d) is greater than freq_max (%d)", *q.FreqMin, *q.FreqMax)
	}
	if q.MinAnswers != nil && q.MaxAnswers != nil && *q.MinAnswers > *q.MaxAnswers {
		c.addf(p+"/min_answers", "min_answers (%d) is greater than max_answers (%d)", *q.MinAnswers, *q.MaxAnswers)
	}
	if len(q.Answers) > 0 || slices.Contains(choiceControlTypes, q.ControlType) {
		if q.MaxAnswers != nil && *q.MaxAnswers > len(q.Answers) {
			c.addf(p+"/max_answers", "max_answers (%d) is more than the number of answers (%d)", *q.MaxAnswers, len(q.Answers))
		} else if q.MinAnswers != nil && *q.MinAnswers > len(q.Answers) {
			c.addf(p+"/min_answers", "min_answers (%d) is more than the number of answers (%d)", *q.MinAnswers, len(q.Answers))
		}
	}

	for r, route := range q.Routes {
		rp := jsonPointer(p, "routes", r)
		switch route.Then {
		case ThenSkipTo:
			c.skipTarget(rp, i, route.Target)
		case ThenScreenOut, ThenDisqualify, ThenComplete:
			if route.Target != "" {
				c.addf(rp+"/target", "target is only for then: skip_to")
			}
		default:
			c.addf(rp+"/then", "must be one of screen_out, disqualify, skip_to, complete; got %q", route.Then)
		}
		for w, cond := range route.When {
			c.condition(jsonPointer(rp, "when", w), cond, i)
		}
	}
}

func (c *defChecker) skipTarget(rp string, from int, target string) {
	if target == "" {
		c.issues = append(c.issues, defIssue{Path: rp + "/target", Message: "skip_to needs a target: the id of a later question"})
		return
	}
	to, ok := c.qIndex[target]
	switch {
	case !ok:
		c.addf(rp+"/target", "no question has the id %q", target)
	case to <= from:
		c.addf(rp+"/target", "must name a later question: %q is /questions/%d, this route is on /questions/%d", target, to, from)
	}
}

func (c *defChecker) uniqueOptions(path string, opts []Option) {
	seen := map[string]int{}
	for j, o := range opts {
		if k, dup := seen[o.ID]; dup {
			c.addf(jsonPointer(path, j, "id"), "duplicate option id %q (also at %s)", o.ID, jsonPointer(path, k, "id"))
			continue
		}
		seen[o.ID] = j
	}
}

// condition checks one condition. lastQuestion is the latest question it may read (a route's
// own question); -1 allows none (targeting).
func (c *defChecker) condition(path string, cond Condition, lastQuestion int) {
	switch {
	case cond.Field != "" && cond.Question != "":
		c.addf(path, "give either field or question, not both")
	case cond.Field == "" && cond.Question == "":
		c.addf(path, "needs field (a profile field) or question (a question id)")
	}
	if !slices.Contains(conditionOperators, cond.Op) {
		c.addf(path+"/op", "must be one of %s; got %q", strings.Join(conditionOperators, ", "), cond.Op)
		return
	}
	switch cond.Op {
	case OpEq, OpNe, OpGt, OpGte, OpLt, OpLte:
		if cond.Value == nil {
			c.issues = append(c.issues, defIssue{Path: path + "/value", Message: fmt.Sprintf("op %s needs a value", cond.Op)})
		}
		if len(cond.Values) > 0 {
			c.addf(path+"/values", "op %s compares with value; use in or not_in for a list", cond.Op)
		}
		if cond.Value != nil && (cond.Op == OpGt || cond.Op == OpGte || cond.Op == OpLt || cond.Op == OpLte) {
			if _, ok := cond.Value.(float64); !ok {
				c.addf(path+"/value", "op %s needs a number; got %s", cond.Op, showValue(cond.Value))
			}
		}
	case OpIn, OpNotIn:
		if len(cond.Values) == 0 {
			c.issues = append(c.issues, defIssue{Path: path + "/values", Message: fmt.Sprintf("op %s needs values (a list)", cond.Op)})
		}
		if cond.Value != nil {
			c.addf(path+"/value", "op %s tests values; use eq or ne for one value", cond.Op)
		}
	case OpExists, OpNotExists:
		if cond.Value != nil || len(cond.Values) > 0 {
			c.addf(path, "op %s takes neither value nor values", cond.Op)
		}
	}
	if cond.Question == "" {
		return
	}
	idx, ok := c.qIndex[cond.Question]
	switch {
	case !ok:
		c.addf(path+"/question", "no question has the id %q", cond.Question)
		return
	case idx > lastQuestion:
		c.addf(path+"/question", "must name this question or an earlier one: %q is /questions/%d", cond.Question, idx)
		return
	}
	q := c.def.Questions[idx]
	if !slices.Contains(choiceControlTypes, q.ControlType) {
		return
	}
	ids := make([]string, 0, len(q.Answers))
	for _, o := range q.Answers {
		ids = append(ids, o.ID)
	}
	check := func(p string, v any) {
		if s, ok := v.(string); ok && slices.Contains(ids, s) {
			return
		}
		c.addf(p, "%s is not an option id of question %q (%s)", showValue(v), q.ID, strings.Join(ids, ", "))
	}
	if cond.Value != nil {
		check(path+"/value", cond.Value)
	}
	for k, v := range cond.Values {
		check(jsonPointer(path, "values", k), v)
	}
}

// languages: texts written per language need default_language, and the name must exist in it.
func (c *defChecker) languages() {
	def := c.def
	first := ""
	for _, t := range c.texts() {
		for k := range t.text {
			if k != "" {
				first = t.path
				break
			}
		}
		if first != "" {
			break
		}
	}
	switch {
	case first != "" && def.DefaultLanguage == "":
		c.issues = append(c.issues, defIssue{Path: "/default_language", LineAt: first, Message: fmt.Sprintf("is required because texts are written per language (first at %s)", first)})
	case def.DefaultLanguage != "":
		if !def.Name.Has(def.DefaultLanguage) && !def.Name.Has("") {
			c.addf("/name", "has no text in the default language %q", def.DefaultLanguage)
		}
	case !def.Name.Has(""):
		c.addf("/name", "must not be empty")
	}
}

type textAt struct {
	path string
	text Text
}

// texts lists every text of the definition in document order, with its pointer.
func (c *defChecker) texts() []textAt {
	def := c.def
	var out []textAt
	add := func(path string, t Text) {
		if len(t) > 0 {
			out = append(out, textAt{path, t})
		}
	}
	image := func(path string, img *Image) {
		if img != nil {
			add(path+"/alt", img.Alt)
		}
	}
	options := func(path string, opts []Option) {
		for j, o := range opts {
			add(jsonPointer(path, j, "text"), o.Text)
			image(jsonPointer(path, j, "image"), o.Image)
		}
	}
	add("/name", def.Name)
	add("/description", def.Description)
	if comp := def.Competition; comp != nil {
		add("/competition/prize", comp.Prize)
		add("/competition/terms", comp.Terms)
	}
	for i, l := range def.FooterLinks {
		add(jsonPointer("footer_links", i, "label"), l.Label)
		add(jsonPointer("footer_links", i, "text"), l.Text)
	}
	add("/thank_you/title", def.ThankYou.Title)
	add("/thank_you/message", def.ThankYou.Message)
	for i, q := range def.Questions {
		p := jsonPointer("questions", i)
		add(p+"/text", q.Text)
		add(p+"/descr", q.Descr)
		add(p+"/html", q.HTML)
		image(p+"/image", q.Image)
		options(p+"/answers", q.Answers)
		options(p+"/rows", q.Rows)
		options(p+"/columns", q.Columns)
		options(p+"/scale_answers", q.ScaleAnswers)
		for _, k := range []string{"min", "mid", "max"} {
			add(jsonPointer(p, "scale_labels", k), q.ScaleLabels[k])
		}
	}
	return out
}
