package onboarding

import (
	"errors"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/onboarding"
	viewsurveys "github.com/canvass/canvass/views/surveys"
	"github.com/gofiber/fiber/v3"
)

func (m *Module) to(c fiber.Ctx, path string) error {
	return c.Redirect().Status(fiber.StatusSeeOther).To(path)
}

// GET /onboarding[?provider=&userId=&redirect=]: where the onboarding stands. A third-party
// sign-in's return starts (or resets) it; then the next campaign to answer, or its last step.
// A visitor without one sees how to begin; a member without one goes to the feed.
func (m *Module) onboardingPage(c fiber.Ctx) error {
	if provider, userID := c.Query("provider"), c.Query("userId"); provider != "" && userID != "" && web.MemberOf(c) == nil {
		if _, err := m.begin(c, provider, userID, c.Query("redirect")); err != nil {
			return m.landing(c, err)
		}
		return m.to(c, "/onboarding")
	}
	st, err := m.current(c)
	if err != nil {
		return err
	}
	member := web.MemberOf(c)
	switch {
	case st == nil && member != nil:
		return m.to(c, "/feed")
	case st == nil:
		return m.landing(c, nil)
	case st.CompletedAt != nil && member != nil:
		return m.to(c, "/feed") // over: /onboarding is public-only again
	case st.CompletedAt != nil:
		// Completed, then signed out: the onboarding is over; they log in as members do.
		if err := m.clear(c, st); err != nil {
			return err
		}
		return m.to(c, "/login")
	}
	all, err := m.campaignsOf(c)
	if err != nil {
		return err
	}
	if id := next(st, all); id != "" {
		return m.to(c, "/onboarding/campaigns/"+id)
	}
	return m.finish(c, st, "")
}

// POST /onboarding/complete (email): the last step's form.
func (m *Module) completeSubmit(c fiber.Ctx) error {
	st, err := m.current(c)
	if err != nil {
		return err
	}
	if st == nil {
		return m.landing(c, errMissing())
	}
	return m.finish(c, st, c.FormValue("email"))
}

// finish completes the onboarding and goes on (signed in), or shows the last step with why
// not: an email to give, or the choice when an account has it.
func (m *Module) finish(c fiber.Ctx, st *State, email string) error {
	_, err := m.complete(c, st, email)
	if err == nil {
		return m.to(c, target(st))
	}
	var e *web.Error
	if !errors.As(err, &e) || e.Status >= 500 {
		return err
	}
	if e.Code() == "onboarding_unfinished" {
		return m.to(c, "/onboarding")
	}
	props := view.CompleteProps{Email: email, Errors: e.FieldErrors(m.kit.Tr(c))}
	arriving := e.Code() == "email_required" && c.Method() == fiber.MethodGet // nothing refused yet
	if w, werr := m.accounts.WaitingIdentity(c, st.Provider, st.UserID); werr == nil {
		props.Provider = accounts.ProviderLabel(w.Provider)
		if props.Email == "" {
			props.Email = w.Email
		}
		if e.Code() == "email_already_used" {
			props.EmailTaken = w.LinkEmail
		}
	}
	switch {
	case arriving:
		props.Errors = nil
		return m.kit.Render(c, fiber.StatusOK, view.Complete(props))
	case len(props.Errors) == 0 && props.EmailTaken == "":
		props.FormError = e.ToAPI(m.kit.Tr(c)).Message
	}
	return m.kit.Render(c, e.Status, view.Complete(props))
}

// landing is the onboarding's start for a visitor, with why their link did not work.
func (m *Module) landing(c fiber.Ctx, cause error) error {
	status, props := fiber.StatusOK, view.LandingProps{}
	if cause != nil {
		var e *web.Error
		if !errors.As(cause, &e) || e.Status >= 500 {
			return cause
		}
		status, props.Error = e.Status, e.ToAPI(m.kit.Tr(c)).Message
	}
	buttons, err := m.accounts.ProviderButtons(c, "")
	if err != nil {
		return err
	}
	props.Providers = buttons
	return m.kit.Render(c, status, view.Landing(props))
}

