package main

import (
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitEditor waits until the campaign editor island has mounted CodeMirror over the textarea.
func waitEditor(p *rod.Page) {
	p.MustWait(`() => document.querySelector('[data-console-island="campaign-editor"]')?.dataset.islandState === 'mounted' && !!document.querySelector('.cm-editor .cm-content')`)
}

// typeDocument replaces the editor's whole text, as pasting it would.
func typeDocument(p *rod.Page, text string) {
	p.MustElement(".cm-content").MustClick()
	p.KeyActions().Press(input.ControlLeft).Type('a').MustDo()
	p.MustInsertText(text)
}

// editorStatus is what the island's status line says once it has checked the document.
func editorStatus(p *rod.Page, want string) string {
	p.MustWait(`(want) => (document.querySelector('#f-document-status')?.textContent ?? '').includes(want)`, want)
	return p.MustElement("#f-document-status").MustText()
}

// scheduledDoc is the journey's campaign: opening in the far future, so "open" has work to do.
var scheduledDoc = strings.Replace(consoleCampaignDoc, "estimated_minutes: 2", "estimated_minutes: 2\nopens_at: \"2099-01-01T00:00:00Z\"", 1)

func TestInChromiumAnEditorEditsACampaignWithASchemaErrorSeesItInlineFixesItPreviewsItInSpanishAndOpensIt(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, b.url(consoleHost, "/console/login"))
	consoleSignIn(p, "editor@ops.demo.test", "console-editor-1")
	require.Equal(t, "/console/", path(p))

	b.consoleOpen(p, "/console/panels/demo/campaigns/new")
	waitEditor(p)
	assert.True(t, p.MustElement("#f-document").MustProperty("hidden").Bool(), "the island stands in for the textarea")

	// A schema error shows inline, with its line, while the author types.
	typeDocument(p, strings.Replace(scheduledDoc, "control_type: radio", "control_type: radoi", 1))
	assert.Equal(t, "Problems found: 1", editorStatus(p, "Problems found"))
	p.MustWait(`() => !!document.querySelector('.cm-lintRange-error') && !!document.querySelector('.cm-gutter-lint .cm-lint-marker-error')`)
	marked := p.MustEval(`() => { const m = document.querySelector('.cm-gutter-lint .cm-lint-marker-error').closest('.cm-gutterElement')
		const lines = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')]
		const top = m.getBoundingClientRect().top
		return lines.find((l) => Math.abs(l.getBoundingClientRect().top - top) < 2)?.textContent }`).String()
	assert.Equal(t, "14", marked, "the marker on the line of control_type (after opens_at)")

	// Completions offer the schema's enum values.
	p.MustElements(".cm-content .cm-line")[13].MustClick()
	p.Keyboard.MustType(input.End)
	for range len("radoi") {
		p.Keyboard.MustType(input.Backspace)
	}
	p.MustInsertText("rad")
	p.KeyActions().Press(input.ControlLeft).Type(input.Space).MustDo() // Ctrl+Space: the completions
	p.MustWait(`() => [...document.querySelectorAll('.cm-tooltip-autocomplete li')].some((li) => li.textContent.includes('radio'))`)
	p.Keyboard.MustType(input.Escape)

	typeDocument(p, scheduledDoc)
	assert.Equal(t, "No problems found.", editorStatus(p, "No problems"))
	submit(p, "#campaign-form button[type=submit]")
	assert.Equal(t, "/console/panels/demo/campaigns/"+consoleCampaignID+"/edit?done=created", path(p))
	assert.Contains(t, p.MustElement(".notice").MustText(), "The campaign was created.")

	// The Spanish preview, on the panel's own host.
	es := p.MustElement(`#preview-links a[data-lang="es"]`)
	href := es.MustProperty("href").String()
	assert.Contains(t, href, "/survey/"+consoleCampaignID+"/preview/es/")
	preview := b.page(t, href)
	preview.MustWait(`() => document.body.innerText.includes('¿Desayunas?')`)
	assert.Contains(t, preview.MustElement("body").MustText(), "¿Desayunas?")

	// Open it: it was scheduled.
	b.consoleOpen(p, "/console/panels/demo/campaigns/"+consoleCampaignID)
	assert.Equal(t, "scheduled", *p.MustElement("#campaign-state").MustAttribute("data-state"))
	submit(p, "form[action$='/open'] button[type=submit]")
	assert.Equal(t, "open", *p.MustElement("#campaign-state").MustAttribute("data-state"))
	assert.Contains(t, p.MustElement(".notice").MustText(), "The campaign is open.")
}

