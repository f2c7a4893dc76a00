package migrations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// ErrConflict is a lost race that a new attempt resolves: a conditional update that found the
// row changed by another transaction. Modules return it (wrapped) from inside InTx.
var ErrConflict = errors.New("concurrent update")

// maxAttempts bounds the retries of a transaction that lost a race.
const maxAttempts = 6

// InTx runs fn in a transaction on db, again (bounded, with a growing pause) when it lost a
// race to another request: ErrConflict, a duplicate key another transaction wrote first, a
// serialization failure or deadlock on PostgreSQL, a busy SQLite. Any other error, or a
// cancelled context, ends it at once.
func InTx(ctx context.Context, db *gorm.DB, fn func(tx *gorm.DB) error) error {
	var err error
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		err = db.WithContext(ctx).Transaction(fn)
		if err == nil || !Retryable(err) || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt*attempt) * 5 * time.Millisecond)
	}
	return fmt.Errorf("after %d attempts: %w", maxAttempts, err)
}

// Retryable tells a lost race from a real failure.
func Retryable(err error) bool {
	if errors.Is(err, ErrConflict) || errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "40001" || pg.Code == "40P01" || pg.Code == "23505"
	}
	msg := err.Error()
	return strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY")
}
