// Package ratelimit counts hits per key in fixed windows, in the database, so that limits hold
// across every canvass process behind a load balancer.
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// RateLimit is one counter row.
type RateLimit struct {
	Key         string `gorm:"primaryKey"`
	WindowStart time.Time
	Hits        int
}

// Models lists the module's tables for the schema check.
func Models() []any { return []any{&RateLimit{}} }

// Limiter counts hits per key.
type Limiter struct {
	db  *gorm.DB
	now func() time.Time
}

func New(db *gorm.DB) *Limiter { return &Limiter{db: db, now: time.Now} }

// Hit adds one hit to key's current window and returns the hits in it, atomically:
// a window older than `window` starts again at 1.
func (l *Limiter) Hit(ctx context.Context, key string, window time.Duration) (int, error) {
	t, err := l.Take(ctx, key, window)
	return t.Hits, err
}

// Taken is a hit counted in advance, in the window it was counted in. A limit that must hold
// for requests at once counts each attempt before doing the work (Take, then decide: two
// requests can never both see the last free place), and gives the hit back when the attempt
// turns out not to count, such as a login whose password was right.
type Taken struct {
	Key   string
	Hits  int       // the hits in the window with this one
	start time.Time // the window's start: which window the hit is in
}

// Take is Hit, remembering the window the hit went into.
func (l *Limiter) Take(ctx context.Context, key string, window time.Duration) (Taken, error) {
	// Microseconds, what PostgreSQL keeps: the start read back must equal the start written.
	now := l.now().UTC().Truncate(time.Microsecond)
	cutoff := now.Add(-window)
	t := Taken{Key: key}
	err := l.db.WithContext(ctx).Raw(`INSERT INTO rate_limits (key, window_start, hits) VALUES (?, ?, 1)
ON CONFLICT (key) DO UPDATE SET
  hits = CASE WHEN rate_limits.window_start > ? THEN rate_limits.hits + 1 ELSE 1 END,
  window_start = CASE WHEN rate_limits.window_start > ? THEN rate_limits.window_start ELSE excluded.window_start END
RETURNING hits, window_start`, key, now, cutoff, cutoff).Row().Scan(&t.Hits, &t.start)
	if err != nil {
		return Taken{}, fmt.Errorf("rate limit hit %s: %w", key, err)
	}
	return t, nil
}

// GiveBack takes a hit back from the window it was counted in, and only from that one: once
// the key was reset (a sign-in ends an account's failures) or its window began again, the
// hits counted now are others', and taking one of theirs would let one more attempt through.
func (l *Limiter) GiveBack(ctx context.Context, t Taken) error {
	err := l.db.WithContext(ctx).Exec(`UPDATE rate_limits SET hits = hits - 1 WHERE key = ? AND window_start = ? AND hits > 0`,
		t.Key, t.start).Error
	if err != nil {
		return fmt.Errorf("rate limit give back %s: %w", t.Key, err)
	}
	return nil
}

// Count returns the hits in key's current window without adding one.
func (l *Limiter) Count(ctx context.Context, key string, window time.Duration) (int, error) {
	var rows []RateLimit
	err := l.db.WithContext(ctx).Where("key = ? AND window_start > ?", key, l.now().UTC().Add(-window)).Limit(1).Find(&rows).Error
	if err != nil {
		return 0, fmt.Errorf("rate limit count %s: %w", key, err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].Hits, nil
}

// Reset forgets key (after a successful login, say).
func (l *Limiter) Reset(ctx context.Context, key string) error {
	if err := l.db.WithContext(ctx).Where("key = ?", key).Delete(&RateLimit{}).Error; err != nil {
		return fmt.Errorf("rate limit reset %s: %w", key, err)
	}
	return nil
}
