package home

import (
	"context"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the home area's feed page, which shows its empty state until the feed module
// serves /feed (modules/home.feedPage).
func Gallery() []views.GalleryState {
	return []views.GalleryState{
		{
			Name: "feed-empty", Path: "/feed", Who: views.GalleryMember,
			View: func(context.Context, views.Fixture) templ.Component { return Feed() },
		},
	}
}
