package tenancy

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	"gorm.io/gorm"
)

// MissingTranslation is a message key a panel's language lacks: reported by islands through
// POST /api/v1/translations/add/{ns}/{lng} and noted by the server's own translator.
type MissingTranslation struct {
	PanelID      string `gorm:"primaryKey"`
	LanguageCode string `gorm:"primaryKey"`
	MessageKey   string `gorm:"primaryKey"`
	Fallback     string // the text shown instead, as the client had it ("" from the server)
	Source       string // where it was last seen missing: SourceClient or SourceServer
	SeenCount    int64
	FirstSeenAt  time.Time
	LastSeenAt   time.Time
}

// Where a missing key was seen.
const (
	SourceClient = "client"
	SourceServer = "server"
)

// MissingSighting is one or more sightings of a missing key to add to its row.
type MissingSighting struct {
	PanelID, Lang, Key, Fallback, Source string
	Count                                int64
	First, Last                          time.Time
}

// MissingFilter narrows the list of missing translations; empty fields match everything.
type MissingFilter struct {
	PanelKey string
	Lang     string
}

// MissingRow is a missing translation with its panel's key, for operators.
type MissingRow struct {
	MissingTranslation
	PanelKey string
}

// RecordMissing adds sightings to their rows, creating those not seen before, in one
// transaction. Rows are written in key order so two writers never wait on each other in a cycle.
func (s *Store) RecordMissing(ctx context.Context, sightings []MissingSighting) error {
	if len(sightings) == 0 {
		return nil
	}
	sorted := append([]MissingSighting(nil), sightings...)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.PanelID != b.PanelID {
			return a.PanelID < b.PanelID
		}
		if a.Lang != b.Lang {
			return a.Lang < b.Lang
		}
		return a.Key < b.Key
	})
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, m := range sorted {
			first, last := m.First.UTC(), m.Last.UTC()
			err := tx.Exec(`INSERT INTO missing_translations
  (panel_id, language_code, message_key, fallback, source, seen_count, first_seen_at, last_seen_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (panel_id, language_code, message_key) DO UPDATE SET
  seen_count = missing_translations.seen_count + excluded.seen_count,
  fallback = CASE WHEN excluded.fallback <> '' THEN excluded.fallback ELSE missing_translations.fallback END,
  source = excluded.source,
  first_seen_at = CASE WHEN excluded.first_seen_at < missing_translations.first_seen_at THEN excluded.first_seen_at ELSE missing_translations.first_seen_at END,
  last_seen_at = CASE WHEN excluded.last_seen_at > missing_translations.last_seen_at THEN excluded.last_seen_at ELSE missing_translations.last_seen_at END`,
				m.PanelID, m.Lang, m.Key, m.Fallback, m.Source, max(m.Count, 1), first, last).Error
			if err != nil {
				return fmt.Errorf("record missing translation %s/%s/%s: %w", m.PanelID, m.Lang, m.Key, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record %d missing translations: %w", len(sightings), err)
	}
	return nil
}

// ListMissing returns missing translations by language, most seen first.
func (s *Store) ListMissing(ctx context.Context, f MissingFilter) ([]MissingRow, error) {
	q := s.db.WithContext(ctx).Table("missing_translations AS m").
		Select("m.*, p.key AS panel_key").Joins("JOIN panels p ON p.id = m.panel_id")
	if f.PanelKey != "" {
		q = q.Where("p.key = ?", f.PanelKey)
	}
	if f.Lang != "" {
		q = q.Where("m.language_code = ?", f.Lang)
	}
	var rows []MissingRow
	if err := q.Order("m.language_code, m.seen_count DESC, m.message_key, p.key").Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list missing translations: %w", err)
	}
	return rows, nil
}

// missingRecorder counts the keys the server's translator misses in memory and writes them
// in batches, so a page that renders a missing message costs a map update, never a query.
type missingRecorder struct {
	store *Store
	log   *slog.Logger
	now   func() time.Time
	every time.Duration // the least time between two writes

	mu        sync.Mutex
	pending   map[missingKey]*MissingSighting
	flushing  bool
	lastFlush time.Time
}

type missingKey struct{ panelID, lang, key string }

// maxPendingMisses bounds memory between two writes: past it, keys not already pending wait
// for the next page that misses them after the write.
const maxPendingMisses = 5000

func newMissingRecorder(store *Store, log *slog.Logger, every time.Duration) *missingRecorder {
	if log == nil {
		log = slog.Default()
	}
	return &missingRecorder{store: store, log: log, now: time.Now, every: every, pending: map[missingKey]*MissingSighting{}, lastFlush: time.Now()}
}

// note counts one sighting, and starts a write in the background when the last is old enough.
func (r *missingRecorder) note(panelID, lang, key string) {
	now := r.now()
	k := missingKey{panelID, lang, key}
	r.mu.Lock()
	if m, ok := r.pending[k]; ok {
		m.Count++
		m.Last = now
	} else if len(r.pending) < maxPendingMisses {
		r.pending[k] = &MissingSighting{PanelID: panelID, Lang: lang, Key: key, Source: SourceServer, Count: 1, First: now, Last: now}
	}
	due := !r.flushing && now.Sub(r.lastFlush) >= r.every
	if due {
		r.flushing = true
	}
	r.mu.Unlock()
	if due {
		go func() {
			if err := r.flush(context.Background()); err != nil {
				r.log.Warn("missing translations not recorded", "err", err)
			}
		}()
	}
}

// Flush writes what was counted since the last write. Sightings a failed write held are kept
// for the next one.
func (r *missingRecorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	r.flushing = true
	r.mu.Unlock()
	return r.flush(ctx)
}

func (r *missingRecorder) flush(ctx context.Context) error {
	r.mu.Lock()
	batch := make([]MissingSighting, 0, len(r.pending))
	for _, m := range r.pending {
		batch = append(batch, *m)
	}
	r.pending = map[missingKey]*MissingSighting{}
	r.mu.Unlock()

	err := r.store.RecordMissing(ctx, batch)

	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushing, r.lastFlush = false, r.now()
	if err != nil {
		for _, m := range batch {
			k := missingKey{m.PanelID, m.Lang, m.Key}
			if p, ok := r.pending[k]; ok {
				p.Count += m.Count
				p.First = m.First
			} else if len(r.pending) < maxPendingMisses {
				m := m
				r.pending[k] = &m
			}
		}
	}
	return err
}
