package console

import "github.com/gofiber/fiber/v3"

// Money is what the console needs from the other modules for part 4: money (redemption queue, ledger adjust, competitions, daily summary).
type Money interface{}

// moneyRoutes adds the pages (r) and the JSON API (api, under APIPrefix) of part 4: money (redemption queue, ledger adjust, competitions, daily summary).
func (m *Module) moneyRoutes(r, api fiber.Router) {}
