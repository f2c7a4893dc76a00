package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/canvass/canvass/views/pages"
	"github.com/gofiber/fiber/v3"
)

// ErrorHandler is the one place errors become responses (spec section 8): APIs answer
// {"name","message","statusCode","details"}; pages get the error page, /maintenance when the
// database is unreachable, or the bare "Unexpected Application Error!" page when rendering failed.
func (k *Kit) ErrorHandler(c fiber.Ctx, err error) error {
	e := AsError(err)
	if e.Status >= 500 {
		k.Log.Error("request failed", "request_id", c.RequestID(), "method", c.Method(), "path", c.Path(), "status", e.Status, "err", err)
	}
	if e.Status == fiber.StatusTooManyRequests && c.GetRespHeader(fiber.HeaderRetryAfter) == "" {
		c.Set(fiber.HeaderRetryAfter, "60")
	}
	tr := k.Tr(c)
	if IsAPI(c) || (c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead && IsJSONRequest(c)) {
		return c.Status(e.Status).JSON(e.ToAPI(tr))
	}
	if EdgeRefusal(err) && c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return k.formRefused(c, e)
	}
	if e.Status == fiber.StatusBadGateway && c.Path() != "/maintenance" {
		return c.Redirect().Status(fiber.StatusSeeOther).To("/maintenance")
	}
	if e.unexpected {
		return k.unexpected(c, e)
	}
	props := pages.ErrorProps{Title: tr("error.default_title", nil, nil), Description: tr("error.default_description", nil, nil), Button: tr("error.default_button", nil, nil)}
	if e.Status < 500 {
		props.Title = e.ToAPI(tr).Message
		if e.ID == "error.not_found" {
			props.Title = tr("error.page_not_found", nil, nil)
		}
	}
	if rerr := k.Render(c, e.Status, pages.Error(props)); rerr != nil {
		return k.unexpected(c, AsError(rerr))
	}
	return nil
}

// unexpected writes the spec's "Unexpected Application Error!" page without any template, so it
// still works when templates are what failed.
func (k *Kit) unexpected(c fiber.Ctx, e *Error) error {
	detail := http.StatusText(e.Status)
	if k.Env != "production" && e.Err != nil {
		detail = e.Err.Error()
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unexpected Application Error!</title></head>`)
	b.WriteString(`<body style="font-family:sans-serif;margin:2rem"><h2>Unexpected Application Error!</h2><h3 style="font-style:italic">`)
	b.WriteString(html.EscapeString(detail))
	b.WriteString(`</h3></body></html>`)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	// The inline style above needs its own CSP allowance; this page carries no scripts at all.
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; object-src 'none'")
	return c.Status(e.Status).SendString(b.String())
}

// fieldErrorsCookie carries the fields of a form the edge refused back to the form's page:
// field name to message id, and the message's numbers (FIELD.Max=100), shown beside each field.
const fieldErrorsCookie = "field-errors"

// fieldNameRE bounds the field names the cookie may carry (it comes back from the browser);
// dataKeyRE the names of a message's numbers (Max, Min), carried as FIELD.Key.
var (
	fieldNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	dataKeyRE   = regexp.MustCompile(`^[A-Z][A-Za-z]{0,15}$`)
)

// formRefused sends a form post whose text the edge refused back to the page it came from,
// with a toast and the message beside the field (components.Input shows it), rather than an
// error page that loses the form. An htmx request gets the toast in place.
func (k *Kit) formRefused(c fiber.Ctx, e *Error) error {
	tr := k.Tr(c)
	if IsHTMX(c) {
		trigger, _ := json.Marshal(map[string]any{"toast": map[string]string{"message": e.ToAPI(tr).Message, "type": "error"}})
		c.Set("HX-Trigger", string(trigger))
		c.Set("HX-Reswap", "none")
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(fiber.StatusOK).SendString("")
	}
	fields := url.Values{}
	for _, d := range e.Details {
		if d.Field == "" || !fieldNameRE.MatchString(d.Field) || d.id == "" {
			continue
		}
		fields.Set(d.Field, d.id)
		for k, v := range d.data {
			if n, ok := v.(int); ok && dataKeyRE.MatchString(k) {
				fields.Set(d.Field+"."+k, strconv.Itoa(n))
			}
		}
	}
	if len(fields) > 0 {
		k.SetCookie(c, &fiber.Cookie{Name: fieldErrorsCookie, Value: fields.Encode(), MaxAge: 60})
	}
	k.FlashNext(c, "error", "error.bad_form")
	back := LocalPath(c, string(c.Request().Header.Referer()))
	if back == "" {
		back = "/"
	}
	return c.Redirect().Status(fiber.StatusSeeOther).To(back)
}

// sentBackFields reads the field errors a refused form brought back, translated; only
// error ids and field names of the expected shape are taken from the cookie.
func (k *Kit) sentBackFields(c fiber.Ctx, translate func(string, map[string]any, any) string) map[string]string {
	raw := c.Cookies(fieldErrorsCookie)
	if raw == "" {
		return nil
	}
	k.ClearCookie(c, fieldErrorsCookie)
	v, err := url.ParseQuery(raw)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for field, ids := range v {
		if !fieldNameRE.MatchString(field) || !strings.HasPrefix(ids[0], "error.") {
			continue
		}
		data := map[string]any{}
		for key, vals := range v {
			name, ok := strings.CutPrefix(key, field+".")
			if n, err := strconv.Atoi(vals[0]); ok && err == nil && dataKeyRE.MatchString(name) {
				data[name] = n
			}
		}
		out[field] = translate(ids[0], data, nil)
	}
	return out
}
