// Package resultviews renders a campaign's results in the operator console (issue 34): the
// summary (outcomes, responses per day, each question's result as an SVG chart with its numbers
// in a table beside it, a cross-tab), the responses table and one respondent's answers. Every
// string is ready to show: modules/results counts, formats and translates.
package resultviews

// Choice is one option of a filter's select (or a checkbox), and whether it is chosen.
type Choice struct {
	Value    string
	Label    string
	Selected bool
}

// Filter is the filter form every results page shows (a GET form: it works without
// JavaScript and its address can be shared). Query is the chosen filter as a query string
// ("outcome=completed&from=…", "" for none), carried into the pages' links and exports.
type Filter struct {
	Outcomes  []Choice // completed (the default), screened, quota_full, disqualified, abandoned, all
	From, To  string   // YYYY-MM-DD or ""
	Languages []Choice // "" (any) first
	Quotas    []Choice // "" (any) first; empty: the campaign has no quotas
	Answers   []Choice // "" (none) first, then "QUESTION_ID=OPTION_ID" per option of each choice question
	Active    []string // the chosen filters in words, e.g. "Question 2: Yes"; empty: none
	Query     string
	Error     string // a refused filter (e.g. a bad date), shown above the form
}

// Bar is one bar of a chart and its row in the table beside it.
type Bar struct {
	Code      string  // a stable id (option id, outcome, value) for tests and data attributes
	Label     string  // what the bar stands for
	Count     int     // people
	Share     float64 // 0..1: the bar's length
	ShareText string  // "42 %"
}

// Day is one day of the responses-per-day chart.
type Day struct {
	Date  string // YYYY-MM-DD
	Label string // the date as the operator reads it
	Count int
}

// Stat is one figure beside a chart: "Mean" "3.4".
type Stat struct {
	Label string
	Value string
}

// Overview is the head of the summary: the responses the filter matches, by outcome, and when.
type Overview struct {
	Responses      int
	Outcomes       []Bar // completed, screened, quota full, disqualified, abandoned
	CompletionRate string
	MedianMinutes  string // of completes; "—" without any
	PerDay         []Day  // oldest first, every day between the first and the last (zeros included)
}

// Question kinds: the form a question's result takes.
const (
	KindChoice  = "choice"  // one option each: count and share per option
	KindMulti   = "multi"   // several options each: count and share of respondents per option
	KindScale   = "scale"   // a distribution of values with mean and median
	KindNPS     = "nps"     // 0-10: promoters, passives, detractors and the score, plus the distribution
	KindGrid    = "grid"    // row × column shares
	KindRanking = "ranking" // average rank per item (lower is better)
	KindMaxDiff = "maxdiff" // best - worst count per item (may be negative)
	KindText    = "text"    // the answers themselves, newest first, searchable, paged
	KindRecord  = "record"  // what other controls record (location, video, date): counted like options
)

// Question is one question's result.
type Question struct {
	N            int    // 1-based position in the campaign
	ID           string // the question's id
	Text         string // in Lang
	Lang         string
	Control      string // the control type (radio, likert, …)
	ControlLabel string // the control in words
	Kind         string
	Answered     int // respondents who answered it (within the filter)
	Note         string
	Bars         []Bar  // choice, multi, scale, nps (distribution), record
	Stats        []Stat // scale: mean, median (and more where they help)
	NPS          *NPS
	Grid         *Grid
	Items        []Item // ranking, maxdiff
	Texts        *Texts
}

// NPS is a 0-10 scale read as net promoter score.
type NPS struct {
	Promoters, Passives, Detractors Bar
	Score                           string // -100..100
}

// Grid is a grid question's row × column table of shares, or a cross-tab.
type Grid struct {
	Columns []string // column labels
	Rows    []GridRow
	Totals  []int // per column (a cross-tab's column totals); nil for a grid
}

// GridRow is one row: its label and a cell per column.
type GridRow struct {
	Label string
	N     int // respondents in the row
	Cells []Cell
}

// Cell is a count and its share: of the row's respondents in a grid, of the column's in a cross-tab.
type Cell struct {
	Count     int
	Share     float64 // 0..1, shades the cell
	ShareText string
}

// Item is one item of a ranking or a MaxDiff.
type Item struct {
	Label     string
	Value     float64 // average rank (ranking) or best - worst (maxdiff)
	ValueText string
	Detail    string // e.g. "best 40, worst 12"
}

// Texts are the free-text answers of a page, newest first.
type Texts struct {
	Answers []TextAnswer
	Search  string // the search in force
	Next    string // the next page's address; "" on the last page
	First   string // the first page's address; "" on the first page
}

// TextAnswer is one free-text answer.
type TextAnswer struct {
	Text string
	When string
}

// CrossTab is one question (rows) by a single-choice question (columns): counts and column shares.
type CrossTab struct {
	Row, Column string // the two questions' texts
	Grid        Grid
}

// CrossForm picks a cross-tab's two questions.
type CrossForm struct {
	Rows    []Choice // any question with options ("" none first)
	Columns []Choice // single-choice questions ("" none first)
}

// Head is what every results page shows above its content.
type Head struct {
	Email      string // the operator
	PanelKey   string
	CampaignID string
	Name       string // the campaign's name in Lang
	Lang       string
}

// SummaryProps is the summary page.
type SummaryProps struct {
	Head
	Filter    Filter
	Overview  Overview
	Questions []Question
	CrossForm CrossForm
	CrossTab  *CrossTab // nil: none chosen
	Exports   Exports   // the export section's forms and the campaign's recent export jobs
}

// ResponsesProps is the responses table: one row per participation, newest first.
type ResponsesProps struct {
	Head
	Filter Filter
	Rows   []ResponseRow
	Next   string // the next page's address; "" on the last page
	First  string // the first page's address; "" on the first page
}

// ResponseRow is one participation.
type ResponseRow struct {
	ID           string // the participation's id (its page)
	Member       string // the member's public id
	Outcome      string // the status code
	OutcomeLabel string
	Started      string
	Finished     string // "—" when not finished
	Language     string
}

// ResponseProps is one respondent's answers in question order.
type ResponseProps struct {
	Head
	Row     ResponseRow
	Answers []AnswerRow
	Back    string // the responses table with the filter it was opened from
}

// AnswerRow is one question and what the respondent answered, in words.
type AnswerRow struct {
	N        int
	Question string
	Answer   string // "—" when not answered
}

// TextProps is every answer to one free-text question (within the filter), newest first,
// searchable and paged.
type TextProps struct {
	Head
	Filter   Filter
	Question Question // Kind text, with Texts filled
	Back     string   // the summary with the same filter
}
