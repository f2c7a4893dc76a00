package campaigns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Payment is a completion to pay: the campaign's reward to the member, once.
type Payment struct {
	Panel         *web.Panel
	ParticipantID string
	CampaignID    string
	Title         string // the campaign's name in the member's language
	RewardMinor   int64
	Currency      string
	Competition   bool
}

// Payer credits a completion inside the engine's transaction (the wallet module), so a
// completion and its payment commit together or not at all.
type Payer func(tx *gorm.DB, p Payment) error

// WelcomeDone records in the member's profile that they completed the welcome campaign.
type WelcomeDone func(ctx context.Context, participantID string) error

// GoResult is the spec's campaign go result: campaign_status, thank_you, action, question,
// progress; with the campaign it belongs to and the member's earlier answer to the question.
type GoResult struct {
	Campaign *Campaign
	Lang     string
	Status   string
	Question *Question // nil on a terminal status
	Answer   any       // the member's stored answer to Question, if any
	Answered int
	Action   string // "dobblk" asks the client to go to the homepage
	// Competition is the member's decision on a completed competition's invitation.
	Competition *CompetitionState
}

// ActionDOBBlock is the go result's action (spec: dobblk) for a member the campaign's
// min_age holds back by their date of birth: no question, and the box offers Go to Homepage.
// It is not a terminal status: a member whose profile gains a date of birth may go on.
const ActionDOBBlock = "dobblk"

// dobField is the profile metadata field holding the member's date of birth (YYYY-MM-DD).
const dobField = "metadata.dateOfBirth"

// dobBlocked tells whether the campaign's min_age holds the member back: their profile has
// no valid date of birth, or they are younger than min_age on the given day.
func dobBlocked(def *Definition, who Audience, now time.Time) bool {
	if def.MinAge <= 0 {
		return false
	}
	s, _ := who.Fields[dobField].(string)
	born, err := time.Parse(time.DateOnly, s)
	if err != nil || born.After(now) {
		return true
	}
	return born.AddDate(def.MinAge, 0, 0).After(now)
}

// errDOBBlocked refuses an answer from a member the campaign's min_age holds back.
func errDOBBlocked(minAge int) error {
	return web.Fail(403, "error.dob_blocked", map[string]any{"Age": minAge}).WithCode(ActionDOBBlock)
}

// Progress is the spec's progress: answered, questions and total as a percent.
func (r *GoResult) Progress() (answered, questions, percent int) {
	questions = len(r.Campaign.Definition.Questions)
	answered = r.Answered
	if IsTerminal(r.Status) || questions == 0 {
		return answered, questions, 100
	}
	return answered, questions, answered * 100 / questions
}

// Errors of the engine that handlers show as 409s.
func errFinished(status string) error {
	e := web.Fail(409, "error.campaign_finished", nil).WithCode("campaign_finished")
	e.Body = map[string]any{"campaign_status": status}
	return e
}

func errNotCurrent() error {
	return web.Fail(409, "error.not_current_question", nil).WithCode("not_current_question")
}

// Go returns where the member is in a campaign, starting it when they may take it and have
// not yet: the first question, their current one after a reload, or their outcome.
func (m *Module) Go(ctx context.Context, panel *web.Panel, who Audience, id string) (*GoResult, error) {
	d, err := m.Load(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	if dobBlocked(&d.Campaign.Definition, who, m.now()) {
		// Held back: nothing starts; the member sees where they are, without a question.
		res, err := m.Peek(ctx, d, who)
		if err != nil {
			return nil, err
		}
		if !IsTerminal(res.Status) {
			res.Question, res.Answer, res.Action = nil, nil, ActionDOBBlock
		}
		return m.withCompetition(ctx, panel, who, res)
	}
	res := &GoResult{Campaign: d.Campaign, Lang: who.Language}
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		p, err := m.startedParticipation(tx, panel, who, d)
		if err != nil {
			return err
		}
		return m.describe(tx, res, p, d.Availability)
	})
	if err != nil {
		return nil, err
	}
	return m.withCompetition(ctx, panel, who, res)
}

