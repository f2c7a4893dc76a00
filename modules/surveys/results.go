package surveys

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// What the results (modules/results) read of a campaign's participations and answers: counts
// grouped in the database, pages of responses and of free-text answers by keyset, one
// respondent's answers. Every read is bounded by a ResultsFilter; the results module folds the
// counts into each question's summary.

// Outcomes the results filter by: the terminal statuses a run ends in, and OutcomeAbandoned for
// runs that started and have not ended (abandoned, or still being answered).
const OutcomeAbandoned = "abandoned"

// ResultOutcomes are the outcomes the results show, in their order.
var ResultOutcomes = []string{campaigns.StatusCompleted, campaigns.StatusScreened, campaigns.StatusQuotaFull, campaigns.StatusDisqualified, OutcomeAbandoned}

// ResultsFilter bounds the participations the results read: those of one campaign of one panel
// that started, narrowed by what is set.
type ResultsFilter struct {
	PanelID    string
	CampaignID string
	Outcomes   []string   // ResultOutcomes; empty: every run that started
	From, To   *time.Time // started at or after From, before To
	Language   string     // the language answered in
	QuotaID    string     // the quota a complete counted towards
	Answers    []AnswerMatch
}

// AnswerMatch keeps the runs that chose an option in a choice question (one of several, for a
// multiple choice).
type AnswerMatch struct {
	QuestionID string
	Option     string
}

// where applies the filter to a query of participations under the alias p.
func (f ResultsFilter) where(q *gorm.DB, withOutcome bool) *gorm.DB {
	q = q.Where("p.panel_id = ? AND p.campaign_id = ? AND p.started_at IS NOT NULL", f.PanelID, f.CampaignID)
	if withOutcome && len(f.Outcomes) > 0 {
		statuses := make([]string, 0, len(f.Outcomes))
		for _, o := range f.Outcomes {
			if o == OutcomeAbandoned {
				o = campaigns.StatusStarted
			}
			statuses = append(statuses, o)
		}
		q = q.Where("p.status IN ?", statuses)
	}
	if f.From != nil {
		q = q.Where("p.started_at >= ?", f.From.UTC())
	}
	if f.To != nil {
		q = q.Where("p.started_at < ?", f.To.UTC())
	}
	if f.Language != "" {
		q = q.Where("p.language = ?", f.Language)
	}
	if f.QuotaID != "" {
		q = q.Where("p.quota_id = ?", f.QuotaID)
	}
	for _, m := range f.Answers {
		sql, args := answerExists(m)
		q = q.Where(sql, args...)
	}
	return q
}

// answerExists is the condition on participations p that the run chose an answer's option.
func answerExists(m AnswerMatch) (string, []any) {
	exact, contains := optionPatterns(m.Option)
	return `EXISTS (SELECT 1 FROM answers f WHERE f.participation_id = p.id AND f.question_id = ? AND (f.value = ? OR f.value LIKE ? ESCAPE '\'))`,
		[]any{m.QuestionID, exact, contains}
}

// optionPatterns are an option id as a stored single answer ("a") and as a LIKE pattern for
// an array holding it (["b","a"]): answers are stored as JSON (ARCHITECTURE.md "Answers").
func optionPatterns(option string) (exact, contains string) {
	b, _ := json.Marshal(option)
	exact = string(b)
	return exact, "%" + likeEscaper.Replace(exact) + "%"
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// participationsOf is the module's participations under the alias p.
func (m *Module) participationsOf(ctx context.Context) *gorm.DB {
	return m.db.WithContext(ctx).Table("participations AS p")
}

// OutcomeCounts counts the runs of each status (started: OutcomeAbandoned) within the
// filter but for its outcomes: the overview shows every outcome of what else is chosen.
func (m *Module) OutcomeCounts(ctx context.Context, f ResultsFilter) (map[string]int, error) {
	var rows []struct {
		Status string
		N      int
	}
	if err := f.where(m.participationsOf(ctx), false).Select("p.status, COUNT(*) AS n").Group("p.status").Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("count outcomes of campaign %s: %w", f.CampaignID, err)
	}
	out := map[string]int{}
	for _, r := range rows {
		s := r.Status
		if s == campaigns.StatusStarted {
			s = OutcomeAbandoned
		}
		out[s] += r.N
	}
	return out, nil
}

// startDay is the SQL of the day (UTC, YYYY-MM-DD) a run p started: SQLite keeps a time as
// text that begins with its UTC date (the driver writes every time in UTC); PostgreSQL has a
// timestamp.
func (m *Module) startDay() string {
	if m.db.Dialector.Name() == "postgres" {
		return "to_char(p.started_at, 'YYYY-MM-DD')"
	}
	return "substr(CAST(p.started_at AS TEXT), 1, 10)"
}

