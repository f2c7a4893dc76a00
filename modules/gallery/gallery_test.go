package gallery

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/testsupport/messages"
	"github.com/canvass/canvass/modules/web"
	"github.com/canvass/canvass/views"
	galleryview "github.com/canvass/canvass/views/gallery"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// galleryPanels are two panels as the demo's are: every language the app has between them,
// and one with a theme and a logo of its own.
func galleryPanels() []*web.Panel {
	var plain, themed tenancy.PanelSpec
	plain.ID, plain.Key, plain.Name, plain.CurrencyCode, plain.Languages = "00000000-0000-4000-8000-0000000000a1", "plain", "Plain Panel", "USD", []string{"en", "es"}
	plain.Instance.Code = "plain"
	themed.ID, themed.Key, themed.Name, themed.CurrencyCode, themed.Languages = "00000000-0000-4000-8000-0000000000a2", "themed", "Themed Rewards", "GBP", []string{"en", "ru", "zh"}
	themed.Instance.Code = "themed"
	themed.AppSettings.Layout = "compact"
	themed.AppTheme = tenancy.AppTheme{"color_primary": "#1F3A5F", "color_cta": "#E07A1F", "logo_url": "/static/img/northwind-logo.svg"}
	return []*web.Panel{plain.Preview(), themed.Preview()}
}

type galleryServer struct {
	app     *fiber.App
	mu      sync.Mutex
	missing map[string]bool // "lang id" of messages a state rendered that the catalogue lacks
}

func newGalleryServer(t *testing.T, sections []views.GallerySection) *galleryServer {
	t.Helper()
	kit := web.NewKit("development", strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), messages.Locales(t), nil)
	s := &galleryServer{missing: map[string]bool{}}
	kit.OnMissingTranslation(func(_, lang, id string) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.missing[lang+" "+id] = true
	})
	m, err := New(Deps{Kit: kit, Panels: galleryPanels(), Sections: sections})
	require.NoError(t, err)
	s.app = fiber.New(fiber.Config{ErrorHandler: kit.ErrorHandler})
	m.Routes(s.app)
	return s
}

func (s *galleryServer) get(t *testing.T, target string) (int, string) {
	t.Helper()
	res, err := s.app.Test(httptest.NewRequest(http.MethodGet, target, nil), fiber.TestConfig{Timeout: 30 * time.Second, FailOnTimeout: true})
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(body)
}

func TestEveryGalleryStateRendersInEveryPanelAndLanguageWithMessagesTheCatalogueHas(t *testing.T) {
	t.Parallel()
	s := newGalleryServer(t, nil)
	total := 0
	for _, sec := range galleryview.Sections() {
		for _, st := range sec.States {
			total++
			for _, p := range galleryPanels() {
				for _, l := range p.Languages {
					target := Path + "/" + sec.Module + "/" + st.Name + "?panel=" + p.Key + "&lang=" + l.Code
					status, body := s.get(t, target)
					if !assert.Equal(t, http.StatusOK, status, target) {
						continue
					}
					assert.Contains(t, body, `<html lang="`+l.Code+`"`, target)
					if st.Who != views.GalleryMail {
						assert.Contains(t, body, `id="main"`, "%s: a page has its main part", target)
					}
				}
			}
		}
	}
	assert.Greater(t, total, 0)
	// In English every message a fixture names must exist: a misspelt id would show as itself.
	for k := range s.missing {
		assert.False(t, strings.HasPrefix(k, "en "), "a gallery state renders the message %q, which the catalogue lacks", strings.TrimPrefix(k, "en "))
	}
}

func TestTheGalleryIndexFramesEveryStateAndTheListNamesThem(t *testing.T) {
	t.Parallel()
	s := newGalleryServer(t, nil)
	status, index := s.get(t, Path+"?panel=themed&lang=ru&w=320")
	require.Equal(t, http.StatusOK, status)
	status, list := s.get(t, Path+"/states.json")
	require.Equal(t, http.StatusOK, status)
	var refs []Ref
	require.NoError(t, json.Unmarshal([]byte(list), &refs))
	require.NotEmpty(t, refs)
	for _, r := range refs {
		assert.Contains(t, index, `src="`+Path+"/"+r.Module+"/"+r.Name+`?lang=ru&amp;panel=themed"`)
		assert.Contains(t, index, `href="`+Path+"/"+r.Module+"/"+r.Name+`?lang=ru&amp;panel=themed&amp;w=320"`)
		assert.Equal(t, []PanelRef{
			{"plain", []string{"en", "es"}, []string{"standard", "compact"}},
			{"themed", []string{"en", "ru", "zh"}, []string{"compact", "standard"}},
		}, r.Panels, "each panel's own layout comes first")
	}
}

