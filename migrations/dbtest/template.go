package dbtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"gorm.io/gorm"
)

// Migrating a database takes seconds (SQLite's pure-Go engine under the race detector most of
// all: about 8 s a database on two cores, the better part of a test's own time), and a test
// binary opens hundreds. So each test process migrates one template per dialect, the first time
// a test asks, and every Open copies it: a file copy on SQLite, CREATE DATABASE ... TEMPLATE on
// PostgreSQL. A copy is exactly what migrating would have given, so no test can tell.
//
// A template belongs to the process that made it (its name carries the pid): it is always the
// migrations this binary holds, never an older run's. The next process to make one removes
// those whose process has ended (a test process has no hook to remove its own).

// openSQLiteCopy returns a copy of the migrated SQLite template in the test's temporary folder.
func openSQLiteCopy(t testing.TB) *gorm.DB {
	t.Helper()
	template, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("sqlite template: %v", err)
	}
	return openSQLiteFrom(t, template)
}

// openSQLiteFrom returns a copy of the template file in the test's temporary folder.
func openSQLiteFrom(t testing.TB, template string) *gorm.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	if err := copyFile(template, path); err != nil {
		t.Fatalf("copy the sqlite template: %v", err)
	}
	db, err := migrations.Open("sqlite://" + path)
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { closeDB(db) })
	return db
}

var sqliteTemplate = sync.OnceValues(func() (string, error) {
	removeEnded(os.TempDir(), "canvass-dbtest-")
	dir, err := os.MkdirTemp("", fmt.Sprintf("canvass-dbtest-%d-", os.Getpid()))
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "template.db")
	db, err := migrations.Open("sqlite://" + path)
	if err != nil {
		return "", err
	}
	defer closeDB(db)
	if err := migrations.Up(context.Background(), db, nil); err != nil {
		return "", fmt.Errorf("migrate: %w", err)
	}
	// Everything into the main file (the copy takes that file alone), and the WAL emptied.
	if err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)").Error; err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	return path, nil
})

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// openPostgresCopy returns a database on the test server holding the migrated template's
// rows, given back to the pool (pool.go) when the test ends.
func openPostgresCopy(t testing.TB) *gorm.DB {
	t.Helper()
	admin := postgresAdmin(t)
	template, err := postgresTemplate(admin)
	if err != nil {
		t.Fatalf("postgres template: %v", err)
	}
	return openPostgresFrom(t, admin, template, pgBaseContent)
}

// openPostgresFrom returns a database holding what the template holds (content): one from the
// pool reset to it, else a new copy of the template. It goes back to the pool when the test
// ends.
func openPostgresFrom(t testing.TB, admin *sql.DB, template string, content pgContent) *gorm.DB {
	t.Helper()
	base := os.Getenv("CANVASS_TEST_POSTGRES_URL")
	name := claimPooled(admin, base, content)
	if name == "" {
		name = testName()
		if err := createDatabase(admin, name, template); err != nil {
			t.Fatalf("copy the postgres template: %v", err)
		}
	}
	db, err := migrations.Open(databaseURL(base, name))
	if err != nil {
		t.Fatalf("open postgres database: %v", err)
	}
	// The server's connections are shared by every test of every package running at once
	// (max_connections is 100 by default), and the production pool of 32 kept idle let two
	// packages' tests exhaust them ("too many clients already"). A test needs few at a time;
	// fifty requests at once queue for them as they would for 32.
	if sqlDB, err := db.DB(); err == nil {
		sqlDB.SetMaxOpenConns(testPoolOpen)
		sqlDB.SetMaxIdleConns(testPoolIdle)
	}
	t.Cleanup(func() {
		closeDB(db)
		giveBack(admin, name)
	})
	return db
}

// A test database's connection pool (openPostgresFrom).
const (
	testPoolOpen = 10
	testPoolIdle = 3
)

