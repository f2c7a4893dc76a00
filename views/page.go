// Package views holds the templ layouts, components and pages. It imports nothing from modules/:
// modules build the props and the Page, views only render them.
package views

import (
	"context"
	"strings"
)

// Page is what every template may read about the request: who, where, in which language and
// theme. modules/web fills it; templates reach it through P(ctx).
type Page struct {
	AppName    string
	Title      string // the document title suffix rule (" - <env>") is already applied
	EnvSuffix  string // " - staging" outside production, empty in production
	Lang       string
	Languages  []Language
	Path       string
	CurrentURL string // path and query, for language links
	ThemeCSS   string // ":root{--color-primary:...}" from the panel theme
	FontURL    string
	FontFamily string
	LogoURL    string
	FaviconURL string
	CSRFToken  string
	Member     *Member
	Balance    string // formatted balance for the header slot; empty hides the slot
	Payment    *PaymentNotice
	Scripts    []string
	Preloads   []string
	Styles     []string
	Flash      []Flash
	Translate  func(id string, data map[string]any, count any) string
	Nav        []NavItem
	Embedded   bool // rendered inside an iframe (widgets, embed): no navigation chrome
	// Layout is the panel's layout (views/layouts/registry): the components it draws its own
	// way. nil is the standard layout.
	Layout    Layout
	RequestID string
	// Tag is the panel's tag analytics (nil: none, and the page carries no byte of it).
	Tag *Tag
	// AppLoadURL is the tracking image that records the app's load (spec section 7's
	// events/record), on the page a visit enters the app by; "" on every other page.
	AppLoadURL string
	// TrackingPixel is the panel's app_settings.tracking_pixel, checked (an http(s) image
	// address), for the member pages a visit enters the app by; "" for none.
	TrackingPixel string
	// ClientMessages are the translations scripts need (toasts, islands), embedded as #i18n.
	ClientMessages map[string]string
	// FieldErrors are messages for fields of a form the request before this one sent back
	// (a text refused at the edge), by field name; a form's inputs show them beside the field.
	FieldErrors map[string]string
}

// Tag is what the base layout loads for the panel's tag analytics (spec section 5's ids, checked
// by modules/web): gtag.js configured with each GtagID, and/or a Tag Manager container.
type Tag struct {
	GtagIDs     []string // G-, UA-, AW-, DC-
	ContainerID string   // GTM-
	// Events are analytics events the page reports once loaded (gtag's event, or a dataLayer
	// event for a Tag Manager container alone).
	Events []TagEvent
}

// TagEvent is one analytics event: its name and parameters (event_label, ...).
type TagEvent struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params"`
}

// PaymentNotice is the spec's notification.payment: credits that arrived since the member
// last looked, until they dismiss it.
type PaymentNotice struct {
	Amount string // formatted
	UpTo   int64  // dismissing marks the member's entries up to this one as seen
}

// Language is one language the panel offers.
type Language struct {
	Code      string
	Name      string
	IsDefault bool
}

// Member is the signed-in participant as the layout shows them.
type Member struct {
	Email    string
	Username string
	// PictureURL is the member's shown profile picture, "" when they have none.
	PictureURL string
}

// Flash is a server message shown as a toast when the page loads.
type Flash struct {
	Type    string // success, error, info
	Message string
}

// NavItem is one section of the home navigation.
type NavItem struct {
	Href   string
	Icon   string
	Label  string
	Active bool
}

// Layout is a panel's look beyond its colours: a set of components (page shell, header,
// navigation, feed card, survey frame) drawn its own way. Each component is an interface of
// the package that draws the standard one (layouts.AppShell, feed.CardDrawer, ...); a layout
// implements those it changes, and every other component is the standard one.
type Layout interface {
	// Name is how tenant files and the console name the layout (app_settings.layout).
	Name() string
}

type pageKey struct{}

// WithPage puts the page on the context that templ passes to every component.
func WithPage(ctx context.Context, p *Page) context.Context {
	return context.WithValue(ctx, pageKey{}, p)
}

// P returns the request's page; a bare page (English, keys as text) when none was set,
// so components render in isolation (tests, previews).
func P(ctx context.Context) *Page {
	if p, ok := ctx.Value(pageKey{}).(*Page); ok && p != nil {
		return p
	}
	return &Page{Lang: "en", AppName: "the app"}
}

// FieldError is the message a form sent back for the field name ("" when none).
func FieldError(ctx context.Context, name string) string { return P(ctx).FieldErrors[name] }

// T translates a message id in the request's language.
func T(ctx context.Context, id string) string { return Tf(ctx, id, nil) }

// Tf translates a message id with template data.
func Tf(ctx context.Context, id string, data map[string]any) string {
	p := P(ctx)
	if p.Translate == nil {
		return id
	}
	return p.Translate(id, data, nil)
}

// Tn translates a message id with a plural count (CLDR rules of the language).
func Tn(ctx context.Context, id string, count int, data map[string]any) string {
	p := P(ctx)
	if p.Translate == nil {
		return id
	}
	if data == nil {
		data = map[string]any{}
	}
	data["Count"] = count
	return p.Translate(id, data, count)
}

// DocumentTitle joins a page title with the app name and environment suffix.
func DocumentTitle(ctx context.Context, title string) string {
	p := P(ctx)
	parts := []string{}
	if title != "" {
		parts = append(parts, title)
	}
	if p.AppName != "" {
		parts = append(parts, p.AppName)
	}
	return strings.Join(parts, " · ") + p.EnvSuffix
}

// LangURL is the current address with ?lang=CODE, the spec's language switch.
func LangURL(ctx context.Context, code string) string {
	p := P(ctx)
	u := p.CurrentURL
	if u == "" {
		u = "/"
	}
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "lang=" + code
}