func TestAStateIsShownInThePanelsOwnLayoutOrTheOneAskedFor(t *testing.T) {
	t.Parallel()
	s := newGalleryServer(t, nil)
	tests := []struct {
		query, shows, lacks string
	}{
		{"?panel=plain", `<nav class="nav" aria-label=`, "cx-nav"},
		{"?panel=themed", `<nav class="nav cx-nav" aria-label=`, `<div class="shell">`},
		{"?panel=plain&layout=compact", `<nav class="nav cx-nav" aria-label=`, `<div class="shell">`},
		{"?panel=themed&layout=standard", `<div class="shell">`, "cx-nav"},
		{"?panel=themed&layout=nothing", `<nav class="nav cx-nav" aria-label=`, `<div class="shell">`},
	}
	for _, tt := range tests {
		status, body := s.get(t, Path+"/feed/many-cards"+tt.query)
		require.Equal(t, http.StatusOK, status, tt.query)
		assert.Contains(t, body, tt.shows, tt.query)
		assert.NotContains(t, body, tt.lacks, tt.query)
		assert.Equal(t, strings.Contains(tt.shows, "cx-nav"), strings.Contains(body, "/static/css/layouts/compact.css"), "%s: the compact stylesheet comes with its layout only", tt.query)
	}
	_, framed := s.get(t, Path+"/feed/many-cards?panel=plain&layout=compact&w=320")
	assert.Contains(t, framed, `src="`+Path+`/feed/many-cards?lang=en&amp;layout=compact&amp;panel=plain"`, "the frame keeps the layout asked for")
}

func TestAStateAtAWidthIsFramedAtThatWidth(t *testing.T) {
	t.Parallel()
	s := newGalleryServer(t, []views.GallerySection{{Module: "demo", States: []views.GalleryState{{
		Name: "hello", Path: "/hello", Who: views.GalleryVisitor,
		View: func(context.Context, views.Fixture) templ.Component { return templ.Raw(`<main id="main">hello</main>`) },
	}}}})
	status, body := s.get(t, Path+"/demo/hello?panel=plain&lang=es&w=320")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `<iframe class="gallery-frame" src="`+Path+`/demo/hello?lang=es&amp;panel=plain" title="demo/hello" width="320" height="740"`)

	status, body = s.get(t, Path+"/demo/hello?panel=nobody&lang=xx&w=999")
	require.Equal(t, http.StatusOK, status, "an unknown panel, language or width falls back to the defaults")
	assert.Equal(t, `<main id="main">hello</main>`, body)
	status, body = s.get(t, Path+"?panel=nobody&lang=xx&w=999")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `<html lang="en"`)
	assert.Contains(t, body, `<option value="360" selected>`)

	status, _ = s.get(t, Path+"/demo/nothing")
	assert.Equal(t, http.StatusNotFound, status)
}

func TestAGalleryStateWithABadNameNoViewOrTwiceListedIsRefused(t *testing.T) {
	t.Parallel()
	view := func(context.Context, views.Fixture) templ.Component { return templ.NopComponent }
	kit := web.NewKit("development", strings.Repeat("s", 32), slog.New(slog.NewTextHandler(io.Discard, nil)), messages.Locales(t), nil)
	for name, states := range map[string][]views.GalleryState{
		"a name with capitals": {{Name: "Many", Who: views.GalleryMember, View: view}},
		"no view":              {{Name: "many", Who: views.GalleryMember}},
		"nobody sees it":       {{Name: "many", Who: "operator", View: view}},
		"listed twice":         {{Name: "many", Who: views.GalleryMember, View: view}, {Name: "many", Who: views.GalleryMember, View: view}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(Deps{Kit: kit, Panels: galleryPanels(), Sections: []views.GallerySection{{Module: "feed", States: states}}})
			assert.Error(t, err)
		})
	}
}
