package surveys

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
)

// A walk is a run the caller keeps: the answers so far come with each step, and nothing is
// stored, no quota counts and nothing is paid. An author's preview walks a campaign this way
// (the island keeps the answers), and so does a visitor in onboarding, who is not a member
// yet and has no participation to keep them in.

// Walk is one step of a respondent's walk through a campaign they may take: with no
// questionID, where the walk starts; else their answer to questionID (raw) checked and
// routed with the earlier ones. The audience rule decides whether they may take it, as for a
// member's kept run.
func (m *Module) Walk(ctx context.Context, panel *web.Panel, r Respondent, id, questionID string, raw json.RawMessage, earlier map[string]json.RawMessage) (*GoResult, error) {
	who := r.Person()
	t, err := m.audience.CanTake(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	switch {
	case t.Reason != "" && questionID == "":
		return &GoResult{Campaign: t.Campaign, Lang: who.Language, Status: t.Reason}, nil
	case t.Reason != "":
		return nil, errFinished(t.Reason)
	case t.TooYoung && questionID == "":
		return &GoResult{Campaign: t.Campaign, Lang: who.Language, Status: campaigns.StatusNew, Action: ActionDOBBlock}, nil
	case t.TooYoung:
		return nil, errDOBBlocked(t.Campaign.Definition.MinAge)
	}
	return walk(t.Campaign, who.Language, questionID, raw, earlier)
}

// walk is one step: with no question answered, the first question; else the answer to
// questionID validated and routed with the earlier answers (those that no longer validate
// are left out).
func walk(camp *campaigns.Campaign, lang, questionID string, raw json.RawMessage, earlier map[string]json.RawMessage) (*GoResult, error) {
	def := &camp.Definition
	res := &GoResult{Campaign: camp, Lang: lang, Status: campaigns.StatusStarted}
	if questionID == "" {
		if len(def.Questions) > 0 {
			res.Question = &def.Questions[0]
		}
		return res, nil
	}
	qi := def.QuestionIndex(questionID)
	if qi < 0 {
		return nil, web.NotFound()
	}
	value, err := ValidateAnswer(&def.Questions[qi], raw)
	if err != nil {
		return nil, err
	}
	answers := map[string]any{}
	for id, v := range earlier {
		if i := def.QuestionIndex(id); i >= 0 && id != questionID {
			if ok, err := ValidateAnswer(&def.Questions[i], v); err == nil {
				answers[id] = ok
			}
		}
	}
	answers[questionID] = value
	res.Answered = len(answers)
	status, next := route(def, qi, answers)
	if campaigns.IsTerminal(status) {
		res.Status = status
		return res, nil
	}
	res.Question = &def.Questions[def.QuestionIndex(next)]
	return res, nil
}

// Resume is where a kept walk stands: the first question, then each kept answer (by question
// id) replayed along the routing. An answer the routing no longer asks for is ignored; one that
// no longer validates (the campaign changed) is asked for again. A campaign the respondent may
// not take answers with why not, as Walk does.
func (m *Module) Resume(ctx context.Context, panel *web.Panel, r Respondent, id string, answers map[string]json.RawMessage) (*GoResult, error) {
	res, camp, err := m.walkable(ctx, panel, r, id)
	if err != nil || camp == nil {
		return res, err
	}
	res, _ = replay(camp, res.Lang, answers)
	return res, nil
}

// Step answers questionID of a kept walk that is not finished: the current question, or one
// answered before, whose answer the new one replaces. It returns the step after it and the answers to keep from now
// on (those the routing asks for); a question off the walk's route is a 409, as for a member.
func (m *Module) Step(ctx context.Context, panel *web.Panel, r Respondent, id, questionID string, raw json.RawMessage, answers map[string]json.RawMessage) (*GoResult, map[string]json.RawMessage, error) {
	res, camp, err := m.walkable(ctx, panel, r, id)
	if err != nil {
		return nil, nil, err
	}
	if camp == nil {
		if res.Action == ActionDOBBlock {
			return nil, nil, errDOBBlocked(res.Campaign.Definition.MinAge)
		}
		return nil, nil, errFinished(res.Status)
	}
	def := &camp.Definition
	qi := def.QuestionIndex(questionID)
	if qi < 0 {
		return nil, nil, web.NotFound()
	}
	cur, path := replay(camp, res.Lang, answers)
	switch {
	case campaigns.IsTerminal(cur.Status):
		return nil, nil, errFinished(cur.Status) // a finished walk takes no more answers, as a run
	case !slices.Contains(path, questionID) && (cur.Question == nil || cur.Question.ID != questionID):
		return nil, nil, errNotCurrent()
	}
	if _, err := ValidateAnswer(&def.Questions[qi], raw); err != nil {
		return nil, nil, err
	}
	next := make(map[string]json.RawMessage, len(answers)+1)
	for k, v := range answers {
		next[k] = v
	}
	next[questionID] = raw
	res, path = replay(camp, res.Lang, next)
	kept := make(map[string]json.RawMessage, len(path))
	for _, q := range path {
		kept[q] = next[q]
	}
	return res, kept, nil
}

// walkable is the start of a respondent's walk (camp set), or why they may not take the
// campaign (camp nil: res holds the status or the dobblk action).
func (m *Module) walkable(ctx context.Context, panel *web.Panel, r Respondent, id string) (*GoResult, *campaigns.Campaign, error) {
	who := r.Person()
	t, err := m.audience.CanTake(ctx, panel, who, id)
	if err != nil {
		return nil, nil, err
	}
	res := &GoResult{Campaign: t.Campaign, Lang: who.Language, Status: campaigns.StatusNew}
	switch {
	case t.Reason != "":
		res.Status = t.Reason
		return res, nil, nil
	case t.TooYoung:
		res.Action = ActionDOBBlock
		return res, nil, nil
	}
	return res, t.Campaign, nil
}

// replay walks the kept answers from the first question and returns where they lead and the
// questions answered on the way, in order.
func replay(camp *campaigns.Campaign, lang string, answers map[string]json.RawMessage) (*GoResult, []string) {
	def := &camp.Definition
	res := &GoResult{Campaign: camp, Lang: lang, Status: campaigns.StatusStarted}
	if len(def.Questions) == 0 {
		return res, nil
	}
	res.Question = &def.Questions[0]
	values := map[string]any{}
	var path []string
	for res.Question != nil {
		q := res.Question
		raw, ok := answers[q.ID]
		if !ok {
			break
		}
		v, err := ValidateAnswer(q, raw)
		if err != nil {
			break // asked again
		}
		values[q.ID] = v
		path = append(path, q.ID)
		res.Answered = len(values)
		status, next := route(def, def.QuestionIndex(q.ID), values)
		if campaigns.IsTerminal(status) {
			res.Status, res.Question = status, nil
			break
		}
		if slices.Contains(path, next) {
			break // a route back to an answered question: ask it again rather than loop
		}
		res.Question = &def.Questions[def.QuestionIndex(next)]
	}
	if res.Question != nil {
		if raw, ok := answers[res.Question.ID]; ok {
			var shown any
			if json.Unmarshal(raw, &shown) == nil {
				res.Answer = shown // a refused answer is shown again to be corrected
			}
		}
	}
	return res, path
}

// Adopt records a kept walk's answers (by question id) as the member's own run of the
// campaign, through the engine, so the run is validated, quotas count and a completion is paid
// once: onboarding does this when its visitor becomes a member. It returns the run's status.
// A campaign the member already finished is left as it is, so adopting again changes nothing.
func (m *Module) Adopt(ctx context.Context, panel *web.Panel, r Respondent, id string, answers map[string]json.RawMessage) (string, error) {
	res, err := m.Go(ctx, panel, r, id)
	if err != nil {
		return "", fmt.Errorf("adopt walk of %s: %w", id, err)
	}
	for res.Question != nil && res.Action == "" && !campaigns.IsTerminal(res.Status) {
		qid := res.Question.ID
		raw, ok := answers[qid]
		if !ok {
			break // the walk stopped here: the run waits at this question
		}
		body, err := json.Marshal(map[string]json.RawMessage{"answer": raw})
		if err != nil {
			return "", err
		}
		if res, err = m.Answer(ctx, panel, r, id, qid, body); err != nil {
			return "", fmt.Errorf("adopt answer %s of %s: %w", qid, id, err)
		}
	}
	return res.Status, nil
}
