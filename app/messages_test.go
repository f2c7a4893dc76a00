package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// TestEveryMessageRendersWithTheParametersItsCallersPass reads the code for every place that
// names a message id (translators, error constructors and the wrappers of messageWrappers) and
// renders each id in every language with the template data that place passes. It fails on a
// message a language lacks, on a placeholder the caller does not pass (the profile's
// "at most <no value> characters" was error.too_long given no Max), on a plural message
// without a count, and on a rendering that is empty or keeps "<no value>", "{{" or "}}".
func TestEveryMessageRendersWithTheParametersItsCallersPass(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..") // go test runs in app/
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))

	msgs := map[string]map[string]any{} // lang -> id -> text, or plural forms
	known := map[string]bool{}          // the ids of every language, for id families
	var langs []string
	for _, l := range web.Supported {
		data, err := fs.ReadFile(locales.FS, l.Code+".yaml")
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, yaml.Unmarshal(data, &m), "%s.yaml", l.Code)
		msgs[l.Code] = m
		langs = append(langs, l.Code)
		for id := range m {
			known[id] = true
		}
	}
	// Missing translations are this test's findings, not log noise.
	loc, err := web.NewLocales(locales.FS, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)

	sc := newMessageScanner(root, known)
	for _, dir := range []string{"modules", "app", "views"} {
		require.NoError(t, sc.scanGo(dir))
	}
	require.NoError(t, sc.scanTempl("views"))
	require.NotEmpty(t, sc.uses, "the scanner found no message")

	for _, p := range sc.problems {
		assert.Fail(t, p)
	}

	// One check per id and what its callers pass; the callers are listed with each failure.
	type checkKey struct {
		id, keys        string
		counted, client bool
	}
	groups := map[checkKey][]string{}
	for _, u := range sc.uses {
		ids := msgExpandID(u.id, known)
		if len(ids) == 0 {
			assert.Fail(t, fmt.Sprintf("%s (%s): no message id starts with %q", u.pos, u.via, u.id.text))
			continue
		}
		for _, id := range ids {
			k := checkKey{id: id, keys: strings.Join(u.keys, ","), counted: u.counted, client: u.client}
			groups[k] = append(groups[k], u.pos+" "+u.via)
		}
	}
	keys := make([]checkKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.id != b.id {
			return a.id < b.id
		}
		if a.keys != b.keys {
			return a.keys < b.keys
		}
		return !a.counted && b.counted || a.counted == b.counted && !a.client && b.client
	})

	checked := map[string]bool{}
	renders := map[string]int{}
	for _, k := range keys {
		checked[k.id] = true
		var passed []string
		if k.keys != "" {
			passed = strings.Split(k.keys, ",")
		}
		var lines []string
		for _, lang := range langs {
			for _, p := range checkRenderedMessage(loc, msgs[lang], lang, k.id, passed, k.counted, k.client, renders) {
				lines = append(lines, "    "+lang+": "+p)
			}
		}
		if len(lines) > 0 {
			what := "no data"
			if len(passed) > 0 {
				what = "data " + strings.Join(passed, ", ")
			}
			if k.counted {
				what += " and a plural count"
			}
			if k.client {
				what = "ClientTemplate's {Name} placeholders"
			}
			sites := msgUniqueSorted(groups[k])
			assert.Fail(t, fmt.Sprintf("%s, given %s by\n    %s\n%s", k.id, what, strings.Join(sites, "\n    "), strings.Join(lines, "\n")))
		}
	}

	// error.* ids no caller names may still be sent by islands or built at run time: listed
	// for coverage only (locale_completeness_test.go checks every language has every id).
	var uncalled []string
	for id := range msgs["en"] {
		if strings.HasPrefix(id, "error.") && !checked[id] {
			uncalled = append(uncalled, id)
		}
	}
	sort.Strings(uncalled)

	t.Logf("scanned %d Go files and %d templ files", sc.goFiles, sc.templFiles)
	t.Logf("calls naming a message: %d (%d pass on their caller's id: wrappers and translators themselves)", sc.calls, sc.forwarded)
	t.Logf("message ids checked: %d, with %d different sets of parameters", len(checked), len(groups))
	for _, lang := range langs {
		t.Logf("renders in %s: %d", lang, renders[lang])
	}
	t.Logf("calls skipped, data not resolvable: %d%s", len(sc.skippedData), msgListing(sc.skippedData))
	t.Logf("calls skipped, id not resolvable: %d%s", len(sc.skippedID), msgListing(sc.skippedID))
	t.Logf("error.* ids no call names: %d%s", len(uncalled), msgListing(uncalled))
	if unused := sc.unusedWrappers(); len(unused) > 0 {
		t.Logf("messageWrappers entries no call uses: %s", strings.Join(unused, ", "))
	}
	if len(sc.unfollowed) > 0 {
		t.Logf("message ids passed to functions the scanner does not follow: %d%s", len(sc.unfollowed), msgListing(sc.unfollowed))
	}
}

// msgCallForm says which arguments of a call are the message id, its template data and its
// plural count (-1: none), and what the callee adds itself.
type msgCallForm struct {
	args   int      // the call's number of arguments
	id     int      // index of the id argument
	data   int      // index of the data argument; -1: the callee passes no caller data
	count  int      // index of the plural count argument; -1: none
	keys   []string // template data the callee adds (views.Tn adds Count)
	family bool     // the id names every message "<id>.*"
	prefix string   // the callee puts this before the id it is given ("console.panels.field." + name)
	client bool     // the message is rendered by Locales.ClientTemplate
}

