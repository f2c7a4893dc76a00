package surveys

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Counted results (result_counts, migration 00035): what a large campaign's summary needs,
// kept so that the summary reads a few hundred rows instead of every answer. Counted, for a
// campaign:
//   - outcome: runs that ended, by status (runs still started are counted live: an index count);
//   - day, minutes: completes by the day they started and by their duration (6-second steps);
//   - answer: completes' answers by question and stored value (free text as "": answered);
//
// each for all runs (by_question "") and again by each answer a run gave to a choice question
// one may filter by (by_question, by_value). The counts hold the runs that ended before the
// campaign's counted_through; a summary first moves that mark to countLag ago, counting the
// runs that ended in between in one statement, then adds the runs that ended since (read live,
// the same way). Nothing is written while members answer: counting each run as it ended made
// the answer that ends a run 60-100 % slower, and queuing it for counting (one small insert)
// still 15 % slower on PostgreSQL (benchstat, BenchmarkAnswerSubmit).

// countShards spread a campaign's hottest figures (its started and completed runs) over rows,
// so that members starting and ending the same campaign at once do not queue on one row.
const countShards = 8

// minuteStep is the duration step of the minutes figure: a tenth of a minute, the precision
// the summary shows.
const minuteStep = 6 // seconds

// countKinds of result_counts.
const (
	countOutcome = "outcome"
	countDay     = "day"
	countMinutes = "minutes"
	countAnswer  = "answer"
)

// filterableControls are the choice questions results filter by (one option each, or several).
var filterableControls = []string{campaigns.ControlRadio, campaigns.ControlDropdown, campaigns.ControlLikeDislike, campaigns.ControlImageSelect,
	campaigns.ControlCheckbox, campaigns.ControlMultiImage}

// FilterableControl tells whether results may filter by the answers to a question of this control.
func FilterableControl(control string) bool { return slices.Contains(filterableControls, control) }

// textControls' answers are counted as answered, not by value (each is its own).
func textControl(control string) bool {
	return control == campaigns.ControlText || control == campaigns.ControlTextArea
}

// questionsOf are a campaign's free-text and filterable questions' ids ("" stands for none, so
// that IN () is never empty).
func questionsOf(def *campaigns.Definition) (texts, filterable []string) {
	texts, filterable = []string{""}, []string{""}
	for _, q := range def.Questions {
		switch {
		case textControl(q.ControlType):
			texts = append(texts, q.ID)
		case FilterableControl(q.ControlType):
			filterable = append(filterable, q.ID)
		}
	}
	return texts, filterable
}

// countParts say what a count statement adds: the runs' own figures (outcome, day, minutes,
// for all runs), and what their answers make (every figure by answer, and answers themselves).
type countParts struct {
	own, answers bool
}

