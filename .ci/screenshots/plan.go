package main

import (
	"fmt"
	"github.com/canvass/canvass/modules/gallery"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// galleryPath is where a Canvass server in development serves the gallery.
const galleryPath = gallery.Path

// state is one entry of the gallery's states.json, as either revision serves it: a field the
// base's gallery did not have yet (a panel's layouts) is empty.
type state = gallery.Ref

// panelRef is a panel a state is shown in.
type panelRef = gallery.PanelRef

// shot is one picture of a state: a panel, a language, a layout ("" for the panel's own) and
// a width.
type shot struct {
	Module, Name, Panel, Lang, Layout string
	Width                             int
}

func (s shot) state() string { return s.Module + "/" + s.Name }

// variant names the shot within its state: panel-lang[-layout]-width.
func (s shot) variant() string {
	parts := []string{s.Panel, s.Lang}
	if s.Layout != "" {
		parts = append(parts, s.Layout)
	}
	return strings.Join(append(parts, strconv.Itoa(s.Width)), "-")
}

// dir is the shot's directory in the report, slash-separated (also its images' relative URL).
func (s shot) dir() string { return path.Join(s.Module, s.Name, s.variant()) }

func (s shot) String() string { return s.state() + " " + s.variant() }

// address is the shot's gallery page, path and query.
func (s shot) address() string {
	q := url.Values{"panel": {s.Panel}, "lang": {s.Lang}}
	if s.Layout != "" {
		q.Set("layout", s.Layout)
	}
	return galleryPath + "/" + url.PathEscape(s.Module) + "/" + url.PathEscape(s.Name) + "?" + q.Encode()
}

// selection is what to shoot of each side's states.
type selection struct {
	states *regexp.Regexp // over module/name; nil for all
	panel  string         // "" for every panel
	all    bool           // every language and layout, not only the panel's default language and own layout
	widths []int
}

// shots are the shots sel picks from one side's states, in the gallery's order.
func (sel selection) shots(states []state) []shot {
	var out []shot
	for _, st := range states {
		if sel.states != nil && !sel.states.MatchString(st.Module+"/"+st.Name) {
			continue
		}
		for _, p := range st.Panels {
			if (sel.panel != "" && p.Key != sel.panel) || len(p.Languages) == 0 {
				continue
			}
			langs, layouts := p.Languages[:1], []string{""}
			if sel.all {
				langs = p.Languages
				if len(p.Layouts) > 1 {
					layouts = append(layouts, p.Layouts[1:]...)
				}
			}
			for _, layout := range layouts {
				for _, lang := range langs {
					for _, w := range sel.widths {
						out = append(out, shot{Module: st.Module, Name: st.Name, Panel: p.Key, Lang: lang, Layout: layout, Width: w})
					}
				}
			}
		}
	}
	return out
}

// pair is a shot and the sides that have it.
type pair struct {
	shot       shot
	base, head bool
}

// pairs are the union of both sides' shots: the head's in order, then those only the base has.
func pairs(base, head []shot) []pair {
	inBase := make(map[shot]bool, len(base))
	for _, s := range base {
		inBase[s] = true
	}
	out := make([]pair, 0, len(head))
	seen := make(map[shot]bool, len(head))
	for _, s := range head {
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, pair{shot: s, base: inBase[s], head: true})
	}
	for _, s := range base {
		if !seen[s] {
			seen[s] = true
			out = append(out, pair{shot: s, base: true})
		}
	}
	return out
}

// parseWidths reads -widths: positive whole numbers, comma-separated.
func parseWidths(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || w < 100 || w > 4000 {
			return nil, fmt.Errorf("-widths: %q is not a width from 100 to 4000 px", f)
		}
		out = append(out, w)
	}
	return out, nil
}
