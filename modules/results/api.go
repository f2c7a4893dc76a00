package results

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// The results' JSON API (under console.APIPrefix, bearer tokens with results.read or
// results.responses): the summary as Summarize gives it, the free-text answers and the
// responses by keyset page (next: the cursor of the following page, null on the last), and one
// response's answers as stored (audited like the page). A refused filter is a 400 naming each
// refused query parameter.

// ResponseJSON is a response as the API lists it.
type ResponseJSON struct {
	ID         string     `json:"id"`
	MemberID   string     `json:"memberId"`
	Outcome    string     `json:"outcome"`
	StartedAt  time.Time  `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	Language   *string    `json:"language"`
}

func responseJSON(r surveys.Response) ResponseJSON {
	out := ResponseJSON{ID: r.ID, MemberID: r.ParticipantID, Outcome: r.Outcome(), StartedAt: r.StartedAt.UTC(), Language: r.Language}
	if r.FinishedAt != nil {
		t := r.FinishedAt.UTC()
		out.FinishedAt = &t
	}
	return out
}

// AnswerJSON is one answer of a response: the question and the VALUE as it was given.
type AnswerJSON struct {
	QuestionID string          `json:"questionId"`
	Value      json.RawMessage `json:"value"`
}

// apiFilter is the path's campaign and the request's filter, checked; a refused one is the
// API's 400.
func (p *Part) apiFilter(c fiber.Ctx, a console.PanelAccess) (*campaigns.Campaign, *checked, error) {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return nil, nil, err
	}
	f := FilterOf(query(c))
	rf, err := f.Check(panel, camp)
	if err != nil {
		return nil, nil, err
	}
	return camp, &checked{filter: f, rf: rf}, nil
}

// apiPage is the request's keyset page; a cursor the API did not give is a 400.
func apiPage(c fiber.Ctx) (surveys.Page, error) {
	pg, err := pageOf(c, pageSize)
	if err != nil {
		field := "after"
		if c.Query("before") != "" {
			field = "before"
		}
		return pg, web.Invalid(field, "console.results.error.cursor", nil)
	}
	return pg, nil
}

// nextCursor is the cursor of the page after a page of rows, newest first (nil: none).
func nextCursor[T interface{ Cursor() *surveys.Cursor }](pg surveys.Page, more bool, rows []T) *string {
	if !more || pg.Before != nil || len(rows) == 0 {
		return nil
	}
	s := rows[len(rows)-1].Cursor().String()
	return &s
}

func (p *Part) apiSummary(c fiber.Ctx, a console.PanelAccess) error {
	camp, ch, err := p.apiFilter(c, a)
	if err != nil {
		return err
	}
	rowQ, colQ := c.Query("row"), c.Query("col")
	if !CheckCross(&camp.Definition, rowQ, colQ) {
		return web.Invalid("col", "console.results.error.cross", nil)
	}
	sum, err := Summarize(c.Context(), p.d.Reader, camp, ch.filter, ch.rf, camp.DefaultLanguage, rowQ, colQ)
	if err != nil {
		return err
	}
	return c.JSON(sum)
}

func (p *Part) apiText(c fiber.Ctx, a console.PanelAccess) error {
	camp, ch, err := p.apiFilter(c, a)
	if err != nil {
		return err
	}
	q := textQuestion(camp, c.Params("question"))
	if q == nil {
		return fiber.ErrNotFound
	}
	pg, err := apiPage(c)
	if err != nil {
		return err
	}
	page, err := p.d.Reader.TextAnswers(c.Context(), ch.rf, q.ID, strings.TrimSpace(c.Query("q")), pg)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"answers": textAnswers(page.Rows), "next": nextCursor(pg, page.More, page.Rows)})
}

func (p *Part) apiResponses(c fiber.Ctx, a console.PanelAccess) error {
	_, ch, err := p.apiFilter(c, a)
	if err != nil {
		return err
	}
	pg, err := apiPage(c)
	if err != nil {
		return err
	}
	page, err := p.d.Reader.Responses(c.Context(), ch.rf, pg)
	if err != nil {
		return err
	}
	out := make([]ResponseJSON, len(page.Rows))
	for i, r := range page.Rows {
		out[i] = responseJSON(r)
	}
	return c.JSON(fiber.Map{"responses": out, "next": nextCursor(pg, page.More, page.Rows)})
}

func (p *Part) apiResponse(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	r, answers, err := p.response(c, a, panel, camp)
	if err != nil {
		return err
	}
	out := make([]AnswerJSON, len(answers))
	for i, ans := range answers {
		out[i] = AnswerJSON{QuestionID: ans.QuestionID, Value: json.RawMessage(ans.Value)}
	}
	return c.JSON(fiber.Map{"response": responseJSON(*r), "answers": out})
}
