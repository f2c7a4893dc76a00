package apidocs

import (
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// nonceMark stands for the request's CSP nonce in the page made at start.
const nonceMark = "CSP-NONCE-PLACEHOLDER"

type pageDoc struct {
	Title, Version, Description string
	Nonce                       string
	Families                    []pageFamily
	Schemas                     []pageSchema
	Operations                  int
}

type pageFamily struct {
	ID, Name, Description string
	Operations            []pageOperation
}

type pageOperation struct {
	ID, Method, Path, Summary, Description string
	Security                               []string
	Parameters                             []pageField
	Body                                   []pageContent
	BodyRequired                           bool
	Responses                              []pageResponse
}

type pageField struct {
	Name, In, Type, Description string
	Required                    bool
}

type pageContent struct{ MediaType, Type string }

type pageResponse struct {
	Status, Description string
	Content             []pageContent
}

type pageSchema struct {
	Name, Type, Description string
	Fields                  []pageField
}

var methodOrder = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// pageModel walks the document in the order a reader wants it: families (tags) as the
// document lists them, operations by path then method, shared schemas last.
func pageModel(t *openapi3.T) pageDoc {
	d := pageDoc{Title: t.Info.Title, Version: t.Info.Version, Description: t.Info.Description, Nonce: nonceMark}
	byTag := map[string]*pageFamily{}
	for _, tag := range t.Tags {
		d.Families = append(d.Families, pageFamily{ID: "family-" + slug(tag.Name), Name: tag.Name, Description: tag.Description})
	}
	for i := range d.Families {
		byTag[d.Families[i].Name] = &d.Families[i]
	}
	paths := t.Paths.InMatchingOrder()
	sort.Strings(paths)
	for _, p := range paths {
		item := t.Paths.Value(p)
		for _, method := range methodOrder {
			op := item.GetOperation(method)
			if op == nil {
				continue
			}
			d.Operations++
			po := pageOperation{ID: "op-" + slug(op.OperationID), Method: method, Path: p, Summary: op.Summary, Description: op.Description}
			sec := t.Security
			if op.Security != nil {
				sec = *op.Security
			}
			for _, req := range sec {
				names := make([]string, 0, len(req))
				for n := range req {
					names = append(names, n)
				}
				sort.Strings(names)
				if len(names) == 0 {
					names = []string{"none"}
				}
				po.Security = append(po.Security, strings.Join(names, " + "))
			}
			params := append(openapi3.Parameters{}, item.Parameters...)
			params = append(params, op.Parameters...)
			for _, pr := range params {
				if pr.Value == nil {
					continue
				}
				po.Parameters = append(po.Parameters, pageField{Name: pr.Value.Name, In: pr.Value.In, Required: pr.Value.Required, Type: schemaType(pr.Value.Schema), Description: pr.Value.Description})
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				po.BodyRequired = op.RequestBody.Value.Required
				po.Body = contents(op.RequestBody.Value.Content)
			}
			if op.Responses != nil {
				codes := make([]string, 0, op.Responses.Len())
				for code := range op.Responses.Map() {
					codes = append(codes, code)
				}
				sort.Strings(codes)
				for _, code := range codes {
					r := op.Responses.Value(code)
					if r == nil || r.Value == nil {
						continue
					}
					desc := ""
					if r.Value.Description != nil {
						desc = *r.Value.Description
					}
					po.Responses = append(po.Responses, pageResponse{Status: code, Description: desc, Content: contents(r.Value.Content)})
				}
			}
			tag := ""
			if len(op.Tags) > 0 {
				tag = op.Tags[0]
			}
			if byTag[tag] == nil {
				d.Families = append(d.Families, pageFamily{ID: "family-" + slug(tag), Name: tag})
				byTag = map[string]*pageFamily{}
				for i := range d.Families {
					byTag[d.Families[i].Name] = &d.Families[i]
				}
			}
			byTag[tag].Operations = append(byTag[tag].Operations, po)
		}
	}
	if t.Components != nil {
		names := make([]string, 0, len(t.Components.Schemas))
		for n := range t.Components.Schemas {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			s := t.Components.Schemas[n].Value
			ps := pageSchema{Name: n, Type: schemaType(&openapi3.SchemaRef{Value: s}), Description: s.Description}
			props := make([]string, 0, len(s.Properties))
			for p := range s.Properties {
				props = append(props, p)
			}
			sort.Strings(props)
			for _, p := range props {
				ps.Fields = append(ps.Fields, pageField{Name: p, Type: schemaType(s.Properties[p]), Required: contains(s.Required, p), Description: s.Properties[p].Value.Description})
			}
			d.Schemas = append(d.Schemas, ps)
		}
	}
	return d
}

func contents(c openapi3.Content) []pageContent {
	types := make([]string, 0, len(c))
	for mt := range c {
		types = append(types, mt)
	}
	sort.Strings(types)
	out := make([]pageContent, 0, len(types))
	for _, mt := range types {
		out = append(out, pageContent{MediaType: mt, Type: schemaType(c[mt].Schema)})
	}
	return out
}

// schemaType is a one-line reading of a schema: a component's name, or its type with the
// items of an array and the choices of an enum.
func schemaType(r *openapi3.SchemaRef) string {
	if r == nil {
		return ""
	}
	if r.Ref != "" {
		return strings.TrimPrefix(r.Ref, "#/components/schemas/")
	}
	s := r.Value
	if s == nil {
		return ""
	}
	var alts []string
	for _, a := range append(append([]*openapi3.SchemaRef{}, s.OneOf...), s.AnyOf...) {
		alts = append(alts, schemaType(a))
	}
	if len(alts) > 0 {
		return strings.Join(alts, " | ")
	}
	if len(s.AllOf) > 0 {
		var parts []string
		for _, a := range s.AllOf {
			parts = append(parts, schemaType(a))
		}
		return strings.Join(parts, " & ")
	}
	typ := ""
	if s.Type != nil {
		typ = strings.Join(s.Type.Slice(), " | ")
	}
	switch {
	case s.Type != nil && s.Type.Is("array"):
		typ = "array of " + schemaType(s.Items)
	case len(s.Enum) > 0:
		var vals []string
		for _, v := range s.Enum {
			vals = append(vals, jsonish(v))
		}
		typ += " (" + strings.Join(vals, ", ") + ")"
	case s.Format != "":
		typ += " (" + s.Format + ")"
	case s.Pattern != "":
		typ += " matching " + s.Pattern
	}
	if typ == "" {
		typ = "any"
	}
	return typ
}

func jsonish(v any) string {
	if s, ok := v.(string); ok {
		return `"` + s + `"`
	}
	return fmt.Sprint(v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

var pageTemplate = template.Must(template.New("docs").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} {{.Version}}</title>
<style nonce="` + nonceMark + `">
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff;margin:0;line-height:1.5}
header,main,footer{max-width:64rem;margin:0 auto;padding:0 1rem}
a{color:#0550ae}
a:focus-visible{outline:2px solid #0550ae;outline-offset:2px}
p{overflow-wrap:break-word}
code,.path{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;overflow-wrap:anywhere}
.op{border:1px solid #d0d7de;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.op h4{margin:.25rem 0;font-size:1rem}
.method{display:inline-block;min-width:4.5rem;font-weight:700;color:#fff;background:#24292f;border-radius:4px;padding:0 .4rem;margin-right:.5rem;text-align:center}
.m-POST{background:#116329}.m-DELETE{background:#a40e26}.m-GET{background:#0550ae}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.muted{color:#57606a}
nav ul{columns:2 16rem}
</style>
</head>
<body>
<header>
<h1>{{.Title}} <span class="muted">{{.Version}}</span></h1>
<p>{{.Description}}</p>
<p>{{.Operations}} operations. The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
</header>
<main>
<nav aria-label="API families">
<h2>Families</h2>
<ul>{{range .Families}}<li><a href="#{{.ID}}">{{.Name}}</a> ({{len .Operations}})</li>{{end}}<li><a href="#schemas">Shared schemas</a></li></ul>
</nav>
{{range .Families}}
<section aria-labelledby="{{.ID}}">
<h2 id="{{.ID}}">{{.Name}}</h2>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{range .Operations}}
<article class="op" aria-labelledby="{{.ID}}">
<h3 id="{{.ID}}"><span class="method m-{{.Method}}">{{.Method}}</span><span class="path">{{.Path}}</span></h3>
{{if .Summary}}<p><strong>{{.Summary}}</strong></p>{{end}}
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Security}}<p>Authentication: {{range $i, $s := .Security}}{{if $i}} or {{end}}<code>{{$s}}</code>{{end}}</p>{{end}}
{{if .Parameters}}
<h4>Parameters</h4>
<div class="scroll" tabindex="0" role="region" aria-label="Parameters of {{.Method}} {{.Path}}"><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>
{{range .Parameters}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td><code>{{.Type}}</code></td><td>{{if .Required}}yes{{else}}no{{end}}</td><td>{{.Description}}</td></tr>{{end}}
</tbody></table></div>
{{end}}
{{if .Body}}
<h4>Request body{{if .BodyRequired}} (required){{end}}</h4>
<ul>{{range .Body}}<li><code>{{.MediaType}}</code>: <code>{{.Type}}</code></li>{{end}}</ul>
{{end}}
<h4>Responses</h4>
<div class="scroll" tabindex="0" role="region" aria-label="Responses of {{.Method}} {{.Path}}"><table><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body</th></tr></thead><tbody>
{{range .Responses}}<tr><td>{{.Status}}</td><td>{{.Description}}</td><td>{{range .Content}}<code>{{.MediaType}}</code>: <code>{{.Type}}</code><br>{{else}}<span class="muted">none</span>{{end}}</td></tr>{{end}}
</tbody></table></div>
</article>
{{end}}
</section>
{{end}}
<section aria-labelledby="schemas">
<h2 id="schemas">Shared schemas</h2>
{{range .Schemas}}
<article class="op" aria-labelledby="schema-{{.Name}}">
<h3 id="schema-{{.Name}}"><code>{{.Name}}</code> <span class="muted">{{.Type}}</span></h3>
{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Fields}}
<div class="scroll" tabindex="0" role="region" aria-label="Fields of {{.Name}}"><table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>
{{range .Fields}}<tr><td><code>{{.Name}}</code></td><td><code>{{.Type}}</code></td><td>{{if .Required}}yes{{else}}no{{end}}</td><td>{{.Description}}</td></tr>{{end}}
</tbody></table></div>
{{end}}
</article>
{{end}}
</section>
</main>
<footer><p class="muted">Every API test of this server validates its requests and responses against this document.</p></footer>
</body>
</html>
`))
