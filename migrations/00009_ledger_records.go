package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// ledgerRecords (version 9) lets the ledger hold competition entries of amount zero: entering
// a prize draw belongs in the member's history (transactions with competitions=yes) but moves
// no money. The CHECK becomes (amount_minor <> 0 OR competition).
//
// It is Go, not SQL, because SQLite cannot alter a CHECK: rebuilding ledger_entries would fire
// the ON DELETE CASCADE of transaction_reports, so on SQLite the constraint's text is edited
// in the schema, the procedure SQLite documents for loosening a CHECK (sqlite.org/lang_altertable.html).
func ledgerRecords(dialect goose.Dialect) *goose.Migration {
	const strict, loose = "CHECK (amount_minor <> 0)", "CHECK (amount_minor <> 0 OR competition)"
	swap := func(from, to string) func(context.Context, *sql.Tx) error {
		return func(ctx context.Context, tx *sql.Tx) error {
			if dialect == goose.DialectPostgres {
				_, err := tx.ExecContext(ctx, `ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_amount_minor_check,
					ADD CONSTRAINT ledger_entries_amount_minor_check `+to)
				return err
			}
			var ddl string
			if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'ledger_entries'`).Scan(&ddl); err != nil {
				return fmt.Errorf("read ledger_entries: %w", err)
			}
			if strings.Count(ddl, from) != 1 {
				return fmt.Errorf("ledger_entries has no single %q to change", from)
			}
			var version int
			if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
				return fmt.Errorf("read schema version: %w", err)
			}
			for _, stmt := range []string{
				`PRAGMA writable_schema = ON`,
				`UPDATE sqlite_master SET sql = '` + strings.ReplaceAll(strings.Replace(ddl, from, to, 1), "'", "''") + `' WHERE type = 'table' AND name = 'ledger_entries'`,
				fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), // other connections reload the schema
				`PRAGMA writable_schema = OFF`,
			} {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("%s: %w", stmt, err)
				}
			}
			return nil
		}
	}
	return goose.NewGoMigration(9, &goose.GoFunc{RunTx: swap(strict, loose)}, &goose.GoFunc{RunTx: swap(loose, strict)})
}
