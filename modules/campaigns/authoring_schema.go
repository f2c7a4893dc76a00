package campaigns

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema validation: the JSON Schema of the authoring format, and its errors in plain English.

//go:embed schema/campaign.schema.json
var campaignSchemaJSON []byte

const campaignSchemaURL = "https://canvass.local/schema/campaign.schema.json"

// SchemaJSON is the campaign JSON Schema (draft 2020-12) as tenants and editors use it.
func SchemaJSON() []byte { return bytes.Clone(campaignSchemaJSON) }

// campaignSchema is compiled once, on first use; the raw document answers "which fields are
// allowed here" for the did-you-mean hints.
var campaignSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(campaignSchemaJSON))
	if err != nil {
		return nil, fmt.Errorf("campaign schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(campaignSchemaURL, doc); err != nil {
		return nil, fmt.Errorf("campaign schema: %w", err)
	}
	sch, err := c.Compile(campaignSchemaURL)
	if err != nil {
		return nil, fmt.Errorf("campaign schema: %w", err)
	}
	return sch, nil
})

var campaignSchemaDoc = sync.OnceValue(func() map[string]any {
	var doc map[string]any
	_ = json.Unmarshal(campaignSchemaJSON, &doc) // the schema compiled, so it parses
	return doc
})

func (d *authoringDoc) schemaProblems(e *jsonschema.ValidationError) {
	at := pointerOfTokens(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			d.schemaProblems(c)
		}
	case *kind.OneOf, *kind.AnyOf:
		d.alternatives(e, at)
	case *kind.AdditionalProperties:
		allowed := allowedFields(e.SchemaURL)
		for _, p := range k.Properties {
			path := at + "/" + escapePointerToken(p)
			if strings.Contains(e.SchemaURL, "#/$defs/text/") { // a language map's key
				d.add(path, d.lineOf(path), fmt.Sprintf("%q is not a language code such as en or pt-BR", p))
				continue
			}
			d.add(path, d.lineOf(path), fmt.Sprintf("unknown field %q%s", p, didYouMean(p, allowed)))
		}
	case *kind.Required:
		for _, m := range k.Missing {
			d.add(at+"/"+escapePointerToken(m), d.lineOf(at), fmt.Sprintf("required field %q is missing", m))
		}
	case *kind.UniqueItems:
		path := at + "/" + strconv.Itoa(k.Duplicates[1])
		d.add(path, d.lineOf(path), fmt.Sprintf("repeats item %d: each value may appear once", k.Duplicates[0]))
	default:
		d.add(at, d.lineOf(at), schemaMessage(e.ErrorKind))
	}
}

// alternatives explains a failed oneOf/anyOf (a text: string or language map). A branch that
// failed on more than its type is the one the author meant; if every branch failed on type,
// the value has the wrong type for all of them.
func (d *authoringDoc) alternatives(e *jsonschema.ValidationError, at string) {
	if len(e.Causes) == 0 { // oneOf matched twice: cannot happen with this schema
		d.add(at, d.lineOf(at), schemaMessage(e.ErrorKind))
		return
	}
	var wants []string
	got := ""
	for _, branch := range e.Causes {
		leaves := schemaLeafErrors([]*jsonschema.ValidationError{branch})
		typeOnly := len(leaves) > 0
		for _, l := range leaves {
			t, ok := l.ErrorKind.(*kind.Type)
			if !ok || pointerOfTokens(l.InstanceLocation) != at {
				typeOnly = false
				break
			}
			wants = append(wants, t.Want...)
			got = t.Got
		}
		if !typeOnly {
			d.schemaProblems(branch)
			return
		}
	}
	if isTextSchema(e.SchemaURL) {
		d.add(at, d.lineOf(at), fmt.Sprintf("must be a text (a string, or a map of language code to string), got %s", schemaTypeName(got)))
		return
	}
	d.add(at, d.lineOf(at), schemaMessage(&kind.Type{Got: got, Want: wants}))
}

func isTextSchema(url string) bool { return strings.HasSuffix(url, "#/$defs/text") }

