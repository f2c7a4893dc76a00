package dbtest

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql's "pgx" driver, for the pool's own connections
	"gorm.io/gorm"
)

// The pool of PostgreSQL test databases, shared by every test process on the server.
//
// DROP DATABASE makes the server take a checkpoint and wait for it (every dirty page of every
// database written out and synced): 0.7 s a drop on a loaded two-core machine, in the test's
// time, and the I/O slowed every other test. A run dropped one database per PostgreSQL test,
// some 600. So a test's database is not dropped when it ends: it is renamed into the pool
// (canvass_pool_*), and the next test that needs a database claims one by renaming it (a
// rename either wins or finds the name gone, so two processes never share one), checks that
// its schema is exactly the migrated one, and empties it and loads its template's rows in one
// round trip (a few milliseconds). A database whose schema a test changed, or that cannot be
// reset, is dropped, and the test gets a fresh copy of the template instead, as before.

// poolPrefix names the databases waiting in the pool.
const poolPrefix = "canvass_pool_"

// poolMax bounds the pool: a database given back beyond it is dropped (the pool only ever
// holds as many as were in use at once, so this is a guard for a server shared by many runs).
const poolMax = 48

// pgContent is what a test database holds at its start: the migrated schema's fingerprint
// and the script that empties a database of that schema and fills it with the template's rows.
type pgContent struct {
	schema string // schemaFingerprint of the migrated template
	reset  string // resetScript of the template
}

// contentOf reads a template's content (its schema and rows) through a connection to it.
func contentOf(db *sql.DB) (pgContent, error) {
	schema, err := schemaFingerprint(db)
	if err != nil {
		return pgContent{}, fmt.Errorf("schema fingerprint: %w", err)
	}
	reset, err := resetScript(db)
	if err != nil {
		return pgContent{}, fmt.Errorf("reset script: %w", err)
	}
	return pgContent{schema: schema, reset: reset}, nil
}

// contentOfGorm is contentOf through a GORM connection.
func contentOfGorm(db *gorm.DB) (pgContent, error) {
	sqlDB, err := db.DB()
	if err != nil {
		return pgContent{}, err
	}
	return contentOf(sqlDB)
}

// schemaFingerprintSQL digests everything a migration or a test could change about a
// database besides its rows: the relations of every schema with their columns, types,
// defaults and nullability, constraints, indexes, views, triggers, functions, types, enum
// labels, extensions, schemas and the database's own settings.
const schemaFingerprintSQL = `SELECT md5(string_agg(d, E'\n' ORDER BY d)) FROM (
	SELECT 'r ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce((
		SELECT string_agg(a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text || ':' ||
			coalesce(pg_get_expr(ad.adbin, ad.adrelid), ''), ',' ORDER BY a.attnum)
		FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
		WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') ||
		CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) ELSE '' END AS d
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%' AND n.nspname NOT LIKE 'pg\_temp%'
	UNION ALL SELECT 'c ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
		WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
	UNION ALL SELECT 'i ' || pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'
	UNION ALL SELECT 't ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
	UNION ALL SELECT 'f ' || p.pronamespace::regnamespace || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc)
		FROM pg_proc p WHERE p.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
	UNION ALL SELECT 'y ' || t.typnamespace::regnamespace || '.' || t.typname || ' ' || t.typtype::text || ' ' ||
		coalesce((SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid), '')
		FROM pg_type t WHERE t.typtype IN ('e', 'd') AND t.typnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
	UNION ALL SELECT 'x ' || extname || ' ' || extversion FROM pg_extension
	UNION ALL SELECT 'n ' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%' AND nspname <> 'information_schema'
	UNION ALL SELECT 's ' || array_to_string(setconfig, ',') FROM pg_db_role_setting
		WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
) s`

func schemaFingerprint(db *sql.DB) (string, error) {
	var fp string
	err := db.QueryRow(schemaFingerprintSQL).Scan(&fp)
	return fp, err
}

