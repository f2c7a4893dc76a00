package surveys

import (
	"context"
	"strings"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Rating is a member's rating of a finished campaign (spec "Rating": comment, rating).
type Rating struct {
	Rating  *int    `json:"rating"`
	Comment *string `json:"comment,omitempty"`
}

// Rate records the member's rating (1 to 5) of a campaign they finished; the comment is
// trimmed and dropped if empty. Rating again replaces it.
func (m *Module) Rate(ctx context.Context, panel *web.Panel, r Respondent, id string, rating int, comment string) (*Rating, error) {
	if rating < 1 || rating > 5 {
		return nil, web.Invalid("rating", "error.rating", nil)
	}
	comment = strings.Join(strings.Fields(comment), " ")
	if len([]rune(comment)) > web.MaxReportText {
		return nil, web.Invalid("comment", "error.too_long", map[string]any{"Max": web.MaxReportText})
	}
	who := r.Person()
	if err := m.catalogue.Exists(ctx, panel, id); err != nil {
		return nil, err
	}
	var c *string
	if comment != "" {
		c = &comment
	}
	rated, err := m.store.rate(ctx, who.ID, id, rating, c, m.now().UTC())
	if err != nil {
		return nil, err
	}
	if !rated {
		return nil, web.Fail(fiber.StatusConflict, "error.rate_unfinished", nil).WithCode("campaign_not_finished")
	}
	return &Rating{Rating: &rating, Comment: c}, nil
}

// RatingOf returns the member's rating of a campaign (null fields when none).
func (m *Module) RatingOf(ctx context.Context, panel *web.Panel, r Respondent, id string) (*Rating, error) {
	if err := m.catalogue.Exists(ctx, panel, id); err != nil {
		return nil, err
	}
	p, err := m.store.participation(ctx, r.Person().ID, id)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return &Rating{}, nil
	}
	return &Rating{Rating: p.Rating, Comment: p.RatingComment}, nil
}

// GET campaigns/{id}/rating
func (m *Module) apiRating(c fiber.Ctx) error {
	r, err := m.RatingOf(c.Context(), web.PanelOf(c), respondent(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// POST campaigns/{id}/rating {rating, comment}
func (m *Module) apiRate(c fiber.Ctx) error {
	var in struct {
		Rating  *int   `json:"rating"`
		Comment string `json:"comment"`
	}
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	if in.Rating == nil {
		return web.Invalid("rating", "error.rating", nil)
	}
	r, err := m.Rate(c.Context(), web.PanelOf(c), respondent(c), c.Params("id"), *in.Rating, in.Comment)
	if err != nil {
		return err
	}
	return c.JSON(r)
}
