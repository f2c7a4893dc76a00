package console

import (
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// tokenRoutes: the operator API tokens' pages and the API's own calls (part 6).
func (m *Module) tokenRoutes(r, api fiber.Router) {}

// apiAuth reads the bearer token of an API call (part 6).
func (m *Module) apiAuth(c fiber.Ctx) error {
	return web.Unauthorized()
}

// tokenAllows tells whether the request's API token, if any, has action in its scopes.
func tokenAllows(c fiber.Ctx, a PanelAccess, action Action) bool { return true }

// tokenCovers tells whether the request's API token, if any, reaches the panel at all.
func tokenCovers(c fiber.Ctx, a PanelAccess) bool { return true }

// apiError answers an API call's error in the spec's error shape, in English (the console
// API's language).
func (m *Module) apiError(c fiber.Ctx, err error) error {
	e := web.AsError(err)
	if e.Status >= 500 {
		m.log.Error("console API request failed", "method", c.Method(), "path", c.Path(), "err", err)
	}
	if e.Status == fiber.StatusTooManyRequests {
		c.Set(fiber.HeaderRetryAfter, "60")
	}
	return c.Status(e.Status).JSON(e.ToAPI(m.kit.Locales.Tr("en")))
}
