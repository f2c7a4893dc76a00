package main

import (
	"fmt"
	"html/template"
	"io"
	"regexp"
)

// outcome is what became of one shot.
type outcome int

const (
	unchanged outcome = iota
	changed
	added   // only the work tree has it
	removed // only the base has it
	failed
)

// result is one shot's outcome, with what the report shows of it.
type result struct {
	shot    shot
	outcome outcome
	share   float64 // of the pixels, when changed
	err     error   // when failed
	// The pictures written for it, relative to the report; nil when not kept.
	before, after, diff *picture
}

// picture is an image the report links to.
type picture struct {
	Src           string
	Width, Height int
}

// counts sum the outcomes; compared is every shot both sides have.
type counts struct {
	Compared, Changed, Unchanged, Added, Removed, Failed int
}

func count(results []result) counts {
	var c counts
	for _, r := range results {
		switch r.outcome {
		case unchanged:
			c.Unchanged++
		case changed:
			c.Changed++
		case added:
			c.Added++
		case removed:
			c.Removed++
		case failed:
			c.Failed++
		}
	}
	c.Compared = c.Changed + c.Unchanged
	return c
}

// summary is the report's header: what was compared with what, and how it went.
type summary struct {
	Base, BaseHash string // the revision as given, and its short hash
	Head           string // the work tree, described
	Widths         string
	Tolerance      int
	Filter         string // the -states, -panel and -all given, "" for none
	States         int    // distinct states shot
	Seconds        int
}

// entry is one shot's section of the report.
type entry struct {
	ID      string
	Heading string // the state and the shot: "feed/empty: northwind, en, 360 px" (and a layout not the panel's own)
	Share   string
	Error   string
	Before  *picture
	After   *picture
	Diff    *picture
}

type reportData struct {
	summary
	counts
	ChangedShots, AddedShots, RemovedShots, FailedShots []entry
}

var idUnsafe = regexp.MustCompile(`[^a-z0-9-]+`)