// Answer records the member's answer to the current question (body {"answer": VALUE}) and
// returns the next go result: the next question, or the outcome the routing and quotas
// decide. The same answer sent twice (a double click, a retry) advances once.
func (m *Module) Answer(ctx context.Context, panel *web.Panel, who Audience, id, questionID string, body []byte) (*GoResult, error) {
	raw, err := DecodeAnswerBody(body)
	if err != nil {
		return nil, err
	}
	d, err := m.Load(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	def := &d.Campaign.Definition
	qi := questionIndex(def, questionID)
	if qi < 0 {
		return nil, web.NotFound()
	}
	if dobBlocked(def, who, m.now()) {
		return nil, errDOBBlocked(def.MinAge)
	}
	value, err := ValidateAnswer(&def.Questions[qi], raw)
	if err != nil {
		return nil, err
	}
	stored, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("encode answer: %w", err)
	}
	res := &GoResult{Campaign: d.Campaign, Lang: who.Language}
	var completedWelcome bool
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		p, err := m.startedParticipation(tx, panel, who, d)
		if err != nil {
			return err
		}
		// A repeat of an answer already taken (a double click, a retry after a lost
		// response) is not an error: it answers with where the member is now.
		repeat := func() bool {
			var prior Answer
			err := tx.Where("participation_id = ? AND question_id = ?", p.ID, questionID).Take(&prior).Error
			return err == nil && sameJSON(prior.Value, string(stored))
		}
		switch {
		case IsTerminal(p.Status):
			if repeat() {
				return m.describe(tx, res, p, "")
			}
			return errFinished(p.Status)
		case d.Availability != "" && p.Status == StatusStarted:
			// The campaign closed or filled up while the member was in it: their
			// participation ends there, and they see that outcome.
			now := m.now().UTC()
			if err := tx.Model(&Participation{}).Where("id = ?", p.ID).
				Updates(map[string]any{"status": d.Availability, "finished_at": now, "current_question": nil, "updated_at": now}).Error; err != nil {
				return fmt.Errorf("end participation: %w", err)
			}
			p.Status, p.CurrentQuestion = d.Availability, nil
			return m.describe(tx, res, p, "")
		case d.Availability != "":
			return errFinished(d.Availability)
		case currentQuestion(def, p) != questionID:
			if repeat() {
				return m.describe(tx, res, p, "")
			}
			return errNotCurrent()
		}
		now := m.now().UTC()
		a := Answer{ParticipationID: p.ID, QuestionID: questionID, Seq: p.Answered + 1, Value: string(stored), CreatedAt: now, UpdatedAt: now}
		// An answer left from an earlier pass (a skip back) is replaced.
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&a).Error; err != nil {
			return fmt.Errorf("store answer: %w", err)
		}
		// Earlier answers matter to routes and, at the end, to quotas; most answers need neither.
		answers, loaded := map[string]any{questionID: value}, false
		needAll := func() error {
			if loaded {
				return nil
			}
			all, err := loadAnswers(tx, p.ID)
			answers, loaded = all, true
			return err
		}
		if len(def.Questions[qi].Routes) > 0 {
			if err := needAll(); err != nil {
				return err
			}
		}
		set := map[string]any{"answered": p.Answered + 1, "updated_at": now}
		status, next := route(def, qi, answers)
		if status == StatusCompleted && len(def.Quotas) > 0 {
			if err := needAll(); err != nil {
				return err
			}
		}
		if status == StatusCompleted {
			status, err = m.complete(tx, panel, who, d, p, answers, set)
			if err != nil {
				return err
			}
			completedWelcome = status == StatusCompleted && d.Campaign.IsWelcome
		}
		if IsTerminal(status) {
			set["status"], set["finished_at"], set["current_question"] = status, now, nil
		} else {
			set["current_question"] = next
		}
		upd := tx.Model(&Participation{}).Where("id = ? AND answered = ?", p.ID, p.Answered).Updates(set)
		if upd.Error != nil {
			return fmt.Errorf("advance participation: %w", upd.Error)
		}
		if upd.RowsAffected != 1 {
			return errConflict
		}
		p.Answered++
		p.Status = StatusStarted
		if IsTerminal(status) {
			p.Status, p.CurrentQuestion = status, nil
		} else {
			p.CurrentQuestion = &next
		}
		// Routes only go forward, so the next question has no answer yet.
		return m.describeWith(res, p, answers[next])
	})
	if err != nil {
		return nil, err
	}
	if completedWelcome && m.welcomeDone != nil {
		// The spec's welcome rule: once, when a welcome campaign reaches completed.
		if err := m.welcomeDone(ctx, who.ParticipantID); err != nil {
			return nil, err
		}
	}
	return m.withCompetition(ctx, panel, who, res)
}

