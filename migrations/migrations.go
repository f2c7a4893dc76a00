// Package migrations holds the embedded, append-only schema migrations and opens the database
// for either dialect: SQLite through a pure-Go driver (no cgo) or PostgreSQL.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"log/slog"
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
		db, err := gorm.Open(postgres.New(postgres.Config{DSN: url, Conn: countingDB(stdlib.GetDefaultDriver(), url)}), cfg)
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

// Up applies every pending migration, each in its own transaction.
func Up(ctx context.Context, db *gorm.DB, log *slog.Logger) error {
	sqlDB, err := db.DB()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	p, err := provider(db, sqlDB)
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate up: %w", err)
	}
	for _, r := range results {
		if log != nil {
			log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "took", r.Duration)
		}
	}
	return nil
}

func provider(db *gorm.DB, sqlDB *sql.DB) (*goose.Provider, error) {
	dialect := goose.DialectSQLite3
	if DialectOf(db) == Postgres {
		dialect = goose.DialectPostgres
	}
	p, err := goose.NewProvider(dialect, sqlDB, files, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(ledgerRecords(dialect), offerLedger(dialect)), goose.WithGoMigrations(rivers(dialect)...))
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return p, nil
}
