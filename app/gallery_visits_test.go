package main

import (
	"regexp"
	"testing"

	"github.com/canvass/canvass/modules/gallery"
	"github.com/canvass/canvass/views"
	"github.com/stretchr/testify/assert"
)

func TestTheLayoutChecksTakePanelsLayoutsAndLanguagesInTurnAndAllOfThemOnRequest(t *testing.T) {
	t.Parallel()
	panels := []gallery.PanelRef{
		{Key: "demo", Languages: []string{"en", "es"}, Layouts: []string{"standard", "compact"}},
		{Key: "northwind", Languages: []string{"en", "ru", "zh"}, Layouts: []string{"compact", "standard"}},
	}
	var refs []gallery.Ref
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		refs = append(refs, gallery.Ref{Module: "feed", Name: name, Who: views.GalleryMember, Panels: panels})
	}
	refs = append(refs, gallery.Ref{Module: "console", Name: "home", Who: views.GalleryConsole, Panels: panels})
	everything := regexp.MustCompile("")

	type seen struct{ state, panel, layout, lang string }
	var got []seen
	for _, v := range galleryVisits(refs, everything, false) {
		got = append(got, seen{v.ref.Name, v.panel, v.layout, v.lang})
	}
	assert.Equal(t, []seen{
		{"a", "demo", "", "en"}, {"b", "northwind", "", "en"},
		{"c", "demo", "compact", "en"}, {"d", "northwind", "standard", "en"},
		{"e", "demo", "", "es"}, {"f", "northwind", "", "ru"},
		{"g", "demo", "compact", "es"}, {"h", "northwind", "standard", "ru"},
		{"home", "demo", "", "en"},
	}, got, "each state once; a layout is named only when it is not the panel's own; the console has no layout")

	all := galleryVisits(refs, everything, true)
	assert.Len(t, all, 9*(2*2+2*3), "every state in every panel, layout and language")
	assert.Len(t, galleryVisits(refs, regexp.MustCompile("^feed/[ab]$"), false), 2)
}
