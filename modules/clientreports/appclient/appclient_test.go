package appclient

import (
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheRequestConventionsAreReadAndAMalformedOneCountsAsNotSaid(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		path    string
		headers map[string]string
		want    Client
	}{
		{"a browser's island", "/api/x", map[string]string{"X-App-Name": "web", "X-App-Lang": "es", "X-Viewport-Width": "412", "X-Viewport-Height": "915", "X-DPR": "2.625"},
			Client{Name: "web", Lang: "es", ViewportWidth: 412, ViewportHeight: 915, DPR: 2.63}},
		{"a native wrapper", "/api/x", map[string]string{"X-App-Name": "canvass-ios", "X-App-Lang": "zh-Hans-CN", "X-Native-App": "ios", "X-DPR": "3"},
			Client{Name: "canvass-ios", Lang: "zh-Hans-CN", DPR: 3, Native: "ios"}},
		{"zoomed viewports round", "/api/x", map[string]string{"X-Viewport-Width": "412.6", "X-Viewport-Height": "0.4"}, Client{ViewportWidth: 413}},
		{"nothing said", "/api/x", nil, Client{}},
		{"malformed values", "/api/x", map[string]string{"X-App-Name": "<b>", "X-App-Lang": "en;drop", "X-Viewport-Width": "-5", "X-Viewport-Height": "1e9",
			"X-DPR": "NaN", "X-Native-App": "yes please"}, Client{}},
		{"a widget page", "/widgets/login", map[string]string{"X-App-Name": "web"}, Client{Name: "widget"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app := fiber.New()
			var got Client
			app.All("/*", func(ctx fiber.Ctx) error { got = Read(ctx); return nil })
			req := httptest.NewRequest("GET", c.path, nil)
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			_, err := app.Test(req)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}
