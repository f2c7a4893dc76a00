package campaigns

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Parsing and positions: YAML and JSON read into plain values with the line of every value,
// so each problem names where it is.

// authoringDoc collects the problems of one file and knows the line of every value.
type authoringDoc struct {
	file     string
	lines    map[string]int // JSON pointer -> line of the member's key, or of the item
	problems []Problem
	nodes    int
	depth    int // of the value being read
}

// maxAuthoringNodes bounds a document (and YAML alias expansion).
const maxAuthoringNodes = 200_000

// maxAuthoringDepth bounds nesting (a campaign nests about 8 levels): every level lengthens
// the path of each value below it, and a YAML alias inside its own anchor nests forever.
const maxAuthoringDepth = 64

// tooDeep is the problem of a value nested deeper than maxAuthoringDepth.
var tooDeep = fmt.Sprintf("the document nests deeper than %d levels", maxAuthoringDepth)

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
	if d.depth >= maxAuthoringDepth {
		d.add("", n.Line, tooDeep)
		return nil
	}
	d.depth++
	defer func() { d.depth-- }()
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
		if d.depth >= maxAuthoringDepth {
			d.add("", lineAt(next(int(dec.InputOffset()))), tooDeep)
			return nil, false
		}
		d.depth++
		defer func() { d.depth-- }()
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