// msgTranslators are the message-taking functions of modules/web and views, matched by name and
// number of arguments in every package (kit.T takes a data map, views.T does not).
var msgTranslators = map[string][]msgCallForm{
	"Fail":           {{args: 3, id: 1, data: 2, count: -1}},                                        // web.Fail(status, id, data)
	"Invalid":        {{args: 3, id: 1, data: 2, count: -1}},                                        // web.Invalid(field, id, data)
	"Also":           {{args: 3, id: 1, data: 2, count: -1}},                                        // (*web.Error).Also(field, id, data)
	"T":              {{args: 3, id: 1, data: 2, count: -1}, {args: 2, id: 1, data: -1, count: -1}}, // kit.T(c, id, data), views.T(ctx, id)
	"Tf":             {{args: 3, id: 1, data: 2, count: -1}},                                        // views.Tf(ctx, id, data)
	"Tn":             {{args: 4, id: 1, data: 3, count: 2, keys: []string{"Count"}}},                // views.Tn(ctx, id, count, data)
	"Translate":      {{args: 4, id: 1, data: 2, count: 3}, {args: 3, id: 0, data: 1, count: 2}},    // Locales.Translate(lang, id, data, count), Page.Translate(id, data, count)
	"ClientTemplate": {{args: 2, id: 1, data: -1, count: -1, client: true}},                         // Locales.ClientTemplate(lang, id)
	"FlashNext":      {{args: 3, id: 2, data: -1, count: -1}},                                       // kit.FlashNext(c, kind, id)
	"Tr":             nil,                                                                           // translators are made by Tr; see msgTrForm
}

// msgTrForm is a call of a translator a variable holds: tr := kit.Tr(c); tr(id, data, count).
var msgTrForm = msgCallForm{args: 3, id: 0, data: 1, count: 2}

