package clientreports

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
)

// Levels are the report levels, as the console names them: the reporter sends "error" for
// uncaught errors, unhandled rejections and console.error.
var Levels = []string{"error", "warn", "info", "log"}

// Bounds of a report's fields. The reporter clips to them before sending (islands/lib/report.ts),
// so a browser's report never meets them; a larger one is a 400 naming the field.
const (
	MaxHref      = 2048
	MaxName      = 200
	MaxMessage   = 2000
	MaxSource    = 2048
	MaxStack     = 8000
	MaxArguments = 20   // values of a console call
	MaxArgsText  = 8000 // the arguments as compact JSON, in bytes
	MaxPosition  = 10_000_000
	// MaxBody bounds the whole body (413): the fields' bounds with room for JSON escapes.
	MaxBody = 32 << 10
)

// Payload is one report as the spec sends it: href, name, message, source, stack, lineno,
// colno for an error; href and arguments for a console call.
type Payload struct {
	Level     string
	Href      string
	Name      string
	Message   string
	Source    string
	Stack     string
	Lineno    int
	Colno     int
	Arguments string // the console call's arguments as compact JSON, "" for an error
}

// Parse checks a report: the level, the body (a JSON object of at most MaxBody bytes), each
// field's type and size. Every wrong field is named in one 400; fields it does not know are
// ignored, so a newer reporter's extras do not lose the report.
func Parse(level string, body []byte) (Payload, error) {
	if !slices.Contains(Levels, level) {
		return Payload{}, web.Invalid("level", "error.client_report_level", map[string]any{"Levels": strings.Join(Levels, ", ")})
	}
	if len(body) > MaxBody {
		return Payload{}, web.Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return Payload{}, web.Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	p := Payload{Level: level}
	var bad *web.Error // every wrong field, named in one 400
	for _, f := range []struct {
		name string
		max  int
		to   *string
	}{
		{"href", MaxHref, &p.Href}, {"name", MaxName, &p.Name}, {"message", MaxMessage, &p.Message},
		{"source", MaxSource, &p.Source}, {"stack", MaxStack, &p.Stack},
	} {
		raw, ok := fields[f.name]
		if !ok || isNull(raw) {
			continue
		}
		if err := json.Unmarshal(raw, f.to); err != nil {
			bad = also(bad, web.Invalid(f.name, "error.must_be_text", nil))
		} else if utf8.RuneCountInString(*f.to) > f.max {
			bad = also(bad, web.Invalid(f.name, "error.too_long", map[string]any{"Max": f.max}))
		}
	}
	for _, f := range []struct {
		name string
		to   *int
	}{{"lineno", &p.Lineno}, {"colno", &p.Colno}} {
		raw, ok := fields[f.name]
		if !ok || isNull(raw) {
			continue
		}
		n, ok := position(raw)
		if !ok {
			bad = also(bad, web.Invalid(f.name, "error.not_a_number", nil))
		}
		*f.to = n
	}
	if raw, ok := fields["arguments"]; ok && !isNull(raw) {
		args, err := arguments(raw)
		switch {
		case err == errArgsTooLong:
			bad = also(bad, web.Invalid("arguments", "error.too_long", map[string]any{"Max": MaxArgsText}))
		case err != nil:
			bad = also(bad, web.Invalid("arguments", "error.client_report_arguments", map[string]any{"Max": MaxArguments}))
		default:
			p.Arguments = args
		}
	}
	if bad != nil {
		return Payload{}, bad
	}
	if strings.TrimSpace(p.Name+p.Message+p.Stack) == "" && p.Arguments == "" {
		return Payload{}, web.Invalid("message", "error.required", nil)
	}
	return p, nil
}

// also adds e's fields to the 400 so far (nil before the first).
func also(bad, e *web.Error) *web.Error {
	if bad == nil {
		return e
	}
	bad.Details = append(bad.Details, e.Details...)
	return bad
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// position reads a line or column: a whole number from 0 to MaxPosition ("3", "3.0", "-0").
func position(raw json.RawMessage) (int, bool) {
	var num json.Number
	// json.Number would take "3" too: a string is not a position.
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) || json.Unmarshal(raw, &num) != nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(num.String(), 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > MaxPosition {
		return 0, false
	}
	return int(f), true
}

type argsError string

func (e argsError) Error() string { return string(e) }

const (
	errArgsShape   = argsError("arguments must be an array")
	errArgsTooLong = argsError("arguments are too long")
)

// arguments reads a console call's arguments: an array of at most MaxArguments JSON values,
// kept as compact JSON of at most MaxArgsText bytes.
func arguments(raw json.RawMessage) (string, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) > MaxArguments {
		return "", errArgsShape
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return "", errArgsShape
	}
	if b.Len() > MaxArgsText {
		return "", errArgsTooLong
	}
	return b.String(), nil
}

// Fingerprint names what makes two reports the same error: the level and what the error says
// and where it was thrown (not the page it was on, nor who saw it). A source's query string
// and fragment are left out (a cache-busting parameter is the same script). An error with
// nothing but a stack is told apart by the stack's first line; a console call by its arguments.
func (p Payload) Fingerprint() string {
	source, _, _ := strings.Cut(p.Source, "?")
	source, _, _ = strings.Cut(source, "#")
	h := sha256.New()
	parts := []string{p.Level, p.Name, p.Message, source, strconv.Itoa(p.Lineno), strconv.Itoa(p.Colno), p.Arguments}
	if strings.TrimSpace(p.Name+p.Message) == "" {
		first, _, _ := strings.Cut(strings.TrimSpace(p.Stack), "\n")
		parts = append(parts, first)
	}
	for _, s := range parts {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
