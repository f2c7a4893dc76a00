package offers

import (
	"errors"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Errors of the member's calls; webError maps them to the spec's error catalogue.
var (
	ErrNoProvider = errors.New("the panel has no offers provider")
	ErrNoOffer    = errors.New("no such offer in the panel's lists")
	ErrNoRow      = errors.New("no such offer row of the member")
	ErrIssueEmpty = errors.New("the issue report says nothing")
	ErrIssueLong  = errors.New("the issue report is too long")
)

// webError maps the module's errors to the catalogue, in one place.
func webError(err error) error {
	var refusal *Refusal
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refusal):
		id := "error.offers_postback_" + refusal.Code
		e := web.Fail(refusal.Status, id, nil)
		if refusal.Field != "" {
			e = web.Invalid(refusal.Field, id, nil)
			e.Status = refusal.Status
		}
		return e.WithCode(refusal.Code)
	case errors.Is(err, ErrNoProvider), errors.Is(err, ErrNoRow):
		return web.NotFound()
	case errors.Is(err, ErrNoOffer):
		return web.Fail(fiber.StatusNotFound, "error.offer_gone", nil).WithCode("offer_gone")
	case errors.Is(err, ErrIssueEmpty):
		return web.Invalid("message", "error.offer_issue_empty", nil)
	case errors.Is(err, ErrIssueLong):
		return web.Invalid("message", "error.offer_issue_long", map[string]any{"Max": MaxIssueMessage})
	case errors.Is(err, ErrUnavailable):
		return web.Fail(fiber.StatusBadGateway, "error.offers_unavailable", nil).WithCode("offers_unavailable")
	}
	return err
}
