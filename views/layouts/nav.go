package layouts

import (
	"context"

	"github.com/canvass/canvass/views"
)

// bottomItems is how many items the bottom menu of a narrow screen shows before its "More"
// item: five across a 320 px screen are 64 px each, room for an icon and a two-line label;
// the seven a member can have (the sections and "Log out") cut their labels short.
const bottomItems = 4

// navItems are the page's sections and, for a member, "Log out" last.
func navItems(ctx context.Context) []views.NavItem {
	p := views.P(ctx)
	items := append([]views.NavItem(nil), p.Nav...)
	if p.Member != nil {
		items = append(items, views.NavItem{Href: "/logout", Icon: "logout", Label: views.T(ctx, "nav.logout")})
	}
	return items
}

// moreAt is the index of the first item the bottom menu moves under "More", or 0 when all of
// them fit beside each other.
func moreAt(n int) int {
	if n <= bottomItems+1 {
		return 0
	}
	return bottomItems
}

// anyActive tells whether one of the items is the page shown ("More" is then marked too).
func anyActive(items []views.NavItem) bool {
	for _, item := range items {
		if item.Active {
			return true
		}
	}
	return false
}