// countSelect is what the runs runsSQL selects (a subquery of participation ids, with its args)
// contribute to the counts, as rows (by_question, kind, by_value, question_id, value, n).
func (m *Module) countSelect(def *campaigns.Definition, runsSQL string, runsArgs []any, parts countParts) (string, []any) {
	texts, filterable := questionsOf(def)
	day := m.startDay()
	minutes := `CAST(CAST((julianday(substr(p.finished_at, 1, instr(p.finished_at || ' +', ' +') - 1)) - julianday(substr(p.started_at, 1, instr(p.started_at || ' +', ' +') - 1))) * 86400 / ` + strconv.Itoa(minuteStep) + ` AS INTEGER) AS TEXT)`
	if m.db.Dialector.Name() == "postgres" {
		minutes = `CAST(CAST(FLOOR(EXTRACT(EPOCH FROM (p.finished_at - p.started_at)) / ` + strconv.Itoa(minuteStep) + `) AS BIGINT) AS TEXT)`
	}
	value := "CASE WHEN a.question_id IN ? THEN '' ELSE a.value END"
	var branches []string
	var args []any
	add := func(sql string, a ...any) {
		branches = append(branches, sql)
		args = append(args, a...)
	}
	runs := "IN (" + runsSQL + ")"
	if parts.own {
		add(`SELECT '' AS by_question, '`+countOutcome+`' AS kind, '' AS by_value, '' AS question_id, p.status AS value, 1 AS n
			FROM participations p WHERE p.id `+runs+` AND p.status <> ?`, append(slices.Clone(runsArgs), campaigns.StatusStarted)...)
		add(`SELECT '', '`+countDay+`', '', '', `+day+`, 1 FROM participations p WHERE p.id `+runs+` AND p.status = ?`, append(slices.Clone(runsArgs), campaigns.StatusCompleted)...)
		add(`SELECT '', '`+countMinutes+`', '', '', `+minutes+`, 1 FROM participations p WHERE p.id `+runs+` AND p.status = ? AND p.finished_at IS NOT NULL`,
			append(slices.Clone(runsArgs), campaigns.StatusCompleted)...)
	}
	if parts.answers {
		completedAnswers := `FROM answers a JOIN participations p ON p.id = a.participation_id WHERE a.participation_id ` + runs + ` AND p.status = ?`
		add(`SELECT '' AS by_question, '`+countAnswer+`' AS kind, '' AS by_value, a.question_id AS question_id, `+value+` AS value, 1 AS n `+completedAnswers, append(append([]any{texts}, runsArgs...), campaigns.StatusCompleted)...)
		byAnswer := `FROM answers f JOIN participations p ON p.id = f.participation_id WHERE f.participation_id ` + runs + ` AND f.question_id IN ?`
		add(`SELECT f.question_id, '`+countOutcome+`', f.value, '', p.status, 1 `+byAnswer+` AND p.status <> ?`,
			append(append(slices.Clone(runsArgs), filterable), campaigns.StatusStarted)...)
		add(`SELECT f.question_id, '`+countDay+`', f.value, '', `+day+`, 1 `+byAnswer+` AND p.status = ?`,
			append(append(slices.Clone(runsArgs), filterable), campaigns.StatusCompleted)...)
		add(`SELECT f.question_id, '`+countMinutes+`', f.value, '', `+minutes+`, 1 `+byAnswer+` AND p.status = ? AND p.finished_at IS NOT NULL`,
			append(append(slices.Clone(runsArgs), filterable), campaigns.StatusCompleted)...)
		add(`SELECT f.question_id, '`+countAnswer+`', f.value, a.question_id, `+value+`, 1
			FROM answers f JOIN answers a ON a.participation_id = f.participation_id JOIN participations p ON p.id = f.participation_id
			WHERE f.participation_id `+runs+` AND f.question_id IN ? AND p.status = ?`,
			append(append(append([]any{texts}, runsArgs...), filterable), campaigns.StatusCompleted)...)
	}
	sql := `SELECT x.by_question AS by_question, x.kind AS kind, x.by_value AS by_value, x.question_id AS question_id, x.value AS value, SUM(x.n) AS n
		FROM (` + strings.Join(branches, "\nUNION ALL\n") + `) x
		WHERE x.value IS NOT NULL
		GROUP BY x.by_question, x.kind, x.by_value, x.question_id, x.value`
	return sql, args
}

// countStatement adds sign × what the runs runsSQL selects contribute to the campaign's counts.
func (m *Module) countStatement(def *campaigns.Definition, campaignID string, runsSQL string, runsArgs []any, sign int, parts countParts) (string, []any) {
	sel, args := m.countSelect(def, runsSQL, runsArgs, parts)
	sql := `INSERT INTO result_counts (campaign_id, by_question, kind, by_value, question_id, value, shard, n)
		SELECT CAST(? AS TEXT), y.by_question, y.kind, y.by_value, y.question_id, y.value, CAST(? AS INTEGER), y.n * CAST(? AS BIGINT)
		FROM (` + sel + `) y WHERE true
		ON CONFLICT (campaign_id, by_question, kind, by_value, question_id, value, shard) DO UPDATE SET n = result_counts.n + excluded.n`
	return sql, append([]any{campaignID, rand.IntN(countShards), sign}, args...)
}