// route applies the answered question's routing rules: the first rule whose conditions hold
// decides; none, the next question; after the last, completed.
func route(def *Definition, qi int, answers map[string]any) (status, next string) {
	for _, r := range def.Questions[qi].Routes {
		if !matchAll(r.When, nil, answers) {
			continue
		}
		switch r.Then {
		case ThenScreenOut:
			return StatusScreened, ""
		case ThenDisqualify:
			return StatusDisqualified, ""
		case ThenComplete:
			return StatusCompleted, ""
		case ThenSkipTo:
			if questionIndex(def, r.Target) >= 0 {
				return StatusStarted, r.Target
			}
		}
	}
	if qi+1 < len(def.Questions) {
		return StatusStarted, def.Questions[qi+1].ID
	}
	return StatusCompleted, ""
}

// complete counts the complete towards the quotas it matches (quota_full when one of them
// is full) and pays the reward, in the caller's transaction.
func (m *Module) complete(tx *gorm.DB, panel *web.Panel, who Audience, d *Detail, p *Participation, answers map[string]any, set map[string]any) (string, error) {
	var quotas []CampaignQuota
	if err := tx.Where("campaign_id = ?", d.Campaign.ID).Order("quota_id").Find(&quotas).Error; err != nil {
		return "", fmt.Errorf("load quotas: %w", err)
	}
	var counted []string
	for _, q := range quotas {
		if !matchAll(q.Conditions, who.Fields, answers) {
			continue
		}
		// The WHERE makes the count and the check one statement: two last completes can't both fit.
		res := tx.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id = ? AND completes < limit_count", q.CampaignID, q.QuotaID).
			Update("completes", gorm.Expr("completes + 1"))
		if res.Error != nil {
			return "", fmt.Errorf("count quota %s: %w", q.QuotaID, res.Error)
		}
		if res.RowsAffected == 0 {
			// Full: this complete counts towards none of the quotas (the rows counted so far
			// are locked by this transaction, so taking the count back is exact).
			if len(counted) > 0 {
				err := tx.Model(&CampaignQuota{}).Where("campaign_id = ? AND quota_id IN ?", q.CampaignID, counted).
					Update("completes", gorm.Expr("completes - 1")).Error
				if err != nil {
					return "", fmt.Errorf("take back quota counts: %w", err)
				}
			}
			return StatusQuotaFull, refreshQuotaState(tx, d.Campaign.ID)
		}
		counted = append(counted, q.QuotaID)
	}
	if len(counted) > 0 {
		set["quota_id"] = counted[0]
		if err := refreshQuotaState(tx, d.Campaign.ID); err != nil {
			return "", err
		}
	}
	if d.Campaign.RewardMinor > 0 && m.payer != nil {
		err := m.payer(tx, Payment{
			Panel: panel, ParticipantID: who.ParticipantID, CampaignID: d.Campaign.ID, RewardMinor: d.Campaign.RewardMinor,
			Currency: d.Campaign.CurrencyCode, Competition: d.Campaign.IsCompetition,
			Title: d.Campaign.Names.In(who.Language, d.Campaign.DefaultLanguage),
		})
		if err != nil {
			return "", fmt.Errorf("pay campaign %s: %w", d.Campaign.ID, err)
		}
	}
	return StatusCompleted, nil
}

// startedParticipation locks the member's participation, creating it and starting it at the
// first question when the member may take the campaign and has not started.
func (m *Module) startedParticipation(tx *gorm.DB, panel *web.Panel, who Audience, d *Detail) (*Participation, error) {
	now := m.now().UTC()
	p, err := lockParticipation(tx, who.ParticipantID, d.Campaign.ID)
	if err != nil {
		return nil, err
	}
	if p == nil {
		// First visit: create the row (another request may have just done it), then lock it.
		if err := tx.Exec(`INSERT INTO participations (id, panel_id, campaign_id, participant_id, status, created_at, updated_at, answered)
			VALUES (?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (participant_id, campaign_id) DO NOTHING`,
			uuid.NewString(), panel.ID, d.Campaign.ID, who.ParticipantID, StatusNew, now, now).Error; err != nil {
			return nil, fmt.Errorf("open participation: %w", err)
		}
		if p, err = lockParticipation(tx, who.ParticipantID, d.Campaign.ID); err != nil {
			return nil, err
		}
		if p == nil {
			return nil, errConflict
		}
	}
	if p.Status == StatusNew && d.Availability == "" && len(d.Campaign.Definition.Questions) > 0 {
		first := d.Campaign.Definition.Questions[0].ID
		set := map[string]any{"status": StatusStarted, "started_at": now, "current_question": first, "updated_at": now}
		if p.SeenAt == nil {
			set["seen_at"] = now
		}
		if err := tx.Model(&Participation{}).Where("id = ?", p.ID).Updates(set).Error; err != nil {
			return nil, fmt.Errorf("start participation: %w", err)
		}
		p.Status, p.StartedAt, p.CurrentQuestion = StatusStarted, &now, &first
	}
	return p, nil
}

