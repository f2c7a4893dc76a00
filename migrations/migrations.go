// Package migrations holds the embedded, append-only schema migrations and opens the database
// for either dialect: SQLite through a pure-Go driver (no cgo) or PostgreSQL.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/libtnb/sqlite"
	"github.com/pressly/goose/v3"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

//go:embed *.sql
var files embed.FS

// Dialect names the engine behind a *gorm.DB.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// PoolModeParam is the parameter of a postgres:// URL that says a pooler in transaction mode
// stands between Canvass and PostgreSQL (PgBouncer's pool_mode = transaction): each transaction
// may run on another server connection, so nothing may outlive one. Canvass then prepares no
// named statement (pgx's exec mode: an unnamed one per query, in the same round trip), and the
// job queue LISTENs on the direct URL of CANVASS_DATABASE_LISTEN_URL or polls. Canvass holds
// no advisory lock and sets no session setting (SET LOCAL only, inside transactions).
const PoolModeParam = "pool_mode"

// PostgresDSN is a postgres:// URL as pgx takes it, without Canvass's own parameter, and
// whether a pooler in transaction mode stands in front (pool_mode=transaction; session, the
// default, is a direct connection or a session pooler).
func PostgresDSN(raw string) (dsn string, pooled bool, err error) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "", false, fmt.Errorf("postgres URL: %w", err)
	}
	q := u.Query()
	if !q.Has(PoolModeParam) {
		return raw, false, nil // as given: pgx reads it
	}
	switch mode := q.Get(PoolModeParam); mode {
	case "", "session":
	case "transaction":
		pooled = true
		q.Set("default_query_exec_mode", "exec")
	default:
		return "", false, fmt.Errorf("postgres URL: %s must be session or transaction, not %q", PoolModeParam, mode)
	}
	q.Del(PoolModeParam)
	u.RawQuery = q.Encode()
	return u.String(), pooled, nil
}

// Open connects to a sqlite://PATH or postgres:// URL. SQLite gets WAL, foreign keys and a
// busy timeout so concurrent writers wait instead of failing.
func Open(url string) (*gorm.DB, error) {
	// Prepared statements are cached per connection: parsing and planning the same query
	// on every request was a fifth of a page's CPU. The cache is bounded (LRU, idle TTL).
	cfg := &gorm.Config{Logger: logger.Discard, TranslateError: true, PrepareStmt: true, PrepareStmtMaxSize: 512, PrepareStmtTTL: time.Hour}
	switch {
	case strings.HasPrefix(url, "sqlite://"):
		path := strings.TrimPrefix(url, "sqlite://")
		if path == "" {
			return nil, fmt.Errorf("open database: sqlite:// needs a path")
		}
		if path != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, fmt.Errorf("open database: create folder for %s: %w", path, err)
			}
		}
		dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		d, err := driverNamed(sqlite.DriverName)
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", path, err)
		}
		db, err := gorm.Open(&sqlite.Dialector{DSN: dsn, Conn: countingDB(d, dsn)}, cfg)
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", path, err)
		}
		sqlDB, err := db.DB()
		if err != nil {
			return nil, err
		}
		// One writer at a time is SQLite's rule; a small pool keeps readers concurrent under WAL.
		// Every connection stays idle-ready: database/sql keeps 2 by default and closed the
		// rest after each burst, and a new SQLite connection reads and parses the whole schema
		// and loses its prepared statements (a tenth of the CPU of a busy test run).
		sqlDB.SetMaxOpenConns(8)
		sqlDB.SetMaxIdleConns(8)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
		return db, nil
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		dsn, pooled, err := PostgresDSN(url)
		if err != nil {
			return nil, err
		}
		if pooled {
			// A statement prepared on one server connection is unknown on the next.
			cfg.PrepareStmt = false
		}
		db, err := gorm.Open(postgres.New(postgres.Config{DSN: dsn, Conn: countingDB(stdlib.GetDefaultDriver(), dsn)}), cfg)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		sqlDB, err := db.DB()
		if err != nil {
			return nil, err
		}
		// Keep every open connection idle-ready: closing the surplus after each burst made
		// the next burst reconnect and prepare its statements again. Idle ones go after 5 min.
		sqlDB.SetMaxOpenConns(32)
		sqlDB.SetMaxIdleConns(32)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
		return db, nil
	default:
		return nil, fmt.Errorf("open database: unsupported URL %q (want sqlite:// or postgres://)", url)
	}
}

// DialectOf tells which engine a connection talks to.
func DialectOf(db *gorm.DB) Dialect {
	if db.Dialector.Name() == "postgres" {
		return Postgres
	}
	return SQLite
}

// Up applies every pending migration, each in its own transaction, and logs each as it
// finishes: its version, name, kind (sql or go), file and how long it took.
func Up(ctx context.Context, db *gorm.DB, log *slog.Logger) error {
	sqlDB, err := db.DB()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	dialect := gooseDialect(db)
	p, err := newProvider(dialect, sqlDB)
	if err != nil {
		return err
	}
	gos := map[int64]goMigration{}
	for _, m := range goMigrations(dialect) {
		gos[m.Version] = m
	}
	for {
		r, err := p.UpByOne(ctx)
		if errors.Is(err, goose.ErrNoNextVersion) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("migrate up: %w", err)
		}
		if log != nil {
			log.Info("migration applied", appliedAttrs(r, gos)...)
		}
	}
}

// appliedAttrs describe an applied migration: a SQL one by its file (00001_foundation.sql:
// foundation), a Go one by the name goMigrations gives it.
func appliedAttrs(r *goose.MigrationResult, gos map[int64]goMigration) []any {
	v := r.Source.Version
	if m, ok := gos[v]; ok {
		return []any{"version", v, "name", m.name, "kind", "go", "file", m.file, "took", r.Duration}
	}
	file := filepath.Base(r.Source.Path)
	name := strings.TrimSuffix(file, filepath.Ext(file))
	if _, rest, ok := strings.Cut(name, "_"); ok {
		name = rest
	}
	return []any{"version", v, "name", name, "kind", "sql", "file", file, "took", r.Duration}
}

// goMigration is a migration written in Go, with the name and file its log line carries (goose
// knows a Go migration by its version only: only the .sql files are embedded).
type goMigration struct {
	name, file string
	*goose.Migration
}

// goMigrations are the migrations written in Go.
func goMigrations(dialect goose.Dialect) []goMigration {
	river := rivers(dialect)
	return []goMigration{
		{"ledger_records", "00009_ledger_records.go", ledgerRecords(dialect)},
		{"offer_ledger", "00016_offer_ledger.go", offerLedger(dialect)},
		{"river_queue_1_to_4", "00026_river.go", river[0]},
		{"river_queue_5_to_8", "00026_river.go", river[1]},
	}
}

func gooseDialect(db *gorm.DB) goose.Dialect {
	if DialectOf(db) == Postgres {
		return goose.DialectPostgres
	}
	return goose.DialectSQLite3
}

// newProvider is goose's over the embedded SQL files and the Go migrations.
func newProvider(dialect goose.Dialect, sqlDB *sql.DB) (*goose.Provider, error) {
	var gos []*goose.Migration
	for _, m := range goMigrations(dialect) {
		gos = append(gos, m.Migration)
	}
	p, err := goose.NewProvider(dialect, sqlDB, files, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(gos...))
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return p, nil
}