// countLag is how long ago a run must have ended to be counted: far longer than the engine's
// transaction that ends it takes to commit, and than the clocks of the processes that write
// finished_at and move the mark may drift apart under NTP, so no run commits behind the mark.
// The runs of the last countLag are read live (a few thousand on a busy campaign).
const countLag = 5 * time.Minute

// endedRuns selects a campaign's runs that ended in [from, to) (from nil: since the start).
func endedRuns(campaignID string, from *time.Time, to *time.Time) (string, []any) {
	sql := "SELECT r.id FROM participations r WHERE r.campaign_id = ? AND r.status <> ? AND r.started_at IS NOT NULL AND r.finished_at IS NOT NULL"
	args := []any{campaignID, campaigns.StatusStarted}
	if from != nil {
		sql += " AND r.finished_at >= ?"
		args = append(args, from.UTC())
	}
	if to != nil {
		sql += " AND r.finished_at < ?"
		args = append(args, to.UTC())
	}
	return sql, args
}

// countEnded moves the campaign's mark to countLag ago, counting the runs that ended in between,
// in one transaction, and gives the mark. Summaries at once take turns on the mark's row.
func (m *Module) countEnded(ctx context.Context, c *campaigns.Campaign) (time.Time, error) {
	to := m.now().UTC().Add(-countLag)
	err := m.inTx(ctx, func(tx *gorm.DB) error {
		// The mark's row exists (its write takes SQLite's lock first), then is locked.
		mark := ResultCountsThrough{CampaignID: c.ID, CountedThrough: time.Unix(0, 0).UTC()}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&mark).Error; err != nil {
			return fmt.Errorf("count ended runs of %s: %w", c.ID, err)
		}
		q := tx.Where("campaign_id = ?", c.ID)
		if tx.Dialector.Name() == "postgres" {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&mark).Error; err != nil {
			return fmt.Errorf("count ended runs of %s: %w", c.ID, err)
		}
		from := mark.CountedThrough.UTC()
		if !to.After(from) {
			to = from
			return nil
		}
		runs, runsArgs := endedRuns(c.ID, &from, &to)
		sql, args := m.countStatement(&c.Definition, c.ID, runs, runsArgs, 1, countParts{own: true, answers: true})
		if err := tx.Exec(sql, args...).Error; err != nil {
			return fmt.Errorf("count ended runs of %s: %w", c.ID, err)
		}
		if err := tx.Model(&ResultCountsThrough{}).Where("campaign_id = ?", c.ID).Update("counted_through", to).Error; err != nil {
			return fmt.Errorf("count ended runs of %s: %w", c.ID, err)
		}
		return nil
	})
	return to, err
}

// forgetCounts drops a campaign's counts and mark: its next summary counts every run again.
func forgetCounts(tx *gorm.DB, campaignID string) error {
	if err := tx.Where("campaign_id = ?", campaignID).Delete(&ResultCount{}).Error; err != nil {
		return fmt.Errorf("forget the counts of %s: %w", campaignID, err)
	}
	if err := tx.Where("campaign_id = ?", campaignID).Delete(&ResultCountsThrough{}).Error; err != nil {
		return fmt.Errorf("forget the counts of %s: %w", campaignID, err)
	}
	return nil
}