// DayCount is how many runs started on a day (UTC, YYYY-MM-DD).
type DayCount struct {
	Day string
	N   int
}

// StartsPerDay counts the filter's runs by the day they started, oldest first.
func (m *Module) StartsPerDay(ctx context.Context, f ResultsFilter) ([]DayCount, error) {
	var rows []DayCount
	day := m.startDay()
	err := f.where(m.participationsOf(ctx), true).Select(day + " AS day, COUNT(*) AS n").Group(day).Order(day).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count starts per day of campaign %s: %w", f.CampaignID, err)
	}
	return rows, nil
}

// CompleteMinutes is the median minutes from start to complete of the filter's completes
// (whatever its outcomes), nil without any.
func (m *Module) CompleteMinutes(ctx context.Context, f ResultsFilter) (*float64, error) {
	var times []struct {
		StartedAt  time.Time
		FinishedAt time.Time
	}
	err := f.where(m.participationsOf(ctx), false).Select("p.started_at, p.finished_at").
		Where("p.status = ? AND p.finished_at IS NOT NULL", campaigns.StatusCompleted).Scan(&times).Error
	if err != nil {
		return nil, fmt.Errorf("complete times of campaign %s: %w", f.CampaignID, err)
	}
	mins := make([]float64, 0, len(times))
	for _, t := range times {
		mins = append(mins, t.FinishedAt.Sub(t.StartedAt).Minutes())
	}
	return median(mins), nil
}

// ValueCount is how many of the filter's runs gave one answer (its stored JSON) to a question.
type ValueCount struct {
	QuestionID string
	Value      string
	N          int
}

// AnswerValueCounts counts the filter's answers to each question by value: the results fold
// them into options, scales and grids. Questions whose answers are mostly unique (free text)
// belong in AnsweredCounts instead.
func (m *Module) AnswerValueCounts(ctx context.Context, f ResultsFilter, questionIDs []string) ([]ValueCount, error) {
	if len(questionIDs) == 0 {
		return nil, nil
	}
	var rows []ValueCount
	err := f.where(m.participationsOf(ctx), true).Joins("JOIN answers a ON a.participation_id = p.id").
		Where("a.question_id IN ?", questionIDs).Select("a.question_id, a.value, COUNT(*) AS n").
		Group("a.question_id, a.value").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count answers of campaign %s: %w", f.CampaignID, err)
	}
	return rows, nil
}

// AnsweredCounts counts the filter's runs that answered each question, by question id.
func (m *Module) AnsweredCounts(ctx context.Context, f ResultsFilter, questionIDs []string) (map[string]int, error) {
	out := map[string]int{}
	if len(questionIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		QuestionID string
		N          int
	}
	err := f.where(m.participationsOf(ctx), true).Joins("JOIN answers a ON a.participation_id = p.id").
		Where("a.question_id IN ?", questionIDs).Select("a.question_id, COUNT(*) AS n").Group("a.question_id").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("count answered questions of campaign %s: %w", f.CampaignID, err)
	}
	for _, r := range rows {
		out[r.QuestionID] = r.N
	}
	return out, nil
}

// CrossCount is how many of the filter's runs gave one answer to the row question and another
// to the column question.
type CrossCount struct {
	Row    string `gorm:"column:row_value"` // stored JSON values
	Column string `gorm:"column:column_value"`
	N      int
}

// CrossCounts counts the filter's runs by their answers to two questions (those that answered
// both).
func (m *Module) CrossCounts(ctx context.Context, f ResultsFilter, rowQuestion, columnQuestion string) ([]CrossCount, error) {
	var rows []CrossCount
	err := f.where(m.participationsOf(ctx), true).
		Joins("JOIN answers r ON r.participation_id = p.id AND r.question_id = ?", rowQuestion).
		Joins("JOIN answers c ON c.participation_id = p.id AND c.question_id = ?", columnQuestion).
		Select("r.value AS row_value, c.value AS column_value, COUNT(*) AS n").Group("r.value, c.value").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("cross-count %s by %s of campaign %s: %w", rowQuestion, columnQuestion, f.CampaignID, err)
	}
	return rows, nil
}

// Cursor is a keyset position: the time and id of the last row of a page. Its text form is
// opaque to operators and safe in a URL.
type Cursor struct {
	At time.Time
	ID string
}

// String is the cursor's text form ("" for none).
func (c *Cursor) String() string {
	if c == nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString([]byte(c.At.UTC().Format(time.RFC3339Nano) + " " + c.ID))
}

// ErrBadCursor is a page position that is not one the results gave.
var ErrBadCursor = errors.New("not a page of these results")

