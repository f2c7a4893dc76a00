package web_test

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/require"
)

// newKit builds a kit the way app wiring does, with the real message files and a silent log.
func newKit(t *testing.T, env string) *web.Kit {
	t.Helper()
	loc, err := web.NewLocales(locales.FS, nil)
	require.NoError(t, err)
	return web.NewKit(env, strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), loc, nil)
}

// newApp is a fiber app whose errors go through the kit's error handler.
func newApp(kit *web.Kit) *fiber.App {
	return fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
}

// send runs one request through app and returns the response with its body read.
func send(t *testing.T, app *fiber.App, req *http.Request) (*http.Response, string) {
	t.Helper()
	res, err := app.Test(req, fiber.TestConfig{Timeout: 10 * time.Second, FailOnTimeout: true})
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, string(body)
}

// cookieOf returns the cookie a response sets, or nil.
func cookieOf(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
