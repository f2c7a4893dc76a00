package web_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/a-h/templ"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
)

// halfThenBoom writes the start of a page and then fails, like a template whose data broke.
var halfThenBoom = templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
	_, _ = io.WriteString(w, "<html><body><h1>Half a page")
	return errors.New("boom")
})

func TestAComponentThatFailsWhileRenderingShowsTheUnexpectedApplicationErrorPage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		env        string
		showsCause bool
	}{
		{"outside production the cause is shown", "development", true},
		{"in production the cause is hidden behind the status text", "production", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kit := newKit(t, tc.env)
			app := newApp(kit)
			app.Get("/feed", func(c fiber.Ctx) error {
				return kit.RenderPage(c, kit.Page(c), fiber.StatusOK, halfThenBoom)
			})
			res, body := send(t, app, httptest.NewRequest(http.MethodGet, "http://localhost/feed", nil))

			assert.Equal(t, http.StatusInternalServerError, res.StatusCode)
			assert.Contains(t, res.Header.Get("Content-Type"), "text/html")
			assert.Contains(t, body, "Unexpected Application Error!")
			assert.NotContains(t, body, "Half a page", "never half a page")
			if tc.showsCause {
				assert.Contains(t, body, "boom")
			} else {
				assert.NotContains(t, body, "boom")
				assert.Contains(t, body, "Internal Server Error")
			}
		})
	}
}
