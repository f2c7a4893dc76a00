package main

import "testing"

func init() {
	consoleParts["tokens"] = consolePart{
		pages: []string{"/console/tokens"},
		visit: func(t *testing.T, w *a11yWalk, s *a11ySession) {
			w.open(s, "/console/tokens")
			w.check(s, "console: API tokens")
			// Refused: no name (the browser's own check is turned off so the server answers).
			s.p().MustEval(`() => document.querySelectorAll('form').forEach((f) => f.noValidate = true)`)
			w.submit(s, "form[action='/console/tokens'] button[type=submit]")
			w.check(s, "console: API tokens, refused")
			fill(s.p(), map[string]string{"#f-name": "axe robot"})
			s.p().MustElement("input[name=scope][value='campaigns.edit']").MustClick()
			w.submit(s, "form[action='/console/tokens'] button[type=submit]")
			w.check(s, "console: API tokens, one created")
		},
	}
}
