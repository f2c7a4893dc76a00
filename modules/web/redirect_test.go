package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redirectApp answers /safe and /local with what SafeRedirect and LocalPath make of ?to=,
// on a panel whose domains are localhost and shop.example.com.
func redirectApp() *fiber.App {
	app := fiber.New()
	app.Use(func(c fiber.Ctx) error {
		web.SetPanel(c, &web.Panel{Hosts: []string{"localhost", "shop.example.com"}})
		return c.Next()
	})
	app.Get("/safe", func(c fiber.Ctx) error { return c.SendString(web.SafeRedirect(c, c.Query("to"))) })
	app.Get("/local", func(c fiber.Ctx) error { return c.SendString(web.LocalPath(c, c.Query("to"))) })
	return app
}

func redirectTarget(t *testing.T, app *fiber.App, route, target string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost:3000"+route+"?to="+url.QueryEscape(target), nil)
	req.Host = "localhost:3000"
	res, body := send(t, app, req)
	require.Equal(t, http.StatusOK, res.StatusCode)
	return body
}

func TestSafeRedirectKeepsOnlyTargetsTheSpecAllows(t *testing.T) {
	t.Parallel()
	app := redirectApp()
	cases := []struct{ name, target, want string }{
		{"a relative path is kept", "/feed?tab=offers", "/feed?tab=offers"},
		{"the site root is kept", "/", "/"},
		{"an empty target is dropped", "", ""},
		{"a protocol-relative address is dropped", "//evil.example/feed", ""},
		{"a backslash path browsers read as another host is dropped", `/\evil.example`, ""},
		{"a tab browsers strip is dropped", "/\t/evil.example", ""},
		{"a javascript: address is dropped", "javascript:alert(1)", ""},
		{"a mixed-case javascript: address is dropped", "JaVaScRiPt:alert(1)", ""},
		{"a data: address is dropped", "data:text/html,<script>alert(1)</script>", ""},
		{"another host over https is dropped", "https://evil.example/feed", ""},
		{"a host that only starts like an allow-listed one is dropped", "https://shop.example.com.evil.example/", ""},
		{"credentials that hide another host are dropped", "https://shop.example.com@evil.example/", ""},
		{"http on an allow-listed host is dropped", "http://shop.example.com/offers", ""},
		{"ftp on an allow-listed host is dropped", "ftp://shop.example.com/offers", ""},
		{"https on an allow-listed host is kept", "https://shop.example.com/offers", "https://shop.example.com/offers"},
		{"an allow-listed host in capitals is kept", "https://SHOP.example.com/offers", "https://SHOP.example.com/offers"},
		{"the same origin as an absolute address is kept", "http://localhost:3000/feed", "http://localhost:3000/feed"},
		{"the same host on another port over http is dropped", "http://localhost:4000/feed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, redirectTarget(t, app, "/safe", tc.target))
		})
	}
}

func TestLocalPathReducesTheSameOriginToAPathAndDropsTheRest(t *testing.T) {
	t.Parallel()
	app := redirectApp()
	cases := []struct{ name, target, want string }{
		{"a relative path is kept", "/feed?tab=offers", "/feed?tab=offers"},
		{"the same origin becomes its path and query", "http://localhost:3000/feed?tab=offers", "/feed?tab=offers"},
		{"the same origin without a path becomes the root", "http://localhost:3000", "/"},
		{"a protocol-relative address is dropped", "//evil.example", ""},
		{"a backslash path is dropped", `/\evil.example`, ""},
		{"a javascript: address is dropped", "javascript:alert(1)", ""},
		{"another host is dropped", "https://evil.example/feed", ""},
		{"http on an allow-listed host is dropped", "http://shop.example.com/offers", ""},
		{"https on an allow-listed host stays absolute", "https://shop.example.com/offers", "https://shop.example.com/offers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, redirectTarget(t, app, "/local", tc.target))
		})
	}
}

func TestLocalPathNeverTurnsTheSameOriginIntoAProtocolRelativePath(t *testing.T) {
	t.Parallel()
	app := redirectApp()
	for _, target := range []string{"http://localhost:3000//evil.example", "http://localhost:3000///evil.example/feed"} {
		t.Run(target, func(t *testing.T) {
			got := redirectTarget(t, app, "/local", target)
			assert.False(t, strings.HasPrefix(got, "//"), "LocalPath(%q) = %q leaves the site", target, got)
		})
	}
}
