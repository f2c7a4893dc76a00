package web

import (
	"html"
	"net/http"
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
