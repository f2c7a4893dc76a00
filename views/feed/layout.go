package feed

import (
	"context"
	"io"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// CardDrawer is a layout that draws the feed's campaign cards its own way (views.Layout). Its
// card keeps the standard one's contract: an <li> with id "c-GUID" and data-guid, a hidden
// "skip" input (load more skips the cards shown), HideForm and ReportForm unless IsWelcome.
type CardDrawer interface {
	FeedCard(c CardProps) templ.Component
}

// Card is one campaign card in the panel's layout.
func Card(c CardProps) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if d, ok := views.P(ctx).Layout.(CardDrawer); ok {
			return d.FeedCard(c).Render(ctx, w)
		}
		return StandardCard(c).Render(ctx, w)
	})
}
