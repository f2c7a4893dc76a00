package registry

import (
	"bytes"
	"context"
	"testing"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
	"github.com/canvass/canvass/views/feed"
	"github.com/canvass/canvass/views/layouts"
	"github.com/canvass/canvass/views/surveys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headerOnly changes the member's header and nothing else.
type headerOnly struct{}

func (headerOnly) Name() string { return "header-only" }
func (headerOnly) Header() templ.Component {
	return templ.Raw(`<header class="only-header">mine</header>`)
}

// cardOnly changes the feed's cards and nothing else.
type cardOnly struct{}

func (cardOnly) Name() string { return "card-only" }
func (cardOnly) FeedCard(c feed.CardProps) templ.Component {
	return templ.Raw(`<li class="only-card">` + c.Name + `</li>`)
}

func render(t *testing.T, l views.Layout, comp templ.Component) string {
	t.Helper()
	page := &views.Page{Lang: "en", Layout: l, Member: &views.Member{Email: "m@example.test"}}
	var b bytes.Buffer
	require.NoError(t, comp.Render(views.WithPage(context.Background(), page), &b))
	return b.String()
}

func feedPage() templ.Component {
	return feed.Feed(feed.FeedProps{Cards: []feed.CardProps{{GUID: "g1", Name: "Coffee habits"}}, More: feed.MoreProps{EndOfFeed: true}})
}

func TestAPageDrawsWhatItsLayoutImplementsAndTheStandardComponentsForTheRest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		layout       views.Layout
		shows, lacks []string
	}{
		{"no layout is the standard one", nil,
			[]string{`<header class="topbar">`, `<div class="shell"><nav class="nav"`, `<li class="feed-card card" id="c-g1"`}, []string{"cx-"}},
		{"the standard layout", Named("standard"),
			[]string{`<header class="topbar">`, `<div class="shell"><nav class="nav"`, `<li class="feed-card card" id="c-g1"`}, []string{"cx-"}},
		{"a layout with only a header keeps the standard shell, navigation and cards", headerOnly{},
			[]string{`<header class="only-header">mine</header>`, `<div class="shell"><nav class="nav"`, `<li class="feed-card card" id="c-g1"`}, []string{`<header class="topbar">`}},
		{"a layout with only a card keeps the standard shell", cardOnly{},
			[]string{`<header class="topbar">`, `<div class="shell"><nav class="nav"`, `<li class="only-card">Coffee habits</li>`}, []string{"feed-card card"}},
		{"the compact layout draws its shell and its cards", Named("compact"),
			[]string{`<nav class="nav cx-nav"`, `<li class="feed-card cx-card" id="c-g1" data-guid="g1"><input type="hidden" name="skip" value="g1">`, `action="/feed/g1/hide"`, `action="/feed/g1/report"`},
			[]string{`<div class="shell">`, "feed-card card"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			html := render(t, tt.layout, feedPage())
			for _, s := range tt.shows {
				assert.Contains(t, html, s)
			}
			for _, s := range tt.lacks {
				assert.NotContains(t, html, s)
			}
		})
	}
}

func TestASurveyIsFramedByItsLayoutInTheAppAndByTheEmbedShellWhenFramed(t *testing.T) {
	t.Parallel()
	inApp := surveys.Survey(surveys.SurveyProps{GUID: "g1", Name: "Coffee habits"})
	framed := surveys.Survey(surveys.SurveyProps{GUID: "g1", Name: "Coffee habits", Embed: true})

	assert.Contains(t, render(t, nil, inApp), `<div class="shell">`, "the standard layout frames a survey in the member's shell")
	compact := render(t, Named("compact"), inApp)
	assert.Contains(t, compact, `<a class="cx-back" href="/">`)
	assert.NotContains(t, compact, `<nav`, "the compact layout leaves a survey alone on its page")
	assert.Contains(t, render(t, headerOnly{}, inApp), `<header class="only-header">`, "a layout without a survey frame frames surveys in its app shell")
	for _, l := range []views.Layout{nil, Named("compact")} {
		html := render(t, l, framed)
		assert.Contains(t, html, `<main id="main" class="embed">`)
		assert.NotContains(t, html, `topbar`, "a framed survey belongs to the embedder: no layout's chrome")
	}
}

func TestEveryLayoutHasAUniqueNameAndAnUnknownNameIsTheStandardOne(t *testing.T) {
	t.Parallel()
	names := Names()
	require.Equal(t, layouts.StandardName, names[0])
	seen := map[string]bool{}
	for _, n := range names {
		assert.False(t, seen[n], "%s is listed twice", n)
		seen[n] = true
		assert.True(t, Known(n))
		assert.Equal(t, n, Named(n).Name())
	}
	assert.True(t, Known(""), "no layout named is the standard one")
	assert.False(t, Known("Compact"))
	assert.Equal(t, layouts.StandardName, Named("removed-long-ago").Name(), "a panel whose layout was removed still renders")
}
