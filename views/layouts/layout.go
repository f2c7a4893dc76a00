package layouts

import (
	"context"
	"io"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Standard is the standard layout: navigation at the side (at the bottom on a phone), cards
// in a grid, the survey inside the member's shell. It draws every component itself; a panel
// without a layout of its own has it.
type Standard struct{}

// Name is the standard layout's name, the default of app_settings.layout.
func (Standard) Name() string { return StandardName }

// StandardName is the layout a panel has unless it names another.
const StandardName = "standard"

// The components of the page a layout may draw its own way. A layout implements the interfaces
// of those it changes; the others are the standard layout's. Each takes the page's children
// (templ's { children... }) as the standard one does.
type (
	// AppShell is the whole page of a signed-in member around its main part: header,
	// navigation, payment notice and tracking image included.
	AppShell interface {
		App(title string) templ.Component
	}
	// HeaderDrawer is the member's top bar inside the standard shell.
	HeaderDrawer interface{ Header() templ.Component }
	// NavDrawer is the member's navigation inside the standard shell.
	NavDrawer interface{ Nav() templ.Component }
	// SurveyFramer is the page around a survey box (and a survey's invitation) in the app; a
	// framed survey (/embed/) always has the embed shell, which belongs to the embedder.
	SurveyFramer interface {
		SurveyFrame(title string) templ.Component
	}
)

// App is a signed-in member's page in the panel's layout.
func App(title string) templ.Component {
	return byLayout(func(l views.Layout) templ.Component {
		if s, ok := l.(AppShell); ok {
			return s.App(title)
		}
		return StandardApp(title)
	})
}

// SurveyFrame is the page around a survey in the panel's layout: the app's shell unless the
// layout frames surveys its own way.
func SurveyFrame(title string) templ.Component {
	return byLayout(func(l views.Layout) templ.Component {
		if s, ok := l.(SurveyFramer); ok {
			return s.SurveyFrame(title)
		}
		return App(title)
	})
}

// Header is the member's top bar in the panel's layout.
func Header() templ.Component {
	return byLayout(func(l views.Layout) templ.Component {
		if h, ok := l.(HeaderDrawer); ok {
			return h.Header()
		}
		return StandardHeader()
	})
}

// Nav is the member's navigation in the panel's layout.
func Nav() templ.Component {
	return byLayout(func(l views.Layout) templ.Component {
		if n, ok := l.(NavDrawer); ok {
			return n.Nav()
		}
		return StandardNav()
	})
}

// byLayout renders the component pick chooses for the page's layout. The choice is made when
// the page renders (the layout is the request's panel's), and the children the caller passed
// reach the chosen component unchanged.
func byLayout(pick func(views.Layout) templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return pick(views.P(ctx).Layout).Render(ctx, w)
	})
}
