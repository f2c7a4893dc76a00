package campaigns

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/web"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ErrNotFound is a campaign that does not exist in the panel asked about.
var ErrNotFound = fmt.Errorf("campaign: %w", web.ErrNotFound)

// feedRow is a campaign as the feed lists it, with the member's participation: the
// definition column is never read for the feed. The store reads it with scanFeedRows
// (the serializer tags let GORM scan it too).
type feedRow struct {
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
	OpensAt           *time.Time
	ClosesAt          *time.Time
	PublishedAt       time.Time
	ProfileTargeting  []Condition   `gorm:"serializer:json"`
	FullAudiences     [][]Condition `gorm:"serializer:json"`
	QuotaFull         bool
	AudienceLanguages string
	Status            *string // the member's participation status; nil: never touched
	SeenAt            *time.Time
	HiddenAt          *time.Time
	UpdatedAt         time.Time // the campaign's: whether a decoded copy is still current
	// namesJSON and descriptionsJSON are the columns behind Names and Descriptions until
	// decodeTexts decodes them: the feed reads more rows than it shows.
	namesJSON, descriptionsJSON []byte
}

// decodeTexts fills Names and Descriptions from their columns (once).
func (r *feedRow) decodeTexts() error {
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

// feedColumns are read in this order by scanFeedRows.
const feedColumns = "c.id, c.type, c.default_language, c.names, c.descriptions, c.reward_minor, c.currency_code, " +
	"c.estimated_minutes, c.question_count, c.is_welcome, c.is_competition, c.opens_at, c.closes_at, c.published_at, " +
	"c.profile_targeting, c.full_audiences, c.quota_full, c.audience_languages, p.status, p.seen_at, p.hidden_at, c.updated_at"

// scanFeedRows reads rows of feedColumns. It scans column by column and decodes the JSON
// columns itself, skipping the empty lists most campaigns have, and leaves names and
// descriptions to decodeTexts: under load GORM's reflective Scan with its JSON serializer
// cost more CPU than the feed query itself (`make bench`). After decodeTexts the values
// are those GORM's Scan gives, except that an empty list comes back nil, which reads the same.
func scanFeedRows(rows *sql.Rows) ([]feedRow, error) {
	defer rows.Close()
	var out []feedRow
	var targeting, fullAudiences sql.RawBytes
	var opensAt, closesAt, seenAt, hiddenAt sql.NullTime
	var status sql.NullString
	for rows.Next() {
		var r feedRow
		err := rows.Scan(&r.ID, &r.Type, &r.DefaultLanguage, &r.namesJSON, &r.descriptionsJSON, &r.RewardMinor, &r.CurrencyCode,
			&r.EstimatedMinutes, &r.QuestionCount, &r.IsWelcome, &r.IsCompetition, &opensAt, &closesAt, &r.PublishedAt,
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
		r.OpensAt, r.ClosesAt, r.SeenAt, r.HiddenAt = timePtr(opensAt), timePtr(closesAt), timePtr(seenAt), timePtr(hiddenAt)
		if status.Valid {
			st := status.String
			r.Status = &st
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

// feedFilter is what SQL can decide about who sees which campaign; profile targeting and
// profile quotas are decided per member in Go.
type feedFilter struct {
	PanelID       string
	ParticipantID string
	Language      string
	Now           time.Time
	Welcome       bool   // list welcome campaigns instead of the others
	Tab           string // FilterAll, FilterNew, FilterStarted, FilterCompetitions
	Skip          []string
	Offset        int
	Limit         int
}

// feed lists the campaigns open to a member in feed order: open now, in their language's
// audience, not quota-full, not hidden, not finished.
func (s *Store) feed(ctx context.Context, f feedFilter) ([]feedRow, error) {
	q := s.db.WithContext(ctx).Table("campaigns AS c").Select(feedColumns).
		Joins("LEFT JOIN participations AS p ON p.campaign_id = c.id AND p.participant_id = ?", f.ParticipantID).
		Where("c.panel_id = ? AND c.is_welcome = ?", f.PanelID, f.Welcome).
		Where("(c.opens_at IS NULL OR c.opens_at <= ?) AND (c.closes_at IS NULL OR c.closes_at > ?)", f.Now, f.Now).
		Where("c.quota_full = ?", false).
		Where("(c.audience_languages = '' OR c.audience_languages LIKE ?)", "%,"+f.Language+",%").
		Where("(p.id IS NULL OR (p.hidden_at IS NULL AND p.status NOT IN ?))", TerminalStatuses)
	switch f.Tab {
	case FilterNew:
		q = q.Where("(p.id IS NULL OR p.seen_at IS NULL)")
	case FilterStarted:
		q = q.Where("p.status = ?", StatusStarted)
	case FilterCompetitions:
		q = q.Where("c.is_competition = ?", true)
	}
	if len(f.Skip) > 0 {
		q = q.Where("c.id NOT IN ?", f.Skip)
	}
	res, err := q.Order("c.priority DESC, c.published_at DESC, c.id").Offset(f.Offset).Limit(f.Limit).Rows()
	if err != nil {
		return nil, fmt.Errorf("list feed of %s: %w", f.ParticipantID, err)
	}
	rows, err := scanFeedRows(res)
	if err != nil {
		return nil, fmt.Errorf("list feed of %s: %w", f.ParticipantID, err)
	}
	return rows, nil
}

// campaignRow is one campaign of a panel with the member's participation.
func (s *Store) campaignRow(ctx context.Context, panelID, participantID, id string) (*feedRow, error) {
	if _, err := uuid.Parse(id); err != nil {
		return nil, ErrNotFound
	}
	res, err := s.db.WithContext(ctx).Table("campaigns AS c").Select(feedColumns).
		Joins("LEFT JOIN participations AS p ON p.campaign_id = c.id AND p.participant_id = ?", participantID).
		Where("c.panel_id = ? AND c.id = ?", panelID, id).Limit(1).Rows()
	if err != nil {
		return nil, fmt.Errorf("load campaign %s: %w", id, err)
	}
	rows, err := scanFeedRows(res)
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

// touchParticipation makes sure the member's participation row exists, then applies set to
// it where cond holds. Two statements, each safe under concurrency: the insert does nothing
// when another request created the row first.
func touchParticipation(ctx context.Context, db *gorm.DB, panelID, campaignID, participantID string, now time.Time, set map[string]any, cond string, args ...any) error {
	row := Participation{ID: uuid.NewString(), PanelID: panelID, CampaignID: campaignID, ParticipantID: participantID, Status: StatusNew, CreatedAt: now, UpdatedAt: now}
	err := db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "participant_id"}, {Name: "campaign_id"}}, DoNothing: true}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("create participation in %s: %w", campaignID, err)
	}
	set["updated_at"] = now
	q := db.WithContext(ctx).Model(&Participation{}).Where("participant_id = ? AND campaign_id = ?", participantID, campaignID)
	if cond != "" {
		q = q.Where(cond, args...)
	}
	if err := q.Updates(set).Error; err != nil {
		return fmt.Errorf("update participation in %s: %w", campaignID, err)
	}
	return nil
}

// markSeen records the first time the member saw the campaign.
func (s *Store) markSeen(ctx context.Context, panelID, campaignID, participantID string, now time.Time) error {
	return touchParticipation(ctx, s.db, panelID, campaignID, participantID, now, map[string]any{"seen_at": now}, "seen_at IS NULL")
}

// hide takes the campaign out of the member's feed.
func (s *Store) hide(ctx context.Context, panelID, campaignID, participantID string, now time.Time) error {
	return touchParticipation(ctx, s.db, panelID, campaignID, participantID, now, map[string]any{"hidden_at": now}, "hidden_at IS NULL")
}

// report stores a broken-campaign report and hides the campaign, in one transaction; a
// report of the same campaign by the same member since `recentSince` is returned instead.
func (s *Store) report(ctx context.Context, r *Report, recentSince time.Time) (*Report, bool, error) {
	var out *Report
	created := false
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var existing []Report
		if err := tx.Where("participant_id = ? AND campaign_id = ? AND created_at > ?", r.ParticipantID, r.CampaignID, recentSince).
			Order("created_at DESC").Limit(1).Find(&existing).Error; err != nil {
			return err
		}
		if len(existing) > 0 {
			out = &existing[0]
			return nil
		}
		if err := tx.Create(r).Error; err != nil {
			return err
		}
		out, created = r, true
		return touchParticipation(ctx, tx, r.PanelID, r.CampaignID, r.ParticipantID, r.CreatedAt, map[string]any{"hidden_at": r.CreatedAt}, "hidden_at IS NULL")
	})
	if err != nil {
		return nil, false, fmt.Errorf("report campaign %s: %w", r.CampaignID, err)
	}
	return out, created, nil
}

