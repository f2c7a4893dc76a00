package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"
)

// The one rule at the edge: every text a request brings (its path, query parameters, form
// fields, the strings and keys of a JSON body, and the headers the app reads) is checked
// here, before any module sees it, so both databases always receive the same strings and
// no module has to remember to check.
//
// Refused with a 400 in the spec's error shape naming the field:
//   - NUL, and any other control character (C0 but tab, line feed and carriage return in
//     form fields and JSON strings, which may be multi-line; DEL; C1);
//   - invalid UTF-8, and JSON \u escapes that are not whole characters (lone surrogates);
//   - the bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), which make a
//     text display as something else;
//   - a text longer than its source allows (maxPathText, maxQueryText, maxHeaderText,
//     maxFieldText), and a JSON key given twice in one object (parsers disagree about
//     which one wins).
//
// Not checked here, by the spec's pp-token rule (section 5): the pp-token header, cookie
// and query parameter, and the token query parameter, which count as absent when they are
// not a pp-token and are only ever compared by hash. Other cookies are the browser's, not
// the member's: one that breaks the rule is dropped from the request (it counts as absent).
const (
	maxPathText   = 2048
	maxQueryText  = 2048
	maxHeaderText = 2048
	// maxFieldText bounds a form field or JSON string; modules bound their fields more tightly
	// (names 100, report texts 1000, text answers 5000).
	maxFieldText = 10_000
	maxKeyText   = 128
	// maxEdgeJSON bounds the JSON bodies the edge reads: the largest any call takes is the
	// feed's skip list (48 KiB); modules bound theirs (MaxJSONBody) before decoding.
	maxEdgeJSON = 64 << 10
)

// checkedHeaders are the request headers the app reads.
var checkedHeaders = []string{
	fiber.HeaderHost, fiber.HeaderUserAgent, fiber.HeaderAcceptLanguage, "X-App-Lang", fiber.HeaderContentType,
	fiber.HeaderReferer, fiber.HeaderOrigin, "Sec-Fetch-Site", "HX-Request", "HX-Current-URL", "HX-Target",
	"Idempotency-Key", CSRFHeader, AppNameHeader,
}

// exemptQuery are the query parameters the pp-token rule governs.
var exemptQuery = map[string]bool{"pp-token": true, "token": true}

// jsonQuery are query parameters whose value is a JSON document (the tracking image's
// eventData): its strings and keys follow the rule too.
var jsonQuery = map[string]bool{"eventData": true}

// errTextRefused marks the edge's refusals, so the error handler can send a form post back
// to its page with the message beside the field.
var errTextRefused = errors.New("text refused at the edge")

// InputHeaders applies the rule to what a request brings before its fields: the path, the
// headers the app reads and the cookies. It runs first, before the Host picks the panel.
func (k *Kit) InputHeaders() fiber.Handler {
	return func(c fiber.Ctx) error {
		if err := checkHeaders(c); err != nil {
			return err
		}
		return c.Next()
	}
}

// InputFields applies the rule to the fields: query parameters, form fields and the body. It
// runs once the panel and the language are known (so a refusal speaks the member's language
// in the panel's look) and before any module.
func (k *Kit) InputFields() fiber.Handler {
	return func(c fiber.Ctx) error {
		if err := checkFields(c); err != nil {
			return err
		}
		return c.Next()
	}
}

func checkHeaders(c fiber.Ctx) error {
	req := c.Request()
	if p := limited(string(req.URI().Path()), false, maxPathText); p != "" {
		return refuse("path", p, maxPathText)
	}
	for _, h := range checkedHeaders {
		if v := req.Header.Peek(h); len(v) > 0 {
			if p := limited(string(v), false, maxHeaderText); p != "" {
				return refuse(h, p, maxHeaderText)
			}
		}
	}
	var bad []string
	req.Header.VisitAllCookie(func(key, value []byte) {
		if string(key) == "pp-token" {
			return
		}
		if textProblem(string(key), false) != "" || limited(string(value), false, maxHeaderText) != "" {
			bad = append(bad, string(key))
		}
	})
	for _, name := range bad {
		req.Header.DelCookie(name)
	}
	return nil
}

func checkFields(c fiber.Ctx) error {
	req := c.Request()
	if err := checkArgs(req.URI().QueryArgs().All(), maxQueryText, false); err != nil {
		return err
	}
	ct := strings.ToLower(string(req.Header.ContentType()))
	switch {
	case strings.HasPrefix(ct, fiber.MIMEApplicationForm):
		return checkArgs(req.PostArgs().All(), maxFieldText, true)
	case strings.HasPrefix(ct, fiber.MIMEMultipartForm):
		form, err := req.MultipartForm()
		if err != nil {
			return nil // the handler that reads the form says what is wrong with it
		}
		for name, values := range form.Value {
			if err := checkField(name, values, maxFieldText); err != nil {
				return err
			}
		}
	default:
		// Every other body is JSON to the calls that read one (some, like the feed's skip
		// list, whatever its content type), or text.
		body := req.Body()
		switch {
		case len(body) == 0:
			return nil
		case len(body) > maxEdgeJSON:
			return Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
		case looksLikeJSON(body):
			return CheckJSON("", body)
		}
		if p := textProblem(string(body), true); p != "" {
			return refuse("body", p, 0)
		}
	}
	return nil
}

// looksLikeJSON: the body's first non-space byte opens a JSON object, array or string.
func looksLikeJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '{' || b[0] == '[' || b[0] == '"')
}

