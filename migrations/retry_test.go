package migrations_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"gorm.io/gorm"
)

func TestInTxTriesALostRaceAgainAndARealFailureOnce(t *testing.T) {
	t.Parallel()
	errBroken := errors.New("broken")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name     string
		ctx      context.Context
		fails    int   // attempts that fail before one succeeds
		err      error // what they fail with
		attempts int
		want     error // nil: success
	}{
		{"a conflict, then success", context.Background(), 2, fmt.Errorf("wallet changed: %w", migrations.ErrConflict), 3, nil},
		{"a duplicate key, then success", context.Background(), 1, gorm.ErrDuplicatedKey, 2, nil},
		{"conflicts every time give up after six attempts", context.Background(), 100, migrations.ErrConflict, 6, migrations.ErrConflict},
		{"a real failure is not tried again", context.Background(), 100, errBroken, 1, errBroken},
		{"a cancelled request is not run", cancelled, 100, migrations.ErrConflict, 0, context.Canceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := dbtest.Open(t, migrations.SQLite)
			attempts := 0
			err := migrations.InTx(c.ctx, db, func(tx *gorm.DB) error {
				attempts++
				if attempts <= c.fails {
					return c.err
				}
				return nil
			})
			assert.Equal(t, c.attempts, attempts)
			if c.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, c.want)
			}
		})
	}
}
