package pages

import (
	"context"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the error screens as modules/web's error handler and modules/home's /error and
// /maintenance pages fill them, and the loading page.
func Gallery() []views.GalleryState {
	errorState := func(name, path string, props func(ctx context.Context) ErrorProps) views.GalleryState {
		return views.GalleryState{
			Name: name, Path: path, Who: views.GalleryVisitor,
			View: func(ctx context.Context, f views.Fixture) templ.Component { return Error(props(ctx)) },
		}
	}
	// clientError is the error handler's page for a 4xx: its message as the title, the
	// default description and button.
	clientError := func(ctx context.Context, title string) ErrorProps {
		p := galleryDefaultError(ctx)
		p.Title = title
		return p
	}
	return []views.GalleryState{
		errorState("not-found", "/no-such-page", func(ctx context.Context) ErrorProps {
			return clientError(ctx, views.T(ctx, "error.page_not_found"))
		}),
		errorState("unrecognized-domain", "/", func(ctx context.Context) ErrorProps {
			return clientError(ctx, views.Tf(ctx, "error.unrecognized_domain", map[string]any{"Host": "example.test"}))
		}),
		errorState("unrecognized-long-domain", "/", func(ctx context.Context) ErrorProps {
			// A host of one long unbroken word must wrap at 320 px.
			return clientError(ctx, views.Tf(ctx, "error.unrecognized_domain", map[string]any{"Host": "surveys.northwind-consumer-research-and-household-panel.example-company.co.uk"}))
		}),
		errorState("unknown-error", "/error", func(ctx context.Context) ErrorProps {
			// /error without a query, and every 5xx the error handler renders (500 included).
			return galleryDefaultError(ctx)
		}),
		errorState("session-expired", "/feed", func(ctx context.Context) ErrorProps {
			// A 403 whose message is long: the CSRF refusal of a page that is not a form post.
			return clientError(ctx, views.T(ctx, "error.csrf"))
		}),
		errorState("rate-limited", "/feed", func(ctx context.Context) ErrorProps {
			return clientError(ctx, views.T(ctx, "error.rate_limited"))
		}),
		errorState("custom-text", "/error", func(ctx context.Context) ErrorProps {
			// /error's query texts, at their longest kind: a tenant's own words.
			return ErrorProps{
				Title:       "We couldn't finish setting up your rewards account because the survey partner did not answer in time",
				Description: "Your answers are saved and nothing was lost. The survey partner is running maintenance on their systems this evening; please come back in about an hour and pick up exactly where you left off. If this keeps happening, write to support@northwind-rewards.example and quote the reference NW-2026-11-03-7781.",
				Button:      "Back to my surveys and rewards",
			}
		}),
		{
			Name: "maintenance", Path: "/maintenance", Who: views.GalleryVisitor,
			View: func(context.Context, views.Fixture) templ.Component { return Maintenance() },
		},
		{
			Name: "loading", Path: "/", Who: views.GalleryVisitor,
			View: func(context.Context, views.Fixture) templ.Component { return Loading() },
		},
	}
}

// galleryDefaultError is the error screen's default texts (the spec's).
func galleryDefaultError(ctx context.Context) ErrorProps {
	return ErrorProps{
		Title:       views.T(ctx, "error.default_title"),
		Description: views.T(ctx, "error.default_description"),
		Button:      views.T(ctx, "error.default_button"),
	}
}