// ParseCursor reads a cursor's text form; "" is none.
func ParseCursor(s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, ErrBadCursor
	}
	at, id, ok := strings.Cut(string(b), " ")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return nil, ErrBadCursor
	}
	return &Cursor{At: t, ID: id}, nil
}

// Page asks for a page of rows newest first: Limit rows after After (older), or, with Before,
// the Limit rows just before it (newer), still given newest first.
type Page struct {
	After  *Cursor
	Before *Cursor
	Limit  int
}

// keyset applies a page to a query ordered by (at, id) newest first, asking one row more than
// the page to tell whether another follows. The position is a row-value comparison, which both
// databases bound an index scan with (an OR of the two columns' tests is only a filter, and
// the pages further down got slower the more rows they skipped).
func (pg Page) keyset(q *gorm.DB, at, id string) *gorm.DB {
	switch {
	case pg.Before != nil:
		q = q.Where("("+at+", "+id+") > (?, ?)", pg.Before.At.UTC(), pg.Before.ID).Order(at + " ASC, " + id + " ASC")
	case pg.After != nil:
		q = q.Where("("+at+", "+id+") < (?, ?)", pg.After.At.UTC(), pg.After.ID).Order(at + " DESC, " + id + " DESC")
	default:
		q = q.Order(at + " DESC, " + id + " DESC")
	}
	return q.Limit(pg.Limit + 1)
}

// pageOf trims a keyset query's rows to the page, newest first, and tells whether rows are
// left beyond it (older, or newer for a Before page).
func pageOf[T any](pg Page, rows []T) ([]T, bool) {
	more := len(rows) > pg.Limit
	if more {
		rows = rows[:pg.Limit]
	}
	if pg.Before != nil {
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
	}
	return rows, more
}

// Response is one participation as the results list it.
type Response struct {
	ID            string
	ParticipantID string
	Status        string
	StartedAt     time.Time
	FinishedAt    *time.Time
	Language      *string
}

// Outcome is the response's outcome among ResultOutcomes (or its status when another).
func (r Response) Outcome() string {
	if r.Status == campaigns.StatusStarted {
		return OutcomeAbandoned
	}
	return r.Status
}

// Cursor is the keyset position of the response.
func (r Response) Cursor() *Cursor { return &Cursor{At: r.StartedAt, ID: r.ID} }

// ResponsesPage is a page of the filter's responses, newest first; More says whether another
// page follows in the direction asked.
type ResponsesPage struct {
	Rows []Response
	More bool
}

// Responses is a page of the filter's responses by start, newest first.
func (m *Module) Responses(ctx context.Context, f ResultsFilter, pg Page) (ResponsesPage, error) {
	var rows []Response
	q := f.where(m.participationsOf(ctx), true).Select("p.id, p.participant_id, p.status, p.started_at, p.finished_at, p.language")
	if err := pg.keyset(q, "p.started_at", "p.id").Scan(&rows).Error; err != nil {
		return ResponsesPage{}, fmt.Errorf("list responses of campaign %s: %w", f.CampaignID, err)
	}
	rows, more := pageOf(pg, rows)
	return ResponsesPage{Rows: rows, More: more}, nil
}

// ResponseAnswer is one stored answer of a response.
type ResponseAnswer struct {
	QuestionID string
	Value      string // the stored JSON
}

// ErrNoResponse is a participation that is not a started run of the campaign.
var ErrNoResponse = fmt.Errorf("%w: no such response", web.ErrNotFound)

// Response is one response of a campaign of a panel, with its answers in the order given.
func (m *Module) Response(ctx context.Context, panelID, campaignID, participationID string) (*Response, []ResponseAnswer, error) {
	var r Response
	err := ResultsFilter{PanelID: panelID, CampaignID: campaignID}.where(m.participationsOf(ctx), false).
		Where("p.id = ?", participationID).Select("p.id, p.participant_id, p.status, p.started_at, p.finished_at, p.language").Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNoResponse
	}
	if err != nil {
		return nil, nil, fmt.Errorf("load response %s: %w", participationID, err)
	}
	var answers []ResponseAnswer
	if err := m.db.WithContext(ctx).Model(&Answer{}).Select("question_id, value").Where("participation_id = ?", r.ID).Order("seq").Scan(&answers).Error; err != nil {
		return nil, nil, fmt.Errorf("load answers of response %s: %w", participationID, err)
	}
	return &r, answers, nil
}

// TextAnswer is one answer to a question as text search and paging read it.
type TextAnswer struct {
	ParticipationID string
	Value           string // the stored JSON
	UpdatedAt       time.Time
}

// Cursor is the keyset position of the answer.
func (a TextAnswer) Cursor() *Cursor { return &Cursor{At: a.UpdatedAt, ID: a.ParticipationID} }

