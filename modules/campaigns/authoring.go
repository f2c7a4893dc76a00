package campaigns

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The authoring format: a campaign is one YAML or JSON document, read with the line of every
// value (authoring_parse.go), checked against the JSON Schema (authoring_schema.go: structure,
// types, enums, patterns, unknown fields, with "did you mean" hints from authoring_hints.go)
// and then by the semantic checks of checkDefinition (authoring_rules.go: references between
// questions, options and routes, per-control rules, dates, languages, money). Every problem
// names the file, the line and the JSON pointer of the value, so a tenant can fix a file in
// one pass.

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
