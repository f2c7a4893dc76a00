package console

import "github.com/gofiber/fiber/v3"

// Campaigns is what the console needs from the other modules for part 3: campaigns (list, editor, validation, previews, open/close/duplicate/import, quotas, funnel).
type Campaigns interface{}

// campaignRoutes adds the pages (r) and the JSON API (api, under APIPrefix) of part 3: campaigns (list, editor, validation, previews, open/close/duplicate/import, quotas, funnel).
func (m *Module) campaignRoutes(r, api fiber.Router) {}
