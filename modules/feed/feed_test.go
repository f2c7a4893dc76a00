package feed

import (
	"testing"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestLoadingMoreAppendsOnlyNewGuidsAndTheFeedEndsWhenFewerThanAPageRemain(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := f.campaigns(f.acme, numbered(7)...)
		who := f.member(f.acme, "en", true, nil)

		first, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Page: "first", PageSize: 3})
		require.NoError(t, err)
		assert.Equal(t, ids[:3], guids(first.Cards), "the first page in feed order")
		assert.False(t, first.EndOfFeed)
		assert.Equal(t, 3, first.PageSize)

		shown := guids(first.Cards)
		next, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Page: "next", PageSize: 3, Skip: shown})
		require.NoError(t, err)
		assert.Equal(t, ids[3:6], guids(next.Cards), "the next page skips every guid already shown")
		assert.False(t, next.EndOfFeed)

		shown = append(shown, guids(next.Cards)...)
		last, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Page: "next", PageSize: 3, Skip: shown})
		require.NoError(t, err)
		assert.Equal(t, ids[6:], guids(last.Cards))
		assert.True(t, last.EndOfFeed, "fewer than pageSize came back")

		again, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Page: "first", PageSize: 3, Skip: shown})
		require.NoError(t, err)
		assert.Equal(t, ids[:3], guids(again.Cards), "page=first replaces the list: the skip list does not apply")

		offset, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Page: "next", PageSize: 3, SkipCount: 5})
		require.NoError(t, err)
		assert.Equal(t, ids[5:], guids(offset.Cards), "skipCount skips that many campaigns")
	})
}

func TestAFeedOfExactlyOnePageEndsWithoutAnotherLoad(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		f.campaigns(f.acme, numbered(3)...)
		page, err := f.m.Feed(f.ctx, f.acme, f.member(f.acme, "en", true, nil), FeedQuery{PageSize: 3})
		require.NoError(t, err)
		assert.Len(t, page.Cards, 3)
		assert.True(t, page.EndOfFeed)
	})
}

func TestAMemberSeesOnlyCampaignsTheyMayTake(t *testing.T) {
	t.Parallel()
	past, future := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name    string
		def     func(*campaigns.Definition)
		lang    string
		md      map[string]any
		prepare func(f *fixture, who campaigns.Person, id string)
		visible bool
	}{
		{name: "an open campaign is listed", visible: true},
		{name: "a campaign not open yet is not", def: func(d *campaigns.Definition) { d.OpensAt = &future }},
		{name: "a closed campaign is not", def: func(d *campaigns.Definition) { d.ClosesAt = &past }},
		{name: "a campaign open between its dates is", def: func(d *campaigns.Definition) { d.OpensAt, d.ClosesAt = &past, &future }, visible: true},
		{name: "a campaign targeted at another language is not", def: func(d *campaigns.Definition) { d.Targeting.Languages = []string{"es"} }},
		{name: "a campaign targeted at the member's language is", def: func(d *campaigns.Definition) { d.Targeting.Languages = []string{"es"} }, lang: "es", visible: true},
		{name: "a profile target the member misses keeps it away", def: func(d *campaigns.Definition) {
			d.Targeting.Profile = []campaigns.Condition{{Field: "metadata.country", Op: campaigns.OpEq, Value: "GB"}}
		}, md: map[string]any{"country": "US"}},
		{name: "a profile target the member meets lets it through", def: func(d *campaigns.Definition) {
			d.Targeting.Profile = []campaigns.Condition{{Field: "metadata.country", Op: campaigns.OpIn, Values: []any{"GB", "US"}}}
		}, md: map[string]any{"country": "US"}, visible: true},
		{name: "a hidden campaign is not", prepare: func(f *fixture, who campaigns.Person, id string) {
			require.NoError(f.t, f.m.Hide(f.ctx, f.acme, who, id))
		}},
		{name: "a completed campaign is not", prepare: func(f *fixture, who campaigns.Person, id string) { f.take(who, f.acme, id, campaigns.StatusCompleted) }},
		{name: "a screened-out campaign is not", prepare: func(f *fixture, who campaigns.Person, id string) { f.take(who, f.acme, id, campaigns.StatusScreened) }},
		{name: "a started campaign still is", prepare: func(f *fixture, who campaigns.Person, id string) { f.take(who, f.acme, id, campaigns.StatusStarted) }, visible: true},
		{name: "a campaign whose quota is full is not", def: func(d *campaigns.Definition) { d.Quotas = []campaigns.Quota{{ID: "all", Limit: 2}} },
			prepare: func(f *fixture, who campaigns.Person, id string) { f.fillQuota(id, nil, 2) }},
		{name: "a campaign whose quota has room is", def: func(d *campaigns.Definition) { d.Quotas = []campaigns.Quota{{ID: "all", Limit: 2}} },
			prepare: func(f *fixture, who campaigns.Person, id string) { f.fillQuota(id, nil, 1) }, visible: true},
		{name: "a full quota of the member's profile keeps it away", md: map[string]any{"gender": "f"},
			def: func(d *campaigns.Definition) {
				d.Quotas = []campaigns.Quota{{ID: "women", Limit: 1, When: []campaigns.Condition{{Field: "metadata.gender", Op: campaigns.OpEq, Value: "f"}}}}
			},
			prepare: func(f *fixture, who campaigns.Person, id string) {
				f.fillQuota(id, map[string]any{"metadata.gender": "f"}, 1)
			}},
		{name: "a full quota of another profile does not", md: map[string]any{"gender": "m"},
			def: func(d *campaigns.Definition) {
				d.Quotas = []campaigns.Quota{{ID: "women", Limit: 1, When: []campaigns.Condition{{Field: "metadata.gender", Op: campaigns.OpEq, Value: "f"}}}}
			},
			prepare: func(f *fixture, who campaigns.Person, id string) {
				f.fillQuota(id, map[string]any{"metadata.gender": "f"}, 1)
			}, visible: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eachFixture(t, func(t *testing.T, f *fixture) {
				def := definition("Target")
				if tc.def != nil {
					tc.def(def)
				}
				id := f.campaigns(f.acme, def)[0]
				lang := tc.lang
				if lang == "" {
					lang = "en"
				}
				who := f.member(f.acme, lang, true, tc.md)
				if tc.prepare != nil {
					tc.prepare(f, who, id)
				}
				page, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{})
				require.NoError(t, err)
				if tc.visible {
					assert.Equal(t, []string{id}, guids(page.Cards))
				} else {
					assert.Empty(t, page.Cards)
				}
			})
		})
	}
}

