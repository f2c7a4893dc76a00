package web

import (
	"context"
	"database/sql/driver"
	"errors"
	"net"
	"strings"
	"syscall"

	"github.com/gofiber/fiber/v3"
)

// Error is the one error type handlers return: the spec's catalogue (section 8) maps it to
// {"name","message","statusCode","details"} for APIs and to the error page for pages.
type Error struct {
	Status  int
	ID      string         // message id in locales/; translated into the request's language
	Data    map[string]any // template data for ID
	Message string         // literal message, used when ID is empty (spec texts such as "answer payload can't be null!")
	Details []Detail
	Body    map[string]any // extra fields for the client, sent as the API error's "data"
	Err     error          // the cause, logged for 5xx, never shown

	unexpected bool // a page failed while rendering
}

// Detail is one entry of an API error's details, typically one invalid field.
type Detail struct {
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Code    string `json:"code,omitempty"`
	id      string
	data    map[string]any
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.ID
	}
	if e.Err != nil {
		return msg + ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Fail is a client error whose message is the translated id.
func Fail(status int, id string, data map[string]any) *Error {
	return &Error{Status: status, ID: id, Data: data}
}

// Literal is a client error whose message is a fixed contract text of the spec.
func Literal(status int, message string) *Error {
	return &Error{Status: status, Message: message}
}

// Invalid is a 400 naming the field that is wrong; more fields may be added with Also.
func Invalid(field, id string, data map[string]any) *Error {
	return &Error{Status: fiber.StatusBadRequest, ID: id, Data: data, Details: []Detail{{Field: field, Code: "invalid", id: id, data: data}}}
}

// Also appends another invalid field to a 400.
func (e *Error) Also(field, id string, data map[string]any) *Error {
	e.Details = append(e.Details, Detail{Field: field, Code: "invalid", id: id, data: data})
	return e
}

// WithCode sets a machine-readable code on every detail (and adds one detail if none).
func (e *Error) WithCode(code string) *Error {
	if len(e.Details) == 0 {
		e.Details = []Detail{{id: e.ID, data: e.Data, Message: e.Message}}
	}
	for i := range e.Details {
		e.Details[i].Code = code
	}
	return e
}

// Code is the error's machine-readable code (its first detail's), "" when it has none.
func (e *Error) Code() string {
	if len(e.Details) == 0 {
		return ""
	}
	return e.Details[0].Code
}

// FieldErrors returns the translated message of each invalid field, for inline form errors.
func (e *Error) FieldErrors(tr func(string, map[string]any, any) string) map[string]string {
	out := map[string]string{}
	for _, d := range e.Details {
		if d.Field != "" {
			if _, ok := out[d.Field]; !ok {
				out[d.Field] = d.translated(tr)
			}
		}
	}
	return out
}

func (d Detail) translated(tr func(string, map[string]any, any) string) string {
	if d.id != "" {
		return tr(d.id, d.data, nil)
	}
	return d.Message
}

// Unauthorized is the 401 of an API called without a valid pp-token.
func Unauthorized() *Error { return Fail(fiber.StatusUnauthorized, "error.unauthorized", nil) }

// NotFound is a 404 that never says whether the thing exists elsewhere (another panel).
func NotFound() *Error { return Fail(fiber.StatusNotFound, "error.not_found", nil) }

// Internal wraps an unexpected failure; the cause is logged, the member sees the spec's text.
func Internal(err error) *Error { return &Error{Status: fiber.StatusInternalServerError, Err: err} }

// ErrNotFound marks a lookup that found nothing a module may show: the error handler answers
// it with the same 404 as an unknown path (another panel's data is never told apart).
var ErrNotFound = errors.New("not found")

// ErrUnavailable marks a failure to reach the database; pages then go to /maintenance.
var ErrUnavailable = errors.New("service unavailable")

// Unavailable tells whether err means the database (or another backing service) cannot be reached.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "failed to connect") || strings.Contains(msg, "connection refused") || strings.Contains(msg, "sql: database is closed")
}

// APIError is the JSON shape of the spec's error catalogue.
type APIError struct {
	Name       string         `json:"name"`
	Message    string         `json:"message"`
	StatusCode int            `json:"statusCode"`
	Details    []Detail       `json:"details"`
	Data       map[string]any `json:"data,omitempty"`
}

// ToAPI renders e in a language: ClientError for 4xx with the first detail's message,
// ServerError for 5xx, and 500 always says 'Oops, something went wrong'.
func (e *Error) ToAPI(tr func(string, map[string]any, any) string) APIError {
	out := APIError{StatusCode: e.Status, Details: []Detail{}}
	if e.Status >= 500 {
		out.Name = "ServerError"
		out.Message = tr("error.server", nil, nil)
		if e.Status == fiber.StatusInternalServerError {
			out.Message = "Oops, something went wrong"
		} else if e.ID != "" {
			out.Message = tr(e.ID, e.Data, nil)
		}
		return out
	}
	out.Name = "ClientError"
	out.Data = e.Body
	for _, d := range e.Details {
		d.Message = d.translated(tr)
		out.Details = append(out.Details, d)
	}
	switch {
	case len(out.Details) > 0 && out.Details[0].Message != "":
		out.Message = out.Details[0].Message
	case e.ID != "":
		out.Message = tr(e.ID, e.Data, nil)
	default:
		out.Message = e.Message
	}
	return out
}

// AsError turns anything a handler returned into an *Error.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, ErrNotFound) {
		return NotFound()
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		switch fe.Code {
		case fiber.StatusNotFound:
			return NotFound()
		case fiber.StatusMethodNotAllowed:
			return Fail(fe.Code, "error.method_not_allowed", nil)
		case fiber.StatusRequestEntityTooLarge:
			return Fail(fe.Code, "error.too_large", nil)
		case fiber.StatusUnsupportedMediaType:
			return Fail(fe.Code, "error.unsupported_media_type", nil)
		case fiber.StatusTooManyRequests:
			return Fail(fe.Code, "error.rate_limited", nil)
		}
		if fe.Code < 500 {
			return Fail(fe.Code, "error.bad_request", nil)
		}
		return &Error{Status: fe.Code, Err: fe}
	}
	if Unavailable(err) {
		return &Error{Status: fiber.StatusBadGateway, ID: "error.unavailable", Err: err}
	}
	return Internal(err)
}

// WorksWithoutDatabase names the paths that must answer while the database is down:
// health checks, static files and the maintenance page.
func WorksWithoutDatabase(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == "/maintenance" || strings.HasPrefix(path, "/static/") || path == "/favicon.ico"
}
