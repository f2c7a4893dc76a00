package dbtest

import (
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// postgresOnly skips a pool test on a run without PostgreSQL (and fails it where it is required).
func postgresOnly(t *testing.T) {
	t.Helper()
	if !slices.Contains(Dialects(t), migrations.Postgres) {
		t.Skip("CANVASS_TEST_POSTGRES_URL is not set")
	}
}

// connectTo is a plain connection to a test database, closed with the test.
func connectTo(t *testing.T, name string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", databaseURL(os.Getenv("CANVASS_TEST_POSTGRES_URL"), name))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}

func nameOf(t *testing.T, db *gorm.DB) string {
	t.Helper()
	var name string
	require.NoError(t, db.Raw("SELECT current_database()").Scan(&name).Error)
	return name
}

func TestAResetDatabaseHoldsTheTemplatesRowsAndSequencesWhateverATestLeftInIt(t *testing.T) {
	t.Parallel()
	postgresOnly(t)
	db := Open(t, migrations.Postgres)
	var rows, next int64
	require.NoError(t, db.Raw("SELECT count(*) FROM goose_db_version").Scan(&rows).Error)
	require.Positive(t, rows, "the migrated template records its migrations")

	// What a test leaves behind: rows added and removed, a sequence moved on.
	require.NoError(t, db.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true), (999998, true)").Error)
	require.NoError(t, db.Exec("DELETE FROM goose_db_version WHERE version_id = (SELECT min(version_id) FROM goose_db_version WHERE version_id > 0)").Error)
	require.NoError(t, resetTo(databaseURL(os.Getenv("CANVASS_TEST_POSTGRES_URL"), nameOf(t, db)), pgBaseContent))

	var after int64
	require.NoError(t, db.Raw("SELECT count(*) FROM goose_db_version").Scan(&after).Error)
	assert.Equal(t, rows, after, "the template's rows, no more and no fewer")
	var max int64
	require.NoError(t, db.Raw("SELECT max(id) FROM goose_db_version").Scan(&max).Error)
	require.NoError(t, db.Raw("SELECT nextval(pg_get_serial_sequence('goose_db_version', 'id'))").Scan(&next).Error)
	assert.Equal(t, max+1, next, "the sequence is where the template left it")
}

func TestADatabaseWhoseSchemaATestChangedIsNeverReset(t *testing.T) {
	t.Parallel()
	postgresOnly(t)
	for _, tc := range []struct{ name, change string }{
		{"a column added", "ALTER TABLE goose_db_version ADD COLUMN note text"},
		{"a table added", "CREATE TABLE left_behind (id int)"},
		{"an index added", "CREATE INDEX left_behind_idx ON goose_db_version (tstamp)"},
		{"a schema added", "CREATE SCHEMA left_behind"},
		{"a setting of the database's own", `ALTER DATABASE "%s" SET work_mem = '8MB'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := Open(t, migrations.Postgres)
			name := nameOf(t, db)
			change := tc.change
			if strings.Contains(change, "%s") {
				change = fmt.Sprintf(change, name)
			}
			require.NoError(t, db.Exec(change).Error)
			err := resetTo(databaseURL(os.Getenv("CANVASS_TEST_POSTGRES_URL"), name), pgBaseContent)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "schema differs")
		})
	}
}

func TestADatabaseGoesBackToThePoolWhenItsTestEndsAndTheNextClaimResetsIt(t *testing.T) {
	t.Parallel()
	postgresOnly(t)
	admin := postgresAdmin(t)
	var name string
	parent := t
	t.Run("a test that leaves rows and a connection open", func(t *testing.T) {
		db := Open(t, migrations.Postgres)
		name = nameOf(t, db)
		require.NoError(t, db.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true)").Error)
		left := connectTo(parent, name) // still open when this test ends
		require.NoError(t, left.Ping())
	})
	var still int
	require.NoError(t, admin.QueryRow("SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&still))
	assert.Zero(t, still, "the test's database went back to the pool under another name")

	template, err := postgresTemplate(admin)
	require.NoError(t, err)
	claimed := claimPooled(admin, os.Getenv("CANVASS_TEST_POSTGRES_URL"), pgBaseContent)
	if claimed == "" {
		// Another test process took every pooled database first; a copy is what it gets then.
		claimed = testName()
		require.NoError(t, createDatabase(admin, claimed, template))
	}
	t.Cleanup(func() { giveBack(admin, claimed) })
	var extra int
	require.NoError(t, connectTo(t, claimed).QueryRow("SELECT count(*) FROM goose_db_version WHERE version_id = 999999").Scan(&extra))
	assert.Zero(t, extra, "a claimed database holds the template's rows only")
}
