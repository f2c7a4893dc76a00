package console

import "github.com/gofiber/fiber/v3"

// Members is what the console needs from the other modules for part 5: members (search, member page, suspend, sessions, mails, closing).
type Members interface{}

// memberRoutes adds the pages (r) and the JSON API (api, under APIPrefix) of part 5: members (search, member page, suspend, sessions, mails, closing).
func (m *Module) memberRoutes(r, api fiber.Router) {}
