package surveys

import (
	"encoding/json"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/surveys"
	"github.com/gofiber/fiber/v3"
)

// WalkBox is the survey box of a walk another module keeps (onboarding keeps a visitor's
// answers until they become a member): the same island and plain forms as a member's run,
// with the keeper's addresses, no rating and no balance.
type WalkBox struct {
	// Base is where the plain form posts (Base/answer); APIBase is where the island asks:
	// GET APIBase/go and POST APIBase/{qid}, bodies and replies in {data} envelopes (the shape of
	// the panel host's onboarding API).
	Base, APIBase string
	// LeaveHref and LeaveLabel are the thank-you button.
	LeaveHref, LeaveLabel string
	// FormError and Submitted show a refused plain-form answer again (AnswerForm).
	FormError string
	Submitted *view.QuestionView
}

func (w *WalkBox) adjust(p *view.SurveyProps) {
	p.Base, p.BackHref, p.BackLabel, p.Error = w.Base, w.LeaveHref, w.LeaveLabel, w.FormError
	p.Island["apiBase"] = w.APIBase
	p.Island["leave"] = map[string]string{"href": w.LeaveHref, "label": w.LeaveLabel}
	p.Island["walk"] = true // that API's shape; the island offers no rating and asks for no balance
}

// RenderWalk renders the survey box for a step of a walk (Walk's result).
func (m *Module) RenderWalk(c fiber.Ctx, r *GoResult, status int, w WalkBox) error {
	return m.renderBox(c, r, status, w.FormError, w.Submitted, "", "", &w)
}

// AnswerForm reads a plain form's answer to a question of the campaign: the question's id,
// the answer body as the API takes it ({"answer": VALUE}) and what was submitted, to show
// again if it is refused. An unknown question is a 400.
func AnswerForm(c fiber.Ctx, camp *campaigns.Campaign) (string, json.RawMessage, *view.QuestionView, error) {
	qid := c.FormValue("qid")
	qi := camp.Definition.QuestionIndex(qid)
	if qi < 0 {
		return "", nil, nil, web.Invalid("qid", "error.bad_request", nil)
	}
	body, submitted := formAnswer(c, &camp.Definition.Questions[qi])
	return qid, body, submitted, nil
}

// GoJSON is a step as the spec's go result (GET .../go, POST .../question/{qid}).
func GoJSON(r *GoResult) any { return toGoJSON(r) }