// schemaLeafErrors are the errors below grouping nodes.
func schemaLeafErrors(errs []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	for _, e := range errs {
		switch e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
			out = append(out, schemaLeafErrors(e.Causes)...)
		default:
			out = append(out, e)
		}
	}
	return out
}

// patternHints say in words what each pattern of the schema wants.
var patternHints = map[string]string{
	`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`: "must be a lowercase UUID such as 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
	`^[A-Za-z0-9_-]{1,64}$`:  "must be an id of 1 to 64 letters, digits, _ or -",
	`^[a-z]{2}(-[A-Z]{2})?$`: "must be a language code such as en or pt-BR",
	`^\d{1,12}(\.\d{1,3})?$`: `must be a decimal amount as a string such as "0.50" (at most 12 digits and 3 decimals)`,
	`^(https?://|/)\S*$`:     "must be an http(s) URL or a path starting with /, without spaces",
	`^(languageCode|emailValidated|acceptedTermsConditions|metadata\.[A-Za-z0-9_.-]{1,64})$`: "must be a profile field: languageCode, emailValidated, acceptedTermsConditions or metadata.KEY",
}

func schemaMessage(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		var want []string
		for _, w := range k.Want {
			want = append(want, schemaTypeName(w))
		}
		msg := fmt.Sprintf("must be %s, got %s", strings.Join(want, " or "), schemaTypeName(k.Got))
		if slices.Contains(k.Want, "string") && (k.Got == "number" || k.Got == "integer" || k.Got == "boolean") {
			msg += ` (put the value in quotes, e.g. "0.50")`
		}
		return msg
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, showValue(w))
		}
		msg := fmt.Sprintf("must be one of %s; got %s", strings.Join(want, ", "), showValue(k.Got))
		if s, ok := k.Got.(string); ok {
			var names []string
			for _, w := range k.Want {
				if ws, ok := w.(string); ok && ws != "" {
					names = append(names, ws)
				}
			}
			msg += didYouMean(s, names)
		}
		return msg
	case *kind.Pattern:
		if hint, ok := patternHints[k.Want]; ok {
			return fmt.Sprintf("%s; got %q", hint, k.Got)
		}
		return fmt.Sprintf("%q does not match the pattern %s", k.Got, k.Want)
	case *kind.Format:
		if k.Want == "date-time" {
			return fmt.Sprintf("must be a date and time with a zone such as 2025-03-01T09:00:00Z; got %s", showValue(k.Got))
		}
		return fmt.Sprintf("must be a valid %s; got %s", k.Want, showValue(k.Got))
	case *kind.MinItems:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("needs at least %d items, has %d", k.Want, k.Got)
	case *kind.MaxItems:
		return fmt.Sprintf("may have at most %d items, has %d", k.Want, k.Got)
	case *kind.MinLength:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters long, is %d", k.Want, k.Got)
	case *kind.MaxLength:
		return fmt.Sprintf("must be at most %d characters long, is %d", k.Want, k.Got)
	case *kind.MinProperties:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("needs at least %d entries, has %d", k.Want, k.Got)
	case *kind.Minimum:
		return fmt.Sprintf("must be at least %s, got %s", k.Want.FloatString(-1), k.Got.FloatString(-1))
	case *kind.Maximum:
		return fmt.Sprintf("must be at most %s, got %s", k.Want.FloatString(-1), k.Got.FloatString(-1))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("must be more than %s, got %s", k.Want.FloatString(-1), k.Got.FloatString(-1))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("must be less than %s, got %s", k.Want.FloatString(-1), k.Got.FloatString(-1))
	case *kind.FalseSchema:
		return "is not allowed here"
	}
	return k.LocalizedString(message.NewPrinter(language.English))
}

func schemaTypeName(t string) string {
	switch t {
	case "string":
		return "a string"
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	case "object":
		return "a mapping of fields"
	case "array":
		return "a list"
	case "boolean":
		return "true or false"
	case "null":
		return "empty (null)"
	}
	return t
}

func showValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
