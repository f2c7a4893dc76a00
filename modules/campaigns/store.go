package campaigns

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ErrNotFound is a campaign that does not exist in the panel asked about.
var ErrNotFound = fmt.Errorf("campaign: %w", web.ErrNotFound)

// Store owns every GORM call of the module.
type Store struct {
	db *gorm.DB

	cacheMu sync.RWMutex
	cache   map[string]*Campaign // decoded campaigns by id (see Campaign)

	listMu  sync.Mutex
	lists   map[string]*liveList // by panel id (catalogue.go)
	listGen int                  // counts forgetLists calls
}

// Listing is a campaign as lists show it to one person: the catalogue's columns, never the
// definition, and the person's standing with it. The store reads it with scanListings (the
// serializer tags let GORM scan it too).
type Listing struct {
	ID                string
	Type              string
	DefaultLanguage   string
	Names             Text `gorm:"serializer:json"`
	Descriptions      Text `gorm:"serializer:json"`
	RewardMinor       int64
	CurrencyCode      string
	EstimatedMinutes  int
	QuestionCount     int
	IsWelcome         bool
	IsCompetition     bool
	IsOnboarding      bool
	IsFinalOnboarding bool
	OpensAt           *time.Time
	ClosesAt          *time.Time
	PublishedAt       time.Time
	ProfileTargeting  []Condition   `gorm:"serializer:json"`
	FullAudiences     [][]Condition `gorm:"serializer:json"`
	QuotaFull         bool
	AudienceLanguages string
	Standing          Standing  // the person's; zero when they never touched it
	UpdatedAt         time.Time // the campaign's: whether a decoded copy is still current
	// namesJSON and descriptionsJSON are the columns behind Names and Descriptions until
	// decodeTexts decodes them: a list reads more rows than it shows.
	namesJSON, descriptionsJSON []byte
}

// LanguageFor is the language the campaign's name shows in to a person of lang: lang where
// the campaign has it, else its default language.
func (l *Listing) LanguageFor(lang string) string {
	if l.Names.Has(lang) {
		return lang
	}
	return l.DefaultLanguage
}

// Standing is a person's standing with one campaign, as the survey engine keeps it: their
// campaign_status (nil: never touched), when they first saw it and whether they hid it.
type Standing struct {
	Status   *string
	SeenAt   *time.Time
	HiddenAt *time.Time
}

// StatusOrNew is the person's campaign_status, StatusNew when they never touched it.
func (s Standing) StatusOrNew() string {
	if s.Status == nil {
		return StatusNew
	}
	return *s.Status
}

// decodeTexts fills Names and Descriptions from their columns (once).
func (r *Listing) decodeTexts() error {
	var err error
	if r.namesJSON != nil {
		if r.Names, err = decodeText(r.namesJSON); err != nil {
			return fmt.Errorf("names of campaign %s: %w", r.ID, err)
		}
		r.namesJSON = nil
	}
	if r.descriptionsJSON != nil {
		if r.Descriptions, err = decodeText(r.descriptionsJSON); err != nil {
			return fmt.Errorf("descriptions of campaign %s: %w", r.ID, err)
		}
		r.descriptionsJSON = nil
	}
	return nil
}

// listingColumns are read in this order by scanListings: the catalogue's (alias c), then the
// person's standing (alias s, see StandingJoin).
const listingColumns = "c.id, c.type, c.default_language, c.names, c.descriptions, c.reward_minor, c.currency_code, " +
	"c.estimated_minutes, c.question_count, c.is_welcome, c.is_competition, c.is_onboarding, c.is_final_onboarding, c.opens_at, c.closes_at, c.published_at, " +
	"c.profile_targeting, c.full_audiences, c.quota_full, c.audience_languages, s.status, s.seen_at, s.hidden_at, c.updated_at"

// catalogueColumns are listingColumns for a list without anyone's standing.
var catalogueColumns = strings.NewReplacer("s.status", "NULL", "s.seen_at", "NULL", "s.hidden_at", "NULL").Replace(listingColumns)