// uncountAnswers takes away what a closing member's answers added to the counts of the
// campaigns they ran (their answers are about to be erased; their runs, and so outcomes, days
// and durations, stay), in the closing transaction. Runs not counted yet are counted later,
// without their answers.
func (m *Module) uncountAnswers(ctx context.Context, tx *gorm.DB, participantID string) error {
	var runs []struct {
		PanelID    string
		CampaignID string
	}
	err := tx.Table("participations AS r").Distinct("r.panel_id", "r.campaign_id").
		Joins("JOIN result_counts_through t ON t.campaign_id = r.campaign_id AND r.finished_at < t.counted_through").
		Where("r.participant_id = ? AND r.status <> ?", participantID, campaigns.StatusStarted).Scan(&runs).Error
	if err != nil {
		return fmt.Errorf("counted runs of %s: %w", participantID, err)
	}
	for _, r := range runs {
		c, err := m.catalogue.Campaign(ctx, &web.Panel{ID: r.PanelID}, r.CampaignID)
		if err != nil {
			return fmt.Errorf("counted runs of %s: campaign %s: %w", participantID, r.CampaignID, err)
		}
		sql, args := m.countStatement(&c.Definition, c.ID, `SELECT r.id FROM participations r JOIN result_counts_through t ON t.campaign_id = r.campaign_id
			WHERE r.campaign_id = ? AND r.participant_id = ? AND r.status <> ? AND r.finished_at < t.counted_through`,
			[]any{c.ID, participantID, campaigns.StatusStarted}, -1, countParts{answers: true})
		if err := tx.Exec(sql, args...).Error; err != nil {
			return fmt.Errorf("take %s's answers from the counts of %s: %w", participantID, c.ID, err)
		}
	}
	return nil
}

// recount forgets a campaign's counts and counts every ended run again (a repair, and the
// tests' proof that counting along the way and at once agree).
func (m *Module) recount(ctx context.Context, c *campaigns.Campaign) error {
	if err := m.inTx(ctx, func(tx *gorm.DB) error { return forgetCounts(tx, c.ID) }); err != nil {
		return err
	}
	_, err := m.countEnded(ctx, c)
	return err
}

// CountedResults are a campaign's counted figures for its completes, all of them or those that
// gave one answer: the same as the live reads give for that filter (within a tenth of a minute
// for the median).
type CountedResults struct {
	Outcomes      map[string]int // by status (OutcomeAbandoned for started)
	Days          []DayCount
	MedianMinutes *float64
	Values        []ValueCount // completes' answers; free text as "" (answered)
}

// Counted reads a campaign's counted results for its completes, by one answer when by is not
// nil, counting the campaign first if its counts are not ready.
func (m *Module) Counted(ctx context.Context, c *campaigns.Campaign, by *AnswerMatch) (*CountedResults, error) {
	mark, err := m.countEnded(ctx, c)
	if err != nil {
		return nil, err
	}
	byQuestion := ""
	if by != nil {
		byQuestion = by.QuestionID
	}
	var rows []ResultCount
	err = m.db.WithContext(ctx).Model(&ResultCount{}).Select("kind, by_value, question_id, value, SUM(n) AS n").
		Where("campaign_id = ? AND by_question = ?", c.ID, byQuestion).Group("kind, by_value, question_id, value").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("counted results of %s: %w", c.ID, err)
	}
	// The runs that ended after the mark, read the same way.
	runs, runsArgs := endedRuns(c.ID, &mark, nil)
	sel, args := m.countSelect(&c.Definition, runs, runsArgs, countParts{own: true, answers: true})
	var recent []ResultCount
	err = m.db.WithContext(ctx).Raw("SELECT z.kind, z.by_value, z.question_id, z.value, z.n FROM ("+sel+") z WHERE z.by_question = ?", append(args, byQuestion)...).Scan(&recent).Error
	if err != nil {
		return nil, fmt.Errorf("counted results of %s: its latest runs: %w", c.ID, err)
	}
	rows = append(rows, recent...)
	out := &CountedResults{Outcomes: map[string]int{}}
	days := map[string]int{}
	var durations []weightedSeconds
	values := map[[2]string]int{}
	for _, r := range rows {
		if r.N == 0 || (by != nil && !chose(r.ByValue, by.Option)) {
			continue
		}
		n := int(r.N)
		switch r.Kind {
		case countOutcome:
			s := r.Value
			if s == campaigns.StatusStarted {
				s = OutcomeAbandoned
			}
			out.Outcomes[s] += n
		case countDay:
			days[r.Value] += n
		case countMinutes:
			step, err := strconv.Atoi(r.Value)
			if err == nil {
				durations = append(durations, weightedSeconds{step, n})
			}
		case countAnswer:
			values[[2]string{r.QuestionID, r.Value}] += n
		}
	}
	// Runs still started are counted here, not kept: they come and go with every start and
	// end, and the campaign's status index counts them (by answer, they are few to look at).
	var started int64
	q := m.db.WithContext(ctx).Table("participations AS p").Where("p.campaign_id = ? AND p.status = ?", c.ID, campaigns.StatusStarted)
	if by != nil {
		chose, args := answerExists(*by)
		q = q.Where(chose, args...)
	}
	if err := q.Count(&started).Error; err != nil {
		return nil, fmt.Errorf("counted results of %s: %w", c.ID, err)
	}
	if started > 0 {
		out.Outcomes[OutcomeAbandoned] = int(started)
	}
	for d, n := range days {
		out.Days = append(out.Days, DayCount{Day: d, N: n})
	}
	sort.Slice(out.Days, func(i, j int) bool { return out.Days[i].Day < out.Days[j].Day })
	out.MedianMinutes = medianSteps(durations)
	for k, n := range values {
		out.Values = append(out.Values, ValueCount{QuestionID: k[0], Value: k[1], N: n})
	}
	sort.Slice(out.Values, func(i, j int) bool {
		if out.Values[i].QuestionID != out.Values[j].QuestionID {
			return out.Values[i].QuestionID < out.Values[j].QuestionID
		}
		return out.Values[i].Value < out.Values[j].Value
	})
	return out, nil
}

