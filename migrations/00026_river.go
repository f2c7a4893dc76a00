package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

// River's own schema versions, in two of ours because PostgreSQL cannot use an enum value in
// the transaction that added it (River's 004 adds the job state "pending", its 006 indexes
// by it): version 26 applies River's 1 to 4, version 27 its 5 to 8, the schema of River v0.51
// (river_job, river_leader, river_queue, river_client, river_migration). River's migration
// files for a version never change, so these stay what they were when River is upgraded: a
// River release with a version 9 comes in as a migration of ours.
const (
	riverFirstPart = 4
	riverVersion   = 8
)

// rivers are versions 26 and 27.
func rivers(dialect goose.Dialect) []*goose.Migration {
	return []*goose.Migration{river(dialect, 26, riverFirstPart, -1), river(dialect, 27, riverVersion, riverFirstPart)}
}

// river brings the background job queue's tables (modules/jobs) with River's own SQL for each
// dialect, applied by River's migrator inside goose's transaction up to River's version up;
// River's record of it is its river_migration table. Down goes back to River's version down
// (-1: none, and every queued job with them).
func river(dialect goose.Dialect, version int64, up, down int) *goose.Migration {
	run := func(direction rivermigrate.Direction, target int) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			var err error
			if dialect == goose.DialectPostgres {
				var m *rivermigrate.Migrator[*sql.Tx]
				if m, err = rivermigrate.New(riverdatabasesql.New(nil), &rivermigrate.Config{Logger: discardLogger()}); err == nil {
					_, err = m.MigrateTx(ctx, tx, direction, &rivermigrate.MigrateOpts{TargetVersion: target})
				}
			} else {
				var m *rivermigrate.Migrator[*sql.Tx]
				if m, err = rivermigrate.New(riversqlite.New(nil), &rivermigrate.Config{Logger: discardLogger()}); err == nil {
					_, err = m.MigrateTx(ctx, tx, direction, &rivermigrate.MigrateOpts{TargetVersion: target})
				}
			}
			if err != nil {
				return fmt.Errorf("river migrations %s: %w", direction, err)
			}
			return nil
		}
	}
	return goose.NewGoMigration(version, &goose.GoFunc{RunTx: run(rivermigrate.DirectionUp, up)}, &goose.GoFunc{RunTx: run(rivermigrate.DirectionDown, down)})
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
