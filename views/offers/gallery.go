package offers

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/canvass/canvass/views"
)

// Gallery lists the offers pages' states for the development gallery: offers and games from
// none to many, the provider not answering, the member's own offers in every status, the issue
// report sent back with each error, and one offer's page.
func Gallery() []views.GalleryState {
	state := func(name string, props func(ctx context.Context, f views.Fixture) PageProps) views.GalleryState {
		return views.GalleryView(name, "/offers", views.GalleryMember, Page, props)
	}
	return []views.GalleryState{
		state("empty", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Offers: []Card{}, Games: []Card{}}
		}),
		state("one-offer", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Offers: galleryCards(ctx, f, "offer", 1), Games: []Card{}}
		}),
		state("many", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Offers: galleryCards(ctx, f, "offer", 8), Games: galleryCards(ctx, f, "game", 5), Rows: galleryRows(ctx, f, 6)}
		}),
		state("games-only", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Offers: []Card{}, Games: galleryCards(ctx, f, "game", 3), Rows: galleryRows(ctx, f, 1)}
		}),
		state("unavailable", func(ctx context.Context, f views.Fixture) PageProps {
			// The provider did not answer: the lists are missing, the member's own offers are not.
			return PageProps{Unavailable: true, Rows: galleryRows(ctx, f, 4)}
		}),
		state("unavailable-no-rows", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Unavailable: true}
		}),
		state("many-rows", func(ctx context.Context, f views.Fixture) PageProps {
			return PageProps{Offers: galleryCards(ctx, f, "offer", 2), Games: galleryCards(ctx, f, "game", 1), Rows: galleryRows(ctx, f, 20)}
		}),
		state("report-error-empty", func(ctx context.Context, f views.Fixture) PageProps {
			rows := galleryRows(ctx, f, 4)
			rows[0].Open, rows[0].Error = true, views.T(ctx, "error.offer_issue_empty")
			return PageProps{Offers: galleryCards(ctx, f, "offer", 2), Games: []Card{}, Rows: rows}
		}),
		state("report-error-long", func(ctx context.Context, f views.Fixture) PageProps {
			rows := galleryRows(ctx, f, 4)
			rows[2].Open, rows[2].Error = true, views.Tf(ctx, "error.offer_issue_long", map[string]any{"Max": 2000})
			rows[2].Message = strings.Repeat("I finished all ten levels on Saturday evening and the game showed the reward screen, but nothing arrived. ", 21)
			return PageProps{Offers: galleryCards(ctx, f, "offer", 2), Games: []Card{}, Rows: rows}
		}),
		{
			Name: "report-received", Path: "/offers", Who: views.GalleryMember,
			Page: func(p *views.Page) {
				p.Flash = append(p.Flash, views.Flash{Type: "success", Message: p.Translate("flash.offer_report_received", nil, nil)})
			},
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return Page(PageProps{Offers: galleryCards(ctx, f, "offer", 3), Games: galleryCards(ctx, f, "game", 1), Rows: galleryRows(ctx, f, 3)})
			},
		},
		{
			Name: "view", Path: "/offers/view/" + url.PathEscape(galleryOffers[0].id), Who: views.GalleryMember,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return View(galleryCards(ctx, f, "offer", 1)[0])
			},
		},
		{
			Name: "view-long", Path: "/offers/view/" + url.PathEscape(galleryOffers[1].id), Who: views.GalleryMember,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return View(galleryCards(ctx, f, "offer", 2)[1])
			},
		},
		{
			Name: "view-game", Path: "/offers/view/" + url.PathEscape(galleryGames[0].id), Who: views.GalleryMember,
			View: func(ctx context.Context, f views.Fixture) templ.Component {
				return View(galleryCards(ctx, f, "game", 1)[0])
			},
		},
	}
}

// galleryOffer is an offer as a provider lists it.
type galleryOffer struct {
	id, name, desc, req string
	reward              int64
	minutes             int
}