// checkArgs checks query or form arguments; an argument's name is the field.
func checkArgs(args func(yield func(key, value []byte) bool), max int, multiline bool) error {
	var err error
	args(func(key, value []byte) bool {
		name := string(key)
		if p := limited(name, false, maxKeyText); p != "" {
			err = refuse("", p, maxKeyText)
			return false
		}
		if !multiline && exemptQuery[name] {
			return true
		}
		if !multiline && jsonQuery[name] {
			err = CheckJSON(name, value)
			return err == nil
		}
		if p := limited(string(value), multiline, max); p != "" {
			err = refuse(name, p, max)
			return false
		}
		return true
	})
	return err
}

func checkField(name string, values []string, max int) error {
	if p := limited(name, false, maxKeyText); p != "" {
		return refuse("", p, maxKeyText)
	}
	for _, v := range values {
		if p := limited(v, true, max); p != "" {
			return refuse(name, p, max)
		}
	}
	return nil
}

// Problems a text can have.
const (
	problemText      = "text"   // a control character, invalid UTF-8, a bidi override
	problemLength    = "length" // longer than its field allows
	problemDuplicate = "duplicate"
)

// limited is textProblem, and problemLength past max characters.
func limited(s string, multiline bool, max int) string {
	if p := textProblem(s, multiline); p != "" {
		return p
	}
	if len(s) > max && utf8.RuneCountInString(s) > max {
		return problemLength
	}
	return ""
}

// textProblem is problemText when s breaks the rule, "" when it is fine. multiline lets
// tab, line feed and carriage return through (tab always is).
func textProblem(s string, multiline bool) string {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if (b < 0x20 && b != '\t' && !(multiline && (b == '\n' || b == '\r'))) || b == 0x7f {
				return problemText
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return problemText
		}
		if refusedRune(r) {
			return problemText
		}
		i += size
	}
	return ""
}

// refusedRune: C1 controls and the bidirectional embeddings, overrides and isolates.
func refusedRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

func refuse(field, problem string, max int) error {
	var e *Error
	switch problem {
	case problemLength:
		e = Invalid(field, "error.too_long", map[string]any{"Max": max})
	case problemDuplicate:
		e = Invalid(field, "error.duplicate_field", nil)
	default:
		e = Invalid(field, "error.bad_characters", nil)
	}
	e.Err = errTextRefused
	return e
}

// CheckJSON applies the rule to every key and string of a JSON document: field names the
// document (a query parameter holding JSON), "" for a request body, whose fields are named
// by their path (reasonText, answer.most, answers.q1, skip.3). A document that is not JSON
// passes: whoever decodes it says so.
func CheckJSON(field string, doc []byte) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	type level struct {
		object bool
		keys   map[string]bool
		index  int
		key    string // the last key read, in an object
		want   bool   // an object expects a key next
	}
	var stack []*level
	path := func(last string) string {
		parts := make([]string, 0, len(stack)+2)
		if field != "" {
			parts = append(parts, field)
		}
		for i, l := range stack {
			switch {
			case i == len(stack)-1 && last != "":
				parts = append(parts, last)
			case l.object:
				parts = append(parts, l.key)
			default:
				parts = append(parts, strconv.Itoa(l.index))
			}
		}
		return strings.Join(parts, ".")
	}
	start, done := int64(0), false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil && !done {
			return nil // not JSON: the module's decoder refuses it
		}
		if done {
			// A second document after the first (`{...} xx` or `{...}{...}`): whoever decodes
			// the first would never see it.
			return Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
		}
		raw := doc[start:dec.InputOffset()]
		start = dec.InputOffset()
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && !top.object {
					top.index++
				}
				stack = append(stack, &level{object: t == '{', keys: map[string]bool{}, want: t == '{', index: -1})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].want = true
				}
				done = len(stack) == 0
			}
			continue
		case string:
			if top != nil && top.object && top.want {
				if p := jsonTextProblem(t, raw, maxKeyText); p != "" {
					return refuse(path(t), p, maxKeyText)
				}
				// encoding/json matches keys to fields ignoring case, so "amount" and "AMOUNT"
				// are one field given twice, and the last one would win.
				folded := foldKey(t)
				if top.keys[folded] {
					return refuse(path(t), problemDuplicate, 0)
				}
				top.keys[folded], top.key, top.want = true, t, false
				continue
			}
			if top != nil && !top.object {
				top.index++
			}
			if p := jsonTextProblem(t, raw, maxFieldText); p != "" {
				return refuse(path(""), p, maxFieldText)
			}
		default:
			if top != nil && !top.object {
				top.index++
			}
		}
		if top != nil && top.object {
			top.want = true
		}
		done = top == nil // a document that is one string, number, boolean or null
	}
}

// foldKey folds a key as encoding/json does when it matches keys to fields (bytes.EqualFold:
// each rune to the smallest of its Unicode fold set, so "K" and the Kelvin sign are one key).
func foldKey(key string) string {
	var b strings.Builder
	for _, r := range key {
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		b.WriteRune(r)
	}
	return b.String()
}

// jsonTextProblem checks a decoded JSON string. encoding/json turns invalid UTF-8 and lone
// surrogate escapes into U+FFFD silently, so a U+FFFD the raw token does not spell out itself
// (as the character or as \ufffd) is refused as invalid text.
func jsonTextProblem(s string, raw []byte, max int) string {
	if p := limited(s, true, max); p != "" {
		return p
	}
	if strings.ContainsRune(s, utf8.RuneError) && (!utf8.Valid(raw) || strings.Count(s, "\uFFFD") > bytes.Count(raw, []byte("\uFFFD"))+countFold(raw, `\ufffd`)) {
		return problemText
	}
	return ""
}

// countFold counts the case-insensitive occurrences of an ASCII needle.
func countFold(b []byte, needle string) int {
	return bytes.Count(bytes.ToLower(b), []byte(needle))
}

// EdgeRefusal tells whether err is the edge refusing a text.
func EdgeRefusal(err error) bool { return errors.Is(err, errTextRefused) }
