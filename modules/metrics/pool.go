package metrics

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// PoolThreshold is how long the pool must stay exhausted before /readyz says so: a burst that
// fills every connection for a moment is normal; a pool full for this long, with requests still
// queueing for a connection, is a process that should get no more traffic.
const PoolThreshold = 10 * time.Second

// PoolWatch tells /readyz when the database pool is exhausted: every connection in use and new
// requests waiting for one, in every look for longer than Threshold. It looks at each call of
// Check (each probe); its state is the first look that saw the pool exhausted.
type PoolWatch struct {
	Stats     func() sql.DBStats
	Threshold time.Duration
	Now       func() time.Time

	mu       sync.Mutex
	started  bool
	lastWait int64     // the pool's WaitCount at the last look
	since    time.Time // the first of the looks in a row that saw it exhausted
	waits    int64     // waits counted since then
}

// NewPoolWatch watches db's pool with the default threshold.
func NewPoolWatch(db *sql.DB) *PoolWatch {
	return &PoolWatch{Stats: db.Stats, Threshold: PoolThreshold, Now: time.Now}
}

// Check is a readiness check (home.Check): "" while the pool serves, else the reason.
func (w *PoolWatch) Check(context.Context) string {
	s := w.Stats()
	now := w.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.started {
		// Waits before the first look are history, not a queue.
		w.started, w.lastWait = true, s.WaitCount
	}
	newWaits := s.WaitCount - w.lastWait
	w.lastWait = s.WaitCount
	exhausted := s.MaxOpenConnections > 0 && s.InUse >= s.MaxOpenConnections && newWaits > 0
	if !exhausted {
		w.since, w.waits = time.Time{}, 0
		return ""
	}
	if w.since.IsZero() {
		w.since = now
	}
	w.waits += newWaits
	if held := now.Sub(w.since); held >= w.Threshold {
		return fmt.Sprintf("database pool exhausted: %d of %d connections in use and %d requests waited for one in the last %s",
			s.InUse, s.MaxOpenConnections, w.waits, held.Round(time.Second))
	}
	return ""
}
