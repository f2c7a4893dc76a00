package apidocs

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheEmbeddedDocumentLoadsAndValidates(t *testing.T) {
	t.Parallel()
	doc, err := Load()
	require.NoError(t, err)
	require.NotEmpty(t, doc.JSON)
}

// TestEveryResponseObjectInTheDocumentIsClosedAndListsItsRequiredFields holds the document to
// the exact contract (issue 31): an answer with a misspelt or undocumented field fails the
// contract check only when every object it may hold is closed and names the fields it always
// has. So every object schema reachable from a response (nested properties, array items,
// map values, allOf/oneOf/anyOf members, shared components) must say additionalProperties
// explicitly (false, or a schema or true for a map that is free-form by nature, with a
// description saying why), and an object with properties must list its required ones, or
// carry x-all-optional: true with a description of why none is always sent.
func TestEveryResponseObjectInTheDocumentIsClosedAndListsItsRequiredFields(t *testing.T) {
	t.Parallel()
	doc, err := Load()
	require.NoError(t, err)

	problems := responseObjectProblems(doc.T)
	assert.Empty(t, problems, "response object schemas that are not closed or do not list their required fields:\n%s", strings.Join(problems, "\n"))
}

// TestTheResponseObjectRuleFindsEveryKindOfOpenObject shows the walk above reaches each place
// an object can hide in a response, and accepts each explicit way of being closed or open.
func TestTheResponseObjectRuleFindsEveryKindOfOpenObject(t *testing.T) {
	t.Parallel()
	closed := `type: object
      additionalProperties: false
      required: [a]
      properties: {a: {type: string}}`
	cases := []struct {
		name   string
		schema string
		want   []string // substrings of the problems, in order; none means the schema passes
	}{
		{"a closed object with its required fields passes", closed, nil},
		{"an object without additionalProperties fails", `type: object
      required: [a]
      properties: {a: {type: string}}`, []string{"does not set additionalProperties"}},
		{"an object with properties but no required list fails", `type: object
      additionalProperties: false
      properties: {a: {type: string}}`, []string{"lists no required fields"}},
		{"an object whose every field is optional passes when it says so and why", `type: object
      additionalProperties: false
      x-all-optional: true
      description: Only the fields the caller changed come back.
      properties: {a: {type: string}}`, nil},
		{"x-all-optional without a description of why fails", `type: object
      additionalProperties: false
      x-all-optional: true
      properties: {a: {type: string}}`, []string{"x-all-optional without a description"}},
		{"a map that is free-form by nature passes with a value schema and a description", `type: object
      description: Translations keyed by language code.
      additionalProperties: {type: string}`, nil},
		{"an open map without a description of why fails", `type: object
      additionalProperties: true`, []string{"free-form without a description"}},
		{"an empty object without additionalProperties fails", `type: object`, []string{"does not set additionalProperties"}},
		{"a nested object fails", `type: object
      additionalProperties: false
      required: [a]
      properties: {a: {type: object, properties: {b: {type: string}}}}`, []string{".a: does not set additionalProperties", ".a: lists no required fields"}},
		{"array items fail", `type: array
      items: {type: object, required: [b], properties: {b: {type: string}}}`, []string{"[]: does not set additionalProperties"}},
		{"a map's values fail", `type: object
      description: Keyed by question id.
      additionalProperties: {type: object, required: [b], properties: {b: {type: string}}}`, []string{"{}: does not set additionalProperties"}},
		{"allOf, oneOf and anyOf members fail", `oneOf:
        - {type: 'null'}
        - allOf: [{type: object, required: [b], properties: {b: {type: string}}}]
        - anyOf: [{type: object, additionalProperties: false, properties: {c: {type: string}}}]`,
			[]string{"oneOf[1].allOf[0]: does not set additionalProperties", "oneOf[2].anyOf[0]: lists no required fields"}},
		{"a shared component is reported once under its own name", `type: object
      additionalProperties: false
      required: [a, b]
      properties:
        a: {$ref: '#/components/schemas/Open'}
        b: {type: array, items: {$ref: '#/components/schemas/Open'}}`, []string{"#/components/schemas/Open: does not set additionalProperties"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec := `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Subject'
components:
  schemas:
    Open:
      type: object
      required: [z]
      properties: {z: {type: string}}
    Subject:
      ` + tc.schema + "\n"
			loader := openapi3.NewLoader()
			t3, err := loader.LoadFromData([]byte(spec))
			require.NoError(t, err)
			require.NoError(t, t3.Validate(loader.Context))
			got := responseObjectProblems(t3)
			if len(tc.want) == 0 {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, len(tc.want), "%s", strings.Join(got, "\n"))
			for i, w := range tc.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}

// responseObjectProblems walks every response schema of the document and names each object
// schema that is not closed or lists no required fields, one line each, sorted. A named
// component is walked (and reported) once, under its own name.
func responseObjectProblems(doc *openapi3.T) []string {
	w := &schemaWalker{seen: map[string]bool{}, problems: map[string]bool{}}
	for _, p := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(p).Operations() {
			if op.Responses == nil {
				continue
			}
			for status, res := range op.Responses.Map() {
				if res == nil || res.Value == nil {
					continue
				}
				for media, mt := range res.Value.Content {
					if mt == nil {
						continue
					}
					w.walk(fmt.Sprintf("%s %s %s %s", method, p, status, media), mt.Schema)
				}
			}
		}
	}
	out := make([]string, 0, len(w.problems))
	for p := range w.problems {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

type schemaWalker struct {
	seen     map[string]bool
	problems map[string]bool
}

func (w *schemaWalker) walk(where string, ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil {
		return
	}
	if ref.Ref != "" {
		if w.seen[ref.Ref] {
			return
		}
		w.seen[ref.Ref] = true
		where = ref.Ref
	}
	s := ref.Value
	if isObject(s) {
		w.checkObject(where, s)
	}
	for _, name := range sortedKeys(s.Properties) {
		w.walk(where+"."+name, s.Properties[name])
	}
	w.walk(where+"[]", s.Items)
	for i, m := range s.PrefixItems {
		w.walk(fmt.Sprintf("%s[%d]", where, i), m)
	}
	w.walk(where+"{}", s.AdditionalProperties.Schema)
	for i, m := range s.AllOf {
		w.walk(fmt.Sprintf("%s.allOf[%d]", where, i), m)
	}
	for i, m := range s.OneOf {
		w.walk(fmt.Sprintf("%s.oneOf[%d]", where, i), m)
	}
	for i, m := range s.AnyOf {
		w.walk(fmt.Sprintf("%s.anyOf[%d]", where, i), m)
	}
}

func (w *schemaWalker) checkObject(where string, s *openapi3.Schema) {
	ap := s.AdditionalProperties
	switch {
	case ap.Has == nil && ap.Schema == nil:
		w.problems[where+": does not set additionalProperties (false, or a schema for a map)"] = true
	case (ap.Schema != nil || *ap.Has) && strings.TrimSpace(s.Description) == "":
		w.problems[where+": is free-form without a description of why"] = true
	}
	if len(s.Properties) == 0 || len(s.Required) > 0 {
		return
	}
	allOptional, _ := s.Extensions["x-all-optional"].(bool)
	switch {
	case !allOptional:
		w.problems[where+": lists no required fields (list them, or say x-all-optional: true and why)"] = true
	case strings.TrimSpace(s.Description) == "":
		w.problems[where+": says x-all-optional without a description of why"] = true
	}
}

func isObject(s *openapi3.Schema) bool {
	return len(s.Properties) > 0 || (s.Type != nil && slices.Contains(s.Type.Slice(), openapi3.TypeObject))
}

func sortedKeys(m openapi3.Schemas) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
