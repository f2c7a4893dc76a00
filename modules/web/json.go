package web

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v3"
)

// MaxJSONBody bounds every JSON payload a module decodes; a larger one is refused before parsing.
const MaxJSONBody = 16 << 10

// DecodeJSON reads a JSON body into v: a wrong content type is 415, a body over MaxJSONBody
// 413, malformed JSON or anything after the document 400, and a key that names one of v's
// fields in other letters ("AMOUNT" for amount) 400 naming it: encoding/json would take it
// for the field, and the contract's field names are case-sensitive.
func DecodeJSON(c fiber.Ctx, v any) error {
	if !IsJSONRequest(c) {
		return Fail(fiber.StatusUnsupportedMediaType, "error.unsupported_media_type", nil)
	}
	body := c.Body()
	if len(body) > MaxJSONBody {
		return Fail(fiber.StatusRequestEntityTooLarge, "error.too_large", nil)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Fail(fiber.StatusBadRequest, "error.malformed_json", nil)
	}
	return ExactKeys(body, v)
}

// ExactKeys refuses, with a 400 naming it, a key of body that names one of v's fields only when
// case is ignored: call it after decoding a request body into v with encoding/json anywhere
// DecodeJSON is not used (the edge already refuses a key given twice in two spellings, and
// anything after the document).
func ExactKeys(body []byte, v any) error {
	if field := inexactKey(body, reflect.TypeOf(v)); field != "" {
		return Invalid(field, "error.unknown_field", nil)
	}
	return nil
}

// inexactKey is the path of the first key in doc that names a field of t only when case is
// ignored, "" when there is none. Keys that name no field at all are left alone, as
// encoding/json leaves them; so are values a type decodes itself (json.Unmarshaler).
func inexactKey(doc []byte, t reflect.Type) string {
	if !mayHaveFields(t) {
		return ""
	}
	var tree any
	if json.Unmarshal(doc, &tree) != nil {
		return ""
	}
	return inexactKeyIn(tree, t, "")
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

func inexactKeyIn(v any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return ""
	}
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		fields := fieldsOf(t)
		for key, val := range obj {
			if ft, ok := fields.exact[key]; ok {
				if p := inexactKeyIn(val, ft, join(key)); p != "" {
					return p
				}
				continue
			}
			if _, ok := fields.folded[foldKey(key)]; ok {
				return join(key)
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		for key, val := range obj {
			if p := inexactKeyIn(val, t.Elem(), join(key)); p != "" {
				return p
			}
		}
	case reflect.Slice, reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return ""
		}
		for i, val := range list {
			if p := inexactKeyIn(val, t.Elem(), join(strconv.Itoa(i))); p != "" {
				return p
			}
		}
	}
	return ""
}

// mayHaveFields tells whether t holds a struct anywhere a JSON object could reach.
func mayHaveFields(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

// jsonFields are a struct's JSON names as encoding/json sees them: by exact name (to the
// field's type) and folded.
type jsonFields struct {
	exact  map[string]reflect.Type
	folded map[string]bool
}

var fieldCache sync.Map // reflect.Type → jsonFields

func fieldsOf(t reflect.Type) jsonFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(jsonFields)
	}
	f := jsonFields{exact: map[string]reflect.Type{}, folded: map[string]bool{}}
	collectFields(t, f, 0)
	fieldCache.Store(t, f)
	return f
}

// collectFields follows encoding/json's rules closely enough for names: exported fields,
// the tag's name or the field's, "-" skipped, untagged embedded structs promoted (the
// shallower name wins).
func collectFields(t reflect.Type, f jsonFields, depth int) {
	if depth > 8 {
		return
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if sf.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				collectFields(et, f, depth+1)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, taken := f.exact[name]; !taken || depth == 0 {
			f.exact[name] = ft
		}
		f.folded[foldKey(name)] = true
	}
}
