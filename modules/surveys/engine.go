package surveys

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// GoResult is the spec's campaign go result: campaign_status, thank_you, action, question,
// progress; with the campaign it belongs to and the member's earlier answer to the question.
type GoResult struct {
	Campaign *campaigns.Campaign
	Lang     string
	Status   string
	Question *campaigns.Question // nil on a terminal status
	Answer   any                 // the member's stored answer to Question, if any
	Answered int
	Action   string // "dobblk" asks the client to go to the homepage
	// Competition is the member's decision on a completed competition's invitation.
	Competition *CompetitionState
}

// ActionDOBBlock is the go result's action (spec: dobblk) for a member the campaign's
// min_age holds back by their date of birth: no question, and the box offers Go to Homepage.
// It is not a terminal status: a member whose profile gains a date of birth may go on.
const ActionDOBBlock = "dobblk"

// errDOBBlocked refuses an answer from a member the campaign's min_age holds back.
func errDOBBlocked(minAge int) error {
	return web.Fail(403, "error.dob_blocked", map[string]any{"Age": minAge}).WithCode(ActionDOBBlock)
}

// Progress is the spec's progress: answered, questions and total as a percent.
func (r *GoResult) Progress() (answered, questions, percent int) {
	questions = len(r.Campaign.Definition.Questions)
	answered = r.Answered
	if campaigns.IsTerminal(r.Status) || questions == 0 {
		return answered, questions, 100
	}
	return answered, questions, answered * 100 / questions
}

// errNotMember refuses a kept run to a respondent who is not a member (a visitor walks).
func errNotMember() error { return web.Unauthorized() }

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
func (m *Module) Go(ctx context.Context, panel *web.Panel, r Respondent, id string) (*GoResult, error) {
	who := r.Person()
	if who.ID == "" {
		return nil, errNotMember()
	}
	t, err := m.audience.CanTake(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	if t.TooYoung {
		// Held back: nothing starts; the member sees where they are, without a question.
		res, err := m.peek(ctx, t, who)
		if err != nil {
			return nil, err
		}
		if !campaigns.IsTerminal(res.Status) {
			res.Question, res.Answer, res.Action = nil, nil, ActionDOBBlock
		}
		return m.withCompetition(ctx, panel, who, res)
	}
	if st := t.Listing.Standing.Status; st != nil && *st != campaigns.StatusNew {
		// Started or finished already: go writes nothing, so it reads without a write
		// transaction (on SQLite one would queue behind every member's answer for the lock).
		res, err := m.peek(ctx, t, who)
		if err != nil {
			return nil, err
		}
		return m.withCompetition(ctx, panel, who, res)
	}
	res := &GoResult{Campaign: t.Campaign, Lang: who.Language}
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		p, err := m.startedParticipation(tx, panel, who, t)
		if err != nil {
			return err
		}
		return describe(tx, res, p, t.Reason)
	})
	if err != nil {
		return nil, err
	}
	return m.withCompetition(ctx, panel, who, res)
}

