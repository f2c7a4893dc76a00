package campaigns

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/canvass/canvass/modules/web"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// The authoring format: a campaign is one YAML or JSON document, checked against the JSON
// Schema below (structure, types, enums, patterns, unknown fields) and then by the semantic
// checks of checkDefinition (references between questions, options and routes, per-control
// rules, dates, languages, money). Every problem names the file, the line and the JSON
// pointer of the value, so a tenant can fix a file in one pass.

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

// Problem is one thing wrong with a campaign file.
type Problem struct {
	File    string
	Line    int    // 1-based; 0 when unknown
	Path    string // JSON pointer of the value, e.g. /questions/2/answers/0/id; "" for the document
	Message string
}

// String is "file:line: /path: message", leaving out what is unknown.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			b.WriteString(":" + strconv.Itoa(p.Line))
		}
		b.WriteString(": ")
	} else if p.Line > 0 {
		b.WriteString("line " + strconv.Itoa(p.Line) + ": ")
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems are every problem found in a campaign file (or a batch of them), in line order.
type Problems struct {
	List []Problem
}

// Error lists the problems one per line.
func (p *Problems) Error() string {
	lines := make([]string, len(p.List))
	for i, pr := range p.List {
		lines[i] = pr.String()
	}
	return strings.Join(lines, "\n")
}

// ParseFile reads one campaign from YAML (.yaml, .yml) or JSON (.json), chosen by the name's
// extension, checks it against the schema and the semantic rules and decodes it. Any problem
// gives a *Problems holding all of them.
func ParseFile(name string, data []byte) (*Definition, error) {
	d := &authoringDoc{file: name, lines: map[string]int{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var value any
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		value = d.fromYAML(data)
	case ".json":
		value = d.fromJSON(data)
	default:
		d.add("", 0, "unsupported file type: use .yaml, .yml or .json")
	}
	if len(d.problems) > 0 {
		return nil, d.result()
	}

	sch, err := campaignSchema()
	if err != nil {
		return nil, err
	}
	if err := sch.Validate(value); err != nil {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return nil, fmt.Errorf("validate %s: %w", name, err)
		}
		d.schemaProblems(ve)
	}
	schemaFailed := len(d.problems) > 0

	if schemaFailed {
		// Drop the values the schema refused, so the rest still decodes and gets its
		// semantic checks: the author sees every problem in one pass.
		for _, p := range d.problems {
			value = pruneValue(value, p.Path)
		}
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", name, err)
	}
	def := new(Definition)
	if err := json.Unmarshal(raw, def); err != nil {
		if !schemaFailed {
			d.add("", 0, "cannot read the campaign: "+err.Error())
		}
		return nil, d.result()
	}
	for _, is := range checkDefinition(def) {
		if schemaFailed && d.coveredBySchema(is.Path) {
			continue // a schema problem at, inside or around the value comes first
		}
		d.add(is.Path, d.lineOf(cmp.Or(is.LineAt, is.Path)), is.Message)
	}
	if len(d.problems) > 0 {
		return nil, d.result()
	}
	return def, nil
}

// authoringDoc collects the problems of one file and knows the line of every value.
type authoringDoc struct {
	file     string
	lines    map[string]int // JSON pointer -> line of the member's key, or of the item
	problems []Problem
	nodes    int
}

// maxAuthoringNodes bounds a document (and YAML alias expansion).
const maxAuthoringNodes = 200_000

func (d *authoringDoc) add(path string, line int, msg string) {
	for _, p := range d.problems {
		if p.Path == path && p.Message == msg {
			return
		}
	}
	d.problems = append(d.problems, Problem{File: d.file, Line: line, Path: path, Message: msg})
}

func (d *authoringDoc) result() *Problems {
	sort.SliceStable(d.problems, func(i, j int) bool {
		a, b := d.problems[i], d.problems[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Path < b.Path
	})
	return &Problems{List: d.problems}
}

// lineOf is the line of the value at path, or of its nearest ancestor that exists.
func (d *authoringDoc) lineOf(path string) int {
	for {
		if l, ok := d.lines[path]; ok {
			return l
		}
		if path == "" {
			return 0
		}
		path = path[:strings.LastIndexByte(path, '/')]
	}
}

// coveredBySchema: a schema problem at the value, inside it or around it is reported instead
// of a semantic one (fix the structure first).
func (d *authoringDoc) coveredBySchema(path string) bool {
	for _, p := range d.problems {
		if p.Path == path || strings.HasPrefix(path, p.Path+"/") || strings.HasPrefix(p.Path, path+"/") {
			return true
		}
	}
	return false
}

func (d *authoringDoc) setLine(path string, line int) {
	if _, ok := d.lines[path]; !ok {
		d.lines[path] = line
	}
}

// --- YAML ---

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// fromYAML converts the document to JSON values itself, so timestamps stay strings and every
// value keeps its line.
func (d *authoringDoc) fromYAML(data []byte) any {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			d.add("", 0, "the file is empty")
			return nil
		}
		d.yamlError(err)
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		d.add("", next.Line, "a file holds one campaign: remove the second document (---)")
	} else if !errors.Is(err, io.EOF) {
		d.yamlError(err)
	}
	return d.yamlValue(&root, "")
}