// messageWrappers are the functions of modules that take a message id and pass it on, by
// package directory and name. A function that passes an id parameter to a translator and is
// not listed here is reported, so a new wrapper cannot go unchecked.
var messageWrappers = []struct {
	pkg, name string
	form      msgCallForm
}{
	{"modules/accounts", "send", msgCallForm{args: 6, id: 4, data: -1, count: -1, keys: []string{"App", "Name"}, family: true}}, // Mails.send(ctx, panel, ah, lang, "mail.reset", link): mail.reset.*
	{"modules/accounts", "tr", msgCallForm{args: 1, id: 0, data: -1, count: -1, keys: []string{"App", "Name"}}},                 // send's tr(id)
	{"modules/accounts", "t", msgCallForm{args: 1, id: 0, data: -1, count: -1}},                                                 // Framed's t(id)
	{"modules/profile", "appendInvalid", msgCallForm{args: 3, id: 2, data: -1, count: -1}},                                      // appendInvalid(e, field, id)
	{"modules/profile", "pictureRefused", msgCallForm{args: 4, id: 1, data: 3, count: -1}},                                      // pictureRefused(status, id, code, data)
	{"modules/profile", "tr", msgCallForm{args: 2, id: 0, data: 1, count: -1}},                                                  // bulkMessage's tr(id, data)
	{"modules/console", "T", msgCallForm{args: 3, id: 1, data: 2, count: -1}},
	{"modules/console", "TIn", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                           // Module.TIn(lang, id, data)
	{"modules/console/money", "t", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                       // Part.t(c, id, data)
	{"modules/console/panels", "t", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                      // Part.t(c, id, data)
	{"modules/console/panels", "fieldLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.panels.theme.field."}},     // fieldLabel(c, field)
	{"modules/console/panels", "refuse", msgCallForm{args: 1, id: 0, data: -1, count: -1, keys: []string{"Max"}}},                         // the upload's refuse(id)
	{"modules/console/panels", "hint", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                  // settings' hint(field, id)
	{"modules/console/panels", "text", msgCallForm{args: 2, id: 0, data: -1, count: -1, prefix: "console.panels.field."}},                 // settings' text(name, value)
	{"modules/console/panels", "field", msgCallForm{args: 3, id: 0, data: -1, count: -1, prefix: "console.panels.field."}},                // create's field(name, value, hintID): the label
	{"modules/console/panels", "field", msgCallForm{args: 3, id: 2, data: -1, count: -1}},                                                 // and the hint
	{"modules/console/campaigns", "stateLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.campaigns.state."}},     // stateLabel(c, state)
	{"modules/console/money", "holdStatusLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.money.holds.status."}}, // holdStatusLabel(c, status)
	{"modules/console/money", "fact", msgCallForm{args: 2, id: 0, data: -1, count: -1}},                                                   // fact(id, value)
	{"modules/results", "t", msgCallForm{args: 1, id: 0, data: -1, count: -1}},                                                            // words' t(id)
	{"modules/results", "invalid", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                      // Filter.Check's invalid(field, id)
	{"modules/results", "outcomeLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.results.outcome."}},             // outcomeLabel(c, outcome)
	{"modules/results", "controlLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.results.control."}},             // controlLabel(c, control)
	{"modules/webhooks", "eventLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.webhooks.event."}},               // eventLabel(c, event)
	{"modules/webhooks", "add", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                         // readInput's add(field, id)
	{"modules/webhooks", "statusLabel", msgCallForm{args: 2, id: 1, data: -1, count: -1, prefix: "console.webhooks.status."}},             // statusLabel(c, status)
	{"modules/competitions", "title", msgCallForm{args: 4, id: 1, data: -1, count: -1, keys: []string{"Prize"}}},                          // title(lang, id, english, prize)
	{"modules/feed", "add", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                              // FeedQuery.Check's add(field, id, data)
	{"modules/feed", "cardGone", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                        // cardGone(c, flashID)
	{"modules/mobile", "codeError", msgCallForm{args: 3, id: 1, data: -1, count: -1}},                                                     // codeError(status, id, code)
	{"modules/mobile", "done", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                          // done(c, flash)
	{"modules/redemptions", "done", msgCallForm{args: 2, id: 1, data: -1, count: -1}},                                                     // done(c, flash)
	{"modules/redemptions", "invalid", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                   // CheckBank's invalid(field, id, data)
	{"modules/referrals", "refusal", msgCallForm{args: 4, id: 1, data: 3, count: -1}},                                                     // refusal(status, id, code, data)
	{"modules/referrals", "translate", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                   // Service.translate(lang, id, data)
	{"modules/surveys", "badAnswer", msgCallForm{args: 2, id: 0, data: 1, count: -1}},                                                     // badAnswer(id, data)
	{"modules/wallet", "invalid", msgCallForm{args: 3, id: 1, data: 2, count: -1}},                                                        // apiQuery's invalid(field, id, data)
}

// msgNumericSamples are the placeholders that hold numbers; the others get a string.
var msgNumericSamples = map[string]bool{"Max": true, "Min": true, "Count": true, "PluralCount": true, "Age": true, "Step": true, "Left": true, "Page": true, "Percent": true, "Day": true, "Year": true}

// checkRenderedMessage renders one message of one language with the keys its callers pass and says
// what is wrong with it.
func checkRenderedMessage(loc *web.Locales, msgs map[string]any, lang, id string, keys []string, counted, client bool, renders map[string]int) []string {
	raw, ok := msgs[id]
	if !ok || !loc.Has(lang, id) {
		return []string{fmt.Sprintf("untranslated key: %s.yaml has no %s", lang, id)}
	}
	var problems []string
	passed := map[string]bool{}
	for _, k := range keys {
		passed[k] = true
	}
	if counted {
		passed["PluralCount"] = true // go-i18n and Locales.Translate add it
	}
	names := web.Placeholders(raw)
	if !client {
		var missing []string
		for _, n := range names {
			if !passed[n] {
				missing = append(missing, "{{."+n+"}}")
			}
		}
		if len(missing) > 0 {
			problems = append(problems, fmt.Sprintf("names %s, which the caller does not pass", strings.Join(missing, ", ")))
		}
		if _, plural := raw.(map[string]any); plural && !counted {
			problems = append(problems, "has plural forms but the caller passes no count (always the \"other\" form)")
		}
	}
	counts := []int{0}
	if counted {
		counts = []int{1, 3, 7} // 3 is the "few" form of ru
	}
	for _, n := range counts {
		var out string
		if client {
			out = loc.ClientTemplate(lang, id)
		} else {
			var data map[string]any
			if len(keys) > 0 {
				data = map[string]any{}
				for _, k := range keys {
					data[k] = msgSample(k, n)
				}
			}
			var count any
			if n > 0 {
				count = n
			}
			out = loc.Translate(lang, id, data, count)
		}
		renders[lang]++
		var bad []string
		if strings.Contains(out, "<no value>") {
			bad = append(bad, "renders <no value>")
		}
		if strings.Contains(out, "{{") || strings.Contains(out, "}}") {
			bad = append(bad, "keeps a template action")
		}
		if strings.TrimSpace(out) == "" {
			bad = append(bad, "renders empty")
		} else if out == id {
			bad = append(bad, "renders its own id")
		}
		for _, name := range names {
			// A placeholder whose value does not show was rendered empty.
			switch want, isString := msgSample(name, n).(string); {
			case client && !strings.Contains(out, "{"+name+"}"):
				bad = append(bad, fmt.Sprintf("leaves no {%s} for the script to fill", name))
			case !client && passed[name] && isString && !strings.Contains(out, want):
				bad = append(bad, fmt.Sprintf("renders {{.%s}} empty", name))
			}
		}
		if len(bad) > 0 {
			label := ""
			if n > 0 {
				label = fmt.Sprintf(" (count %d)", n)
			}
			problems = append(problems, fmt.Sprintf("%s%s: %q", strings.Join(bad, ", "), label, out))
		}
	}
	return problems
}

func msgSample(key string, count int) any {
	if (key == "Count" || key == "PluralCount") && count > 0 {
		return count
	}
	if msgNumericSamples[key] {
		return 7
	}
	return "[" + key + "]"
}

// msgIDPattern is a message id, or a prefix standing for every id that starts with it
// ("feed.filter_"+f); the empty prefix is an id nothing is known of.
type msgIDPattern struct {
	text  string
	exact bool
}

func msgExpandID(p msgIDPattern, known map[string]bool) []string {
	if p.exact {
		return []string{p.text}
	}
	var out []string
	for id := range known {
		if strings.HasPrefix(id, p.text) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// msgUse is one id a call names, with the template data keys it passes.
type msgUse struct {
	pos, via string
	id       msgIDPattern
	keys     []string
	counted  bool
	client   bool
}

// msgIDRef is a resolved id and, when it came from a variable, the assignment that set it: the
// data variable assigned by the same statement is the data that goes with it.
type msgIDRef struct {
	msgIDPattern
	from *ast.Object
	stmt ast.Node
}

// msgAssignment is one value given to a variable; rhs nil is the zero value, unknown a value
// of a multi-value call.
type msgAssignment struct {
	stmt    ast.Node
	rhs     ast.Expr
	unknown bool
}

// msgPkg indexes one package directory: its top-level functions and values (identifiers of
// other files have no ast.Object), the assignments of every variable and the function each
// parameter belongs to.
type msgPkg struct {
	rel       string
	funcs     map[string]*ast.FuncDecl
	vars      map[string]ast.Expr
	assigns   map[*ast.Object][]msgAssignment
	indexKeys map[*ast.Object][]string // m["Key"] = v
	owner     map[*ast.Object]string   // parameter -> the function (or closure variable) it belongs to
}

type messageScanner struct {
	root  string
	known map[string]bool
	fset  *token.FileSet
	pkgs  map[string]*msgPkg

	uses                   []msgUse
	problems               []string
	skippedID, skippedData []string
	unfollowed             []string
	calls, forwarded       int
	goFiles, templFiles    int
	usedWrappers           map[string]bool
}

func newMessageScanner(root string, known map[string]bool) *messageScanner {
	return &messageScanner{root: root, known: known, fset: token.NewFileSet(), pkgs: map[string]*msgPkg{}, usedWrappers: map[string]bool{}}
}

// scanGo parses the Go files of every package under dir and records the calls of the files
// that are not generated (templ's *_templ.go only serve to resolve helpers like statusKey).
func (sc *messageScanner) scanGo(dir string) error {
	byDir := map[string][]string{}
	err := filepath.WalkDir(filepath.Join(sc.root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		// The gallery's fixtures (views/*/gallery.go) pass ids through helpers of their own;
		// modules/gallery's test renders every state and fails on an id the catalogue lacks.
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") && filepath.Base(path) != "gallery.go" {
			byDir[filepath.Dir(path)] = append(byDir[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		rel, _ := filepath.Rel(sc.root, d)
		p := &msgPkg{rel: filepath.ToSlash(rel), funcs: map[string]*ast.FuncDecl{}, vars: map[string]ast.Expr{},
			assigns: map[*ast.Object][]msgAssignment{}, indexKeys: map[*ast.Object][]string{}, owner: map[*ast.Object]string{}}
		sc.pkgs[p.rel] = p
		var files []*ast.File
		var scan []*ast.File
		for _, path := range byDir[d] {
			// Object resolution (mode 0) links each local identifier to its declaration:
			// enough to follow a variable to its values without type-checking the module.
			f, err := parser.ParseFile(sc.fset, path, nil, 0)
			if err != nil {
				return err
			}
			files = append(files, f)
			if !strings.HasSuffix(path, "_templ.go") {
				scan = append(scan, f)
			}
		}
		for _, f := range files {
			msgIndexFile(p, f)
		}
		for _, f := range scan {
			sc.goFiles++
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					sc.call(p, sc.position(n.Pos()), n)
				case *ast.CompositeLit:
					sc.composite(p, sc.position(n.Pos()), n)
				}
				return true
			})
		}
	}
	return nil
}

func msgIndexFile(p *msgPkg, f *ast.File) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				p.funcs[d.Name.Name] = d
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Values) == len(vs.Names) {
					for i, n := range vs.Names {
						p.vars[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	closureName := map[*ast.FuncLit]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				var rhs ast.Expr
				unknown := len(n.Rhs) != len(n.Lhs)
				if !unknown {
					rhs = n.Rhs[i]
				}
				switch l := lhs.(type) {
				case *ast.Ident:
					if l.Obj != nil {
						p.assigns[l.Obj] = append(p.assigns[l.Obj], msgAssignment{stmt: n, rhs: rhs, unknown: unknown})
					}
					if lit, ok := rhs.(*ast.FuncLit); ok {
						closureName[lit] = l.Name
					}
				case *ast.IndexExpr:
					if x, ok := l.X.(*ast.Ident); ok && x.Obj != nil {
						if k, ok := msgStringLit(l.Index); ok {
							p.indexKeys[x.Obj] = append(p.indexKeys[x.Obj], k)
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if name.Obj == nil {
					continue
				}
				a := msgAssignment{stmt: n}
				switch {
				case len(n.Values) == len(n.Names):
					a.rhs = n.Values[i]
				case len(n.Values) > 0:
					a.unknown = true
				}
				p.assigns[name.Obj] = append(p.assigns[name.Obj], a)
			}
		}
		return true
	})
	params := func(ft *ast.FuncType, owner string) {
		if ft.Params == nil {
			return
		}
		for _, field := range ft.Params.List {
			for _, n := range field.Names {
				if n.Obj != nil {
					p.owner[n.Obj] = owner
				}
			}
		}
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		params(fd.Type, fd.Name.Name)
		ast.Inspect(fd, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				name := closureName[lit]
				if name == "" {
					name = fd.Name.Name // an unnamed closure passes on for its function (Locales.Tr)
				}
				params(lit.Type, name)
			}
			return true
		})
	}
}

// msgTemplCallRE finds a translation in a templ file. templ expressions are Go, so the call is
// read up to its closing parenthesis and parsed with go/parser like the calls of Go files.
var msgTemplCallRE = regexp.MustCompile(`\bviews\.T[fn]?\(`)

func (sc *messageScanner) scanTempl(dir string) error {
	return filepath.WalkDir(filepath.Join(sc.root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".templ") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc.templFiles++
		rel, _ := filepath.Rel(sc.root, path)
		rel = filepath.ToSlash(rel)
		p := sc.pkgs[filepath.ToSlash(filepath.Dir(rel))]
		if p == nil { // a directory without Go files: nothing to resolve helpers with
			p = &msgPkg{rel: filepath.ToSlash(filepath.Dir(rel)), funcs: map[string]*ast.FuncDecl{}, vars: map[string]ast.Expr{},
				assigns: map[*ast.Object][]msgAssignment{}, indexKeys: map[*ast.Object][]string{}, owner: map[*ast.Object]string{}}
		}
		text := string(src)
		for _, m := range msgTemplCallRE.FindAllStringIndex(text, -1) {
			pos := fmt.Sprintf("%s:%d", rel, 1+strings.Count(text[:m[0]], "\n"))
			end := msgClosingParen(text, m[1]-1)
			if end < 0 {
				sc.problems = append(sc.problems, pos+": a translation call without its closing parenthesis")
				continue
			}
			expr, err := parser.ParseExpr(text[m[0] : end+1])
			call, ok := expr.(*ast.CallExpr)
			if err != nil || !ok {
				sc.problems = append(sc.problems, fmt.Sprintf("%s: cannot parse %q: %v", pos, text[m[0]:end+1], err))
				continue
			}
			sc.call(p, pos, call)
		}
		return nil
	})
}

// msgClosingParen is the index of the parenthesis that closes the one at open, skipping Go
// strings and runes; -1 when there is none.
func msgClosingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '`':
			if j := strings.IndexByte(s[i+1:], '`'); j >= 0 {
				i += j + 1
			}
		}
	}
	return -1
}

func (sc *messageScanner) position(pos token.Pos) string {
	p := sc.fset.Position(pos)
	rel, err := filepath.Rel(sc.root, p.Filename)
	if err != nil {
		rel = p.Filename
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line)
}

// call records a call of a translator or of a wrapper.
func (sc *messageScanner) call(p *msgPkg, pos string, call *ast.CallExpr) {
	type candidate struct {
		form    msgCallForm
		wrapper string // the messageWrappers entry, to tell which ones are used
	}
	var name, via string
	var forms []candidate
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		name, via = fn.Name, fn.Name
		if sc.boundTranslator(p, fn) {
			forms = append(forms, candidate{form: msgTrForm})
		}
	case *ast.SelectorExpr:
		name, via = fn.Sel.Name, fn.Sel.Name
		if x, ok := fn.X.(*ast.Ident); ok && (x.Name == "web" || x.Name == "views") {
			via = x.Name + "." + name
		}
	default:
		return
	}
	for _, f := range msgTranslators[name] {
		forms = append(forms, candidate{form: f})
	}
	for _, w := range messageWrappers {
		if w.pkg == p.rel && w.name == name {
			forms = append(forms, candidate{form: w.form, wrapper: w.pkg + "." + w.name})
		}
	}
	followed := false
	for _, c := range forms {
		f := c.form
		if f.args != len(call.Args) || (followed && c.wrapper == "") {
			continue
		}
		if c.wrapper != "" {
			sc.usedWrappers[c.wrapper] = true
		}
		var data, count ast.Expr
		if f.data >= 0 {
			data = call.Args[f.data]
		}
		if f.count >= 0 {
			count = call.Args[f.count]
		}
		sc.site(p, pos, via, f, call.Args[f.id], data, count)
		if c.wrapper == "" {
			return
		}
		followed = true // a wrapper may take two ids (a label's and a hint's): every entry counts
	}
	if followed {
		return
	}
	// Not followed: note literal ids it is given, a hint of a wrapper the table lacks.
	for _, a := range call.Args {
		if s, ok := msgStringLit(a); ok && sc.known[s] {
			sc.unfollowed = append(sc.unfollowed, fmt.Sprintf("%s %s(%q)", pos, via, s))
		}
	}
}