var galleryOffers = []galleryOffer{
	{"off-1001", "Sign up for Streamly", "Start a free trial of Streamly and watch one film.", "New customers only.", 450, 10},
	{"off-1002", "Open a savings account with Northbank and deposit at least 100 in the first thirty days",
		"Open the account online in about fifteen minutes, then make a first deposit of at least 100 within thirty days. Your reward is confirmed once Northbank sees the deposit, which can take up to six weeks.",
		"18 or over, resident in the UK or the US, no Northbank account in the last 12 months. One reward per household.", 123450, 0},
	{"off-1003", "Answer the Daily Quiz", "Five questions a day for a week.", "", 75, 3},
	{"off-1004", "Try MealBox", "Order your first box with the partner's discount.", "First order only.", 1200, 15},
	{"off-1005", "Download ShopSaver", "Install the app and scan one receipt.", "Android or iOS.", 150, 5},
	{"off-1006", "Join the PetClub newsletter", "Confirm your email address.", "", 30, 2},
	{"off-1007", "Rate five local restaurants", "Leave an honest star rating for five places you've eaten at.", "", 100, 8},
	{"off-1008", "Test a new banking app", "Download, register and set up a savings goal.", "", 900, 20},
}

var galleryGames = []galleryOffer{
	{"game-2001", "Kingdom Builders", "Install and reach level 10 within 14 days.", "New players only. Android 8 or later.", 850, 120},
	{"game-2002", "Word Garden", "Finish the first 50 puzzles.", "", 300, 60},
	{"game-2003", "Solitaire Stars: the grand tournament of the seven seas edition", "Win three games in a row.", "", 50, 15},
	{"game-2004", "Idle Farm", "Reach farm level 20.", "", 1500, 0},
	{"game-2005", "Space Runner", "Score 10,000 points in one run.", "iOS only.", 400, 30},
}

// galleryCards words the first n offers (or games) as the offers module does.
func galleryCards(ctx context.Context, f views.Fixture, kind string, n int) []Card {
	list := galleryOffers
	if kind == "game" {
		list = galleryGames
	}
	out := make([]Card, 0, n)
	for _, o := range list[:n] {
		c := Card{ID: o.id, Kind: kind, Name: o.name, Description: o.desc, Requirements: o.req, Reward: f.Money(o.reward),
			Href: "/offers/view/" + url.PathEscape(o.id), StartHref: "/offers/start/" + url.PathEscape(o.id)}
		if o.minutes > 0 {
			c.Minutes = views.Tf(ctx, "offers.minutes", map[string]any{"Minutes": o.minutes})
		}
		out = append(out, c)
	}
	return out
}

// galleryRows are the member's own offers, cycling through pending, credited and reversed.
func galleryRows(ctx context.Context, f views.Fixture, n int) []RowView {
	statuses := []string{"pending", "credited", "reversed", "pending", "credited"}
	all := append(append([]galleryOffer{}, galleryGames...), galleryOffers...)
	out := make([]RowView, 0, n)
	for i := range n {
		o, status := all[i%len(all)], statuses[i%len(statuses)]
		at := f.Now.Add(-time.Duration(i*50+3) * time.Hour)
		r := RowView{ID: fmt.Sprintf("00000000-0000-4000-b000-%012d", i+1), Name: o.name, Status: status, StatusLabel: views.T(ctx, "offers.status_"+status),
			Reward: f.Money(o.reward), CanReport: status != "credited"}
		switch status {
		case "reversed":
			r.Detail = views.Tf(ctx, "offers.reversed_on", map[string]any{"Date": f.Date(at, false)})
		case "credited":
			r.Detail = views.Tf(ctx, "offers.credited_on", map[string]any{"Date": f.Date(at, false)})
		default:
			r.Detail = views.Tf(ctx, "offers.started_on", map[string]any{"Date": f.Date(at, false)})
		}
		out = append(out, r)
	}
	return out
}