func (d *authoringDoc) yamlError(err error) {
	msg := err.Error()
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if m := yamlLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			msg := "YAML syntax: " + m[2]
			if strings.Contains(m[2], "did not find expected ',' or '}'") {
				msg += ` (inside {...}, put texts holding ?, :, # or , in quotes)`
			}
			d.add("", n, msg)
		} else if l != "" && l != "yaml: unmarshal errors:" {
			d.add("", 0, "YAML syntax: "+strings.TrimPrefix(l, "yaml: "))
		}
	}
}

func (d *authoringDoc) yamlValue(n *yaml.Node, path string) any {
	d.nodes++
	if d.nodes > maxAuthoringNodes {
		if d.nodes == maxAuthoringNodes+1 {
			d.add("", n.Line, "the document is too large")
		}
		return nil
	}
	d.setLine(path, n.Line)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return d.yamlValue(n.Content[0], path)
	case yaml.AliasNode:
		return d.yamlValue(n.Alias, path)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		first := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				d.add(path, k.Line, "keys must be plain words")
				continue
			}
			if k.ShortTag() == "!!merge" {
				d.add(path, k.Line, "merge keys (<<) are not supported: write the fields out")
				continue
			}
			p := path + "/" + escapePointerToken(k.Value)
			if line, dup := first[k.Value]; dup {
				d.add(p, k.Line, fmt.Sprintf("duplicate key %q (first at line %d)", k.Value, line))
				continue
			}
			first[k.Value] = k.Line
			d.setLine(p, k.Line)
			m[k.Value] = d.yamlValue(v, p)
		}
		return m
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			list = append(list, d.yamlValue(item, path+"/"+strconv.Itoa(i)))
		}
		return list
	case yaml.ScalarNode:
		return d.yamlScalar(n, path)
	}
	return nil
}

func (d *authoringDoc) yamlScalar(n *yaml.Node, path string) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err == nil {
			return b
		}
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		d.add(path, n.Line, fmt.Sprintf("number %s is too large", n.Value))
		return nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err == nil {
			if math.IsInf(f, 0) || math.IsNaN(f) {
				d.add(path, n.Line, fmt.Sprintf("%s is not a number JSON can hold", n.Value))
				return nil
			}
			return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
		}
	}
	// Strings, and timestamps and everything else as written.
	return n.Value
}

// --- JSON ---