// createDatabase creates a test database, a copy of template unless that is "", that commits
// without waiting for its WAL to reach the disk (synchronous_commit off). A test database is
// thrown away at the end of its test, so a crash losing its last commits costs nothing, and
// each commit's wait for the disk was most of a write's time. The setting belongs to the
// database (ALTER DATABASE), so nothing else on the server changes; a copy does not inherit
// it, so each database gets it anew.
func createDatabase(admin *sql.DB, name, template string) error {
	create := `CREATE DATABASE "` + name + `"`
	if template != "" {
		create += ` TEMPLATE "` + template + `"`
	}
	if _, err := admin.Exec(create); err != nil {
		return err
	}
	if _, err := admin.Exec(`ALTER DATABASE "` + name + `" SET synchronous_commit = off`); err != nil {
		admin.Exec(`DROP DATABASE IF EXISTS "` + name + `"`)
		return fmt.Errorf("set synchronous_commit: %w", err)
	}
	return nil
}

var (
	adminOnce sync.Once
	adminDB   *sql.DB
	adminErr  error
)

// postgresAdmin is the process's connection to CANVASS_TEST_POSTGRES_URL, for creating and
// dropping databases; it lives as long as the process.
func postgresAdmin(t testing.TB) *sql.DB {
	t.Helper()
	base := os.Getenv("CANVASS_TEST_POSTGRES_URL")
	if base == "" {
		t.Fatal("CANVASS_TEST_POSTGRES_URL is not set")
	}
	adminOnce.Do(func() {
		var db *gorm.DB
		if db, adminErr = migrations.Open(base); adminErr != nil {
			return
		}
		if adminDB, adminErr = db.DB(); adminErr != nil {
			return
		}
		adminErr = adminDB.Ping()
	})
	if adminErr != nil {
		t.Fatalf("postgres at CANVASS_TEST_POSTGRES_URL does not answer: %v", adminErr)
	}
	return adminDB
}

var (
	pgTemplateOnce sync.Once
	pgTemplate     string
	pgTemplateErr  error
	pgBaseContent  pgContent // the migrated template's schema and rows
)

func postgresTemplate(admin *sql.DB) (string, error) {
	pgTemplateOnce.Do(func() {
		poolEnded(admin)
		name := fmt.Sprintf("canvass_tpl_%d_%s", os.Getpid(), randomHex(4))
		if err := createDatabase(admin, name, ""); err != nil {
			pgTemplateErr = fmt.Errorf("create %s: %w", name, err)
			return
		}
		db, err := migrations.Open(databaseURL(os.Getenv("CANVASS_TEST_POSTGRES_URL"), name))
		if err != nil {
			pgTemplateErr = err
			return
		}
		// A template must have no one connected while it is copied.
		defer closeDB(db)
		if err := migrations.Up(context.Background(), db, nil); err != nil {
			pgTemplateErr = fmt.Errorf("migrate %s: %w", name, err)
			return
		}
		if pgBaseContent, pgTemplateErr = contentOfGorm(db); pgTemplateErr != nil {
			pgTemplateErr = fmt.Errorf("read %s: %w", name, pgTemplateErr)
			return
		}
		pgTemplate = name
	})
	return pgTemplate, pgTemplateErr
}

