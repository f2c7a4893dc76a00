package views

import (
	"context"
	"time"

	"github.com/a-h/templ"
)

// GalleryState is one state of a page, a component or a mail as the development gallery
// (/_dev/gallery) shows it: rendered from fixtures, with no database and no sign-in. Each view
// package lists its states in gallery.go, beside the views they feed, so a new view comes with
// its states and the layout checks see it at once.
type GalleryState struct {
	// Name is the state's address under its module, /_dev/gallery/{module}/{name}: lower-case
	// words and dashes ("many-cards").
	Name string
	// Path is the address the page really has (/feed): the navigation marks it, and language
	// links keep it.
	Path string
	// Who sees the page: GalleryVisitor, GalleryMember, GalleryConsole or GalleryMail.
	Who string
	// Islands are the islands the page mounts; their scripts load as on the real page.
	Islands []string
	// Page, when set, adjusts the page context (a flash, a field error, the balance, an
	// embedded page's chrome) before the view renders.
	Page func(p *Page)
	// View builds the fixture's props, translated through ctx as a handler would, and the view.
	View func(ctx context.Context, f Fixture) templ.Component
	// FeedFirstScreen: the state is a feed with surveys, whose first screen on a phone
	// (360×740) must show at least one survey's Start button.
	FeedFirstScreen bool
}

// Who sees a gallery state.
const (
	GalleryVisitor = "visitor" // not signed in: the panel's public pages, widgets, embeds
	GalleryMember  = "member"  // a signed-in member: navigation and balance
	GalleryConsole = "console" // an operator: the console's neutral theme, never a panel's
	GalleryMail    = "mail"    // a mail's HTML, as mail clients get it
)

// Fixture is what a gallery state may know of the panel it is dressed in, beyond the page.
type Fixture struct {
	Panel    string // the panel key
	AppName  string
	Currency string
	Lang     string
	// CTAColor and CTAText are the panel's call-to-action colours (mail cannot use the theme's CSS).
	CTAColor string
	CTAText  string
	// Money formats minor units in the panel's currency and the language, as pages do.
	Money func(minor int64) string
	// Date formats a time as pages do (withTime adds the time of day).
	Date func(t time.Time, withTime bool) string
	// Now is the fixtures' fixed clock, so a state renders the same every time.
	Now time.Time
}

// GallerySection is one view package's states.
type GallerySection struct {
	Module string
	States []GalleryState
}

// GalleryView is the usual state: a view of props a fixture builds, at path, seen by who.
func GalleryView[P any](name, path, who string, view func(P) templ.Component, props func(ctx context.Context, f Fixture) P) GalleryState {
	return GalleryState{Name: name, Path: path, Who: who, View: func(ctx context.Context, f Fixture) templ.Component { return view(props(ctx, f)) }}
}
