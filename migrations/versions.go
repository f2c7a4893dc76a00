package migrations

import (
	"context"
	"database/sql"
	"slices"

	"github.com/libtnb/sqlite"
	"github.com/pressly/goose/v3"
)

// Versions lists the version of every embedded migration, ascending: the schemas this binary
// knows (a restore accepts a database at one of them).
func Versions() ([]int64, error) {
	// The provider reads its sources without touching the database: an unopened handle will do.
	db, err := sql.Open(sqlite.DriverName, ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	p, err := newProvider(goose.DialectSQLite3, db)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, s := range p.ListSources() {
		out = append(out, s.Version)
	}
	slices.Sort(out)
	return out, nil
}

// AppliedVersion is the highest migration version recorded in db's goose_db_version table,
// read without creating anything (the database may be opened read-only). ok is false when the
// table is missing: not a database that Canvass migrated.
func AppliedVersion(ctx context.Context, db *sql.DB) (version int64, ok bool, err error) {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'`).Scan(&n); err != nil {
		return 0, false, err
	}
	if n == 0 {
		return 0, false, nil
	}
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version WHERE is_applied`).Scan(&v); err != nil {
		return 0, false, err
	}
	return v.Int64, v.Valid, nil
}
