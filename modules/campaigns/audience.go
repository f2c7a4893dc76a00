package campaigns

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// The audience rule: who may see a campaign and who may take it. It has two halves that
// agree: in SQL, listFilter.scope narrows what a list reads (panel, open now, language, no
// full quota, not hidden or finished by the person); in Go, CanSee and CanTake decide the
// rest per campaign (profile targeting, full quotas of a profile, min_age, welcome first).
// The feed, the survey engine, onboarding and the console all ask it; nobody re-derives it.

// Person is who the rule judges: a member, or a visitor who is not a member yet.
type Person struct {
	// ID is the member's participant id; "" for a visitor, who has no standing.
	ID       string
	Language string
	// Fields are the profile fields conditions test: languageCode, emailValidated,
	// acceptedTermsConditions and metadata.KEY.
	Fields map[string]any
}

// PersonOf describes a signed-in member in the language of the request.
func PersonOf(m *web.Member, lang string) Person {
	fields := map[string]any{
		"languageCode":            lang,
		"emailValidated":          m.EmailValidated,
		"acceptedTermsConditions": m.AcceptedTerms,
	}
	for k, v := range m.Metadata {
		fields["metadata."+k] = v
	}
	return Person{ID: m.ParticipantID, Language: lang, Fields: fields}
}

// WelcomeCompleted tells whether the person's profile says the welcome campaign is done.
func (p Person) WelcomeCompleted() bool {
	done, _ := p.Fields["metadata.welcomeCampaignCompleted"].(bool)
	return done
}

// dobField is the profile field holding the person's date of birth (YYYY-MM-DD).
const dobField = "metadata.dateOfBirth"

// StandingJoin is a person's standing with campaigns, which the survey engine keeps (its
// participations) and publishes without this module knowing that table: JoinStanding adds it
// to a query over the catalogue (alias c) as a LEFT JOIN of one row or none per campaign, as
// alias s, with the columns id, status, seen_at and hidden_at; Standings reads all of it by
// campaign id, over db.
type StandingJoin interface {
	JoinStanding(q *gorm.DB, personID string) *gorm.DB
	Standings(db *gorm.DB, personID string) (map[string]Standing, error)
}

// Audience is the audience rule over the catalogue and the people's standing.
type Audience struct {
	store    *Store
	standing StandingJoin
	now      func() time.Time
}

// ReasonHidden: the person hid the campaign (skipped or reported it); it stays out of their
// lists but they may still take it from a link.
const ReasonHidden = "hidden"

// CanSee tells why the person may not see the campaign in a list, "" when they may: hidden,
// or any reason they may not take it (reasonNotToTake).
func (a *Audience) CanSee(l *Listing, p Person) string { return canSee(l, p, a.now()) }

func canSee(l *Listing, p Person, now time.Time) string {
	if l.Standing.HiddenAt != nil {
		return ReasonHidden
	}
	return reasonNotToTake(l, p, now)
}

// reasonNotToTake is "" while the person may take the campaign, else the campaign_status
// that says why not: their own terminal status, expired (closed), unavailable (not open
// yet, not in their language, or its targeting leaves them out) or quota_full (a full quota
// closes it, for everyone or for people of their profile).
func reasonNotToTake(l *Listing, p Person, now time.Time) string {
	switch {
	case l.Standing.Status != nil && IsTerminal(*l.Standing.Status):
		return *l.Standing.Status
	case l.ClosesAt != nil && !now.Before(*l.ClosesAt):
		return StatusExpired
	case l.OpensAt != nil && now.Before(*l.OpensAt):
		return StatusUnavailable
	case l.AudienceLanguages != "" && !containsLang(l.AudienceLanguages, p.Language):
		return StatusUnavailable
	case !MatchAll(l.ProfileTargeting, p.Fields, nil):
		return StatusUnavailable
	case l.QuotaFull || fullForProfile(l.FullAudiences, p):
		return StatusQuotaFull
	}
	return ""
}

// fullForProfile tells whether a full quota whose conditions test only profile fields
// matches the person.
func fullForProfile(full [][]Condition, p Person) bool {
	for _, conds := range full {
		if MatchAll(conds, p.Fields, nil) {
			return true
		}
	}
	return false
}

func containsLang(list, lang string) bool {
	return lang != "" && strings.Contains(list, ","+lang+",")
}

// Taking is the rule's answer for a person who opens one campaign.
type Taking struct {
	// Campaign is the campaign with its definition (shared: read it, never change it).
	Campaign *Campaign
	// Listing is how it lists for the person, with their standing.
	Listing *Listing
	// Reason is "" while the person may take the campaign, else why not (reasonNotToTake).
	Reason string
	// TooYoung: the campaign's min_age holds the person back, their profile having no valid
	// date of birth or one too recent. Not a reason to stop: a person whose profile gains a
	// date of birth may go on, so the survey engine answers with the dobblk action.
	TooYoung bool
}

