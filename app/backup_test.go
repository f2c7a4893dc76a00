package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/libtnb/sqlite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// sqliteFile is the file behind an SQLite connection.
func sqliteFile(t *testing.T, db *gorm.DB) string {
	t.Helper()
	var rows []struct {
		Name string
		File string
	}
	require.NoError(t, db.Raw(`PRAGMA database_list`).Scan(&rows).Error)
	for _, r := range rows {
		if r.Name == "main" {
			return r.File
		}
	}
	t.Fatal("no main database")
	return ""
}

// runCommand runs `canvass ARGS...` in this process with the environment given.
func runCommand(t *testing.T, env map[string]string, args ...string) error {
	t.Helper()
	t.Setenv("CANVASS_ENV", "development")
	t.Setenv("CANVASS_SECRET", "test-secret-test-secret-test-secret-0123")
	for k, v := range env {
		t.Setenv(k, v)
	}
	return run(context.Background(), args, testLogger(t))
}

func TestABackupUnderWriteLoadRestoresToAReconciledCopyHoldingEveryAcknowledgedWrite(t *testing.T) {
	e := newEnv(t, migrations.SQLite)
	live := sqliteFile(t, e.db)
	ctx := context.Background()
	panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	member, err := e.app.Accounts.Service().ParticipantByEmail(ctx, panel, "member@demo.test")
	require.NoError(t, err)

	// Writers credit the demo member through the wallet, each credit under a key of its own,
	// and note each key once the wallet has acknowledged it (committed).
	var mu sync.Mutex
	var acked []string
	var failures atomic.Int64
	stop := make(chan struct{})
	var writers sync.WaitGroup
	for w := range 4 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("backup-load:%d:%d", w, i)
				_, _, err := e.app.Wallet.Credit(ctx, wallet.Movement{
					Panel: panel, ParticipantID: member, Amount: 1, Currency: panel.CurrencyCode, Origin: wallet.OriginManual,
					Key: key, Title: "load", Reason: "backup test", Operator: "test",
				})
				if err != nil {
					failures.Add(1)
					continue
				}
				mu.Lock()
				acked = append(acked, key)
				mu.Unlock()
			}
		}()
	}
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		writers.Wait()
	}()
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(acked) >= 40 }, time.Minute, time.Millisecond, "the writers are under way")

	mu.Lock()
	before := append([]string(nil), acked...) // every write acknowledged before the backup starts
	mu.Unlock()
	file := filepath.Join(t.TempDir(), "backups", "canvass.db")
	require.NoError(t, runCommand(t, map[string]string{"CANVASS_DATABASE_URL": "sqlite://" + live}, "backup", file))
	mu.Lock()
	during := len(acked) - len(before)
	mu.Unlock()
	close(stop)
	writers.Wait()
	require.Zero(t, failures.Load(), "no write failed because of the backup")
	t.Logf("%d credits acknowledged before the backup started, %d while it ran, %d in all", len(before), during, len(acked))

	fresh := filepath.Join(t.TempDir(), "restored", "canvass.db")
	require.NoError(t, runCommand(t, map[string]string{"CANVASS_DATABASE_URL": "sqlite://" + fresh}, "restore", file))
	require.NoError(t, runCommand(t, map[string]string{"CANVASS_DATABASE_URL": "sqlite://" + fresh}, "ledger", "reconcile"), "ledger reconcile is clean on the copy")

	copyDB, err := migrations.Open("sqlite://" + fresh)
	require.NoError(t, err)
	defer closeDB(copyDB)
	var keys []string
	require.NoError(t, copyDB.Raw(`SELECT natural_key FROM ledger_entries WHERE natural_key LIKE 'backup-load:%'`).Scan(&keys).Error)
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	var missing []string
	for _, k := range before {
		if !have[k] {
			missing = append(missing, k)
		}
	}
	assert.Empty(t, missing, "every credit acknowledged before the backup started is in the copy")
	var balance int64
	require.NoError(t, copyDB.Raw(`SELECT balance_minor FROM wallets WHERE participant_id = ?`, member).Scan(&balance).Error)
	assert.Equal(t, int64(2500+len(keys)), balance, "the copy's balance is its starting 25.00 and the credits it holds")
}