func TestInChromiumWithoutJavaScriptAnEditorSavesACampaignWithAnErrorSeesItsLineAndFixesIt(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	p := b.page(t, "about:blank")
	withoutJavaScript(t, p)
	b.consoleOpen(p, "/console/login")
	consoleSignIn(p, "editor@ops.demo.test", "console-editor-1")
	b.consoleOpen(p, "/console/panels/demo/campaigns/new")
	assert.Equal(t, 0, len(p.MustElements(".cm-editor")), "no island without JavaScript")

	p.MustElement("#f-document").MustSelectAllText().MustInput(consoleCampaignBroken)
	submit(p, "#campaign-form button[type=submit]")
	problems := p.MustElement("#problems").MustText()
	assert.Contains(t, problems, "Line 13:")
	assert.Contains(t, problems, "/questions/0/control_type")
	assert.Contains(t, p.MustElement("#f-document").MustProperty("value").String(), "control_type: radoi", "the text is kept")

	p.MustElement("#f-document").MustSelectAllText().MustInput(consoleCampaignDoc)
	submit(p, "#campaign-form button[type=submit]")
	assert.Equal(t, "/console/panels/demo/campaigns/"+consoleCampaignID+"/edit?done=created", path(p))
	assert.Contains(t, p.MustElement(".notice").MustText(), "The campaign was created.")
}

func init() {
	consoleParts["campaigns"] = consolePart{
		pages: []string{
			"/console/panels/:panel/campaigns", "/console/panels/:panel/campaigns/new",
			"/console/panels/:panel/campaigns/:id", "/console/panels/:panel/campaigns/:id/edit",
		},
		visit: func(t *testing.T, w *a11yWalk, s *a11ySession) {
			poll := w.b.campaignID("demo", "Quick poll")
			w.open(s, "/console/panels/demo/campaigns")
			w.check(s, "console: campaigns")
			w.open(s, "/console/panels/demo/campaigns?state=closed&sort=reward&q=nothing-like-this")
			w.check(s, "console: campaigns, none match")
			s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
			w.submit(s, "form[action$='/campaigns/import'] button[type=submit]")
			w.check(s, "console: campaigns, import refused")

			w.open(s, "/console/panels/demo/campaigns/new")
			waitEditor(s.p())
			w.check(s, "console: campaign editor")
			// A refused save: the problems listed above the editor, and inline once checked.
			s.p().MustEval(`(doc) => { document.querySelector('#f-document').value = doc }`, consoleCampaignBroken)
			w.submit(s, "#campaign-form button[type=submit]")
			waitEditor(s.p())
			s.p().MustWait(`() => !!document.querySelector('.cm-lint-marker-error')`)
			w.check(s, "console: campaign editor, problems shown")

			w.open(s, "/console/panels/demo/campaigns/"+poll)
			w.check(s, "console: campaign, funnel and quotas")
			w.open(s, "/console/panels/demo/campaigns/"+poll+"/edit")
			waitEditor(s.p())
			w.check(s, "console: campaign editor of a campaign")
			w.open(s, "/console/panels/northwind/campaigns/"+poll)
			w.check(s, "console: campaign of another panel, not found")
		},
	}
}