// fromJSON decodes with a token stream, noting the line where each member's key or each item
// starts.
func (d *authoringDoc) fromJSON(data []byte) any {
	newlines := []int{}
	for i, b := range data {
		if b == '\n' {
			newlines = append(newlines, i)
		}
	}
	lineAt := func(off int) int { return sort.SearchInts(newlines, off) + 1 }
	next := func(off int) int { // where the next token starts
		for off < len(data) {
			switch data[off] {
			case ' ', '\t', '\r', '\n', ',', ':':
				off++
			default:
				return off
			}
		}
		return off
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	syntax := func(err error) {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			d.add("", lineAt(int(se.Offset)), "JSON syntax: "+se.Error())
			return
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			d.add("", lineAt(len(data)), "JSON syntax: unexpected end of the file")
			return
		}
		d.add("", 0, "JSON syntax: "+err.Error())
	}

	var walk func(path string) (any, bool)
	walk = func(path string) (any, bool) {
		d.nodes++
		if d.nodes > maxAuthoringNodes {
			d.add("", 0, "the document is too large")
			return nil, false
		}
		d.setLine(path, lineAt(next(int(dec.InputOffset()))))
		tok, err := dec.Token()
		if err != nil {
			syntax(err)
			return nil, false
		}
		delim, ok := tok.(json.Delim)
		if !ok {
			if n, isNum := tok.(json.Number); isNum {
				return wholeNumber(n), true
			}
			return tok, true // string, bool or nil
		}
		switch delim {
		case '{':
			m := map[string]any{}
			first := map[string]int{}
			for dec.More() {
				line := lineAt(next(int(dec.InputOffset())))
				kt, err := dec.Token()
				if err != nil {
					syntax(err)
					return nil, false
				}
				key, _ := kt.(string)
				p := path + "/" + escapePointerToken(key)
				v, ok := walk(p)
				if !ok {
					return nil, false
				}
				if l, dup := first[key]; dup {
					d.add(p, line, fmt.Sprintf("duplicate key %q (first at line %d)", key, l))
					continue
				}
				first[key] = line
				d.lines[p] = line
				m[key] = v
			}
			if _, err := dec.Token(); err != nil {
				syntax(err)
				return nil, false
			}
			return m, true
		case '[':
			list := []any{}
			for i := 0; dec.More(); i++ {
				v, ok := walk(path + "/" + strconv.Itoa(i))
				if !ok {
					return nil, false
				}
				list = append(list, v)
			}
			if _, err := dec.Token(); err != nil {
				syntax(err)
				return nil, false
			}
			return list, true
		}
		syntax(fmt.Errorf("unexpected %q", delim))
		return nil, false
	}
	if len(bytes.TrimSpace(data)) == 0 {
		d.add("", 0, "the file is empty")
		return nil
	}
	v, ok := walk("")
	if !ok {
		return nil
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		d.add("", lineAt(next(int(dec.InputOffset()))), "JSON syntax: unexpected text after the campaign")
	}
	return v
}

// pruneValue removes the value at a JSON pointer: a member is deleted, an item becomes null.
func pruneValue(root any, pointer string) any {
	if pointer == "" {
		return root
	}
	toks := strings.Split(pointer[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	node := root
	for i, tok := range toks {
		last := i == len(toks)-1
		switch n := node.(type) {
		case map[string]any:
			if last {
				delete(n, tok)
				return root
			}
			node = n[tok]
		case []any:
			j, err := strconv.Atoi(tok)
			if err != nil || j < 0 || j >= len(n) {
				return root
			}
			if last {
				n[j] = nil
				return root
			}
			node = n[j]
		default:
			return root
		}
	}
	return root
}

// wholeNumber writes an integral number as an integer ("5.0" -> "5"), as the schema counts
// it one and Go's integer fields want it.
func wholeNumber(n json.Number) json.Number {
	if !strings.ContainsAny(string(n), ".eE") {
		return n
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return n
	}
	return json.Number(strconv.FormatInt(int64(f), 10))
}

func escapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func pointerOfTokens(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + escapePointerToken(t))
	}
	return b.String()
}

// --- schema errors in English ---

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

// allowedFields lists the properties the schema at url allows (for did-you-mean).
func allowedFields(url string) []string {
	_, frag, _ := strings.Cut(url, "#")
	var node any = campaignSchemaDoc()
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = m[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
	}
	m, _ := node.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// didYouMean suggests the closest allowed name to a misspelt one.
func didYouMean(got string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		if d := editDistance(strings.ToLower(got), strings.ToLower(n)); d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" || bestD > max(2, len(got)/3) || bestD == 0 && best == got {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// --- semantic checks ---

// defIssue is a problem the schema cannot see. LineAt, when set, is the pointer whose line to
// show (the value at Path may be missing from the file).
type defIssue struct {
	Path    string
	LineAt  string
	Message string
}

// authoringMoneyCurrency is an ISO currency with three decimals, the most any currency has:
// authored amounts are checked against it here, and against the panel's currency at import.
const authoringMoneyCurrency = "BHD"

var campaignUUIDPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// choiceControlTypes answer with option ids of the question's answers.
var choiceControlTypes = []string{ControlRadio, ControlDropdown, ControlCheckbox, ControlImageSelect, ControlMultiImage, ControlLikeDislike, ControlRanking, ControlMostLeast}

var conditionOperators = []string{OpEq, OpNe, OpIn, OpNotIn, OpGt, OpGte, OpLt, OpLte, OpExists, OpNotExists}

type defChecker struct {
	def    *Definition
	qIndex map[string]int // question id -> its first position
	issues []defIssue
}

func (c *defChecker) addf(path, format string, args ...any) {
	c.issues = append(c.issues, defIssue{Path: path, Message: fmt.Sprintf(format, args...)})
}

// jsonPointer builds a JSON pointer from field names and indexes.
func jsonPointer(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			if strings.HasPrefix(p, "/") { // an already built pointer
				b.WriteString(p)
			} else {
				b.WriteString("/" + escapePointerToken(p))
			}
		case int:
			b.WriteString("/" + strconv.Itoa(p))
		}
	}
	return b.String()
}