func toEntry(r result) entry {
	where := fmt.Sprintf("%s, %s, %d px", r.shot.Panel, r.shot.Lang, r.shot.Width)
	if r.shot.Layout != "" {
		where += ", layout " + r.shot.Layout
	}
	return entry{
		ID:      "shot-" + idUnsafe.ReplaceAllString(r.shot.Module+"-"+r.shot.Name+"-"+r.shot.variant(), "-"),
		Heading: r.shot.state() + ": " + where,
		Share:   formatShare(r.share),
		Error:   errText(r.err),
		Before:  r.before, After: r.after, Diff: r.diff,
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// writeReport writes the HTML report of the results.
func writeReport(w io.Writer, s summary, results []result) error {
	data := reportData{summary: s, counts: count(results)}
	for _, r := range results {
		switch r.outcome {
		case changed:
			data.ChangedShots = append(data.ChangedShots, toEntry(r))
		case added:
			data.AddedShots = append(data.AddedShots, toEntry(r))
		case removed:
			data.RemovedShots = append(data.RemovedShots, toEntry(r))
		case failed:
			data.FailedShots = append(data.FailedShots, toEntry(r))
		}
	}
	return reportTemplate.Execute(w, data)
}

var reportTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Screenshots: {{.Base}} ({{.BaseHash}}) vs the work tree</title>
<style>
	body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; margin: 0; }
	main { max-width: 120rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
	h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
	h2 { font-size: 1.3rem; margin-top: 2.5rem; border-top: 2px solid #ddd; padding-top: 1rem; }
	h3 { font-size: 1.1rem; margin: 2rem 0 0.25rem; }
	a { color: #0b57d0; }
	code { font-size: 0.95em; }
	.counts { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; padding: 0; list-style: none; }
	.counts strong { font-size: 1.4rem; display: block; }
	.meta { margin: 0 0 0.75rem; color: #444; }
	.trio { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; align-items: start; }
	.duo { display: grid; grid-template-columns: minmax(0, 1fr); max-width: 40rem; }
	figure { margin: 0; }
	figcaption { font-weight: 600; margin-bottom: 0.25rem; }
	figure img { display: block; max-width: 100%; height: auto; border: 1px solid #bbb; }
	.magenta { color: #b000b0; font-weight: 600; }
	.error { white-space: pre-wrap; background: #fdecea; border-left: 4px solid #b3261e; padding: 0.5rem 1rem; }
	@media (max-width: 50rem) { .trio { grid-template-columns: minmax(0, 1fr); } }
</style>
</head>
<body>
<main>
<h1>Screenshots: <code>{{.Base}}</code> ({{.BaseHash}}) vs {{.Head}}</h1>
<p class="meta">Each gallery state at {{.Widths}} px{{if .Filter}}, {{.Filter}}{{end}}; a pixel counts as changed when a colour channel moved by more than {{.Tolerance}} of 255. {{.States}} state{{if ne .States 1}}s{{end}}, {{.Seconds}} s.</p>
<ul class="counts" aria-label="Counts">
	<li><strong>{{.Compared}}</strong> compared</li>
	<li><strong>{{.Changed}}</strong> changed</li>
	<li><strong>{{.Unchanged}}</strong> unchanged</li>
	<li><strong>{{.Added}}</strong> added</li>
	<li><strong>{{.Removed}}</strong> removed</li>
	{{- if .Failed}}
	<li><strong>{{.Failed}}</strong> failed</li>
	{{- end}}
</ul>
{{- if .FailedShots}}
<h2 id="failed">Failed</h2>
{{- range .FailedShots}}
<h3 id="{{.ID}}">{{.Heading}}</h3>
<p class="error">{{.Error}}</p>
{{- end}}
{{- end}}
{{- if .ChangedShots}}
<nav aria-labelledby="contents"><h2 id="contents">Changed shots</h2>
<ol>
{{- range .ChangedShots}}
	<li><a href="#{{.ID}}">{{.Heading}}</a> ({{.Share}})</li>
{{- end}}
</ol>
</nav>
<h2 id="changed">Changed</h2>
<p>Before is <code>{{.Base}}</code>, after is the work tree; the difference shows the after picture faded to grey with every changed pixel in <span class="magenta">magenta</span>. Each picture links to its full size.</p>
{{- range .ChangedShots}}
<section aria-labelledby="{{.ID}}">
<h3 id="{{.ID}}">{{.Heading}}</h3>
<p class="meta">{{.Share}} of the pixels changed.</p>
<div class="trio">
	<figure><figcaption>Before</figcaption><a href="{{.Before.Src}}"><img src="{{.Before.Src}}" width="{{.Before.Width}}" height="{{.Before.Height}}" loading="lazy" alt="Before: {{.Heading}}"></a></figure>
	<figure><figcaption>After</figcaption><a href="{{.After.Src}}"><img src="{{.After.Src}}" width="{{.After.Width}}" height="{{.After.Height}}" loading="lazy" alt="After: {{.Heading}}"></a></figure>
	<figure><figcaption>Difference</figcaption><a href="{{.Diff.Src}}"><img src="{{.Diff.Src}}" width="{{.Diff.Width}}" height="{{.Diff.Height}}" loading="lazy" alt="Difference: {{.Heading}}, the changed pixels ({{.Share}}) in magenta over the after picture"></a></figure>
</div>
</section>
{{- end}}
{{- else}}
<p>No shot changed.</p>
{{- end}}
{{- if .AddedShots}}
<h2 id="added">Added (only in the work tree)</h2>
{{- range .AddedShots}}
<section aria-labelledby="{{.ID}}">
<h3 id="{{.ID}}">{{.Heading}}</h3>
<div class="duo"><figure><figcaption>After</figcaption><a href="{{.After.Src}}"><img src="{{.After.Src}}" width="{{.After.Width}}" height="{{.After.Height}}" loading="lazy" alt="Added: {{.Heading}}"></a></figure></div>
</section>
{{- end}}
{{- end}}
{{- if .RemovedShots}}
<h2 id="removed">Removed (only in {{.Base}})</h2>
{{- range .RemovedShots}}
<section aria-labelledby="{{.ID}}">
<h3 id="{{.ID}}">{{.Heading}}</h3>
<div class="duo"><figure><figcaption>Before</figcaption><a href="{{.Before.Src}}"><img src="{{.Before.Src}}" width="{{.Before.Width}}" height="{{.Before.Height}}" loading="lazy" alt="Removed: {{.Heading}}, as it was"></a></figure></div>
</section>
{{- end}}
{{- end}}
</main>
</body>
</html>
`))
