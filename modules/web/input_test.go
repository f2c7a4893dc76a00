package web

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/locales"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheTextRuleRefusesControlsMalformedTextAndOverrides(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		text      string
		multiline bool
		refused   bool
	}{
		{"plain text", "Hello, world", false, false},
		{"accents, scripts and emoji", "Café 日本 Привет 😀", false, false},
		{"a zero-width joiner in an emoji", "👩\u200d💻", false, false},
		{"a tab", "a\tb", false, false},
		{"markup and SQL, which are text", `<script>'; DROP TABLE x; -- %_\`, false, false},
		{"a NUL", "a\x00b", true, true},
		{"a line feed on one line", "a\nb", false, true},
		{"a line feed in a multi-line field", "a\nb\r\nc", true, false},
		{"an escape character", "a\x1bb", true, true},
		{"DEL", "a\x7fb", true, true},
		{"a C1 control", "a\u0085b", true, true},
		{"invalid UTF-8", "a\xff\xfeb", true, true},
		{"a truncated UTF-8 sequence", "a\xe2\x82", true, true},
		{"a right-to-left override", "\u202egnp.exe", true, true},
		{"a first-strong isolate", "a\u2068b", true, true},
		{"a replacement character typed as such", "a\uFFFDb", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.refused, textProblem(tc.text, tc.multiline) != "")
		})
	}
}

func TestJSONStringsAndKeysAreCheckedAndNamedByTheirPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		doc   string
		field string // "" when the document passes
		id    string
	}{
		{"a clean document", `{"a":"x","b":[1,"y",{"c":"z"}],"d":null,"e":1e400}`, "", ""},
		{"line breaks and tabs in a string", `{"text":"one\ntwo\tthree"}`, "", ""},
		{"a NUL escape at the top", `{"reasonText":"a\u0000b"}`, "reasonText", "error.bad_characters"},
		{"a NUL escape deep inside", `{"answer":{"most":"a","least":"b\u0000"}}`, "answer.least", "error.bad_characters"},
		{"a NUL escape in an array", `{"skip":["ok","x\u0000"]}`, "skip.1", "error.bad_characters"},
		{"an array after an object in an array", `{"a":[{"b":"ok"},["x","\u0000"]]}`, "a.1.1", "error.bad_characters"},
		{"a body that is an array", `["ok","x\u0000"]`, "1", "error.bad_characters"},
		{"a NUL in a key", `{"a\u0000":"x"}`, "a\x00", "error.bad_characters"},
		{"a lone surrogate", `{"name":"a\ud800b"}`, "name", "error.bad_characters"},
		{"invalid UTF-8", "{\"name\":\"a\xffb\"}", "name", "error.bad_characters"},
		{"a replacement character written out", `{"name":"a\ufffdb","other":"a` + "\uFFFD" + `b"}`, "", ""},
		{"a right-to-left override", `{"firstName":"\u202eevil"}`, "firstName", "error.bad_characters"},
		{"a key given twice", `{"email":"a@example.com","email":"b@example.com"}`, "email", "error.duplicate_field"},
		{"a key given twice deeper", `{"answer":{"most":"a","most":"b"}}`, "answer.most", "error.duplicate_field"},
		{"the same key in two objects", `{"a":{"k":1},"b":{"k":2}}`, "", ""},
		{"a key given twice in other letters", `{"redemptionId":"amazon-voucher","amount":"10.00","AMOUNT":"11.00"}`, "AMOUNT", "error.duplicate_field"},
		{"a key given twice with a Kelvin sign for its K", `{"kind":"a","Kind":"b"}`, "Kind", "error.duplicate_field"},
		{"a string too long", `{"text":"` + strings.Repeat("x", maxFieldText+1) + `"}`, "text", "error.too_long"},
		{"not JSON, left to the decoder", `{"a":`, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckJSON("", []byte(tc.doc))
			if tc.field == "" {
				assert.NoError(t, err)
				return
			}
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, fiber.StatusBadRequest, e.Status)
			require.Len(t, e.Details, 1)
			assert.Equal(t, tc.field, e.Details[0].Field)
			assert.Equal(t, tc.id, e.ID)
			assert.True(t, EdgeRefusal(err))
		})
	}
	for _, doc := range []string{`{"amount":"10.00"} xx`, `{"a":1}{"a":2}`, `"one" "two"`, `[1] 2`} {
		err := CheckJSON("", []byte(doc))
		var e *Error
		require.ErrorAs(t, err, &e, "anything after the document is refused: %s", doc)
		assert.Equal(t, fiber.StatusBadRequest, e.Status)
		assert.Equal(t, "error.malformed_json", e.ID)
	}
	err := CheckJSON("eventData", []byte(`{"referrer":"a\u0000"}`))
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "eventData.referrer", e.Details[0].Field, "a query parameter holding JSON names its field inside it")
}

// edgeApp is a server with the two edge checks in front of a handler that echoes what it
// was given, as modules see it.
func edgeApp(t *testing.T) *fiber.App {
	loc, err := NewLocales(locales.FS, nil)
	require.NoError(t, err)
	kit := NewKit("development", strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), loc, nil)
	app := fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
	app.Use(kit.InputHeaders(), kit.InputFields())
	app.All("/*", func(c fiber.Ctx) error {
		return c.JSON(fiber.Map{"q": c.Query("q"), "flash": c.Cookies("flash"), "token": c.Query("pp-token"), "body": string(c.Body())})
	})
	return app
}

func TestTheEdgeRefusesABadTextBeforeAnyHandlerAndNamesIt(t *testing.T) {
	t.Parallel()
	app := edgeApp(t)
	cases := []struct {
		name   string
		req    func() *http.Request
		status int
		field  string
	}{
		{"a NUL in a query parameter", func() *http.Request {
			return httptest.NewRequest(http.MethodGet, "/api/x?q="+url.QueryEscape("a\x00b"), nil)
		}, 400, "q"},
		{"a NUL in the path", func() *http.Request { return httptest.NewRequest(http.MethodGet, "/api/a%00b", nil) }, 400, "path"},
		{"a C1 control in a header the app reads", func() *http.Request {
			r := httptest.NewRequest(http.MethodGet, "/api/x", nil)
			r.Header.Set("Idempotency-Key", "a\u0085b")
			return r
		}, 400, "Idempotency-Key"},
		{"a NUL in a form field", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader("name="+url.QueryEscape("a\x00b")))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}, 400, "name"},
		{"a NUL escape in a JSON body", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader(`{"comment":"ok\u0000"}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, 400, "comment"},
		{"JSON sent as text", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader(`["a\u0000"]`))
			r.Header.Set("Content-Type", "text/plain")
			return r
		}, 400, "0"},
		{"a text body with a NUL", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader("a\x00b"))
			r.Header.Set("Content-Type", "text/plain")
			return r
		}, 400, "body"},
		{"a body over what any call takes", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader(`{"a":"`+strings.Repeat("x", maxEdgeJSON)+`"}`))
			r.Header.Set("Content-Type", "application/json")
			return r
		}, 413, ""},
		{"a query parameter too long", func() *http.Request {
			return httptest.NewRequest(http.MethodGet, "/api/x?q="+strings.Repeat("x", maxQueryText+1), nil)
		}, 400, "q"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := app.Test(tc.req())
			require.NoError(t, err)
			body, _ := io.ReadAll(res.Body)
			require.Equal(t, tc.status, res.StatusCode, string(body))
			var api APIError
			require.NoError(t, json.Unmarshal(body, &api), string(body))
			assert.Equal(t, "ClientError", api.Name)
			if tc.field != "" {
				require.NotEmpty(t, api.Details)
				assert.Equal(t, tc.field, api.Details[0].Field)
			}
		})
	}
}

func TestTheEdgeLeavesTokensToTheirRuleAndDropsBrokenCookies(t *testing.T) {
	t.Parallel()
	app := edgeApp(t)
	req := httptest.NewRequest(http.MethodGet, "/api/x?q=fine&pp-token="+url.QueryEscape("not\x00a-token"), nil)
	req.Header.Set("Cookie", "flash=error|a\u202eb")
	res, err := app.Test(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var seen map[string]string
	require.NoError(t, json.NewDecoder(res.Body).Decode(&seen))
	assert.Equal(t, "fine", seen["q"])
	assert.Equal(t, "not\x00a-token", seen["token"], "the pp-token rule, not the edge, says a bad token is absent")
	assert.Empty(t, seen["flash"], "a broken cookie counts as absent")
}
