package web_test

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/testsupport/httpcoding"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

const memberToken = "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f"

var (
	bigHTML = "<!DOCTYPE html><html><body>" + strings.Repeat("<p class=\"card\">A survey for you</p>\n", 100) + "</body></html>"
	bigJSON = `{"campaigns":[` + strings.TrimSuffix(strings.Repeat(`{"name":"Quick poll","reward":"0.50"},`, 60), ",") + `]}`
)

// compressApp answers a few kinds of body behind web.Compress; X-Test-Member signs a member
// (with memberToken as pp-token) in, as the session middleware would.
func compressApp(t *testing.T) *fiber.App {
	t.Helper()
	app := fiber.New()
	app.Use(func(c fiber.Ctx) error {
		if c.Get("X-Test-Member") != "" {
			web.SetMember(c, &web.Member{SessionID: "s", ParticipantID: "p", Token: memberToken})
		}
		return c.Next()
	})
	app.Use(web.Compress())
	send := func(contentType, body string) fiber.Handler {
		return func(c fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, contentType)
			return c.SendString(body)
		}
	}
	app.Get("/page", send(fiber.MIMETextHTMLCharsetUTF8, bigHTML))
	app.Get("/json", send(fiber.MIMEApplicationJSONCharsetUTF8, bigJSON))
	app.Get("/small", send(fiber.MIMETextHTMLCharsetUTF8, "<p>hello</p>"))
	app.Get("/gif", send("image/gif", "GIF89a"+strings.Repeat("\x00", 2000)))
	app.Get("/png", send("image/png", strings.Repeat("\x89PNG", 500)))
	app.Get("/events", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, "text/event-stream")
		return c.SendStreamWriter(func(w *bufio.Writer) {
			for range 100 {
				_, _ = w.WriteString("data: " + strings.Repeat("x", 40) + "\n\n")
			}
		})
	})
	app.Get("/streamed-html", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return c.SendStreamWriter(func(w *bufio.Writer) { _, _ = w.WriteString(bigHTML) })
	})
	app.Get("/encoded", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(fasthttp.AppendGzipBytes(nil, []byte(bigHTML)))
	})
	app.Get("/no-transform", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderCacheControl, "private, no-transform")
		return send(fiber.MIMETextHTMLCharsetUTF8, bigHTML)(c)
	})
	app.Get("/varies", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderVary, "Accept-Language")
		return send(fiber.MIMETextHTMLCharsetUTF8, bigHTML)(c)
	})
	app.Get("/etag", func(c fiber.Ctx) error {
		c.Set(fiber.HeaderETag, `"v1"`)
		return send(fiber.MIMEApplicationJSON, bigJSON)(c)
	})
	app.Get("/with-token", send(fiber.MIMETextHTMLCharsetUTF8, bigHTML+`<a href="/accept-terms-and-conditions?token=`+memberToken+`">`))
	app.Get("/opted-out", func(c fiber.Ctx) error {
		web.NoCompression(c)
		return send(fiber.MIMETextHTMLCharsetUTF8, bigHTML)(c)
	})
	app.Post("/ah/api/v2/user/login", send(fiber.MIMEApplicationJSON, bigJSON))
	app.Get("/ah/api/v1/user/profile", send(fiber.MIMEApplicationJSON, bigJSON))
	app.Get("/no-content", func(c fiber.Ctx) error { return c.SendStatus(fiber.StatusNoContent) })
	app.Get("/fails", func(c fiber.Ctx) error { return fiber.ErrTeapot })
	return app
}