// canvassDatabase writes a migrated Canvass database to path (its version the latest).
func canvassDatabase(t *testing.T, path string) {
	t.Helper()
	db, err := migrations.Open("sqlite://" + path)
	require.NoError(t, err)
	require.NoError(t, migrations.Up(context.Background(), db, nil))
	closeDB(db)
}

func TestRestoreChecksTheFileAndRefusesADatabaseInUse(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	canvassDatabase(t, good)
	latestFile := filepath.Join(dir, "latest-backup.db")
	require.NoError(t, runCommand(t, map[string]string{"CANVASS_DATABASE_URL": "sqlite://" + good}, "backup", latestFile))

	notSQLite := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notSQLite, []byte("these are not the tables you are looking for"), 0o600))
	otherSQLite := filepath.Join(dir, "other.db")
	other, err := sql.Open(sqlite.DriverName, "file:"+otherSQLite)
	require.NoError(t, err)
	_, err = other.Exec(`CREATE TABLE notes (body TEXT)`)
	require.NoError(t, err)
	other.Close()
	newer := filepath.Join(dir, "newer.db")
	canvassDatabase(t, newer)
	future, err := sql.Open(sqlite.DriverName, "file:"+newer)
	require.NoError(t, err)
	_, err = future.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`)
	require.NoError(t, err)
	future.Close()

	for _, tc := range []struct {
		name    string
		file    string
		inUse   bool
		force   bool
		wantErr string
	}{
		{"a file that is not SQLite is refused", notSQLite, false, false, "not an SQLite database"},
		{"an SQLite database that Canvass never migrated is refused", otherSQLite, false, false, "not a Canvass database"},
		{"a database from a newer canvass is refused", newer, false, false, "newer than this canvass knows"},
		{"a missing file is refused", filepath.Join(dir, "missing.db"), false, false, "no such file"},
		{"a database a process has open is not overwritten", latestFile, true, false, "in use by a running process"},
		{"with --force a database in use is overwritten", latestFile, true, true, ""},
		{"a backup goes back in place of a database nobody has open", latestFile, false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "canvass.db")
			canvassDatabase(t, target)
			if tc.inUse {
				server, err := migrations.Open("sqlite://" + target)
				require.NoError(t, err)
				require.NoError(t, server.Exec(`SELECT COUNT(*) FROM panels`).Error)
				t.Cleanup(func() { closeDB(server) })
			}
			args := []string{"restore"}
			if tc.force {
				args = append(args, "--force")
			}
			err := runCommand(t, map[string]string{"CANVASS_DATABASE_URL": "sqlite://" + target}, append(args, tc.file)...)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				_, statErr := os.Stat(target)
				assert.NoError(t, statErr, "the database is left where it was")
				return
			}
			require.NoError(t, err)
			replaced, err := filepath.Glob(target + ".replaced-*")
			require.NoError(t, err)
			assert.NotEmpty(t, replaced, "the database it replaced is kept aside")
			r, err := checkBackup(context.Background(), target)
			require.NoError(t, err, "the restored database checks out")
			assert.Positive(t, r.version)
		})
	}
}

func TestBackupNeverOverwritesAndOnPostgreSQLExplainsPgDump(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "canvass.db")
	canvassDatabase(t, db)
	existing := filepath.Join(dir, "existing.db")
	require.NoError(t, os.WriteFile(existing, []byte("an earlier backup"), 0o600))
	for _, tc := range []struct {
		name    string
		url     string
		args    []string
		wantErr string
	}{
		{"a backup to an existing file is refused", "sqlite://" + db, []string{"backup", existing}, "exists: name a new file"},
		{"backup on PostgreSQL explains pg_dump", "postgres://canvass@db.invalid/canvass", []string{"backup", filepath.Join(dir, "pg.db")}, "pg_dump --format=custom"},
		{"restore on PostgreSQL explains pg_restore", "postgres://canvass@db.invalid/canvass", []string{"restore", existing}, "pg_restore"},
		{"backup needs exactly one file", "sqlite://" + db, []string{"backup"}, "canvass backup needs one backup FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := runCommand(t, map[string]string{"CANVASS_DATABASE_URL": tc.url}, tc.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
		})
	}
	b, err := os.ReadFile(existing)
	require.NoError(t, err)
	assert.Equal(t, "an earlier backup", string(b))
	assert.False(t, strings.Contains(fmt.Sprint(os.ReadDir(dir)), "pg.db"), "nothing is written on PostgreSQL")
}
