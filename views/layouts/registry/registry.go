// Package registry is the one place layouts are listed: a panel names one in its tenant file
// or the console (app_settings.layout), and every page of that panel draws the components the
// layout implements its own way (views.Layout). To add a layout, write it as a templ package
// under views/layouts/ and add it to all below (docs/designing.md).
package registry

import (
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/layouts"
	"github.com/canvass/canvass/views/layouts/compact"
)

// all are the layouts panels may choose, the standard one first.
var all = []views.Layout{
	layouts.Standard{},
	compact.Layout{},
}

// Stylesheeter is a layout with a stylesheet of its own (a path in static/), loaded after the
// standard stylesheet on its panels' pages only.
type Stylesheeter interface {
	Stylesheet() string
}

// Names are the layouts' names, the standard one first.
func Names() []string {
	names := make([]string, len(all))
	for i, l := range all {
		names[i] = l.Name()
	}
	return names
}

// Known tells whether name is a layout a panel may choose ("" is the standard one).
func Known(name string) bool {
	_, ok := lookup(name)
	return ok
}

// Named is the layout called name; the standard one for "" and for a name no layout has (a
// panel saved before its layout was removed still renders).
func Named(name string) views.Layout {
	if l, ok := lookup(name); ok {
		return l
	}
	return all[0]
}

func lookup(name string) (views.Layout, bool) {
	if name == "" {
		return all[0], true
	}
	for _, l := range all {
		if l.Name() == name {
			return l, true
		}
	}
	return nil, false
}

// All are the layouts, the standard one first.
func All() []views.Layout { return append([]views.Layout(nil), all...) }
