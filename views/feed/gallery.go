package feed

import (
	"context"
	"fmt"

	"github.com/canvass/canvass/views"
)

// Gallery lists the feed's states for the development gallery: no campaign, one, many, with
// the cards other modules put above it, the welcome campaign first, and the end of the feed.
func Gallery() []views.GalleryState {
	state := func(name string, firstScreen bool, props func(ctx context.Context, f views.Fixture) FeedProps) views.GalleryState {
		st := views.GalleryView(name, "/feed", views.GalleryMember, Feed, props)
		st.Islands, st.FeedFirstScreen = []string{"htmx"}, firstScreen
		return st
	}
	return []views.GalleryState{
		state("empty", false, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Tabs: galleryTabs(ctx, "all"), More: MoreProps{EndOfFeed: true, Empty: true}}
		}),
		state("one-card", true, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Tabs: galleryTabs(ctx, "all"), Cards: galleryCards(ctx, f, 1), More: MoreProps{EndOfFeed: true}}
		}),
		state("many-cards", true, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Tabs: galleryTabs(ctx, "all"), Cards: galleryCards(ctx, f, 10), More: MoreProps{NextHref: "/feed?page=2"}}
		}),
		state("with-notices", true, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Tabs: galleryTabs(ctx, "all"), Cards: galleryCards(ctx, f, 4), Blades: galleryBlades(ctx, f), More: MoreProps{NextHref: "/feed?page=2"}}
		}),
		state("one-notice", true, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Tabs: galleryTabs(ctx, "all"), Cards: galleryCards(ctx, f, 3), Blades: galleryBlades(ctx, f)[:1], More: MoreProps{EndOfFeed: true}}
		}),
		state("welcome-first", true, func(ctx context.Context, f views.Fixture) FeedProps {
			cards := galleryCards(ctx, f, 1)
			cards[0].IsWelcome, cards[0].IsNew = true, false
			return FeedProps{WelcomeFirst: true, Cards: cards, More: MoreProps{EndOfFeed: true}}
		}),
		state("in-progress-filter", true, func(ctx context.Context, f views.Fixture) FeedProps {
			cards := galleryCards(ctx, f, 2)
			for i := range cards {
				cards[i].InProgress, cards[i].IsNew = true, false
			}
			return FeedProps{Filter: "started", Tabs: galleryTabs(ctx, "started"), Cards: cards, More: MoreProps{EndOfFeed: true, Filter: "started"}}
		}),
		state("filter-empty", false, func(ctx context.Context, f views.Fixture) FeedProps {
			return FeedProps{Filter: "competitions", Tabs: galleryTabs(ctx, "competitions"), More: MoreProps{EndOfFeed: true, Empty: true, Filter: "competitions"}}
		}),
	}
}

// galleryTabs are the feed's filters with active marked (feed.Filters of the feed module).
func galleryTabs(ctx context.Context, active string) []Tab {
	var out []Tab
	for _, key := range []string{"all", "new", "started", "competitions"} {
		href := "/feed"
		if key != "all" {
			href += "?filter=" + key
		}
		out = append(out, Tab{Key: key, Label: views.T(ctx, "feed.filter_"+key), Href: href, Active: key == active})
	}
	return out
}

// galleryCampaigns are names and descriptions of the length members meet: a short poll, a long
// name that must wrap, a description of several lines.
var galleryCampaigns = []struct{ name, desc string }{
	{"Quick poll", "Three questions about your week."},
	{"Streaming, television and the evenings of households with more than one screen", "Which services you pay for, what you watch on which screen, and what would make you cancel one of them."},
	{"Tea or coffee?", ""},
	{"Summer travel draw", "Answer five questions and enter the draw for a weekend away."},
	{"Your commute", "How you get to work or school, and how long it takes."},
}

func galleryCards(ctx context.Context, f views.Fixture, n int) []CardProps {
	var reasons []Reason
	for _, code := range []string{"not_loading", "error_message", "cannot_answer", "unfair_screen_out", "other"} {
		reasons = append(reasons, Reason{Code: code, Label: views.T(ctx, "feed.reason_"+code)})
	}
	out := make([]CardProps, 0, n)
	for i := range n {
		c := galleryCampaigns[i%len(galleryCampaigns)]
		out = append(out, CardProps{
			GUID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1), Name: c.name, Description: c.desc, Lang: "en",
			Reward: f.Money(int64(50 + 75*i)), Minutes: 2 + 3*i, Href: "/survey/gallery", IsNew: i%3 == 0,
			IsCompetition: i%4 == 3, InProgress: i%5 == 2, ReturnTo: "/feed", Reasons: reasons,
		})
	}
	return out
}

// galleryBlades are the referrals module's cards as a member with a busy week has them: a
// friend joined, an invitation waits, and the address is incomplete.
func galleryBlades(ctx context.Context, f views.Fixture) []Blade {
	return []Blade{
		{
			ID: "friend-joined.1", Kind: "friend-joined", DismissHref: "/blades/friend-joined.1/dismiss", ReturnTo: "/feed",
			Title: views.Tf(ctx, "referrals.blade_friend_joined_title", map[string]any{"Name": "Jamie"}),
			Text:  views.Tf(ctx, "referrals.blade_friend_joined_earned", map[string]any{"Reward": f.Money(200)}),
			Link:  &BladeLink{Href: "/referrals", Label: views.T(ctx, "referrals.blade_see_invites")},
		},
		{
			ID: "invite-waiting.2", Kind: "invite-waiting", DismissHref: "/blades/invite-waiting.2/dismiss", ReturnTo: "/feed",
			Title:  views.T(ctx, "referrals.blade_waiting_title"),
			Text:   views.Tf(ctx, "referrals.blade_waiting_text", map[string]any{"Email": "alex.longname@example.com"}),
			Action: &BladeAction{Href: "/referrals/2/resend", Label: views.T(ctx, "referrals.blade_waiting_button")},
		},
		{
			ID: "complete-address", Kind: "complete-address", DismissHref: "/blades/complete-address/dismiss", ReturnTo: "/feed",
			Title: views.T(ctx, "referrals.blade_address_title"),
			Text:  views.T(ctx, "referrals.blade_address_text"),
			Link:  &BladeLink{Href: "/settings/address", Label: views.T(ctx, "referrals.blade_address_link")},
		},
	}
}