// removeEnded removes the entries of dir named prefix+PID+... whose process has ended.
func removeEnded(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && ended(strings.TrimPrefix(e.Name(), prefix)) {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// ended tells whether the process whose pid starts rest ("1234_ab12", "1234-5678") is gone.
func ended(rest string) bool {
	end := strings.IndexAny(rest, "_-")
	if end <= 0 {
		return false
	}
	pid, err := strconv.Atoi(rest[:end])
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

// databaseURL is base with its database replaced by name.
func databaseURL(base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + name
	return u.String()
}

// OpenSeeded is Open with seed's rows already in the database: each process runs seed once
// per key, on a copy of the migrated template, and gives every test a copy of the result. A
// seeded template older than maxAge is made again, so rows seeded relative to the clock (a
// date 30 days ago, a token valid for an hour) are never more than maxAge out of date. Two
// seeds that could leave different rows need different keys.
func OpenSeeded(t testing.TB, d migrations.Dialect, key string, maxAge time.Duration, seed func(db *gorm.DB) error) *gorm.DB {
	t.Helper()
	tpl, err := func() (*seeded, error) {
		seededMu.Lock()
		defer seededMu.Unlock() // also when a helper below ends the test (t.Fatal)
		tpl, err := seededTemplate(t, d, key, maxAge, seed)
		if err == nil {
			tpl.users++ // tests copy side by side: a template is removed only once no copy reads it
		}
		return tpl, err
	}()
	if err != nil {
		t.Fatalf("seeded %s template: %v", d, err) // (the key may be long: a whole config)
	}
	defer func() {
		seededMu.Lock()
		defer seededMu.Unlock()
		if tpl.users--; tpl.users == 0 && tpl.replaced {
			tpl.remove(t)
		}
	}()
	if d == migrations.Postgres {
		return openPostgresFrom(t, postgresAdmin(t), tpl.name, tpl.content)
	}
	return openSQLiteFrom(t, tpl.name)
}

type seeded struct {
	dialect  migrations.Dialect
	name     string // a file (SQLite) or a database (PostgreSQL)
	made     time.Time
	content  pgContent // PostgreSQL: its schema and rows, to reset a pooled database to
	users    int       // copies being made of it now
	replaced bool      // a newer template of the same key has taken its place
}

func (s *seeded) remove(t testing.TB) {
	if s.dialect == migrations.Postgres {
		dropLater(postgresAdmin(t), s.name)
	} else {
		os.Remove(s.name)
	}
}

var (
	seededMu sync.Mutex
	seededBy = map[string]*seeded{} // dialect + key
)

// seededTemplate returns the seeded template of d and key, making it (again) when there is
// none or it is older than maxAge. Called with seededMu held.
func seededTemplate(t testing.TB, d migrations.Dialect, key string, maxAge time.Duration, seed func(db *gorm.DB) error) (*seeded, error) {
	id := string(d) + "\x00" + key
	if s, ok := seededBy[id]; ok && time.Since(s.made) < maxAge {
		return s, nil
	}
	var name string
	var db *gorm.DB
	var err error
	switch d {
	case migrations.Postgres:
		admin := postgresAdmin(t)
		base, err := postgresTemplate(admin)
		if err != nil {
			return nil, err
		}
		name = fmt.Sprintf("canvass_tpl_%d_%s", os.Getpid(), randomHex(4))
		if err := createDatabase(admin, name, base); err != nil {
			return nil, fmt.Errorf("create %s: %w", name, err)
		}
		if db, err = migrations.Open(databaseURL(os.Getenv("CANVASS_TEST_POSTGRES_URL"), name)); err != nil {
			return nil, err
		}
	default:
		base, err := sqliteTemplate()
		if err != nil {
			return nil, err
		}
		name = filepath.Join(filepath.Dir(base), "seeded-"+randomHex(4)+".db")
		if err := copyFile(base, name); err != nil {
			return nil, err
		}
		if db, err = migrations.Open("sqlite://" + name); err != nil {
			return nil, err
		}
	}
	made := &seeded{dialect: d, name: name, made: time.Now()}
	err = seed(db)
	if err == nil && d == migrations.SQLite {
		err = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)").Error
	}
	if err == nil && d == migrations.Postgres {
		made.content, err = contentOfGorm(db)
	}
	closeDB(db) // a template must have no one connected while it is copied
	if err != nil {
		made.remove(t)
		return nil, fmt.Errorf("seed: %w", err)
	}
	if old, had := seededBy[id]; had {
		old.replaced = true
		if old.users == 0 {
			old.remove(t)
		}
	}
	seededBy[id] = made
	return made, nil
}