// checkDefinition runs the rules the schema cannot express: references between questions,
// options, routes and quotas, per-control needs, dates, languages and money. Import runs it
// too, so a Definition built in code meets the same rules as an authored file.
func checkDefinition(def *Definition) []defIssue {
	c := &defChecker{def: def, qIndex: map[string]int{}}
	if !campaignUUIDPattern.MatchString(def.UUID) {
		c.addf("/uuid", "must be a lowercase UUID; got %q", def.UUID)
	}
	if !slices.Contains([]string{TypeSurvey, TypePoll, TypeProfiler, TypeCompetition}, def.Type) {
		c.addf("/type", "must be one of survey, poll, profiler, competition; got %q", def.Type)
	}
	if len(def.Questions) == 0 {
		c.addf("/questions", "must not be empty")
	}
	for i, q := range def.Questions {
		if j, dup := c.qIndex[q.ID]; dup {
			c.addf(jsonPointer("questions", i, "id"), "duplicate question id %q (also at /questions/%d/id)", q.ID, j)
			continue
		}
		c.qIndex[q.ID] = i
	}
	for i := range def.Questions {
		c.question(i)
	}

	for i, cond := range def.Targeting.Profile {
		p := jsonPointer("targeting", "profile", i)
		if cond.Question != "" {
			c.addf(p+"/question", "targeting tests profile fields only: use field, not question")
			continue
		}
		c.condition(p, cond, -1)
	}

	quotaIDs := map[string]int{}
	for i, q := range def.Quotas {
		p := jsonPointer("quotas", i)
		if j, dup := quotaIDs[q.ID]; dup {
			c.addf(p+"/id", "duplicate quota id %q (also at /quotas/%d/id)", q.ID, j)
		} else {
			quotaIDs[q.ID] = i
		}
		if q.Limit < 1 {
			c.addf(p+"/limit", "must be at least 1, got %d", q.Limit)
		}
		for w, cond := range q.When {
			c.condition(jsonPointer(p, "when", w), cond, len(def.Questions)-1)
		}
	}

	if len(def.FooterLinks) > 4 {
		c.addf("/footer_links", "may have at most 4 links, has %d", len(def.FooterLinks))
	}
	if def.OpensAt != nil && def.ClosesAt != nil && !def.ClosesAt.After(*def.OpensAt) {
		c.addf("/closes_at", "must be after opens_at (%s)", def.OpensAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
	}

	isCompetition := def.Type == TypeCompetition || def.Competition != nil
	if def.Type == TypeCompetition && def.Competition == nil {
		c.issues = append(c.issues, defIssue{Path: "/competition", LineAt: "/type", Message: "type competition needs a competition block (prize and winners)"})
	}
	if comp := def.Competition; comp != nil {
		if comp.Winners < 1 {
			c.addf("/competition/winners", "a competition needs at least 1 winner")
		}
		if textIsEmpty(comp.Prize) {
			c.addf("/competition/prize", "a competition needs a prize")
		}
		if comp.PrizeAmount != "" {
			c.money("/competition/prize_amount", comp.PrizeAmount)
		}
	}
	if def.ThankYou.Kind == ThankYouCompetitionInvitation && !isCompetition {
		c.addf("/thank_you/kind", "a competition_invitation thank-you needs a competition")
	}
	if def.ThankYou.OpenInNewTab && def.ThankYou.CompletionURL == "" && def.ThankYou.RedirectURL == "" {
		c.addf("/thank_you/open_in_new_tab", "open_in_new_tab needs a completion_url or redirect_url to open")
	}
	if def.IsWelcome && isCompetition {
		c.addf("/is_welcome", "a welcome campaign cannot be a competition")
	}

	c.languages()
	c.money("/reward", def.Reward)
	return c.issues
}

func textIsEmpty(t Text) bool {
	for _, s := range t {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

func (c *defChecker) money(path, s string) {
	if strings.HasPrefix(strings.TrimSpace(s), "-") {
		c.addf(path, "must not be negative; got %q", s)
		return
	}
	_, err := web.ParseMoney(s, authoringMoneyCurrency)
	switch {
	case err == nil:
	case errors.Is(err, web.ErrMoneyDecimals):
		c.addf(path, "has more than 3 decimals; got %q", s)
	case errors.Is(err, web.ErrMoneyRange):
		c.addf(path, "is too large; got %q", s)
	default:
		c.addf(path, `must be a decimal amount as a string such as "0.50"; got %q`, s)
	}
}

func (c *defChecker) question(i int) {
	q := c.def.Questions[i]
	p := jsonPointer("questions", i)
	if !slices.Contains(ControlTypes, q.ControlType) {
		c.addf(p+"/control_type", "unknown control type %q", q.ControlType)
	}
	c.uniqueOptions(p+"/answers", q.Answers)
	c.uniqueOptions(p+"/rows", q.Rows)
	c.uniqueOptions(p+"/columns", q.Columns)
	c.uniqueOptions(p+"/scale_answers", q.ScaleAnswers)

	switch q.ControlType {
	case ControlRadio, ControlDropdown, ControlCheckbox, ControlImageSelect, ControlMultiImage, ControlRanking, ControlMostLeast:
		if len(q.Answers) < 2 {
			c.addf(p+"/answers", "%s needs at least 2 answers, has %d", q.ControlType, len(q.Answers))
		}
	case ControlLikeDislike:
		if len(q.Answers) != 2 {
			c.addf(p+"/answers", "like_dislike needs exactly 2 answers (like and dislike), has %d", len(q.Answers))
		}
	case ControlGrid:
		if len(q.Rows) < 1 {
			c.addf(p+"/rows", "grid needs at least 1 row")
		}
		if len(q.Columns) < 2 {
			c.addf(p+"/columns", "grid needs at least 2 columns, has %d", len(q.Columns))
		}
	case ControlLikert, ControlSmiley:
		if len(q.ScaleAnswers) < 2 {
			c.addf(p+"/scale_answers", "%s needs at least 2 scale_answers, has %d", q.ControlType, len(q.ScaleAnswers))
		}
		for j, o := range q.ScaleAnswers {
			if o.Value == nil {
				c.issues = append(c.issues, defIssue{Path: jsonPointer(p, "scale_answers", j, "value"), Message: "a scale point needs a value: the number stored as the answer"})
			}
		}
	case ControlSpend:
		if len(q.SpendPeriod) == 0 {
			c.addf(p+"/spend_period", "spend needs spend_period: the periods offered (day, week, month, year)")
		}
	case ControlFrequency:
		if len(q.FreqPeriod) == 0 {
			c.addf(p+"/freq_period", "frequency needs freq_period: the periods offered (day, week, month, year)")
		}
	case ControlSlider, ControlClickBar:
		if q.MinNum == nil || q.MaxNum == nil {
			c.addf(p+"/max_num", "%s needs min_num and max_num: the ends of its range", q.ControlType)
		}
	case ControlNPS:
		if (q.MinNum != nil && *q.MinNum != 0) || (q.MaxNum != nil && *q.MaxNum != 10) {
			c.addf(p+"/min_num", "nps is always scored 0 to 10: leave min_num and max_num out")
		}
	case ControlVideo:
		if strings.TrimSpace(q.VideoID) == "" {
			c.addf(p+"/videoid", "video needs videoid: the video the member watches")
		}
	}
	if q.ControlType == ControlImageSelect || q.ControlType == ControlMultiImage {
		for j, o := range q.Answers {
			if o.Image == nil || strings.TrimSpace(o.Image.URL) == "" {
				c.addf(jsonPointer(p, "answers", j, "image"), "%s answers need an image with a url", q.ControlType)
			}
		}
	}

	if q.ControlType != ControlCheckbox && q.ControlType != ControlMultiImage {
		for j, o := range q.Answers {
			if o.Exclusive {
				c.addf(jsonPointer(p, "answers", j, "exclusive"), "exclusive is only for checkbox and multi_image answers")
			}
		}
	}
	if q.MinNum != nil && q.MaxNum != nil && *q.MinNum > *q.MaxNum {
		c.addf(p+"/min_num", "min_num (%v) is greater than max_num (%v)", *q.MinNum, *q.MaxNum)
	}
	if q.MinChars != nil && q.MaxChars != nil && *q.MinChars > *q.MaxChars {
		c.addf(p+"/min_chars", "min_chars (%d) is greater than max_chars (%d)", *q.MinChars, *q.MaxChars)
	}
	if q.SpendMin != nil && q.SpendMax != nil && *q.SpendMin > *q.SpendMax {
		c.addf(p+"/spend_min", "spend_min (%v) is greater than spend_max (%v)", *q.SpendMin, *q.SpendMax)
	}
	if q.FreqMin != nil && q.FreqMax != nil && *q.FreqMin > *q.FreqMax {
		c.addf(p+"/freq_min", "freq_min (%d) is greater than freq_max (%d)", *q.FreqMin, *q.FreqMax)
	}
	if q.MinAnswers != nil && q.MaxAnswers != nil && *q.MinAnswers > *q.MaxAnswers {
		c.addf(p+"/min_answers", "min_answers (%d) is greater than max_answers (%d)", *q.MinAnswers, *q.MaxAnswers)
	}
	if len(q.Answers) > 0 || slices.Contains(choiceControlTypes, q.ControlType) {
		if q.MaxAnswers != nil && *q.MaxAnswers > len(q.Answers) {
			c.addf(p+"/max_answers", "max_answers (%d) is more than the number of answers (%d)", *q.MaxAnswers, len(q.Answers))
		} else if q.MinAnswers != nil && *q.MinAnswers > len(q.Answers) {
			c.addf(p+"/min_answers", "min_answers (%d) is more than the number of answers (%d)", *q.MinAnswers, len(q.Answers))
		}
	}

	for r, route := range q.Routes {
		rp := jsonPointer(p, "routes", r)
		switch route.Then {
		case ThenSkipTo:
			c.skipTarget(rp, i, route.Target)
		case ThenScreenOut, ThenDisqualify, ThenComplete:
			if route.Target != "" {
				c.addf(rp+"/target", "target is only for then: skip_to")
			}
		default:
			c.addf(rp+"/then", "must be one of screen_out, disqualify, skip_to, complete; got %q", route.Then)
		}
		for w, cond := range route.When {
			c.condition(jsonPointer(rp, "when", w), cond, i)
		}
	}
}

func (c *defChecker) skipTarget(rp string, from int, target string) {
	if target == "" {
		c.issues = append(c.issues, defIssue{Path: rp + "/target", Message: "skip_to needs a target: the id of a later question"})
		return
	}
	to, ok := c.qIndex[target]
	switch {
	case !ok:
		c.addf(rp+"/target", "no question has the id %q", target)
	case to <= from:
		c.addf(rp+"/target", "must name a later question: %q is /questions/%d, this route is on /questions/%d", target, to, from)
	}
}

func (c *defChecker) uniqueOptions(path string, opts []Option) {
	seen := map[string]int{}
	for j, o := range opts {
		if k, dup := seen[o.ID]; dup {
			c.addf(jsonPointer(path, j, "id"), "duplicate option id %q (also at %s)", o.ID, jsonPointer(path, k, "id"))
			continue
		}
		seen[o.ID] = j
	}
}

// condition checks one condition. lastQuestion is the latest question it may read (a route's
// own question); -1 allows none (targeting).
func (c *defChecker) condition(path string, cond Condition, lastQuestion int) {
	switch {
	case cond.Field != "" && cond.Question != "":
		c.addf(path, "give either field or question, not both")
	case cond.Field == "" && cond.Question == "":
		c.addf(path, "needs field (a profile field) or question (a question id)")
	}
	if !slices.Contains(conditionOperators, cond.Op) {
		c.addf(path+"/op", "must be one of %s; got %q", strings.Join(conditionOperators, ", "), cond.Op)
		return
	}
	switch cond.Op {
	case OpEq, OpNe, OpGt, OpGte, OpLt, OpLte:
		if cond.Value == nil {
			c.issues = append(c.issues, defIssue{Path: path + "/value", Message: fmt.Sprintf("op %s needs a value", cond.Op)})
		}
		if len(cond.Values) > 0 {
			c.addf(path+"/values", "op %s compares with value; use in or not_in for a list", cond.Op)
		}
		if cond.Value != nil && (cond.Op == OpGt || cond.Op == OpGte || cond.Op == OpLt || cond.Op == OpLte) {
			if _, ok := cond.Value.(float64); !ok {
				c.addf(path+"/value", "op %s needs a number; got %s", cond.Op, showValue(cond.Value))
			}
		}
	case OpIn, OpNotIn:
		if len(cond.Values) == 0 {
			c.issues = append(c.issues, defIssue{Path: path + "/values", Message: fmt.Sprintf("op %s needs values (a list)", cond.Op)})
		}
		if cond.Value != nil {
			c.addf(path+"/value", "op %s tests values; use eq or ne for one value", cond.Op)
		}
	case OpExists, OpNotExists:
		if cond.Value != nil || len(cond.Values) > 0 {
			c.addf(path, "op %s takes neither value nor values", cond.Op)
		}
	}
	if cond.Question == "" {
		return
	}
	idx, ok := c.qIndex[cond.Question]
	switch {
	case !ok:
		c.addf(path+"/question", "no question has the id %q", cond.Question)
		return
	case idx > lastQuestion:
		c.addf(path+"/question", "must name this question or an earlier one: %q is /questions/%d", cond.Question, idx)
		return
	}
	q := c.def.Questions[idx]
	if !slices.Contains(choiceControlTypes, q.ControlType) {
		return
	}
	ids := make([]string, 0, len(q.Answers))
	for _, o := range q.Answers {
		ids = append(ids, o.ID)
	}
	check := func(p string, v any) {
		if s, ok := v.(string); ok && slices.Contains(ids, s) {
			return
		}
		c.addf(p, "%s is not an option id of question %q (%s)", showValue(v), q.ID, strings.Join(ids, ", "))
	}
	if cond.Value != nil {
		check(path+"/value", cond.Value)
	}
	for k, v := range cond.Values {
		check(jsonPointer(path, "values", k), v)
	}
}

// languages: texts written per language need default_language, and the name must exist in it.
func (c *defChecker) languages() {
	def := c.def
	first := ""
	for _, t := range c.texts() {
		for k := range t.text {
			if k != "" {
				first = t.path
				break
			}
		}
		if first != "" {
			break
		}
	}
	switch {
	case first != "" && def.DefaultLanguage == "":
		c.issues = append(c.issues, defIssue{Path: "/default_language", LineAt: first, Message: fmt.Sprintf("is required because texts are written per language (first at %s)", first)})
	case def.DefaultLanguage != "":
		if !def.Name.Has(def.DefaultLanguage) && !def.Name.Has("") {
			c.addf("/name", "has no text in the default language %q", def.DefaultLanguage)
		}
	case !def.Name.Has(""):
		c.addf("/name", "must not be empty")
	}
}

type textAt struct {
	path string
	text Text
}

// texts lists every text of the definition in document order, with its pointer.
func (c *defChecker) texts() []textAt {
	def := c.def
	var out []textAt
	add := func(path string, t Text) {
		if len(t) > 0 {
			out = append(out, textAt{path, t})
		}
	}
	image := func(path string, img *Image) {
		if img != nil {
			add(path+"/alt", img.Alt)
		}
	}
	options := func(path string, opts []Option) {
		for j, o := range opts {
			add(jsonPointer(path, j, "text"), o.Text)
			image(jsonPointer(path, j, "image"), o.Image)
		}
	}
	add("/name", def.Name)
	add("/description", def.Description)
	if comp := def.Competition; comp != nil {
		add("/competition/prize", comp.Prize)
		add("/competition/terms", comp.Terms)
	}
	for i, l := range def.FooterLinks {
		add(jsonPointer("footer_links", i, "label"), l.Label)
		add(jsonPointer("footer_links", i, "text"), l.Text)
	}
	add("/thank_you/title", def.ThankYou.Title)
	add("/thank_you/message", def.ThankYou.Message)
	for i, q := range def.Questions {
		p := jsonPointer("questions", i)
		add(p+"/text", q.Text)
		add(p+"/descr", q.Descr)
		add(p+"/html", q.HTML)
		image(p+"/image", q.Image)
		options(p+"/answers", q.Answers)
		options(p+"/rows", q.Rows)
		options(p+"/columns", q.Columns)
		options(p+"/scale_answers", q.ScaleAnswers)
		for _, k := range []string{"min", "mid", "max"} {
			add(jsonPointer(p, "scale_labels", k), q.ScaleLabels[k])
		}
	}
	return out
}