// scanListings reads rows of listingColumns. It scans column by column and decodes the JSON
// columns itself, skipping the empty lists most campaigns have, and leaves names and
// descriptions to decodeTexts: under load GORM's reflective Scan with its JSON serializer
// cost more CPU than the feed query itself (`make bench`). After decodeTexts the values
// are those GORM's Scan gives, except that an empty list comes back nil, which reads the same.
func scanListings(rows *sql.Rows) ([]Listing, error) {
	defer rows.Close()
	var out []Listing
	var targeting, fullAudiences sql.RawBytes
	var opensAt, closesAt, seenAt, hiddenAt sql.NullTime
	var status sql.NullString
	for rows.Next() {
		var r Listing
		err := rows.Scan(&r.ID, &r.Type, &r.DefaultLanguage, &r.namesJSON, &r.descriptionsJSON, &r.RewardMinor, &r.CurrencyCode,
			&r.EstimatedMinutes, &r.QuestionCount, &r.IsWelcome, &r.IsCompetition, &r.IsOnboarding, &r.IsFinalOnboarding, &opensAt, &closesAt, &r.PublishedAt,
			&targeting, &fullAudiences, &r.QuotaFull, &r.AudienceLanguages, &status, &seenAt, &hiddenAt, &r.UpdatedAt)
		if err != nil {
			return nil, err
		}
		if r.ProfileTargeting, err = decodeList[Condition](targeting); err != nil {
			return nil, fmt.Errorf("profile targeting of %s: %w", r.ID, err)
		}
		if r.FullAudiences, err = decodeList[[]Condition](fullAudiences); err != nil {
			return nil, fmt.Errorf("full audiences of %s: %w", r.ID, err)
		}
		r.OpensAt, r.ClosesAt, r.Standing.SeenAt, r.Standing.HiddenAt = timePtr(opensAt), timePtr(closesAt), timePtr(seenAt), timePtr(hiddenAt)
		if status.Valid {
			st := status.String
			r.Standing.Status = &st
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// decodeText reads a Text column, which the JSON serializer writes as an object of strings.
// An object whose strings need no unescaping (nearly every one) is read directly, saving
// the reflection of encoding/json on every card; anything else goes through encoding/json,
// so the result is always the one it gives.
func decodeText(b []byte) (Text, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if t, ok := plainTextObject(b); ok {
		return t, nil
	}
	var t Text
	err := json.Unmarshal(b, &t)
	return t, err
}

// plainTextObject reads {"key": "value", ...} when no string holds an escape, a control
// character or invalid UTF-8; ok is false for anything else.
func plainTextObject(b []byte) (t Text, ok bool) {
	i := skipJSONSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	t = Text{}
	if i = skipJSONSpace(b, i+1); i < len(b) && b[i] == '}' {
		return t, skipJSONSpace(b, i+1) == len(b)
	}
	for {
		var k, v string
		if k, i, ok = plainJSONString(b, i); !ok {
			return nil, false
		}
		if i = skipJSONSpace(b, i); i == len(b) || b[i] != ':' {
			return nil, false
		}
		if v, i, ok = plainJSONString(b, skipJSONSpace(b, i+1)); !ok {
			return nil, false
		}
		t[k] = v
		if i = skipJSONSpace(b, i); i == len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipJSONSpace(b, i+1)
		case '}':
			return t, skipJSONSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// plainJSONString reads the string starting at b[i] and returns it with the index after it.
func plainJSONString(b []byte, i int) (string, int, bool) {
	if i == len(b) || b[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			if !utf8.Valid(b[i+1 : j]) {
				return "", j, false
			}
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20:
			return "", j, false
		}
	}
	return "", len(b), false
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// decodeList reads a JSON list column; "[]", the usual value, needs no decoding.
func decodeList[T any](b []byte) ([]T, error) {
	if len(b) == 0 || string(b) == "[]" {
		return nil, nil
	}
	var out []T
	err := json.Unmarshal(b, &out)
	return out, err
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	v := t.Time
	return &v
}

// listing is one campaign of a panel with the person's standing.
func (s *Store) listing(ctx context.Context, join StandingJoin, panelID, personID, id string) (*Listing, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, ErrNotFound
	}
	q := join.JoinStanding(s.db.WithContext(ctx).Table("campaigns AS c").Select(listingColumns), personID)
	res, err := q.Where("c.panel_id = ? AND c.id = ?", panelID, id).Limit(1).Rows()
	if err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	rows, err := scanListings(res)
	if err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	if len(rows) == 0 {
		return nil, ErrNotFound
	}
	if err := rows[0].decodeTexts(); err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	return &rows[0], nil
}

// listings are a panel's campaigns by id, without anyone's standing.
func (s *Store) listings(ctx context.Context, panelID string, ids []string) (map[string]Listing, error) {
	out := make(map[string]Listing, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	res, err := s.db.WithContext(ctx).Table("campaigns AS c").Select(catalogueColumns).Where("c.panel_id = ? AND c.id IN ?", panelID, ids).Rows()
	if err != nil {
		return nil, fmt.Errorf("load campaigns of panel %s: %w", panelID, err)
	}
	rows, err := scanListings(res)
	if err != nil {
		return nil, fmt.Errorf("load campaigns of panel %s: %w", panelID, err)
	}
	for _, r := range rows {
		if err := r.decodeTexts(); err != nil {
			return nil, err
		}
		out[r.ID] = r
	}
	return out, nil
}

// exists is ErrNotFound when the panel has no campaign by that id.
func (s *Store) exists(ctx context.Context, panelID, id string) error {
	if _, err := uuid.Parse(id); err != nil {
		return ErrNotFound
	}
	var n int64
	if err := s.db.WithContext(ctx).Model(&Campaign{}).Where("panel_id = ? AND id = ?", panelID, id).Limit(1).Count(&n).Error; err != nil {
		return fmt.Errorf("find campaign %s: %w", id, err)
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// Campaign loads a whole campaign (with its definition) of a panel. Decoded campaigns are
// kept while their updated_at stays the same: every answer needs the definition, and
// decoding it was the engine's largest CPU cost. The result is shared: read it, never change it.
func (s *Store) Campaign(ctx context.Context, panelID, id string) (*Campaign, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, ErrNotFound
	}
	var stamps []time.Time
	if err := s.db.WithContext(ctx).Model(&Campaign{}).Where("panel_id = ? AND id = ?", panelID, id).Limit(1).Pluck("updated_at", &stamps).Error; err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	if len(stamps) == 0 {
		return nil, ErrNotFound
	}
	return s.campaignAt(ctx, panelID, id, stamps[0])
}

// campaignAt is Campaign for a caller that read the campaign's updated_at already.
func (s *Store) campaignAt(ctx context.Context, panelID, id string, updated time.Time) (*Campaign, error) {
	if c := s.cached(id, updated); c != nil {
		return c, nil
	}
	c, err := s.loadCampaign(ctx, panelID, id)
	if err != nil {
		return nil, err
	}
	s.keep(c)
	return c, nil
}

const campaignCacheSize = 2000

func (s *Store) cached(id string, updated time.Time) *Campaign {
	s.cacheMu.RLock()
	defer s.cacheMu.RUnlock()
	if c := s.cache[id]; c != nil && c.UpdatedAt.Equal(updated) {
		return c
	}
	return nil
}

func (s *Store) keep(c *Campaign) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	if s.cache == nil || len(s.cache) >= campaignCacheSize {
		s.cache = make(map[string]*Campaign, 64)
	}
	s.cache[c.ID] = c
}

// forget drops campaigns from the decoded cache.
func (s *Store) forget(ids ...string) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	for _, id := range ids {
		delete(s.cache, id)
	}
}

func (s *Store) loadCampaign(ctx context.Context, panelID, id string) (*Campaign, error) {
	var c Campaign
	err := s.db.WithContext(ctx).Where("panel_id = ? AND id = ?", panelID, id).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	return &c, nil
}

// competitions are the panel's competition campaigns, newest first.
func (s *Store) competitions(ctx context.Context, panelID string) ([]Campaign, error) {
	var rows []Campaign
	err := s.db.WithContext(ctx).Where("panel_id = ? AND is_competition = ?", panelID, true).Order("published_at DESC").Find(&rows).Error
	return rows, err
}