func TestCompressCompressesTextAnswersAsTheClientAccepts(t *testing.T) {
	t.Parallel()
	app := compressApp(t)
	const browser = "gzip, deflate, br, zstd"
	cases := []struct {
		name     string
		method   string
		path     string
		accept   string
		member   bool
		wantEnc  string
		wantVary string
		wantBody string // decoded; "" to skip
	}{
		{name: "a page in Brotli to a browser", path: "/page", accept: browser, wantEnc: "br", wantVary: "Accept-Encoding", wantBody: bigHTML},
		{name: "a page in gzip to a client without Brotli", path: "/page", accept: "gzip", wantEnc: "gzip", wantVary: "Accept-Encoding", wantBody: bigHTML},
		{name: "a page in gzip when Brotli is refused", path: "/page", accept: "br;q=0, gzip;q=0.1", wantEnc: "gzip", wantVary: "Accept-Encoding", wantBody: bigHTML},
		{name: "a page as it is without Accept-Encoding, with Vary", path: "/page", wantVary: "Accept-Encoding", wantBody: bigHTML},
		{name: "a page as it is to a client with neither coding", path: "/page", accept: "deflate, zstd", wantVary: "Accept-Encoding", wantBody: bigHTML},
		{name: "JSON in Brotli", path: "/json", accept: browser, wantEnc: "br", wantVary: "Accept-Encoding", wantBody: bigJSON},
		{name: "an answer below the threshold as it is, with Vary", path: "/small", accept: browser, wantVary: "Accept-Encoding", wantBody: "<p>hello</p>"},
		{name: "HEAD as it is, with Vary", method: http.MethodHead, path: "/page", accept: browser, wantVary: "Accept-Encoding"},
		{name: "a GIF never", path: "/gif", accept: browser},
		{name: "a PNG never", path: "/png", accept: browser},
		{name: "an event stream never", path: "/events", accept: browser},
		{name: "a streamed page never", path: "/streamed-html", accept: browser, wantBody: bigHTML},
		{name: "an answer with a coding of its own is left alone", path: "/encoded", accept: browser, wantEnc: "gzip", wantBody: bigHTML},
		{name: "Cache-Control: no-transform is respected", path: "/no-transform", accept: browser, wantBody: bigHTML},
		{name: "Vary is added to, not replaced", path: "/varies", accept: browser, wantEnc: "br", wantVary: "Accept-Language, Accept-Encoding", wantBody: bigHTML},
		{name: "a page carrying the member's pp-token never", path: "/with-token", accept: browser, member: true},
		{name: "the same page for a visitor, whose token it is not", path: "/with-token", accept: browser, wantEnc: "br", wantVary: "Accept-Encoding"},
		{name: "a member's page without the token", path: "/page", accept: browser, member: true, wantEnc: "br", wantVary: "Accept-Encoding"},
		{name: "a handler's opt-out", path: "/opted-out", accept: browser, wantBody: bigHTML},
		{name: "the login answer never", method: http.MethodPost, path: "/ah/api/v2/user/login", accept: browser, wantBody: bigJSON},
		{name: "the profile never", path: "/ah/api/v1/user/profile", accept: browser, wantBody: bigJSON},
		{name: "the profile by another spelling never", path: "/AH/api/v1/User/Profile/", accept: browser, wantBody: bigJSON},
		{name: "a 204 as it is", path: "/no-content", accept: browser},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			req := httptest.NewRequest(method, "http://localhost"+tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			if tc.member {
				req.Header.Set("X-Test-Member", "1")
			}
			res, body := send(t, app, req)
			require.Less(t, res.StatusCode, 300)
			assert.Equal(t, tc.wantEnc, res.Header.Get("Content-Encoding"))
			assert.Equal(t, tc.wantVary, res.Header.Get("Vary"))
			if method != http.MethodHead && res.Header.Get("Content-Length") != "" {
				assert.Equal(t, strconv.Itoa(len(body)), res.Header.Get("Content-Length"))
			}
			if tc.wantBody != "" {
				assert.Equal(t, tc.wantBody, string(httpcoding.Decode(t, res.Header.Get("Content-Encoding"), []byte(body))))
			}
		})
	}
}

func TestCompressGivesACompressedAnswerItsOwnETag(t *testing.T) {
	t.Parallel()
	app := compressApp(t)
	req := httptest.NewRequest(http.MethodGet, "http://localhost/etag", nil)
	req.Header.Set("Accept-Encoding", "br")
	res, _ := send(t, app, req)
	assert.Equal(t, "br", res.Header.Get("Content-Encoding"))
	assert.Equal(t, `"v1-br"`, res.Header.Get("ETag"), "a strong validator names exact bytes")
}

func TestCompressLeavesErrorsToTheErrorHandler(t *testing.T) {
	t.Parallel()
	app := compressApp(t)
	req := httptest.NewRequest(http.MethodGet, "http://localhost/fails", nil)
	req.Header.Set("Accept-Encoding", "br")
	res, _ := send(t, app, req)
	assert.Equal(t, http.StatusTeapot, res.StatusCode)
	assert.Empty(t, res.Header.Get("Content-Encoding"))
}

func TestCompressedPagesOfMembersVaryInLength(t *testing.T) {
	t.Parallel()
	app := compressApp(t)
	lengths := map[int]bool{}
	for range 20 {
		req := httptest.NewRequest(http.MethodGet, "http://localhost/page", nil)
		req.Header.Set("Accept-Encoding", "br")
		req.Header.Set("X-Test-Member", "1")
		res, body := send(t, app, req)
		require.Equal(t, "br", res.Header.Get("Content-Encoding"))
		decoded := string(httpcoding.Decode(t, "br", []byte(body)))
		require.True(t, strings.HasPrefix(decoded, bigHTML), "the page comes first, whole")
		assert.Regexp(t, `^<!--[A-Za-z0-9_-]{0,31}-->$`, strings.TrimPrefix(decoded, bigHTML))
		lengths[len(body)] = true
	}
	assert.Greater(t, len(lengths), 3, "random padding blurs the compressed length: %v", lengths)
}
