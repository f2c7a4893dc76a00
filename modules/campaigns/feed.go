package campaigns

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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
	Status           string // the member's participation status, StatusNew if none
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

// Audience is what eligibility needs to know about a member.
type Audience struct {
	ParticipantID string
	Language      string
	Fields        map[string]any // languageCode, emailValidated, acceptedTermsConditions, metadata.KEY
}

// AudienceOf describes a signed-in member in the language of the request.
func AudienceOf(m *web.Member, lang string) Audience {
	fields := map[string]any{
		"languageCode":            lang,
		"emailValidated":          m.EmailValidated,
		"acceptedTermsConditions": m.AcceptedTerms,
	}
	for k, v := range m.Metadata {
		fields["metadata."+k] = v
	}
	return Audience{ParticipantID: m.ParticipantID, Language: lang, Fields: fields}
}

// WelcomeCompleted tells whether the member's profile says the welcome campaign is done.
func (a Audience) WelcomeCompleted() bool {
	done, _ := a.Fields["metadata.welcomeCampaignCompleted"].(bool)
	return done
}

// Feed loads one page of the member's feed. A member who has not completed the welcome
// campaign gets the open welcome campaigns only (spec: welcome first).
func (m *Module) Feed(ctx context.Context, panel *web.Panel, who Audience, q FeedQuery) (*FeedPage, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	return m.load(ctx, panel, who, q)
}

// load is Feed after the query was checked (the page without JavaScript asks for more than
// one API page at once).
func (m *Module) load(ctx context.Context, panel *web.Panel, who Audience, q FeedQuery) (*FeedPage, error) {
	out := &FeedPage{PageSize: q.PageSize, Filter: q.Filter}
	if !who.WelcomeCompleted() {
		welcome, err := m.visible(ctx, feedFilter{PanelID: panel.ID, ParticipantID: who.ParticipantID, Language: who.Language, Welcome: true, Tab: FilterAll}, who, MaxPageSize, 0)
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
	rows, err := m.visible(ctx, feedFilter{PanelID: panel.ID, ParticipantID: who.ParticipantID, Language: who.Language, Tab: q.Filter, Skip: q.Skip}, who, q.PageSize+1, q.SkipCount)
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

// visible returns up to n campaigns the member may see after skipping offset of them: SQL
// decides what it can, profile targeting is checked here, reading on while rows drop out.
func (m *Module) visible(ctx context.Context, f feedFilter, who Audience, n, offset int) ([]feedRow, error) {
	f.Now = m.now().UTC()
	var out []feedRow
	skipped := 0
	// A little more than n: a few rows may fail profile targeting, and every row read is
	// scanned and sent for nothing if it is not shown.
	batch := n + n/4 + 2
	for {
		f.Limit = batch
		rows, err := m.store.feed(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if !reaches(r, who) {
				continue
			}
			if skipped < offset {
				skipped++
				continue
			}
			if err := r.decodeTexts(); err != nil {
				return nil, err
			}
			out = append(out, r)
			if len(out) == n {
				return out, nil
			}
		}
		if len(rows) < batch {
			return out, nil
		}
		f.Offset += batch
	}
}

// reaches tells whether a campaign's profile targeting holds for the member and no full
// quota of their profile closes it.
func reaches(r feedRow, who Audience) bool {
	if !matchAll(r.ProfileTargeting, who.Fields, nil) {
		return false
	}
	for _, full := range r.FullAudiences {
		if matchAll(full, who.Fields, nil) {
			return false
		}
	}
	return true
}

func cards(rows []feedRow, lang string, dedupe bool, skip []string) []Card {
	out := make([]Card, 0, len(rows))
	for _, r := range rows {
		if dedupe && slices.Contains(skip, r.ID) {
			continue
		}
		out = append(out, card(r, lang))
	}
	return out
}

func card(r feedRow, lang string) Card {
	c := Card{
		GUID: r.ID, Type: r.Type, Name: r.Names.In(lang, r.DefaultLanguage), Description: r.Descriptions.In(lang, r.DefaultLanguage),
		Language: r.DefaultLanguage, RewardMinor: r.RewardMinor, CurrencyCode: r.CurrencyCode, EstimatedMinutes: r.EstimatedMinutes,
		QuestionCount: r.QuestionCount, IsWelcome: r.IsWelcome, IsCompetition: r.IsCompetition,
		IsNew: r.SeenAt == nil, Status: StatusNew, OpensAt: r.OpensAt, ClosesAt: r.ClosesAt,
	}
	if r.Names.Has(lang) {
		c.Language = lang
	}
	if r.Status != nil {
		c.Status = *r.Status
	}
	return c
}

// Welcome lists the open welcome campaigns the member has not finished (campaigns/welcome).
func (m *Module) Welcome(ctx context.Context, panel *web.Panel, who Audience) ([]Card, error) {
	rows, err := m.visible(ctx, feedFilter{PanelID: panel.ID, ParticipantID: who.ParticipantID, Language: who.Language, Welcome: true, Tab: FilterAll}, who, MaxPageSize, 0)
	if err != nil {
		return nil, err
	}
	return cards(rows, who.Language, false, nil), nil
}

// ErrWelcomeFirst is the spec's invalid_start_go_to_welcome_campaign: the member must take
// the welcome campaign (whose uuid the error carries) before any other.
func welcomeFirst(welcomeID string) *web.Error {
	e := web.Fail(409, "error.welcome_first", nil).WithCode("invalid_start_go_to_welcome_campaign")
	e.Body = map[string]any{"campaign_status": "invalid_start_go_to_welcome_campaign", "welcome_campaign_uuid": welcomeID}
	return e
}

// Detail is one campaign for one member: what GET campaigns/{id} answers.
type Detail struct {
	Card
	Campaign *Campaign
	// Availability is "" while the member may take the campaign, else why not: the member's
	// terminal status, expired, unavailable (not open yet or not targeted), quota_full.
	Availability string
}

// Load returns a campaign of the member's panel. Another panel's campaign is ErrNotFound;
// any campaign but the welcome one while the welcome campaign is due is welcomeFirst.
func (m *Module) Load(ctx context.Context, panel *web.Panel, who Audience, id string) (*Detail, error) {
	row, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id)
	if err != nil {
		return nil, err
	}
	if !row.IsWelcome && !who.WelcomeCompleted() {
		welcome, err := m.Welcome(ctx, panel, who)
		if err != nil {
			return nil, err
		}
		if len(welcome) > 0 {
			return nil, welcomeFirst(welcome[0].GUID)
		}
	}
	c, err := m.store.campaignAt(ctx, panel.ID, id, row.UpdatedAt)
	if err != nil {
		return nil, err
	}
	d := &Detail{Card: card(*row, who.Language), Campaign: c, Availability: m.availability(*row, who)}
	return d, nil
}

func (m *Module) availability(r feedRow, who Audience) string {
	now := m.now()
	switch {
	case r.Status != nil && IsTerminal(*r.Status):
		return *r.Status
	case r.ClosesAt != nil && !now.Before(*r.ClosesAt):
		return StatusExpired
	case r.OpensAt != nil && now.Before(*r.OpensAt):
		return StatusUnavailable
	case r.AudienceLanguages != "" && !containsLang(r.AudienceLanguages, who.Language):
		return StatusUnavailable
	case !matchAll(r.ProfileTargeting, who.Fields, nil):
		return StatusUnavailable
	case r.QuotaFull || !reaches(r, who):
		return StatusQuotaFull
	}
	return ""
}

func containsLang(list, lang string) bool {
	return lang != "" && strings.Contains(list, ","+lang+",")
}

// Seen records that the member opened or was shown a campaign of their panel.
func (m *Module) Seen(ctx context.Context, panel *web.Panel, who Audience, id string) error {
	if _, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id); err != nil {
		return err
	}
	return m.store.markSeen(ctx, panel.ID, id, who.ParticipantID, m.now().UTC())
}