// composite records web.Error{ID: ..., Data: ...} and web.NavEntry{LabelID: ...}.
func (sc *messageScanner) composite(p *msgPkg, pos string, lit *ast.CompositeLit) {
	var name string
	switch ty := lit.Type.(type) {
	case *ast.Ident:
		if p.rel == "modules/web" {
			name = ty.Name
		}
	case *ast.SelectorExpr:
		if x, ok := ty.X.(*ast.Ident); ok && x.Name == "web" {
			name = ty.Sel.Name
		}
	}
	idField := map[string]string{"Error": "ID", "NavEntry": "LabelID"}[name]
	if idField == "" {
		return
	}
	var id, data ast.Expr
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch k, _ := kv.Key.(*ast.Ident); {
		case k == nil:
		case k.Name == idField:
			id = kv.Value
		case k.Name == "Data" && name == "Error":
			data = kv.Value
		}
	}
	if id == nil {
		return
	}
	f := msgCallForm{id: 0, data: -1, count: -1}
	if data != nil {
		f.data = 1
	}
	sc.site(p, pos, "web."+name+"{"+idField+"}", f, id, data, nil)
}

// boundTranslator tells whether fn is a variable holding a translator, tr := kit.Tr(c), or
// a parameter of the translator's type, func(string, map[string]any, any) string (ToAPI's tr).
func (sc *messageScanner) boundTranslator(p *msgPkg, fn *ast.Ident) bool {
	if fn.Obj == nil {
		return false
	}
	if f, ok := fn.Obj.Decl.(*ast.Field); ok {
		ft, ok := f.Type.(*ast.FuncType)
		if !ok || ft.Params == nil || ft.Results == nil || len(ft.Params.List) == 0 || len(ft.Results.List) != 1 {
			return false
		}
		n := 0
		for _, p := range ft.Params.List {
			n += max(1, len(p.Names))
		}
		return n == 3 && msgIsIdent(ft.Params.List[0].Type, "string") && msgIsIdent(ft.Results.List[0].Type, "string")
	}
	for _, a := range p.assigns[fn.Obj] {
		if c, ok := a.rhs.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Tr" {
				return true
			}
		}
	}
	return false
}

