package accounts

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/ratelimit"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// sessionApp runs the session middleware on a panel with no members, so every token is unknown.
func sessionApp(t *testing.T, db *gorm.DB) *fiber.App {
	t.Helper()
	loc := messages.Locales(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	kit := web.NewKit("development", strings.Repeat("s", 32), log, loc, nil)
	m := New(Deps{DB: db, Kit: kit, Limiter: ratelimit.New(db), Log: log})
	app := fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
	app.Use(func(c fiber.Ctx) error {
		web.SetPanel(c, &web.Panel{ID: "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11", Key: "acme", Hosts: []string{"localhost"}})
		return c.Next()
	})
	app.Use(m.Session())
	app.Get("/*", func(c fiber.Ctx) error { return c.SendString("page") })
	return app
}

func getRaw(t *testing.T, app *fiber.App, requestURI string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost/", nil)
	req.RequestURI = requestURI
	res, err := app.Test(req, fiber.TestConfig{Timeout: 10 * time.Second, FailOnTimeout: true})
	require.NoError(t, err)
	res.Body.Close()
	return res
}

const unknownToken = "5d3c1b2a-0000-4000-8000-000000000000"

func TestATokenInTheQueryIsStrippedByARedirect(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		res := getRaw(t, sessionApp(t, db), "/feed?token="+unknownToken+"&tab=offers")
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/feed?tab=offers", res.Header.Get("Location"))
	})
}

func TestTheTokenRedirectNeverLeavesTheSite(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		res := getRaw(t, sessionApp(t, db), "//evil.example/feed?token="+unknownToken)
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		location := res.Header.Get("Location")
		assert.False(t, strings.HasPrefix(location, "//"), "Location %q leaves the site", location)
	})
}
