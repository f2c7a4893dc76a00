package feed

import (
	"context"
	"slices"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
)

// Feed filters (the tabs of the feed page and the API's filter parameter).
const (
	FilterAll          = "all"
	FilterNew          = "new"
	FilterStarted      = "started"
	FilterCompetitions = "competitions"
)

// Filters lists the feed filters in tab order.
var Filters = []string{FilterAll, FilterNew, FilterStarted, FilterCompetitions}

// Feed paging bounds.
const (
	DefaultPageSize = 10
	MaxPageSize     = 50
	maxSkip         = 1000 // guids a client may send as already shown
	maxSkipCount    = 10000
)

// FeedQuery is one load of the feed: page "first" replaces the list, page "next" appends
// to it and never repeats a guid in Skip.
type FeedQuery struct {
	Page      string // first or next
	PageSize  int
	Filter    string
	Skip      []string
	SkipCount int
}

// Check refuses what the spec's paging does not allow, naming the field.
func (q *FeedQuery) Check() error {
	var e *web.Error
	add := func(field, id string, data map[string]any) {
		if e == nil {
			e = web.Invalid(field, id, data)
		} else {
			e.Also(field, id, data)
		}
	}
	if q.Page == "" {
		q.Page = "first"
	}
	if q.Page != "first" && q.Page != "next" {
		add("page", "error.feed_page", nil)
	}
	if q.PageSize == 0 {
		q.PageSize = DefaultPageSize
	}
	if q.PageSize < 1 || q.PageSize > MaxPageSize {
		add("pageSize", "error.feed_page_size", map[string]any{"Max": MaxPageSize})
	}
	if q.Filter == "" {
		q.Filter = FilterAll
	}
	if !slices.Contains(Filters, q.Filter) {
		add("filter", "error.feed_filter", nil)
	}
	if q.SkipCount < 0 || q.SkipCount > maxSkipCount {
		add("skipCount", "error.feed_skip_count", nil)
	}
	if len(q.Skip) > maxSkip {
		add("skip", "error.feed_skip", map[string]any{"Max": maxSkip})
	}
	for _, id := range q.Skip {
		if uuid.Validate(id) != nil {
			add("skip", "error.feed_skip", map[string]any{"Max": maxSkip})
			break
		}
	}
	if e != nil {
		return e
	}
	if q.Page == "first" {
		q.Skip, q.SkipCount = nil, 0
	}
	return nil
}

// Card is a campaign as the feed shows it to one member, in their language.
type Card struct {
	GUID             string
	Type             string
	Name             string
	Description      string
	Language         string // the language Name is in
	RewardMinor      int64
	CurrencyCode     string
	EstimatedMinutes int
	QuestionCount    int
	IsWelcome        bool
	IsCompetition    bool
	IsNew            bool   // the member has not opened it yet
	Status           string // the member's campaign_status, campaigns.StatusNew if none
	OpensAt          *time.Time
	ClosesAt         *time.Time
}

// FeedPage is one load of the feed.
type FeedPage struct {
	Cards     []Card
	PageSize  int
	EndOfFeed bool
	Filter    string
	// WelcomeFirst: the member has not completed the welcome campaign, so the feed holds only it.
	WelcomeFirst bool
}

// Feed loads one page of the member's feed. A member who has not completed the welcome
// campaign gets the open welcome campaigns only (spec: welcome first).
func (m *Module) Feed(ctx context.Context, panel *web.Panel, who campaigns.Person, q FeedQuery) (*FeedPage, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	return m.load(ctx, panel, who, q)
}