// CanTake loads a campaign of the panel for the person and says whether they may take it.
// Another panel's campaign is ErrNotFound. Any campaign but a welcome one, while the person's
// welcome campaign is due, is the spec's invalid_start_go_to_welcome_campaign: a 409 that
// names the welcome campaign (welcome first).
func (a *Audience) CanTake(ctx context.Context, panel *web.Panel, p Person, id string) (*Taking, error) {
	if a.standing == nil {
		return nil, errNoStanding
	}
	l, err := a.store.listing(ctx, a.standing, panel.ID, p.ID, id)
	if err != nil {
		return nil, err
	}
	// Onboarding campaigns come before membership, so before the welcome campaign too.
	if !l.IsWelcome && !l.IsOnboarding && !p.WelcomeCompleted() {
		due, err := a.WelcomeDue(ctx, panel, p)
		if err != nil {
			return nil, err
		}
		if due != "" {
			return nil, welcomeFirst(due)
		}
	}
	c, err := a.store.campaignAt(ctx, panel.ID, id, l.UpdatedAt)
	if err != nil {
		return nil, err
	}
	now := a.now()
	return &Taking{Campaign: c, Listing: l, Reason: reasonNotToTake(l, p, now), TooYoung: tooYoung(c.Definition.MinAge, p, now)}, nil
}

// tooYoung tells whether min_age holds the person back on the given day.
func tooYoung(minAge int, p Person, now time.Time) bool {
	if minAge <= 0 {
		return false
	}
	s, _ := p.Fields[dobField].(string)
	born, err := time.Parse(time.DateOnly, s)
	if err != nil || born.After(now) {
		return true
	}
	return born.AddDate(minAge, 0, 0).After(now)
}

// welcomeFirst is the spec's invalid_start_go_to_welcome_campaign: the person must take the
// welcome campaign (whose uuid the error carries) before any other.
func welcomeFirst(welcomeID string) *web.Error {
	e := web.Fail(409, "error.welcome_first", nil).WithCode("invalid_start_go_to_welcome_campaign")
	e.Body = map[string]any{"campaign_status": "invalid_start_go_to_welcome_campaign", "welcome_campaign_uuid": welcomeID}
	return e
}

// WelcomeFirstOf is the welcome campaign a CanTake error sends the person to, if it is one.
func WelcomeFirstOf(err error) (string, bool) {
	var we *web.Error
	if errors.As(err, &we) && we.Body != nil {
		id, ok := we.Body["welcome_campaign_uuid"].(string)
		return id, ok
	}
	return "", false
}

var errNoStanding = errors.New("campaigns: the audience rule has no standing join (Deps.Standing)")

// ListQuery narrows a list of the campaigns a person may see.
type ListQuery struct {
	Welcome      bool     // the welcome campaigns instead of the others
	Onboarding   bool     // the onboarding campaigns instead of the others (never in a feed)
	Unseen       bool     // only those the person has not seen
	Started      bool     // only those the person started and has not finished
	Competitions bool     // only competitions
	Skip         []string // leave these out (a client has them already)
}

// Visible lists up to n campaigns the person may see, after the first offset of them, in
// feed order (priority, then newest first): the panel's live list (this process's copy, see
// ListTTL) with the person's standings (one query), through CanSee.
func (a *Audience) Visible(ctx context.Context, panel *web.Panel, p Person, q ListQuery, n, offset int) ([]Listing, error) {
	if a.standing == nil {
		return nil, errNoStanding
	}
	now := a.now().UTC()
	live, err := a.store.live(ctx, panel.ID, now)
	if err != nil {
		return nil, err
	}
	var standings map[string]Standing // a visitor (onboarding) has none: no query
	if p.ID != "" {
		if standings, err = a.standing.Standings(a.store.db.WithContext(ctx), p.ID); err != nil {
			return nil, fmt.Errorf("standings of %s: %w", p.ID, err)
		}
	}
	skip := make(map[string]bool, len(q.Skip)) // a client's skip list may name every card it has
	for _, id := range q.Skip {
		skip[id] = true
	}
	var out []Listing
	skipped := 0
	for i := range live {
		if live[i].IsWelcome != q.Welcome || live[i].IsOnboarding != q.Onboarding || (q.Competitions && !live[i].IsCompetition) || skip[live[i].ID] {
			continue
		}
		l := live[i] // a copy: the live list is shared
		l.Standing = standings[l.ID]
		if (q.Unseen && l.Standing.SeenAt != nil) || (q.Started && l.Standing.StatusOrNew() != StatusStarted) {
			continue
		}
		if canSee(&l, p, now) != "" {
			continue
		}
		if skipped < offset {
			skipped++
			continue
		}
		out = append(out, l)
		if len(out) == n {
			break
		}
	}
	return out, nil
}

// WelcomeDue is the welcome campaign the person must take before any other: the first
// welcome campaign they may see; "" when none is.
func (a *Audience) WelcomeDue(ctx context.Context, panel *web.Panel, p Person) (string, error) {
	rows, err := a.Visible(ctx, panel, p, ListQuery{Welcome: true}, 1, 0)
	if err != nil || len(rows) == 0 {
		return "", err
	}
	return rows[0].ID, nil
}