// site resolves the id and data of one call and records what it names.
func (sc *messageScanner) site(p *msgPkg, pos, via string, f msgCallForm, idExpr, dataExpr, countExpr ast.Expr) {
	sc.calls++
	refs, owners, ok := sc.ids(p, idExpr, false, 0)
	if len(owners) > 0 {
		// The id is a parameter: this function passes its caller's id on, and is checked at
		// its callers if it is a translator or a listed wrapper.
		sc.forwarded++
		for _, o := range owners {
			if !sc.knownForwarder(p, o) {
				sc.problems = append(sc.problems, fmt.Sprintf("%s: %s passes its message id parameter to %s but is not in messageWrappers: add it", pos, o, via))
			}
		}
		return
	}
	for _, r := range refs {
		ok = ok && (r.exact || r.text != "")
	}
	if !ok || len(refs) == 0 {
		sc.skippedID = append(sc.skippedID, pos+" "+via)
		return
	}
	counted := countExpr != nil && !msgIsNil(countExpr)
	var uses []msgUse
	for _, r := range refs {
		if r.exact && r.text == "" && f.prefix == "" {
			continue // no id: the caller shows no message there
		}
		keys := map[string]bool{}
		for _, k := range f.keys {
			keys[k] = true
		}
		if dataExpr != nil {
			ks, ok := sc.dataKeys(p, dataExpr, r)
			if !ok {
				sc.skippedData = append(sc.skippedData, pos+" "+via)
				return
			}
			for _, k := range ks {
				keys[k] = true
			}
		}
		id := r.msgIDPattern
		id.text = f.prefix + id.text
		if f.family && id.exact {
			id = msgIDPattern{text: id.text + ".", exact: false}
		}
		uses = append(uses, msgUse{pos: pos, via: via, id: id, keys: msgSortedKeys(keys), counted: counted, client: f.client})
	}
	sc.uses = append(sc.uses, uses...)
}

