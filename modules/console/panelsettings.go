package console

import "github.com/gofiber/fiber/v3"

// PanelSettings is what the console needs from the other modules for part 2: create and edit panels (settings, theme with live preview and contrast report, uploads, provider credentials).
type PanelSettings interface{}

// panelSettingsRoutes adds the pages (r) and the JSON API (api, under APIPrefix) of part 2: create and edit panels (settings, theme with live preview and contrast report, uploads, provider credentials).
func (m *Module) panelSettingsRoutes(r, api fiber.Router) {}