// Answer records the member's answer to the current question (body {"answer": VALUE}) and
// returns the next go result: the next question, or the outcome the routing and quotas
// decide. The same answer sent twice (a double click, a retry) advances once.
func (m *Module) Answer(ctx context.Context, panel *web.Panel, r Respondent, id, questionID string, body []byte) (*GoResult, error) {
	who := r.Person()
	if who.ID == "" {
		return nil, errNotMember()
	}
	raw, err := DecodeAnswerBody(body)
	if err != nil {
		return nil, err
	}
	t, err := m.audience.CanTake(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	def := &t.Campaign.Definition
	qi := def.QuestionIndex(questionID)
	if qi < 0 {
		return nil, web.NotFound()
	}
	if t.TooYoung {
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
	res := &GoResult{Campaign: t.Campaign, Lang: who.Language}
	var completedWelcome bool
	err = m.inTx(ctx, func(tx *gorm.DB) error {
		p, err := m.startedParticipation(tx, panel, who, t)
		if err != nil {
			return err
		}
		// A repeat of an answer already taken (a double click, a retry after a lost
		// response) is not an error: it answers with where the member is now.
		repeat := func() bool {
			prior, err := storedAnswer(tx, p.ID, questionID)
			return err == nil && prior != nil && sameJSON(prior.Value, string(stored))
		}
		switch {
		case campaigns.IsTerminal(p.Status):
			if repeat() {
				return describe(tx, res, p, "")
			}
			return errFinished(p.Status)
		case t.Reason != "" && p.Status == campaigns.StatusStarted:
			// The campaign closed or filled up while the member was in it: their
			// participation ends there, and they see that outcome.
			at := m.now().UTC()
			if err := finishParticipation(tx, p.ID, t.Reason, at); err != nil {
				return err
			}
			if err := m.ended(tx, panel, p, t.Reason, at); err != nil {
				return err
			}
			p.Status, p.CurrentQuestion = t.Reason, nil
			return describe(tx, res, p, "")
		case t.Reason != "":
			return errFinished(t.Reason)
		case currentQuestion(def, p) != questionID:
			if repeat() {
				return describe(tx, res, p, "")
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
		if status == campaigns.StatusCompleted && len(def.Quotas) > 0 {
			if err := needAll(); err != nil {
				return err
			}
		}
		if status == campaigns.StatusCompleted {
			status, err = m.complete(tx, panel, who, t.Campaign, answers, set)
			if err != nil {
				return err
			}
			completedWelcome = status == campaigns.StatusCompleted && t.Campaign.IsWelcome
		}
		if campaigns.IsTerminal(status) {
			set["status"], set["finished_at"], set["current_question"] = status, now, nil
		} else {
			set["current_question"] = next
		}
		if err := advanceParticipation(tx, p, set); err != nil {
			return err
		}
		if campaigns.IsTerminal(status) {
			if err := m.ended(tx, panel, p, status, now); err != nil {
				return err
			}
		}
		p.Answered++
		p.Status = campaigns.StatusStarted
		if campaigns.IsTerminal(status) {
			p.Status, p.CurrentQuestion = status, nil
		} else {
			p.CurrentQuestion = &next
		}
		// Routes only go forward, so the next question has no answer yet.
		describeWith(res, p, answers[next])
		return nil
	})
	if err != nil {
		return nil, err
	}
	if completedWelcome && m.welcomeDone != nil {
		// The spec's welcome rule: once, when a welcome campaign reaches completed.
		if err := m.welcomeDone(ctx, who.ID); err != nil {
			return nil, err
		}
	}
	return m.withCompetition(ctx, panel, who, res)
}

// peek is where the member is in a campaign without starting it: status new before they
// start, else their current question or outcome.
func (m *Module) peek(ctx context.Context, t *campaigns.Taking, who campaigns.Person) (*GoResult, error) {
	res := &GoResult{Campaign: t.Campaign, Lang: who.Language, Status: campaigns.StatusNew}
	p, err := m.store.participation(ctx, who.ID, t.Campaign.ID)
	if err != nil {
		return nil, err
	}
	if p == nil || p.Status == campaigns.StatusNew {
		return res, nil
	}
	reason := t.Reason
	if campaigns.IsTerminal(p.Status) {
		reason = ""
	}
	return res, describe(m.db.WithContext(ctx), res, p, reason)
}

// route applies the answered question's routing rules: the first rule whose conditions hold
// decides; none, the next question; after the last, completed.
func route(def *campaigns.Definition, qi int, answers map[string]any) (status, next string) {
	for _, r := range def.Questions[qi].Routes {
		if !campaigns.MatchAll(r.When, nil, answers) {
			continue
		}
		switch r.Then {
		case campaigns.ThenScreenOut:
			return campaigns.StatusScreened, ""
		case campaigns.ThenDisqualify:
			return campaigns.StatusDisqualified, ""
		case campaigns.ThenComplete:
			return campaigns.StatusCompleted, ""
		case campaigns.ThenSkipTo:
			if def.QuestionIndex(r.Target) >= 0 {
				return campaigns.StatusStarted, r.Target
			}
		}
	}
	if qi+1 < len(def.Questions) {
		return campaigns.StatusStarted, def.Questions[qi+1].ID
	}
	return campaigns.StatusCompleted, ""
}

// complete counts the complete towards the quotas it matches (quota_full when one of them
// is full) and pays the reward, in the caller's transaction.
func (m *Module) complete(tx *gorm.DB, panel *web.Panel, who campaigns.Person, c *campaigns.Campaign, answers map[string]any, set map[string]any) (string, error) {
	if len(c.Definition.Quotas) > 0 {
		quotaID, full, err := m.catalogue.CountComplete(tx, c.ID, who.Fields, answers)
		if err != nil {
			return "", err
		}
		if full {
			return campaigns.StatusQuotaFull, nil
		}
		if quotaID != "" {
			set["quota_id"] = quotaID
		}
	}
	if c.RewardMinor > 0 && m.payer != nil {
		err := m.payer.PayCompletion(tx, Payment{
			Panel: panel, ParticipantID: who.ID, CampaignID: c.ID, RewardMinor: c.RewardMinor,
			Currency: c.CurrencyCode, Competition: c.IsCompetition, Title: c.Names.In(who.Language, c.DefaultLanguage),
		})
		if err != nil {
			return "", fmt.Errorf("pay campaign %s: %w", c.ID, err)
		}
	}
	return campaigns.StatusCompleted, nil
}

// startedParticipation locks the member's participation, creating it and starting it at the
// first question when the member may take the campaign and has not started.
func (m *Module) startedParticipation(tx *gorm.DB, panel *web.Panel, who campaigns.Person, t *campaigns.Taking) (*Participation, error) {
	now := m.now().UTC()
	c := t.Campaign
	p, err := lockParticipation(tx, who.ID, c.ID)
	if err != nil {
		return nil, err
	}
	if p == nil {
		// First visit: create the row (another request may have just done it), then lock it.
		if err := openParticipation(tx, panel.ID, c.ID, who.ID, now); err != nil {
			return nil, err
		}
		if p, err = lockParticipation(tx, who.ID, c.ID); err != nil {
			return nil, err
		}
		if p == nil {
			return nil, errConflict
		}
	}
	if p.Status == campaigns.StatusNew && t.Reason == "" && len(c.Definition.Questions) > 0 {
		first := c.Definition.Questions[0].ID
		set := map[string]any{"status": campaigns.StatusStarted, "started_at": now, "current_question": first, "updated_at": now, "language": who.Language}
		if p.SeenAt == nil {
			set["seen_at"] = now
		}
		if err := tx.Model(&Participation{}).Where("id = ?", p.ID).Updates(set).Error; err != nil {
			return nil, fmt.Errorf("start participation: %w", err)
		}
		p.Status, p.StartedAt, p.CurrentQuestion = campaigns.StatusStarted, &now, &first
	}
	return p, nil
}

// describeWith fills a go result from a participation whose current answer is known.
func describeWith(res *GoResult, p *Participation, answer any) {
	res.Status, res.Answered = p.Status, p.Answered
	if campaigns.IsTerminal(p.Status) {
		return
	}
	def := &res.Campaign.Definition
	if qi := def.QuestionIndex(currentQuestion(def, p)); qi >= 0 {
		res.Question, res.Answer = &def.Questions[qi], answer
	}
}

// describe fills a go result from the participation: its outcome, or its current question
// with the member's earlier answer to it. reason is the audience rule's, which a run not over
// yet ends in.
func describe(tx *gorm.DB, res *GoResult, p *Participation, reason string) error {
	res.Status, res.Answered = p.Status, p.Answered
	switch {
	case campaigns.IsTerminal(p.Status):
		return nil
	case reason != "":
		res.Status = reason
		return nil
	}
	def := &res.Campaign.Definition
	qi := def.QuestionIndex(currentQuestion(def, p))
	if qi < 0 {
		return nil
	}
	res.Question = &def.Questions[qi]
	prior, err := storedAnswer(tx, p.ID, res.Question.ID)
	if err != nil {
		return err
	}
	if prior != nil {
		_ = json.Unmarshal([]byte(prior.Value), &res.Answer)
	}
	return nil
}

// currentQuestion is the question the member answers next: the stored one, or the first
// when a re-import removed it (they carry on from the start); "" when there is none.
func currentQuestion(def *campaigns.Definition, p *Participation) string {
	if p.CurrentQuestion == nil || len(def.Questions) == 0 {
		return ""
	}
	if def.QuestionIndex(*p.CurrentQuestion) < 0 {
		return def.Questions[0].ID
	}
	return *p.CurrentQuestion
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
