// Package compact is the compact layout (app_settings.layout: compact): the sections in a bar
// under the header on wide screens, the feed as a compact list of one-line campaigns, and a
// survey alone on its page with a way back. On a phone the sections are the standard bottom
// menu. What it does not draw (headers of public pages, widgets, embeds) is the standard one.
package compact

import (
	"github.com/a-h/templ"
	"github.com/canvass/canvass/views/feed"
)

// Layout is the compact layout.
type Layout struct{}

// Name is the layout's name in tenant files and the console.
func (Layout) Name() string { return "compact" }

// Stylesheet is the layout's own stylesheet in static/, loaded after the standard one and only
// on its panels' pages.
func (Layout) Stylesheet() string { return "css/layouts/compact.css" }

// App is the member's page: header, the sections' bar, the page in one column.
func (Layout) App(title string) templ.Component { return app(title) }

// SurveyFrame is a survey's page: the header with a way back to the surveys, no navigation.
func (Layout) SurveyFrame(title string) templ.Component { return surveyFrame(title) }

// FeedCard is a campaign as one row of the feed's list.
func (Layout) FeedCard(c feed.CardProps) templ.Component { return card(c) }