func (sc *messageScanner) knownForwarder(p *msgPkg, name string) bool {
	if _, core := msgTranslators[name]; core && (p.rel == "modules/web" || p.rel == "views") {
		return true
	}
	for _, w := range messageWrappers {
		if w.pkg == p.rel && w.name == name {
			return true
		}
	}
	return false
}

func (sc *messageScanner) unusedWrappers() []string {
	var out []string
	for _, w := range messageWrappers {
		if !sc.usedWrappers[w.pkg+"."+w.name] {
			out = append(out, w.pkg+"."+w.name)
		}
	}
	return out
}

// ids resolves an id expression: a literal, a concatenation with a literal prefix, a
// variable (every value it is assigned in its function, or the elements of the literal it
// ranges over), an element of a literal map or slice, fmt.Sprintf with a literal format, or a
// call of a package function whose every result resolves (eligibilityMessage, statusKey).
// owners are the functions whose parameter the id is; inHelper makes a parameter stand for any
// text (the helper builds the id from it).
func (sc *messageScanner) ids(p *msgPkg, e ast.Expr, inHelper bool, depth int) (refs []msgIDRef, owners []string, ok bool) {
	if depth > 12 {
		return nil, nil, false
	}
	anything := []msgIDRef{{}}
	switch e := e.(type) {
	case *ast.BasicLit:
		s, ok := msgStringLit(e)
		if !ok {
			return nil, nil, false
		}
		if s == "" { // a variable's "no id yet", never a message
			return nil, nil, true
		}
		return []msgIDRef{{msgIDPattern: msgIDPattern{text: s, exact: true}}}, nil, true
	case *ast.ParenExpr:
		return sc.ids(p, e.X, inHelper, depth+1)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return nil, nil, false
		}
		left, lo, ok := sc.ids(p, e.X, inHelper, depth+1)
		if !ok {
			return nil, nil, false
		}
		right, ro, ok := sc.ids(p, e.Y, inHelper, depth+1)
		if !ok || len(right) == 0 {
			right = anything // an unknown suffix: the left side is a prefix
		}
		for _, l := range left {
			for _, r := range right {
				if l.exact {
					refs = append(refs, msgIDRef{msgIDPattern: msgIDPattern{text: l.text + r.text, exact: r.exact}, from: l.from, stmt: l.stmt})
				} else {
					refs = append(refs, l)
				}
			}
		}
		return refs, append(lo, ro...), true
	case *ast.Ident:
		if e.Obj == nil {
			if v, ok := p.vars[e.Name]; ok {
				return sc.ids(p, v, inHelper, depth+1)
			}
			return nil, nil, false
		}
		switch d := e.Obj.Decl.(type) {
		case *ast.Field:
			if inHelper {
				return anything, nil, true
			}
			return nil, []string{p.owner[e.Obj]}, true
		case *ast.AssignStmt:
			if r, ok := msgRangeOver(d); ok {
				return sc.rangeIDs(p, d, r, e.Name, inHelper, depth)
			}
		}
		as := p.assigns[e.Obj]
		if len(as) == 0 {
			return nil, nil, false
		}
		for _, a := range as {
			if a.unknown {
				return nil, nil, false
			}
			if a.rhs == nil {
				continue // declared without a value: ""
			}
			rs, os, ok := sc.ids(p, a.rhs, inHelper, depth+1)
			if !ok {
				return nil, nil, false
			}
			for _, r := range rs {
				r.from, r.stmt = e.Obj, a.stmt
				refs = append(refs, r)
			}
			owners = append(owners, os...)
		}
		return refs, owners, true
	case *ast.SelectorExpr:
		return sc.fieldIDs(p, e, inHelper, depth)
	case *ast.IndexExpr:
		lit := sc.literalOf(p, e.X, depth+1)
		if lit == nil {
			return nil, nil, false
		}
		return sc.elementIDs(p, lit, false, inHelper, depth)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && msgIsIdent(sel.X, "fmt") && len(e.Args) > 0 {
			format, ok := msgStringLit(e.Args[0])
			if !ok {
				return nil, nil, false
			}
			if i := strings.IndexByte(format, '%'); i >= 0 {
				return []msgIDRef{{msgIDPattern: msgIDPattern{text: format[:i]}}}, nil, i > 0
			}
			return []msgIDRef{{msgIDPattern: msgIDPattern{text: format, exact: true}}}, nil, true
		}
		fn, ok := e.Fun.(*ast.Ident)
		if !ok || (fn.Obj != nil && fn.Obj.Kind != ast.Fun) {
			return nil, nil, false
		}
		decl := p.funcs[fn.Name]
		if decl == nil || decl.Body == nil {
			return nil, nil, false
		}
		found := false
		ok = true
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit || !ok {
				return false
			}
			ret, isRet := n.(*ast.ReturnStmt)
			if !isRet {
				return true
			}
			if len(ret.Results) != 1 {
				ok = false
				return false
			}
			rs, _, rok := sc.ids(p, ret.Results[0], true, depth+1)
			ok = ok && rok
			found = true
			for _, r := range rs {
				refs = append(refs, msgIDRef{msgIDPattern: r.msgIDPattern})
			}
			return false
		})
		return refs, nil, ok && found
	}
	return nil, nil, false
}

