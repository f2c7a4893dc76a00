package surveys

import (
	"context"
	"encoding/json"

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