// lockParticipation reads the member's participation and holds it until the transaction
// ends (FOR UPDATE on PostgreSQL; SQLite write transactions begin IMMEDIATE); nil if none.
func lockParticipation(tx *gorm.DB, participantID, campaignID string) (*Participation, error) {
	q := `SELECT * FROM participations WHERE participant_id = ? AND campaign_id = ?`
	if migrations.DialectOf(tx) == migrations.Postgres {
		q += ` FOR UPDATE`
	}
	var p Participation
	if err := tx.Raw(q, participantID, campaignID).Scan(&p).Error; err != nil {
		return nil, fmt.Errorf("lock participation: %w", err)
	}
	if p.ID == "" {
		return nil, nil
	}
	return &p, nil
}

// describeWith fills a go result from a participation whose current answer is known.
func (m *Module) describeWith(res *GoResult, p *Participation, answer any) error {
	res.Status, res.Answered = p.Status, p.Answered
	if IsTerminal(p.Status) {
		return nil
	}
	def := &res.Campaign.Definition
	if qi := questionIndex(def, currentQuestion(def, p)); qi >= 0 {
		res.Question, res.Answer = &def.Questions[qi], answer
	}
	return nil
}

// describe fills a go result from the participation: its outcome, or its current question
// with the member's earlier answer to it.
func (m *Module) describe(tx *gorm.DB, res *GoResult, p *Participation, availability string) error {
	res.Status, res.Answered = p.Status, p.Answered
	switch {
	case IsTerminal(p.Status):
		return nil
	case availability != "":
		res.Status = availability
		return nil
	}
	def := &res.Campaign.Definition
	qi := questionIndex(def, currentQuestion(def, p))
	if qi < 0 {
		return nil
	}
	res.Question = &def.Questions[qi]
	var prior Answer
	err := tx.Where("participation_id = ? AND question_id = ?", p.ID, res.Question.ID).Take(&prior).Error
	if err == nil {
		_ = json.Unmarshal([]byte(prior.Value), &res.Answer)
	} else if !errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("load answer: %w", err)
	}
	return nil
}

// currentQuestion is the question the member answers next: the stored one, or the first
// when a re-import removed it (they carry on from the start); "" when there is none.
func currentQuestion(def *Definition, p *Participation) string {
	if p.CurrentQuestion == nil || len(def.Questions) == 0 {
		return ""
	}
	if questionIndex(def, *p.CurrentQuestion) < 0 {
		return def.Questions[0].ID
	}
	return *p.CurrentQuestion
}

func loadAnswers(tx *gorm.DB, participationID string) (map[string]any, error) {
	var rows []Answer
	if err := tx.Where("participation_id = ?", participationID).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load answers: %w", err)
	}
	out := make(map[string]any, len(rows))
	for _, r := range rows {
		var v any
		if err := json.Unmarshal([]byte(r.Value), &v); err != nil {
			return nil, fmt.Errorf("decode answer %s: %w", r.QuestionID, err)
		}
		out[r.QuestionID] = v
	}
	return out, nil
}

func questionIndex(def *Definition, id string) int {
	for i := range def.Questions {
		if def.Questions[i].ID == id {
			return i
		}
	}
	return -1
}

func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// errConflict is a lost race that a new attempt resolves.
var errConflict = migrations.ErrConflict

// inTx runs fn in a transaction, again when it lost a race to another request of the same
// member (migrations.InTx).
func (m *Module) inTx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return migrations.InTx(ctx, m.db, fn)
}
