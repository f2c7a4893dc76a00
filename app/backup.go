package main

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/libtnb/sqlite"
)

// pgBackupAdvice is what backup and restore say on PostgreSQL, whose own tools do it properly.
const pgBackupAdvice = `CANVASS_DATABASE_URL names PostgreSQL: back it up with PostgreSQL's own tools, which take a consistent copy while Canvass serves:
  pg_dump --format=custom --file=canvass.dump "$CANVASS_DATABASE_URL"
and restore into an empty database with
  pg_restore --no-owner --dbname="$NEW_DATABASE_URL" canvass.dump
For point-in-time recovery archive the WAL (archive_mode, archive_command, pg_basebackup). See docs/running.md, Running on PostgreSQL.`

// backupCommand is `canvass backup FILE` or `canvass restore [--force] FILE`, checked before
// any database is opened: both work on the database file, not through a migrated connection.
type backupCommand struct {
	action string
	file   string
	force  bool
}

// plainError is printed as it is, without the log line's decoration (the PostgreSQL advice).
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

func (bc *backupCommand) run(ctx context.Context, cfg Config, out io.Writer) error {
	path, ok := strings.CutPrefix(cfg.DatabaseURL, "sqlite://")
	if !ok {
		return &plainError{"canvass " + bc.action + " works on SQLite only. " + pgBackupAdvice}
	}
	if path == "" || path == ":memory:" {
		return fmt.Errorf("%s: CANVASS_DATABASE_URL names no database file", bc.action)
	}
	if bc.action == "backup" {
		r, err := backupSQLite(ctx, path, bc.file)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "backed up %s to %s: %d bytes, migration version %d, in %s\n", path, bc.file, r.bytes, r.version, r.took.Round(time.Millisecond))
		return nil
	}
	r, err := restoreSQLite(ctx, bc.file, path, bc.force)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "restored %s (migration version %d) to %s\n", bc.file, r.version, path)
	if r.replaced != "" {
		fmt.Fprintf(out, "the database it replaced is kept at %s\n", r.replaced)
	}
	if r.version < r.latest {
		fmt.Fprintf(out, "the next start (or canvass migrate) applies the migrations after %d, up to %d\n", r.version, r.latest)
	}
	return nil
}

type backupReport struct {
	bytes   int64
	version int64
	latest  int64
	took    time.Duration
	// replaced is where a restore moved the database it replaced ("" when there was none).
	replaced string
}