// fillQuota counts completes of members of a profile towards a campaign's quotas, as the
// survey engine counts a complete.
func (f *fixture) fillQuota(campaignID string, profile map[string]any, completes int) {
	f.t.Helper()
	for range completes {
		require.NoError(f.t, f.db.Transaction(func(tx *gorm.DB) error {
			_, full, err := f.catalogue.CountComplete(tx, campaignID, profile, nil)
			require.False(f.t, full)
			return err
		}))
	}
}

func TestAMemberNeverSeesAnotherPanelsCampaigns(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		mine := f.campaigns(f.acme, definition("Ours"))[0]
		theirs := f.campaigns(f.globex, definition("Theirs"))[0]
		who := f.member(f.acme, "en", true, nil)

		page, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{})
		require.NoError(t, err)
		assert.Equal(t, []string{mine}, guids(page.Cards))

		for name, call := range map[string]func() error{
			"load":   func() error { _, err := f.m.Load(f.ctx, f.acme, who, theirs); return err },
			"seen":   func() error { return f.m.Seen(f.ctx, f.acme, who, theirs) },
			"hide":   func() error { return f.m.Hide(f.ctx, f.acme, who, theirs) },
			"report": func() error { _, _, err := f.m.Report(f.ctx, f.acme, who, theirs, "not_loading", ""); return err },
		} {
			assert.ErrorIs(t, call(), web.ErrNotFound, "%s of another panel's campaign", name)
		}
		_, err = f.m.Load(f.ctx, f.acme, who, "not-a-uuid")
		assert.ErrorIs(t, err, web.ErrNotFound)
		_, err = f.m.Load(f.ctx, f.acme, who, uuid.NewString())
		assert.ErrorIs(t, err, web.ErrNotFound)
	})
}

func TestCardsSpeakTheMembersLanguageWhereTheCampaignHasIt(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Coffee", func(d *campaigns.Definition) {
			d.Name = campaigns.Text{"en": "Coffee", "es": "Café"}
			d.Description = campaigns.Text{"en": "About coffee"}
			d.Reward = "0.50"
		}))[0]
		es, err := f.m.Feed(f.ctx, f.acme, f.member(f.acme, "es", true, nil), FeedQuery{})
		require.NoError(t, err)
		require.Len(t, es.Cards, 1)
		card := es.Cards[0]
		assert.Equal(t, id, card.GUID)
		assert.Equal(t, "Café", card.Name)
		assert.Equal(t, "es", card.Language)
		assert.Equal(t, "About coffee", card.Description, "a text missing in Spanish falls back to the default language")
		assert.EqualValues(t, 50, card.RewardMinor)
		assert.Equal(t, "USD", card.CurrencyCode)
		assert.True(t, card.IsNew)
	})
}