// msgRangeOver returns the ranged expression of the msgAssignment go/parser makes for the key and
// value of `for k, v := range x`.
func msgRangeOver(a *ast.AssignStmt) (ast.Expr, bool) {
	if len(a.Rhs) != 1 {
		return nil, false
	}
	u, ok := a.Rhs[0].(*ast.UnaryExpr)
	if !ok || u.Op != token.RANGE {
		return nil, false
	}
	return u.X, true
}

func (sc *messageScanner) rangeIDs(p *msgPkg, a *ast.AssignStmt, over ast.Expr, name string, inHelper bool, depth int) ([]msgIDRef, []string, bool) {
	lit := sc.literalOf(p, over, depth+1)
	if lit == nil {
		return nil, nil, false
	}
	_, isMap := lit.Type.(*ast.MapType)
	for i, l := range a.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == name {
			switch {
			case i == 1:
				return sc.elementIDs(p, lit, false, inHelper, depth)
			case isMap:
				return sc.elementIDs(p, lit, true, inHelper, depth)
			}
		}
	}
	return nil, nil, false
}

// fieldIDs resolves v.field where v ranges over a literal slice of struct literals (the
// mobile module's table of rate limits and their messages).
func (sc *messageScanner) fieldIDs(p *msgPkg, e *ast.SelectorExpr, inHelper bool, depth int) (refs []msgIDRef, owners []string, ok bool) {
	x, isID := e.X.(*ast.Ident)
	if !isID || x.Obj == nil {
		return nil, nil, false
	}
	a, isAssign := x.Obj.Decl.(*ast.AssignStmt)
	if !isAssign || len(a.Lhs) != 2 || !msgIsIdent(a.Lhs[1], x.Name) {
		return nil, nil, false
	}
	over, isRange := msgRangeOver(a)
	if !isRange {
		return nil, nil, false
	}
	lit := sc.literalOf(p, over, depth+1)
	if lit == nil {
		return nil, nil, false
	}
	index := -1 // the field's position, for unkeyed elements
	if at, ok := lit.Type.(*ast.ArrayType); ok {
		if st, ok := at.Elt.(*ast.StructType); ok {
			i := 0
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					if n.Name == e.Sel.Name {
						index = i
					}
					i++
				}
			}
		}
	}
	values := make([]ast.Expr, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		el, isLit := elt.(*ast.CompositeLit)
		if !isLit {
			return nil, nil, false
		}
		var v ast.Expr
		for i, fe := range el.Elts {
			if kv, keyed := fe.(*ast.KeyValueExpr); keyed {
				if msgIsIdent(kv.Key, e.Sel.Name) {
					v = kv.Value
				}
			} else if i == index {
				v = fe
			}
		}
		if v == nil {
			return nil, nil, false
		}
		values = append(values, v)
	}
	return sc.allIDs(p, values, inHelper, depth)
}

