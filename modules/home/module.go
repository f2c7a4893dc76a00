// Package home owns the home shell (root, feed frame, navigation), the generic error and
// maintenance screens and health checks. (Client error reports are modules/clientreports'.)
package home

import (
	"cmp"
	"context"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views/home"
	"github.com/canvass/canvass/views/pages"
	"github.com/gofiber/fiber/v3"
)

// Guard is what home needs from accounts: the private access class.
type Guard interface {
	Private() fiber.Handler
}

type Module struct {
	kit   *web.Kit
	guard Guard
	ping  func(ctx context.Context) error
	log   *slog.Logger
	// feed, when set by the feed module, serves /feed instead of the empty frame.
	feed fiber.Handler
	// visitorRoot, when set by onboarding, may send a visitor at the root to /onboarding.
	visitorRoot fiber.Handler
	// quick are /readyz's conditions that read only the process's memory (the database pool),
	// looked at first; checks those that ask the database (the job queue), within the ping's
	// time limit.
	quick, checks []Check
}

// Check is one readiness condition: "" while it holds, else the reason /readyz answers with
// (a short operator's sentence, never a secret).
type Check func(ctx context.Context) string

// AddCheck adds a readiness condition that asks the database, looked at before the ping and
// within its time limit.
func (m *Module) AddCheck(c Check) { m.checks = append(m.checks, c) }

// AddQuickCheck adds a readiness condition that reads only memory (the pool's statistics): it
// is looked at before anything that needs a connection, which an exhausted pool would keep
// waiting.
func (m *Module) AddQuickCheck(c Check) { m.quick = append(m.quick, c) }

// pingTimeout bounds the database ping of /readyz: a probe waiting longer is answered "no".
const pingTimeout = 5 * time.Second

// New builds the module; ping checks the database for /readyz.
func New(kit *web.Kit, guard Guard, ping func(ctx context.Context) error, log *slog.Logger) *Module {
	m := &Module{kit: kit, guard: guard, ping: ping, log: log}
	kit.AddNav(web.NavEntry{Href: "/feed", Icon: "home", LabelID: "nav.feed", Order: 10})
	return m
}

// Health lists the probes, which must answer before tenancy runs.
func (m *Module) Health(r fiber.Router) {
	r.Get("/healthz", func(c fiber.Ctx) error { return c.SendString("ok") })
	r.Get("/readyz", func(c fiber.Ctx) error {
		// The quick checks first: an exhausted pool would keep the others and the ping waiting.
		for _, check := range m.quick {
			if reason := check(c.Context()); reason != "" {
				return c.Status(fiber.StatusServiceUnavailable).SendString(reason)
			}
		}
		ctx, cancel := context.WithTimeout(c.Context(), pingTimeout)
		defer cancel()
		for _, check := range m.checks {
			if reason := check(ctx); reason != "" {
				return c.Status(fiber.StatusServiceUnavailable).SendString(reason)
			}
		}
		if err := m.ping(ctx); err != nil {
			return c.Status(fiber.StatusServiceUnavailable).SendString("database unavailable")
		}
		return c.SendString("ok")
	})
}

// Routes lists the home pages.
func (m *Module) Routes(r fiber.Router) {
	private := m.guard.Private()
	toFeed := func(c fiber.Ctx) error { return c.Redirect().Status(fiber.StatusSeeOther).To("/feed") }
	if m.visitorRoot != nil {
		r.Get("/", m.visitorRoot, private, toFeed)
	} else {
		r.Get("/", private, toFeed)
	}
	r.Get("/feed", private, m.feedPage)
	r.Get("/error", m.errorPage)
	r.Get("/maintenance", m.maintenancePage)
}

// Fallback answers every route nobody else did with the 404 error page (or JSON for APIs).
func (m *Module) Fallback(c fiber.Ctx) error { return web.NotFound() }

func (m *Module) feedPage(c fiber.Ctx) error {
	if m.feed != nil {
		return m.feed(c)
	}
	return m.kit.Render(c, fiber.StatusOK, home.Feed())
}

// SetVisitorRoot lets onboarding decide first where a visitor at the root goes (it calls Next
// to leave them to the private access class: /login).
func (m *Module) SetVisitorRoot(h fiber.Handler) { m.visitorRoot = h }

// SetFeed lets the feed module serve the feed page.
func (m *Module) SetFeed(h fiber.Handler) { m.feed = h }

// errorPage is the spec's generic error screen with its query rules: title, desc or
// description, btn or btnText; defaults when absent.
func (m *Module) errorPage(c fiber.Ctx) error {
	props := pages.ErrorProps{
		Title:       clip(c.Query("title"), 200),
		Description: clip(cmp.Or(c.Query("desc"), c.Query("description")), 500),
		Button:      clip(cmp.Or(c.Query("btn"), c.Query("btnText")), 60),
	}
	if props.Title == "" {
		props.Title = m.kit.T(c, "error.default_title", nil)
	}
	if props.Description == "" {
		props.Description = m.kit.T(c, "error.default_description", nil)
	}
	if props.Button == "" {
		props.Button = m.kit.T(c, "error.default_button", nil)
	}
	return m.kit.Render(c, fiber.StatusOK, pages.Error(props))
}

func (m *Module) maintenancePage(c fiber.Ctx) error {
	c.Set(fiber.HeaderRetryAfter, "30")
	return m.kit.Render(c, fiber.StatusServiceUnavailable, pages.Maintenance())
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
