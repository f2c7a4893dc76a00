// Package gallery serves the development gallery (/_dev/gallery): every state of every page,
// component and mail the view packages list, rendered from their fixtures in a demo panel's
// theme and a language, without a database or a sign-in. Designers see a change everywhere at
// once; the layout checks walk every state. It is mounted outside production only.
package gallery

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	galleryview "github.com/canvass/canvass/views/gallery"
	"github.com/canvass/canvass/views/layouts/registry"
	"github.com/gofiber/fiber/v3"
)

// Path is where the gallery is served.
const Path = "/_dev/gallery"

// Widths are the widths the gallery offers and the layout checks use: the smallest phone
// worth supporting, a common phone, a laptop.
var Widths = []int{320, 360, 1280}

// Height is the frames' height: a phone's first screen (360×740).
const Height = 740

// Deps is what the gallery needs: the kit that renders pages, and the panels it dresses states
// in (the first is the default).
type Deps struct {
	Kit    *web.Kit
	Panels []*web.Panel
	// Sections are the states to serve; nil serves every view package's (galleryview.Sections).
	Sections []views.GallerySection
}

// Module serves the gallery.
type Module struct {
	kit      *web.Kit
	panels   []*web.Panel
	sections []views.GallerySection
	states   map[string]views.GalleryState // by module/name
}

var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// New checks every state's name and returns the gallery.
func New(d Deps) (*Module, error) {
	if len(d.Panels) == 0 {
		return nil, fmt.Errorf("gallery: no panel to dress the states in")
	}
	m := &Module{kit: d.Kit, panels: d.Panels, sections: d.Sections, states: map[string]views.GalleryState{}}
	if m.sections == nil {
		m.sections = galleryview.Sections()
	}
	for _, s := range m.sections {
		for _, st := range s.States {
			key := s.Module + "/" + st.Name
			switch {
			case !nameRE.MatchString(s.Module) || !nameRE.MatchString(st.Name):
				return nil, fmt.Errorf("gallery state %q: module and name are lower-case words and dashes", key)
			case st.View == nil:
				return nil, fmt.Errorf("gallery state %q has no view", key)
			case !slices.Contains([]string{views.GalleryVisitor, views.GalleryMember, views.GalleryConsole, views.GalleryMail}, st.Who):
				return nil, fmt.Errorf("gallery state %q: who is %q", key, st.Who)
			}
			if _, dup := m.states[key]; dup {
				return nil, fmt.Errorf("gallery state %q is listed twice", key)
			}
			m.states[key] = st
		}
	}
	return m, nil
}

// Routes registers the index, one state (?w= frames it at a width) and the list as JSON.
func (m *Module) Routes(r fiber.Router) {
	r.Get(Path, m.index)
	r.Get(Path+"/states.json", m.list)
	r.Get(Path+"/:module/:state", m.state)
}

// Ref is one state as the JSON list gives it (the layout checks and the screenshots read it).
type Ref struct {
	Module          string     `json:"module"`
	Name            string     `json:"name"`
	Who             string     `json:"who"`
	Path            string     `json:"path"`
	FeedFirstScreen bool       `json:"feedFirstScreen,omitempty"`
	Panels          []PanelRef `json:"panels"`
}

// PanelRef is a panel a state is shown in, with the languages and layouts it is shown in (the
// panel's own layout first).
type PanelRef struct {
	Key       string   `json:"key"`
	Languages []string `json:"languages"`
	Layouts   []string `json:"layouts"`
}

// List is every state with the panels (and through them the languages) it is shown in.
func (m *Module) List() []Ref {
	var out []Ref
	for _, s := range m.sections {
		for _, st := range s.States {
			r := Ref{Module: s.Module, Name: st.Name, Who: st.Who, Path: st.Path, FeedFirstScreen: st.FeedFirstScreen}
			for _, p := range m.panels {
				pr := PanelRef{Key: p.Key}
				for _, l := range p.Languages {
					pr.Languages = append(pr.Languages, l.Code)
				}
				pr.Layouts = append(pr.Layouts, registry.Named(p.Layout).Name())
				for _, name := range registry.Names() {
					if name != pr.Layouts[0] {
						pr.Layouts = append(pr.Layouts, name)
					}
				}
				r.Panels = append(r.Panels, pr)
			}
			out = append(out, r)
		}
	}
	return out
}

func (m *Module) list(c fiber.Ctx) error { return c.JSON(m.List()) }

// pick is what a request shows a state in: a panel the gallery knows, one of its languages and
// a layout.
type pick struct {
	panel  *web.Panel // with the layout asked for, when it is not the panel's own
	lang   string
	layout string // the layout asked for by ?layout=, "" for the panel's own
}

// choice is the request's pick: a panel the gallery knows (else the first), one of its
// languages (else its default) and a layout (else the panel's own).
func (m *Module) choice(c fiber.Ctx) pick {
	// The panel's own strings, never the query's: Fiber's point into a buffer the next request
	// reuses, and the language is kept as a key of the translators' caches.
	k := pick{panel: m.panels[0]}
	for _, p := range m.panels {
		if p.Key == c.Query("panel") {
			k.panel = p
		}
	}
	k.lang = k.panel.DefaultLanguage
	for _, l := range k.panel.Languages {
		if l.Code == c.Query("lang") {
			k.lang = l.Code
		}
	}
	for _, name := range registry.Names() {
		if name == c.Query("layout") && name != registry.Named(k.panel.Layout).Name() {
			dressed := *k.panel
			dressed.Layout, k.layout, k.panel = name, name, &dressed
		}
	}
	return k
}