func TestNewcomersGetTheWelcomeCampaignFirst(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		welcome := f.campaigns(f.acme, definition("About you", func(d *campaigns.Definition) { d.IsWelcome, d.Type = true, campaigns.TypeProfiler }))[0]
		other := f.campaigns(f.acme, definition("Coffee"))[0]

		newcomer := f.member(f.acme, "en", false, nil)
		page, err := f.m.Feed(f.ctx, f.acme, newcomer, FeedQuery{Filter: FilterCompetitions})
		require.NoError(t, err)
		assert.True(t, page.WelcomeFirst)
		assert.Equal(t, []string{welcome}, guids(page.Cards), "only the welcome campaign, whatever the filter")
		assert.True(t, page.EndOfFeed)

		_, err = f.m.Load(f.ctx, f.acme, newcomer, other)
		var we *web.Error
		require.ErrorAs(t, err, &we)
		assert.Equal(t, "invalid_start_go_to_welcome_campaign", we.Details[0].Code)
		assert.Equal(t, welcome, we.Body["welcome_campaign_uuid"])
		d, err := f.m.Load(f.ctx, f.acme, newcomer, welcome)
		require.NoError(t, err)
		assert.True(t, d.IsWelcome)

		list, err := f.m.Welcome(f.ctx, f.acme, newcomer)
		require.NoError(t, err)
		assert.Equal(t, []string{welcome}, guids(list))

		veteran := f.member(f.acme, "en", true, nil)
		page, err = f.m.Feed(f.ctx, f.acme, veteran, FeedQuery{})
		require.NoError(t, err)
		assert.False(t, page.WelcomeFirst)
		assert.Equal(t, []string{other}, guids(page.Cards), "a member past the welcome campaign no longer sees it")
		_, err = f.m.Load(f.ctx, f.acme, veteran, other)
		assert.NoError(t, err)

		f.take(newcomer, f.acme, welcome, campaigns.StatusCompleted)
		page, err = f.m.Feed(f.ctx, f.acme, newcomer, FeedQuery{})
		require.NoError(t, err)
		assert.Equal(t, []string{other}, guids(page.Cards), "a completed welcome campaign opens the feed")
	})
}

func TestFeedFiltersSelectNewStartedAndCompetitionCampaigns(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		ids := f.campaigns(f.acme,
			definition("Seen", func(d *campaigns.Definition) { d.Priority = 4 }),
			definition("Started", func(d *campaigns.Definition) { d.Priority = 3 }),
			definition("Competition", func(d *campaigns.Definition) {
				d.Priority, d.Type = 2, campaigns.TypeCompetition
				d.Competition = &campaigns.Competition{Prize: campaigns.Text{"en": "A gift card"}, Winners: 1}
			}),
			definition("Untouched", func(d *campaigns.Definition) { d.Priority = 1 }),
		)
		who := f.member(f.acme, "en", true, nil)
		require.NoError(t, f.m.Seen(f.ctx, f.acme, who, ids[0]))
		require.NoError(t, f.m.Seen(f.ctx, f.acme, who, ids[0]), "seen twice is fine")
		f.take(who, f.acme, ids[1], campaigns.StatusStarted)
		require.NoError(t, f.m.Seen(f.ctx, f.acme, who, ids[1]))

		cases := map[string][]string{
			FilterAll:          ids,
			FilterNew:          {ids[2], ids[3]},
			FilterStarted:      {ids[1]},
			FilterCompetitions: {ids[2]},
		}
		for filter, want := range cases {
			page, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{Filter: filter})
			require.NoError(t, err)
			assert.Equal(t, want, guids(page.Cards), filter)
			assert.Equal(t, filter, page.Filter)
		}
		all, _ := f.m.Feed(f.ctx, f.acme, who, FeedQuery{})
		assert.False(t, all.Cards[0].IsNew, "a seen campaign is no longer new")
		assert.Equal(t, campaigns.StatusStarted, all.Cards[1].Status)
		assert.True(t, all.Cards[2].IsCompetition)
	})
}

func TestABadFeedQueryNamesTheFieldThatIsWrong(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		q     FeedQuery
		field string
	}{
		{"an unknown page", FeedQuery{Page: "last"}, "page"},
		{"a page size of zero given as negative", FeedQuery{PageSize: -1}, "pageSize"},
		{"a page size over the bound", FeedQuery{PageSize: MaxPageSize + 1}, "pageSize"},
		{"an unknown filter", FeedQuery{Filter: "cheap"}, "filter"},
		{"a negative skipCount", FeedQuery{SkipCount: -1}, "skipCount"},
		{"a skip list with something not a uuid", FeedQuery{Page: "next", Skip: []string{"x"}}, "skip"},
		{"a skip list too long", FeedQuery{Page: "next", Skip: make([]string, maxSkip+1)}, "skip"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.q.Check()
			var we *web.Error
			require.ErrorAs(t, err, &we)
			assert.Equal(t, 400, we.Status)
			assert.Equal(t, tc.field, we.Details[0].Field)
		})
	}
	ok := FeedQuery{}
	require.NoError(t, ok.Check())
	assert.Equal(t, FeedQuery{Page: "first", PageSize: DefaultPageSize, Filter: FilterAll}, ok, "defaults: first page of 10, all")
}