// reports lists the member's broken-campaign reports, newest first.
func (s *Store) reports(ctx context.Context, participantID string, limit int) ([]Report, error) {
	var out []Report
	err := s.db.WithContext(ctx).Where("participant_id = ?", participantID).Order("created_at DESC, id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list reports of %s: %w", participantID, err)
	}
	return out, nil
}

// participationRow is a participation with its campaign's name and reward.
type participationRow struct {
	Participation
	Names           Text `gorm:"serializer:json"`
	DefaultLanguage string
	Type            string
	RewardMinor     int64
	CurrencyCode    string
}

// participations lists what the member started or finished, most recent first.
func (s *Store) participations(ctx context.Context, participantID string, offset, limit int) ([]participationRow, int64, error) {
	base := s.db.WithContext(ctx).Table("participations AS p").
		Joins("JOIN campaigns AS c ON c.id = p.campaign_id").
		Where("p.participant_id = ? AND p.status <> ?", participantID, StatusNew)
	var total int64
	if err := base.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count participations of %s: %w", participantID, err)
	}
	var rows []participationRow
	err := base.Session(&gorm.Session{}).Select("p.*, c.names, c.default_language, c.type, c.reward_minor, c.currency_code").
		Order("p.updated_at DESC, p.id").Offset(offset).Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, 0, fmt.Errorf("list participations of %s: %w", participantID, err)
	}
	return rows, total, nil
}