// chose tells whether a stored answer (one option, or several) holds the option.
func chose(stored, option string) bool {
	var one string
	if json.Unmarshal([]byte(stored), &one) == nil {
		return one == option
	}
	var many []string
	return json.Unmarshal([]byte(stored), &many) == nil && slices.Contains(many, option)
}

// weightedSeconds is a duration step (minuteStep seconds each) given by n completes.
type weightedSeconds struct{ step, n int }

// medianSteps is the median duration in minutes, to a tenth (a step's middle), nil for none.
func medianSteps(ws []weightedSeconds) *float64 {
	sort.Slice(ws, func(i, j int) bool { return ws[i].step < ws[j].step })
	total := 0
	for _, w := range ws {
		total += w.n
	}
	if total == 0 {
		return nil
	}
	at := func(k int) float64 {
		for _, w := range ws {
			if k < w.n {
				return (float64(w.step) + 0.5) * minuteStep / 60
			}
			k -= w.n
		}
		return 0
	}
	mid := at(total / 2)
	if total%2 == 0 {
		mid = (at(total/2-1) + mid) / 2
	}
	mid = math.Round(mid*10) / 10
	return &mid
}

// CountedCross is the cross-tab of a campaign's completes from its counts (and the last
// minute's runs, live): their answers to rowQuestion by their answers to columnQuestion, a
// question one may filter by.
func (m *Module) CountedCross(ctx context.Context, c *campaigns.Campaign, rowQuestion, columnQuestion string) ([]CrossCount, error) {
	mark, err := m.countEnded(ctx, c)
	if err != nil {
		return nil, err
	}
	runs, runsArgs := endedRuns(c.ID, &mark, nil)
	sel, args := m.countSelect(&c.Definition, runs, runsArgs, countParts{answers: true})
	var rows []CrossCount
	err = m.db.WithContext(ctx).Raw(`SELECT u.value AS row_value, u.by_value AS column_value, SUM(u.n) AS n FROM (
			SELECT value, by_value, n FROM result_counts WHERE campaign_id = ? AND by_question = ? AND kind = ? AND question_id = ?
			UNION ALL
			SELECT z.value, z.by_value, z.n FROM (`+sel+`) z WHERE z.by_question = ? AND z.kind = ? AND z.question_id = ?
		) u GROUP BY u.value, u.by_value HAVING SUM(u.n) <> 0`,
		append(append([]any{c.ID, columnQuestion, countAnswer, rowQuestion}, args...), columnQuestion, countAnswer, rowQuestion)...).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("counted cross-tab of %s: %w", c.ID, err)
	}
	return rows, nil
}