// TextAnswersPage is a page of answers to one question, newest first.
type TextAnswersPage struct {
	Rows []TextAnswer
	More bool
}

// TextAnswers is a page of the filter's answers to one question, newest first; search keeps
// those containing it (any case).
func (m *Module) TextAnswers(ctx context.Context, f ResultsFilter, questionID, search string, pg Page) (TextAnswersPage, error) {
	var rows []TextAnswer
	q := f.where(m.participationsOf(ctx), true).Joins("JOIN answers a ON a.participation_id = p.id AND a.question_id = ?", questionID).
		Select("a.participation_id, a.value, a.updated_at")
	if search = strings.TrimSpace(search); search != "" {
		q = q.Where(`LOWER(a.value) LIKE ? ESCAPE '\'`, "%"+likeEscaper.Replace(strings.ToLower(search))+"%")
	}
	if err := pg.keyset(q, "a.updated_at", "a.participation_id").Scan(&rows).Error; err != nil {
		return TextAnswersPage{}, fmt.Errorf("list answers to %s of campaign %s: %w", questionID, f.CampaignID, err)
	}
	rows, more := pageOf(pg, rows)
	return TextAnswersPage{Rows: rows, More: more}, nil
}

// Erase deletes a closing member's answers and rating comments inside the closing transaction
// (profile.Eraser, wired in app/server.go): what they answered is personal data and leaves
// every result and export with them. Their runs stay, without answers, so that completes and
// quotas keep their counts.
func (m *Module) Erase(ctx context.Context, tx *gorm.DB, participantID string) error {
	if err := m.uncountAnswers(ctx, tx.WithContext(ctx), participantID); err != nil {
		return err
	}
	runs := tx.Model(&Participation{}).Select("id").Where("participant_id = ?", participantID)
	if err := tx.WithContext(ctx).Where("participation_id IN (?)", runs).Delete(&Answer{}).Error; err != nil {
		return fmt.Errorf("erase answers of %s: %w", participantID, err)
	}
	err := tx.WithContext(ctx).Model(&Participation{}).Where("participant_id = ?", participantID).
		Updates(map[string]any{"rating_comment": nil, "language": nil}).Error
	if err != nil {
		return fmt.Errorf("erase rating comments of %s: %w", participantID, err)
	}
	return nil
}

// ResponseWithAnswers is a response and its answers, question id to stored JSON.
type ResponseWithAnswers struct {
	Response
	Answers map[string]string
}

// exportBatch is how many responses EachResponse reads at once: two statements a batch, and
// memory for one batch only however many responses there are.
const exportBatch = 500

// EachResponse calls fn with every response the filter keeps and its answers, oldest first,
// reading them a batch at a time by keyset (exports: constant memory whatever the count). An
// error from fn stops it and is returned.
func (m *Module) EachResponse(ctx context.Context, f ResultsFilter, fn func(ResponseWithAnswers) error) error {
	return m.eachResponse(ctx, f, exportBatch, fn)
}

func (m *Module) eachResponse(ctx context.Context, f ResultsFilter, batch int, fn func(ResponseWithAnswers) error) error {
	var after *Cursor
	for {
		q := f.where(m.participationsOf(ctx), true).Select("p.id, p.participant_id, p.status, p.started_at, p.finished_at, p.language")
		if after != nil {
			q = q.Where("(p.started_at, p.id) > (?, ?)", after.At.UTC(), after.ID)
		}
		var rows []Response
		if err := q.Order("p.started_at ASC, p.id ASC").Limit(batch).Scan(&rows).Error; err != nil {
			return fmt.Errorf("read responses of campaign %s: %w", f.CampaignID, err)
		}
		if len(rows) == 0 {
			return nil
		}
		ids := make([]string, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		var answers []struct {
			ParticipationID string
			QuestionID      string
			Value           string
		}
		if err := m.db.WithContext(ctx).Model(&Answer{}).Select("participation_id, question_id, value").
			Where("participation_id IN ?", ids).Scan(&answers).Error; err != nil {
			return fmt.Errorf("read answers of campaign %s: %w", f.CampaignID, err)
		}
		byRun := make(map[string]map[string]string, len(rows))
		for _, a := range answers {
			if byRun[a.ParticipationID] == nil {
				byRun[a.ParticipationID] = map[string]string{}
			}
			byRun[a.ParticipationID][a.QuestionID] = a.Value
		}
		for _, r := range rows {
			if err := fn(ResponseWithAnswers{Response: r, Answers: byRun[r.ID]}); err != nil {
				return err
			}
		}
		if len(rows) < batch {
			return nil
		}
		after = rows[len(rows)-1].Cursor()
	}
}