// load is Feed after the query was checked (the page without JavaScript asks for more than
// one API page at once).
func (m *Module) load(ctx context.Context, panel *web.Panel, who campaigns.Person, q FeedQuery) (*FeedPage, error) {
	out := &FeedPage{PageSize: q.PageSize, Filter: q.Filter}
	if !who.WelcomeCompleted() {
		welcome, err := m.audience.Visible(ctx, panel, who, campaigns.ListQuery{Welcome: true}, MaxPageSize, 0)
		if err != nil {
			return nil, err
		}
		if len(welcome) > 0 {
			out.WelcomeFirst, out.EndOfFeed = true, true
			out.Cards = cards(welcome, who.Language, q.Page == "next", q.Skip)
			return out, nil
		}
	}
	// One more than a page tells whether the feed ends here without an extra empty load.
	list := campaigns.ListQuery{
		Unseen: q.Filter == FilterNew, Started: q.Filter == FilterStarted, Competitions: q.Filter == FilterCompetitions, Skip: q.Skip,
	}
	rows, err := m.audience.Visible(ctx, panel, who, list, q.PageSize+1, q.SkipCount)
	if err != nil {
		return nil, err
	}
	out.EndOfFeed = len(rows) <= q.PageSize
	if len(rows) > q.PageSize {
		rows = rows[:q.PageSize]
	}
	out.Cards = cards(rows, who.Language, false, nil)
	return out, nil
}

func cards(rows []campaigns.Listing, lang string, dedupe bool, skip []string) []Card {
	out := make([]Card, 0, len(rows))
	for i := range rows {
		if dedupe && slices.Contains(skip, rows[i].ID) {
			continue
		}
		out = append(out, card(&rows[i], lang))
	}
	return out
}

func card(r *campaigns.Listing, lang string) Card {
	return Card{
		GUID: r.ID, Type: r.Type, Name: r.Names.In(lang, r.DefaultLanguage), Description: r.Descriptions.In(lang, r.DefaultLanguage),
		Language: r.LanguageFor(lang), RewardMinor: r.RewardMinor, CurrencyCode: r.CurrencyCode, EstimatedMinutes: r.EstimatedMinutes,
		QuestionCount: r.QuestionCount, IsWelcome: r.IsWelcome, IsCompetition: r.IsCompetition,
		IsNew: r.Standing.SeenAt == nil, Status: r.Standing.StatusOrNew(), OpensAt: r.OpensAt, ClosesAt: r.ClosesAt,
	}
}

// Welcome lists the open welcome campaigns the member has not finished (campaigns/welcome).
func (m *Module) Welcome(ctx context.Context, panel *web.Panel, who campaigns.Person) ([]Card, error) {
	rows, err := m.audience.Visible(ctx, panel, who, campaigns.ListQuery{Welcome: true}, MaxPageSize, 0)
	if err != nil {
		return nil, err
	}
	return cards(rows, who.Language, false, nil), nil
}

// FirstAfter is the campaign the thank-you of a welcome campaign opens: the first other
// campaign of the member's feed; "" when there is none.
func (m *Module) FirstAfter(ctx context.Context, panel *web.Panel, who campaigns.Person, campaignID string) (string, error) {
	page, err := m.load(ctx, panel, who, FeedQuery{Page: "first", PageSize: DefaultPageSize})
	if err != nil {
		return "", err
	}
	for _, c := range page.Cards {
		if c.GUID != campaignID && !campaigns.IsTerminal(c.Status) {
			return c.GUID, nil
		}
	}
	return "", nil
}

// Detail is one campaign for one member: what GET campaigns/{id} answers.
type Detail struct {
	Card
	Campaign *campaigns.Campaign
	// Availability is "" while the member may take the campaign, else why not (the audience
	// rule's reason).
	Availability string
}

// Load returns a campaign of the member's panel as the audience rule has it for them.
func (m *Module) Load(ctx context.Context, panel *web.Panel, who campaigns.Person, id string) (*Detail, error) {
	t, err := m.audience.CanTake(ctx, panel, who, id)
	if err != nil {
		return nil, err
	}
	return &Detail{Card: card(t.Listing, who.Language), Campaign: t.Campaign, Availability: t.Reason}, nil
}

// Seen records that the member opened or was shown a campaign of their panel.
func (m *Module) Seen(ctx context.Context, panel *web.Panel, who campaigns.Person, id string) error {
	if err := m.catalogue.Exists(ctx, panel, id); err != nil {
		return err
	}
	return m.marks.MarkSeen(ctx, panel, who.ID, id)
}

// Hide takes a campaign of the member's panel out of their feed (the spec's skip).
func (m *Module) Hide(ctx context.Context, panel *web.Panel, who campaigns.Person, id string) error {
	if err := m.catalogue.Exists(ctx, panel, id); err != nil {
		return err
	}
	return m.marks.Hide(ctx, panel, who.ID, id)
}