// backupSQLite copies the database at dbPath into file with VACUUM INTO: one read transaction,
// so the copy is the database as of one instant, while the server goes on reading and writing
// (WAL lets one writer work beside readers). The copy is written beside file, checked (a
// Canvass database at a known version, intact) and only then renamed to file: a failed
// backup never leaves a file that looks like one. An existing file is never overwritten.
func backupSQLite(ctx context.Context, dbPath, file string) (backupReport, error) {
	start := time.Now()
	if _, err := os.Stat(file); err == nil {
		return backupReport{}, fmt.Errorf("backup: %s exists: name a new file (a backup never overwrites one)", file)
	}
	if _, err := os.Stat(dbPath); err != nil {
		return backupReport{}, fmt.Errorf("backup: database %s: %w", dbPath, err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return backupReport{}, fmt.Errorf("backup: %w", err)
	}
	tmp := file + ".partial"
	_ = os.Remove(tmp) // a failed backup's leftover
	db, err := sql.Open(sqlite.DriverName, "file:"+dbPath+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return backupReport{}, fmt.Errorf("backup: open %s: %w", dbPath, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		_ = os.Remove(tmp)
		return backupReport{}, fmt.Errorf("backup: copy %s: %w", dbPath, err)
	}
	r, err := checkBackup(ctx, tmp)
	if err != nil {
		_ = os.Remove(tmp)
		return backupReport{}, fmt.Errorf("backup: the copy does not check out: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		return backupReport{}, fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		_ = os.Remove(tmp)
		return backupReport{}, fmt.Errorf("backup: %w", err)
	}
	_ = syncDir(filepath.Dir(file))
	r.took = time.Since(start)
	return r, nil
}

// restoreSQLite puts the backup file in place of the database at dbPath. It first checks the
// file (an intact SQLite database that Canvass migrated, to a version this binary knows), and
// refuses when a process has the database open (a running server would go on writing to the
// replaced file) unless force. The database it replaces, with its WAL, is moved aside to
// dbPath.replaced-TIME, never deleted; a stale WAL is never left to be replayed into the copy.
func restoreSQLite(ctx context.Context, file, dbPath string, force bool) (backupReport, error) {
	r, err := checkBackup(ctx, file)
	if err != nil {
		return backupReport{}, fmt.Errorf("restore: %s: %w", file, err)
	}
	if _, err := os.Stat(dbPath); err == nil {
		inUse, err := sqliteInUse(dbPath)
		switch {
		case err != nil && !force:
			return backupReport{}, fmt.Errorf("restore: cannot tell whether %s is in use (%v): stop the server, then run again with --force", dbPath, err)
		case inUse && !force:
			return backupReport{}, fmt.Errorf("restore: %s is in use by a running process: stop the server first (or --force, if you know better)", dbPath)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return backupReport{}, fmt.Errorf("restore: %w", err)
	}
	tmp := dbPath + ".restoring"
	if err := copyFile(file, tmp); err != nil {
		_ = os.Remove(tmp)
		return backupReport{}, fmt.Errorf("restore: %w", err)
	}
	if _, err := os.Stat(dbPath); err == nil {
		r.replaced = dbPath + ".replaced-" + time.Now().UTC().Format("20060102T150405Z")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(dbPath+suffix, r.replaced+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
				_ = os.Remove(tmp)
				return backupReport{}, fmt.Errorf("restore: move the replaced database aside: %w", err)
			}
		}
	}
	// A WAL of the replaced database left under the restored one's name would be replayed into it.
	for _, suffix := range []string{"-wal", "-shm"} {
		_ = os.Remove(dbPath + suffix)
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		return backupReport{}, fmt.Errorf("restore: %w", err)
	}
	_ = syncDir(filepath.Dir(dbPath))
	return r, nil
}

// sqliteMagic begins every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkBackup opens file read-only and checks it is an intact SQLite database that Canvass
// migrated, to a version this binary knows.
func checkBackup(ctx context.Context, file string) (backupReport, error) {
	st, err := os.Stat(file)
	if err != nil {
		return backupReport{}, err
	}
	head := make([]byte, len(sqliteMagic))
	f, err := os.Open(file)
	if err != nil {
		return backupReport{}, err
	}
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || !bytes.Equal(head, sqliteMagic) {
		return backupReport{}, errors.New("not an SQLite database")
	}
	db, err := sql.Open(sqlite.DriverName, "file:"+file+"?mode=ro")
	if err != nil {
		return backupReport{}, err
	}
	defer db.Close()
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return backupReport{}, fmt.Errorf("not a readable SQLite database: %w", err)
	}
	if check != "ok" {
		return backupReport{}, fmt.Errorf("the database is damaged: %s", check)
	}
	version, ok, err := migrations.AppliedVersion(ctx, db)
	if err != nil {
		return backupReport{}, fmt.Errorf("read its migration version: %w", err)
	}
	if !ok {
		return backupReport{}, errors.New("not a Canvass database (it has no migration versions)")
	}
	known, err := migrations.Versions()
	if err != nil {
		return backupReport{}, err
	}
	latest := known[len(known)-1]
	if !slices.Contains(known, version) {
		if version > latest {
			return backupReport{}, fmt.Errorf("its migration version %d is newer than this canvass knows (%d): restore it with the canvass that made it", version, latest)
		}
		return backupReport{}, fmt.Errorf("its migration version %d is not one this canvass knows", version)
	}
	for _, table := range []string{"panels", "wallets", "ledger_entries"} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil {
			return backupReport{}, err
		}
		if n == 0 {
			return backupReport{}, fmt.Errorf("not a Canvass database (no %s table)", table)
		}
	}
	return backupReport{bytes: st.Size(), version: version, latest: latest}, nil
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