// allIDs resolves every expression and joins what they name; ok only if each one resolves.
func (sc *messageScanner) allIDs(p *msgPkg, exprs []ast.Expr, inHelper bool, depth int) (refs []msgIDRef, owners []string, ok bool) {
	for _, e := range exprs {
		rs, os, ok := sc.ids(p, e, inHelper, depth+1)
		if !ok {
			return nil, nil, false
		}
		refs, owners = append(refs, rs...), append(owners, os...)
	}
	return refs, owners, true
}

// elementIDs resolves every value (or key) of a map or slice literal.
func (sc *messageScanner) elementIDs(p *msgPkg, lit *ast.CompositeLit, keys, inHelper bool, depth int) (refs []msgIDRef, owners []string, ok bool) {
	values := make([]ast.Expr, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		v := elt
		if kv, isKV := elt.(*ast.KeyValueExpr); isKV {
			v = kv.Value
			if keys {
				v = kv.Key
			}
		} else if keys {
			return nil, nil, false
		}
		values = append(values, v)
	}
	return sc.allIDs(p, values, inHelper, depth)
}

// literalOf follows a variable to the composite literal it holds.
func (sc *messageScanner) literalOf(p *msgPkg, e ast.Expr, depth int) *ast.CompositeLit {
	if depth > 12 {
		return nil
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return e
	case *ast.ParenExpr:
		return sc.literalOf(p, e.X, depth+1)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return sc.literalOf(p, e.X, depth+1)
		}
	case *ast.Ident:
		if e.Obj == nil {
			return sc.literalOf(p, p.vars[e.Name], depth+1)
		}
		if as := p.assigns[e.Obj]; len(as) == 1 && as[0].rhs != nil {
			return sc.literalOf(p, as[0].rhs, depth+1)
		}
	}
	return nil
}

// dataKeys lists the keys of a data argument: none for nil, those of a map literal, or those
// of the literals a local variable is assigned (with the keys set by v["Key"] = ...). When
// the id came from a variable, the data assigned by the same statement goes with it
// (id, data = "error.too_long", map[string]any{"Max": max}).
func (sc *messageScanner) dataKeys(p *msgPkg, e ast.Expr, ref msgIDRef) ([]string, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return sc.dataKeys(p, e.X, ref)
	case *ast.CompositeLit:
		return msgLiteralKeys(e)
	case *ast.Ident:
		if msgIsNil(e) {
			return nil, true
		}
		if e.Obj == nil {
			if v, ok := p.vars[e.Name]; ok {
				return sc.dataKeys(p, v, msgIDRef{})
			}
			return nil, false
		}
		if _, param := e.Obj.Decl.(*ast.Field); param {
			return nil, false
		}
		as := p.assigns[e.Obj]
		if len(as) == 0 {
			return nil, false
		}
		var chosen []msgAssignment
		for _, a := range as {
			if ref.stmt != nil && a.stmt == ref.stmt {
				chosen = append(chosen, a)
			}
		}
		if len(chosen) == 0 {
			for _, a := range as {
				if ref.from == nil || !msgAssigns(p, a.stmt, ref.from) {
					chosen = append(chosen, a)
				}
			}
		}
		var keys []string
		for _, a := range chosen {
			if a.unknown {
				return nil, false
			}
			if a.rhs == nil || msgIsNil(a.rhs) {
				continue
			}
			ks, ok := sc.dataKeys(p, a.rhs, msgIDRef{})
			if !ok {
				return nil, false
			}
			keys = append(keys, ks...)
		}
		return append(keys, p.indexKeys[e.Obj]...), true
	}
	return nil, false
}

func msgAssigns(p *msgPkg, stmt ast.Node, obj *ast.Object) bool {
	for _, a := range p.assigns[obj] {
		if a.stmt == stmt {
			return true
		}
	}
	return false
}

func msgLiteralKeys(lit *ast.CompositeLit) ([]string, bool) {
	keys := make([]string, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		k, ok := msgStringLit(kv.Key)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

func msgStringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func msgIsNil(e ast.Expr) bool { return msgIsIdent(e, "nil") }

func msgIsIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func msgSortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func msgUniqueSorted(list []string) []string {
	set := map[string]bool{}
	for _, s := range list {
		set[s] = true
	}
	return msgSortedKeys(set)
}

func msgListing(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return "\n\t" + strings.Join(msgUniqueSorted(list), "\n\t")
}