// Hide takes a campaign of the member's panel out of their feed (the spec's skip).
func (m *Module) Hide(ctx context.Context, panel *web.Panel, who Audience, id string) error {
	if _, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id); err != nil {
		return err
	}
	return m.store.hide(ctx, panel.ID, id, who.ParticipantID, m.now().UTC())
}

// ReportRecency is the spec's "under 61 days" (web.ReportRecency).
const ReportRecency = web.ReportRecency

// ReasonCodes are the reasons a member may give for a broken campaign.
var ReasonCodes = []string{"not_loading", "error_message", "cannot_answer", "unfair_screen_out", "other"}

// Report records a broken-campaign report (and hides the campaign). A second report of the
// same campaign while the first is recent returns the first: created is false.
func (m *Module) Report(ctx context.Context, panel *web.Panel, who Audience, id, reasonCode, reasonText string) (*Report, bool, error) {
	in, err := web.BrokenReport{ReasonCode: reasonCode, ReasonText: reasonText}.Check(ReasonCodes)
	if err != nil {
		return nil, false, err
	}
	reasonText = in.ReasonText
	if _, err := m.store.campaignRow(ctx, panel.ID, who.ParticipantID, id); err != nil {
		return nil, false, err
	}
	now := m.now().UTC()
	r := &Report{ID: uuid.NewString(), PanelID: panel.ID, CampaignID: id, ParticipantID: who.ParticipantID, ReasonCode: reasonCode, ReasonText: reasonText, CreatedAt: now}
	return m.store.report(ctx, r, now.Add(-ReportRecency))
}

// Reports lists the member's reports, newest first.
func (m *Module) Reports(ctx context.Context, who Audience) ([]Report, error) {
	return m.store.reports(ctx, who.ParticipantID, 200)
}

// IsRecent tells whether a report is under 61 days old.
func (m *Module) IsRecent(r Report) bool { return m.now().Sub(r.CreatedAt) < web.ReportRecency }

// Participations lists one page (from 1) of what the member started or finished.
func (m *Module) Participations(ctx context.Context, who Audience, page, pageSize int) ([]participationRow, int64, error) {
	if page < 1 || page > 100000 {
		return nil, 0, web.Invalid("page", "error.page", nil)
	}
	if pageSize < 1 || pageSize > MaxPageSize {
		return nil, 0, web.Invalid("pageSize", "error.feed_page_size", map[string]any{"Max": MaxPageSize})
	}
	rows, total, err := m.store.participations(ctx, who.ParticipantID, (page-1)*pageSize, pageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("participations: %w", err)
	}
	return rows, total, nil
}