// resetScript is the SQL that brings any database of the template's schema back to the
// template's rows: every table emptied, the template's rows inserted (PostgreSQL writes them
// out as JSON and reads them back, exactly), every sequence where the template left it. Foreign
// keys and triggers wait (session_replication_role), so the order of tables does not matter.
// The statements go in one message, as one transaction.
func resetScript(db *sql.DB) (string, error) {
	tables, err := strings1(db, `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables
		WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteString("BEGIN;\nSET LOCAL session_replication_role = replica;\n")
	for _, table := range tables {
		sb.WriteString("DELETE FROM " + table + ";\n")
	}
	for _, table := range tables {
		var insert sql.NullString
		err := db.QueryRow(`SELECT format('INSERT INTO %s SELECT * FROM json_populate_recordset(NULL::%s, %L);', $1::text, $1::text, json_agg(t)::text)
			FROM `+table+` t HAVING count(*) > 0`, table).Scan(&insert)
		if err != nil && err != sql.ErrNoRows {
			return "", fmt.Errorf("rows of %s: %w", table, err)
		}
		if insert.Valid {
			sb.WriteString(insert.String + "\n")
		}
	}
	sequences, err := strings1(db, `SELECT format('SELECT setval(%L, %s, %s);', quote_ident(schemaname) || '.' || quote_ident(sequencename),
		coalesce(last_value, start_value), (last_value IS NOT NULL)::text) FROM pg_sequences ORDER BY 1`)
	if err != nil {
		return "", err
	}
	for _, s := range sequences {
		sb.WriteString(s + "\n")
	}
	sb.WriteString("COMMIT;\n")
	return sb.String(), nil
}

// strings1 is a query's first column as strings.
func strings1(db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// claimPooled takes a database from the pool, checks that it has the template's schema and
// resets it to the template's rows, and returns its name (a test database's, testName), or ""
// when the pool has none to give. A pooled database that fails the check or the reset is dropped.
func claimPooled(admin *sql.DB, base string, content pgContent) string {
	if content.reset == "" {
		return ""
	}
	candidates, err := strings1(admin, `SELECT datname FROM pg_database WHERE datname LIKE $1 ORDER BY random() LIMIT 8`, strings.ReplaceAll(poolPrefix, "_", `\_`)+"%")
	if err != nil {
		return ""
	}
	for _, c := range candidates {
		name := testName()
		// Another process may have renamed it first: then this rename finds no such database.
		if _, err := admin.Exec(`ALTER DATABASE "` + c + `" RENAME TO "` + name + `"`); err != nil {
			continue
		}
		if err := resetTo(databaseURL(base, name), content); err != nil {
			dropLater(admin, name)
			continue
		}
		return name
	}
	return ""
}

// testName names a test's database: the process's id (poolEnded tells from it whether the
// process has ended) and a random part.
func testName() string {
	return fmt.Sprintf("canvass_t_%d_%s", os.Getpid(), randomHex(6))
}

// resetTo checks a claimed database's schema and loads the template's rows into it.
func resetTo(url string, content pgContent) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	fp, err := schemaFingerprint(db)
	if err != nil {
		return fmt.Errorf("schema fingerprint: %w", err)
	}
	if fp != content.schema {
		return fmt.Errorf("schema differs from the template's")
	}
	if _, err := db.Exec(content.reset); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}

// giveBack returns a test's database to the pool once its connections are gone; a database
// still in use, or one too many for the pool, is dropped.
func giveBack(admin *sql.DB, name string) {
	for try := 0; ; try++ {
		var others int
		if err := admin.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, name).Scan(&others); err != nil {
			break
		}
		if others == 0 {
			var pooled int
			if admin.QueryRow(`SELECT count(*) FROM pg_database WHERE datname LIKE $1`, strings.ReplaceAll(poolPrefix, "_", `\_`)+"%").Scan(&pooled) != nil || pooled >= poolMax {
				break
			}
			if _, err := admin.Exec(`ALTER DATABASE "` + name + `" RENAME TO "` + poolPrefix + randomHex(8) + `"`); err == nil {
				return
			}
		}
		if try == 20 {
			break
		}
		// A connection the test left open (a server it started, a pool of its own) is ended;
		// its backend goes a moment later.
		admin.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name)
		time.Sleep(10 * time.Millisecond)
	}
	admin.Exec(`DROP DATABASE IF EXISTS "` + name + `" WITH (FORCE)`)
}

// dropLater drops a database without the caller waiting for the checkpoint the drop takes.
func dropLater(admin *sql.DB, name string) {
	go admin.Exec(`DROP DATABASE IF EXISTS "` + name + `" WITH (FORCE)`)
}

// poolEnded gives the databases of ended test processes to the pool (the next claim checks
// and empties them) and drops their templates, without waiting for the drops.
func poolEnded(admin *sql.DB) {
	names, err := strings1(admin, `SELECT datname FROM pg_database WHERE datname LIKE 'canvass\_t%'`)
	if err != nil {
		return
	}
	for _, name := range names {
		switch {
		case strings.HasPrefix(name, "canvass_tpl_") && ended(strings.TrimPrefix(name, "canvass_tpl_")):
			dropLater(admin, name)
		case strings.HasPrefix(name, "canvass_t_") && ended(strings.TrimPrefix(name, "canvass_t_")):
			admin.Exec(`ALTER DATABASE "` + name + `" RENAME TO "` + poolPrefix + randomHex(8) + `"`)
		}
	}
}