// query is the pick's query string at width w (0: the page itself, not framed).
func (k pick) query(w int) string {
	v := url.Values{"panel": {k.panel.Key}, "lang": {k.lang}}
	if k.layout != "" {
		v.Set("layout", k.layout)
	}
	if w > 0 {
		v.Set("w", strconv.Itoa(w))
	}
	return "?" + v.Encode()
}

// width is the ?w= asked for, if it is one of Widths.
func width(c fiber.Ctx) (int, bool) {
	w, err := strconv.Atoi(c.Query("w"))
	return w, err == nil && slices.Contains(Widths, w)
}

func (m *Module) index(c fiber.Ctx) error {
	k := m.choice(c)
	panel, lang := k.panel, k.lang
	w, ok := width(c)
	if !ok {
		w = 360
	}
	props := galleryview.IndexProps{Width: w, Height: Height}
	for _, p := range m.panels {
		props.Panels = append(props.Panels, galleryview.Choice{Value: p.Key, Label: p.Name, Selected: p.Key == panel.Key})
	}
	for _, l := range panel.Languages {
		props.Langs = append(props.Langs, galleryview.Choice{Value: l.Code, Label: l.Name, Selected: l.Code == lang})
	}
	for _, name := range registry.Names() {
		props.Layouts = append(props.Layouts, galleryview.Choice{Value: name, Label: name, Selected: name == registry.Named(panel.Layout).Name()})
	}
	for _, x := range Widths {
		props.Widths = append(props.Widths, galleryview.Choice{Value: strconv.Itoa(x), Label: strconv.Itoa(x) + " px", Selected: x == w})
	}
	for _, s := range m.sections {
		sec := galleryview.Section{Module: s.Module}
		for _, st := range s.States {
			base := Path + "/" + s.Module + "/" + st.Name
			sec.States = append(sec.States, galleryview.Thumb{Name: st.Name, Who: st.Who, Href: base + k.query(0), FrameHref: base + k.query(w)})
			props.Count++
		}
		props.Sections = append(props.Sections, sec)
	}
	page := m.kit.FixturePage(panel, lang, Path, nil, nil)
	return m.kit.RenderPage(c, page, fiber.StatusOK, galleryview.Index(props))
}

func (m *Module) state(c fiber.Ctx) error {
	key := c.Params("module") + "/" + c.Params("state")
	st, found := m.states[key]
	if !found {
		return fiber.ErrNotFound
	}
	k := m.choice(c)
	panel, lang := k.panel, k.lang
	if w, ok := width(c); ok {
		return m.frame(c, key, k, w)
	}
	f := views.Fixture{
		Panel: panel.Key, AppName: panel.WebAppName, Currency: panel.CurrencyCode, Lang: lang,
		CTAColor: panel.CTAColor, CTAText: panel.CTAText, Now: fixtureNow,
		Money: func(minor int64) string { return web.FormatMoney(minor, panel.CurrencyCode, lang) },
		Date:  func(t time.Time, withTime bool) string { return m.kit.DateIn(panel, lang, t, withTime) },
	}
	dressed := panel
	if st.Who == views.GalleryConsole {
		dressed = nil // the console's neutral theme, never a panel's
	}
	var member *views.Member
	if st.Who == views.GalleryMember {
		member = &views.Member{Email: "member@demo.test", Username: "demo-member"}
	}
	page := m.kit.FixturePage(dressed, lang, st.Path, member, st.Islands)
	if dressed == nil {
		// Neutral theme, but a message the language lacks is still noted (for the panel).
		page.Translate = func(id string, data map[string]any, count any) string {
			return m.kit.Translate(panel, lang, id, data, count)
		}
	}
	if member != nil {
		page.Balance = f.Money(2500)
	}
	if st.Page != nil {
		st.Page(page)
	}
	ctx := views.WithPage(c.Context(), page)
	if st.Who == views.GalleryMail {
		// A mail is its own document, inline-styled: written as the mailer writes it, under a
		// policy of its own that lets its style attributes apply and nothing run.
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		web.AsMail(c)
		return st.View(ctx, f).Render(ctx, c.Response().BodyWriter())
	}
	return m.kit.RenderPage(c, page, fiber.StatusOK, st.View(ctx, f))
}

// frame shows the state in a frame of width w, with the other widths a click away.
func (m *Module) frame(c fiber.Ctx, key string, k pick, w int) error {
	base := Path + "/" + key
	props := galleryview.FrameProps{Name: key, Src: base + k.query(0), Width: w, Height: Height, Index: Path + k.query(w)}
	for _, x := range Widths {
		props.Widths = append(props.Widths, galleryview.Choice{Value: base + k.query(x), Label: strconv.Itoa(x) + " px", Selected: x == w})
	}
	return m.kit.RenderPage(c, m.kit.FixturePage(k.panel, k.lang, base, nil, nil), fiber.StatusOK, galleryview.Frame(props))
}

// fixtureNow is the fixtures' clock: a state renders the same on every run (screenshots compare).
var fixtureNow = time.Date(2026, time.November, 3, 14, 30, 0, 0, time.UTC)
