package accounts

import (
	"context"
	"fmt"
	"time"
)

// SweepSessions deletes the sessions that expired before now (idle or absolute expiry): a
// session past expires_at is refused already, the row only takes room. Safe to run twice and
// in two processes at once.
func (m *Module) SweepSessions(ctx context.Context, now time.Time) (int64, error) {
	res := m.svc.store.db.WithContext(ctx).Where("expires_at < ?", now.UTC()).Delete(&Session{})
	if res.Error != nil {
		return 0, fmt.Errorf("delete expired sessions: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// SweepTokens deletes the single-use tokens (password reset, email validation, closing link,
// widget hand-off) that expired before now, spent or not: an expired token is refused already.
func (m *Module) SweepTokens(ctx context.Context, now time.Time) (int64, error) {
	res := m.svc.store.db.WithContext(ctx).Where("expires_at < ?", now.UTC()).Delete(&AccountToken{})
	if res.Error != nil {
		return 0, fmt.Errorf("delete expired tokens: %w", res.Error)
	}
	return res.RowsAffected, nil
}
