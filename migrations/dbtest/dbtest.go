// Package dbtest gives tests a freshly migrated database on every dialect: SQLite always, and
// PostgreSQL when CANVASS_TEST_POSTGRES_URL is set. With CANVASS_REQUIRE_POSTGRES=1 (CI) a
// missing or unreachable PostgreSQL fails the test instead of skipping it.
package dbtest

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
)

// Each runs fn as a parallel subtest named after the dialect, with its own migrated database.
func Each(t *testing.T, fn func(t *testing.T, db *gorm.DB)) {
	t.Helper()
	for _, d := range Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, Open(t, d))
		})
	}
}

// Dialects lists the engines this run tests against.
func Dialects(t testing.TB) []migrations.Dialect {
	t.Helper()
	ds := []migrations.Dialect{migrations.SQLite}
	if os.Getenv("CANVASS_TEST_POSTGRES_URL") != "" {
		ds = append(ds, migrations.Postgres)
	} else if os.Getenv("CANVASS_REQUIRE_POSTGRES") == "1" {
		t.Fatal("CANVASS_REQUIRE_POSTGRES=1 but CANVASS_TEST_POSTGRES_URL is not set")
	}
	return ds
}

// Open returns a migrated, empty database of the dialect, removed when the test ends: a copy
// of the process's migrated template (template.go).
func Open(t testing.TB, d migrations.Dialect) *gorm.DB {
	t.Helper()
	if d == migrations.Postgres {
		return openPostgresCopy(t)
	}
	return openSQLiteCopy(t)
}

// OpenEmpty returns an unmigrated database of the dialect (a fresh file, or a fresh schema).
func OpenEmpty(t testing.TB, d migrations.Dialect) *gorm.DB {
	t.Helper()
	switch d {
	case migrations.Postgres:
		return openPostgres(t)
	default:
		db, err := migrations.Open("sqlite://" + filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatalf("open sqlite: %v", err)
		}
		t.Cleanup(func() { closeDB(db) })
		return db
	}
}

// PostgresURL returns a URL of a fresh schema on the test server, dropped when the test ends,
// for tests that start a whole server process from a URL.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("CANVASS_TEST_POSTGRES_URL")
	if base == "" {
		t.Fatal("CANVASS_TEST_POSTGRES_URL is not set")
	}
	admin, err := migrations.Open(base)
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	if err := admin.Exec("SELECT 1").Error; err != nil {
		closeDB(admin)
		t.Fatalf("postgres at CANVASS_TEST_POSTGRES_URL does not answer: %v", err)
	}
	schema := "t_" + randomHex(8)
	if err := admin.Exec(`CREATE SCHEMA "` + schema + `"`).Error; err != nil {
		closeDB(admin)
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA "` + schema + `" CASCADE`)
		closeDB(admin)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse CANVASS_TEST_POSTGRES_URL: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgres(t testing.TB) *gorm.DB {
	db, err := migrations.Open(PostgresURL(t))
	if err != nil {
		t.Fatalf("open postgres schema: %v", err)
	}
	t.Cleanup(func() { closeDB(db) })
	return db
}

func closeDB(db *gorm.DB) {
	if sqlDB, err := db.DB(); err == nil {
		sqlDB.Close()
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