// onboardingOf is the request's onboarding for a campaign page: none, or one that is over,
// sends the browser to /onboarding, which says where to go.
func (m *Module) onboardingOf(c fiber.Ctx) (*State, bool, error) {
	st, err := m.current(c)
	if err != nil || st == nil || st.CompletedAt != nil {
		return nil, false, err
	}
	return st, true, nil
}

// GET /onboarding/campaigns/:campaignUuid: an onboarding campaign in the survey box (its
// island, or its plain forms), as a walk the onboarding keeps.
func (m *Module) campaignPage(c fiber.Ctx) error {
	st, ok, err := m.onboardingOf(c)
	if err != nil || !ok {
		return orTo(c, err, "/onboarding")
	}
	l, res, err := m.atCampaign(c, st)
	if err != nil {
		return err
	}
	return m.renderBox(c, l, res, fiber.StatusOK, "", nil)
}

// atCampaign is the path's onboarding campaign (one of the panel's, else not found) and where
// the onboarding's answers to it lead.
func (m *Module) atCampaign(c fiber.Ctx, st *State) (*campaigns.Listing, *surveys.GoResult, error) {
	id := c.Params("campaignUuid")
	l, err := m.campaign(c, id)
	if err != nil {
		return nil, nil, err
	}
	res, err := m.surveys.Resume(c.Context(), web.PanelOf(c), respondent(c), id, st.AnswersOf(id))
	return l, res, err
}

// POST /onboarding/campaigns/:campaignUuid/answer: one question answered with a plain form.
func (m *Module) answerSubmit(c fiber.Ctx) error {
	st, ok, err := m.onboardingOf(c)
	if err != nil || !ok {
		return orTo(c, err, "/onboarding")
	}
	l, at, err := m.atCampaign(c, st)
	if err != nil {
		return err
	}
	id := l.ID
	qid, body, submitted, err := surveys.AnswerForm(c, at.Campaign)
	if err != nil {
		return err
	}
	raw, err := surveys.DecodeAnswerBody(body)
	if err == nil {
		_, err = m.answer(c, st, id, qid, raw)
	}
	var we *web.Error
	if errors.As(err, &we) && we.Status == fiber.StatusBadRequest && at.Question != nil && at.Question.ID == qid {
		// The question again, with what was submitted and why it was refused.
		return m.renderBox(c, l, at, fiber.StatusBadRequest, we.ToAPI(m.kit.Tr(c)).Message, submitted)
	}
	if err != nil && !(errors.As(err, &we) && we.Status == fiber.StatusConflict) {
		return err
	}
	// Answered, or already past this question (a second click, the back button): carry on.
	return m.to(c, "/onboarding/campaigns/"+id)
}

// renderBox shows a step in the survey box: no balance, no rating; its thank-you button goes to
// the home root (spec: the onboarding flow's thank-you), which leads on to what comes next.
func (m *Module) renderBox(c fiber.Ctx, l *campaigns.Listing, res *surveys.GoResult, status int, formErr string, submitted *viewsurveys.QuestionView) error {
	label := m.kit.T(c, "common.continue", nil)
	if l.IsFinalOnboarding {
		label = m.kit.T(c, "error.default_button", nil)
	}
	return m.surveys.RenderWalk(c, res, status, surveys.WalkBox{
		Base: "/onboarding/campaigns/" + l.ID, APIBase: "/panel/" + web.PanelOf(c).ID + "/onboarding/campaigns/" + l.ID,
		LeaveHref: "/", LeaveLabel: label, FormError: formErr, Submitted: submitted,
	})
}

// orTo returns err, or redirects to path when there is none.
func orTo(c fiber.Ctx, err error, path string) error {
	if err != nil {
		return err
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(path)
}
