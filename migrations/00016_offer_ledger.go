package migrations

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// offerLedger (version 16) lets the ledger hold an offers provider's credits, their reversals
// (chargebacks) and the debt a reversal leaves when the balance is already spent:
//
//   - origin 'offer' joins campaign, redeem and manual;
//   - wallets.owed_minor is the member's open offer debt, never negative, and only ever open
//     while the balance is zero (every credit repays it first, so a balance and a debt never
//     stand together);
//   - ledger_entries.debt_minor is what an entry adds to that debt (a reversal: the part of the
//     credit the balance could not cover) or takes from it (a recovery: negative), so the debt
//     is the sum of the entries' debt_minor, as the balance is the sum of their amount_minor;
//     only offer entries carry any;
//   - ledger_entries.reverses_id names the credit a reversal takes back, at most once;
//   - a reversal of a spent credit moves no money and is all debt, so the amount CHECK becomes
//     (amount_minor <> 0 OR competition OR debt_minor <> 0).
//
// It is Go for the reason 00009 is: SQLite cannot alter a CHECK, so on SQLite the constraints'
// text is edited in the schema. Down refuses while offer entries exist: the old CHECK could not
// hold them, and the ledger is never rewritten to make it.
func offerLedger(dialect goose.Dialect) *goose.Migration {
	const (
		originOld = "CHECK (origin IN ('campaign', 'redeem', 'manual'))"
		originNew = "CHECK (origin IN ('campaign', 'redeem', 'manual', 'offer'))"
		amountOld = "CHECK (amount_minor <> 0 OR competition)"
		amountNew = "CHECK (amount_minor <> 0 OR competition OR debt_minor <> 0)"
		// The reverses_id column as SQLite keeps its text, and as it is before down drops it
		// (SQLite drops no column that a foreign key names).
		reversesFK    = "reverses_id TEXT NULL REFERENCES ledger_entries (id)"
		reversesPlain = "reverses_id TEXT NULL"
	)
	up := func(ctx context.Context, tx *sql.Tx) error {
		if dialect == goose.DialectPostgres {
			return execAll(ctx, tx,
				`ALTER TABLE ledger_entries
					ADD COLUMN debt_minor BIGINT NOT NULL DEFAULT 0,
					ADD COLUMN reverses_id TEXT NULL REFERENCES ledger_entries (id),
					ADD CONSTRAINT ledger_entries_debt_minor_check CHECK (debt_minor = 0 OR origin = 'offer'),
					DROP CONSTRAINT ledger_entries_origin_check,
					ADD CONSTRAINT ledger_entries_origin_check `+originNew+`,
					DROP CONSTRAINT ledger_entries_amount_minor_check,
					ADD CONSTRAINT ledger_entries_amount_minor_check `+amountNew,
				`ALTER TABLE wallets
					ADD COLUMN owed_minor BIGINT NOT NULL DEFAULT 0 CHECK (owed_minor >= 0),
					ADD CONSTRAINT wallets_owed_spent_check CHECK (owed_minor = 0 OR balance_minor = 0)`,
				`CREATE UNIQUE INDEX ledger_entries_reverses ON ledger_entries (reverses_id)`,
			)
		}
		if err := execAll(ctx, tx,
			`ALTER TABLE ledger_entries ADD COLUMN debt_minor BIGINT NOT NULL DEFAULT 0 CHECK (debt_minor = 0 OR origin = 'offer')`,
			`ALTER TABLE ledger_entries ADD COLUMN `+reversesFK,
			`ALTER TABLE wallets ADD COLUMN owed_minor BIGINT NOT NULL DEFAULT 0 CHECK (owed_minor >= 0) CHECK (owed_minor = 0 OR balance_minor = 0)`,
			`CREATE UNIQUE INDEX ledger_entries_reverses ON ledger_entries (reverses_id)`,
		); err != nil {
			return err
		}
		return editSQLiteTable(ctx, tx, "ledger_entries", originOld, originNew, amountOld, amountNew)
	}
	down := func(ctx context.Context, tx *sql.Tx) error {
		var offers int64
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM ledger_entries WHERE origin = 'offer'`).Scan(&offers); err != nil {
			return fmt.Errorf("count offer entries: %w", err)
		}
		if offers > 0 {
			return fmt.Errorf("the ledger holds %d offer entries, which version 15 cannot: not going down", offers)
		}
		if dialect == goose.DialectPostgres {
			return execAll(ctx, tx,
				`DROP INDEX ledger_entries_reverses`,
				`ALTER TABLE wallets DROP CONSTRAINT wallets_owed_spent_check, DROP COLUMN owed_minor`,
				`ALTER TABLE ledger_entries
					DROP CONSTRAINT ledger_entries_amount_minor_check,
					ADD CONSTRAINT ledger_entries_amount_minor_check `+amountOld+`,
					DROP CONSTRAINT ledger_entries_origin_check,
					ADD CONSTRAINT ledger_entries_origin_check `+originOld+`,
					DROP CONSTRAINT ledger_entries_debt_minor_check,
					DROP COLUMN reverses_id,
					DROP COLUMN debt_minor`,
			)
		}
		// The text edits come first: SQLite drops no column a CHECK or foreign key still names.
		if err := editSQLiteTable(ctx, tx, "ledger_entries", amountNew, amountOld, originNew, originOld, reversesFK, reversesPlain); err != nil {
			return err
		}
		return execAll(ctx, tx,
			`DROP INDEX ledger_entries_reverses`,
			`ALTER TABLE ledger_entries DROP COLUMN reverses_id`,
			`ALTER TABLE ledger_entries DROP COLUMN debt_minor`,
			`ALTER TABLE wallets DROP COLUMN owed_minor`,
		)
	}
	return goose.NewGoMigration(16, &goose.GoFunc{RunTx: up}, &goose.GoFunc{RunTx: down})
}

func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(strings.Fields(stmt), " "), err)
		}
	}
	return nil
}

// editSQLiteTable replaces texts in a SQLite table's schema, pairs of (from, to), each from
// found exactly once: the procedure SQLite documents for changing a constraint in place
// (sqlite.org/lang_altertable.html), which 00009 uses too. The rows are untouched, so only
// edits that every existing row already satisfies are safe.
func editSQLiteTable(ctx context.Context, tx *sql.Tx, table string, pairs ...string) error {
	var ddl string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&ddl); err != nil {
		return fmt.Errorf("read %s: %w", table, err)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if strings.Count(ddl, pairs[i]) != 1 {
			return fmt.Errorf("%s has no single %q to change", table, pairs[i])
		}
		ddl = strings.Replace(ddl, pairs[i], pairs[i+1], 1)
	}
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	return execAll(ctx, tx,
		`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_master SET sql = '`+strings.ReplaceAll(ddl, "'", "''")+`' WHERE type = 'table' AND name = '`+table+`'`,
		fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), // other connections reload the schema
		`PRAGMA writable_schema = OFF`,
	)
}
