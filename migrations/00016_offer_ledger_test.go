package migrations_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// ledgerRow writes a wallet (once) and one entry by hand, as the schema of the moment allows.
type ledgerRow struct {
	pid         string
	panelID     string
	seq         int64
	amount      int64
	origin      string
	competition bool
	debt        *int64  // nil: the column is not written (version 15 has none)
	reverses    *string // idem
}

func (r ledgerRow) insert(db *gorm.DB) (string, error) {
	id := uuid.NewString()
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`INSERT INTO wallets (participant_id, panel_id, currency_code, balance_minor, entry_count, seen_seq, updated_at)
			VALUES (?, ?, 'USD', 0, 0, 0, ?) ON CONFLICT (participant_id) DO NOTHING`, r.pid, r.panelID, at).Error; err != nil {
			return err
		}
		cols, vals := "", ""
		args := []any{id, r.pid, r.seq, r.panelID, r.amount, r.origin, r.competition, at}
		if r.debt != nil {
			cols, vals = cols+", debt_minor", vals+", ?"
			args = append(args, *r.debt)
		}
		if r.reverses != nil {
			cols, vals = cols+", reverses_id", vals+", ?"
			args = append(args, *r.reverses)
		}
		return tx.Exec(`INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, competition, created_at`+cols+`)
			VALUES (?, ?, ?, ?, ?, 'USD', 0, ?, ?, ?`+vals+`)`, args...).Error
	})
	return id, err
}

// refused runs a statement and rolls it back, returning its error.
func refused(db *gorm.DB, sql string, args ...any) (err error) {
	_ = db.Transaction(func(tx *gorm.DB) error {
		err = tx.Exec(sql, args...).Error
		return errors.New("leave nothing behind")
	})
	return err
}

func ptr[T any](v T) *T { return &v }

func TestTheOfferLedgerMigrationHoldsDebtAndReversalsAndGoesDownAndUpAgain(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		panel := seed.Panel(t, db, "acme", "USD")
		pid := seed.Member(t, db, panel, "en", nil, time.Now())
		credit, err := ledgerRow{pid: pid, panelID: panel.ID, seq: 1, amount: 500, origin: "campaign"}.insert(db)
		require.NoError(t, err)
		assert.True(t, db.Migrator().HasColumn("wallets", "owed_minor"))

		// What version 16 allows and refuses.
		offer, err := ledgerRow{pid: pid, panelID: panel.ID, seq: 2, amount: 300, origin: "offer"}.insert(db)
		require.NoError(t, err, "origin offer is allowed")
		_, err = ledgerRow{pid: pid, panelID: panel.ID, seq: 3, amount: 0, origin: "offer", debt: ptr(int64(300)), reverses: &offer}.insert(db)
		require.NoError(t, err, "a reversal of amount 0 that is all debt is allowed")
		cases := []struct {
			name string
			want error
			sql  string
			args []any
		}{
			{"a second reversal of one credit", gorm.ErrDuplicatedKey, `INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, debt_minor, reverses_id, created_at)
				VALUES (?, ?, 9, ?, -1, 'USD', 0, 'offer', 0, ?, ?)`, []any{uuid.NewString(), pid, panel.ID, offer, time.Now()}},
			{"debt on an entry that is not an offer's", gorm.ErrCheckConstraintViolated, `INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, debt_minor, created_at)
				VALUES (?, ?, 9, ?, 5, 'USD', 0, 'campaign', 5, ?)`, []any{uuid.NewString(), pid, panel.ID, time.Now()}},
			{"an entry of zero without debt or competition", gorm.ErrCheckConstraintViolated, `INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, debt_minor, created_at)
				VALUES (?, ?, 9, ?, 0, 'USD', 0, 'offer', 0, ?)`, []any{uuid.NewString(), pid, panel.ID, time.Now()}},
			{"a reversal of an entry that does not exist", gorm.ErrForeignKeyViolated, `INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, debt_minor, reverses_id, created_at)
				VALUES (?, ?, 9, ?, -1, 'USD', 0, 'offer', 0, ?, ?)`, []any{uuid.NewString(), pid, panel.ID, uuid.NewString(), time.Now()}},
			{"a negative debt on the wallet", gorm.ErrCheckConstraintViolated, `UPDATE wallets SET owed_minor = -1 WHERE participant_id = ?`, []any{pid}},
			{"a debt beside a balance", gorm.ErrCheckConstraintViolated, `UPDATE wallets SET owed_minor = 1, balance_minor = 1 WHERE participant_id = ?`, []any{pid}},
			{"an unknown origin", gorm.ErrCheckConstraintViolated, `INSERT INTO ledger_entries (id, participant_id, seq, panel_id, amount_minor, currency_code, balance_after, origin, created_at)
				VALUES (?, ?, 9, ?, 5, 'USD', 0, 'gift', ?)`, []any{uuid.NewString(), pid, panel.ID, time.Now()}},
		}
		for _, c := range cases {
			assert.ErrorIs(t, refused(db, c.sql, c.args...), c.want, c.name)
		}
		assert.NoError(t, refused(db, `UPDATE wallets SET owed_minor = 5, balance_minor = 0 WHERE participant_id = ?`, pid), "a debt with a zero balance is allowed")

		p, err := migrations.Provider(db)
		require.NoError(t, err)
		_, err = p.DownTo(ctx, 15)
		require.Error(t, err, "down refuses while offer entries exist")
		v, err := p.GetDBVersion(ctx)
		require.NoError(t, err)
		assert.Equal(t, int64(16), v)
		assert.True(t, db.Migrator().HasColumn("ledger_entries", "debt_minor"), "a refused down changes nothing")

		// Without offer entries it goes down to version 15's rules, the other rows kept.
		require.NoError(t, db.Exec(`DELETE FROM ledger_entries WHERE origin = 'offer' AND reverses_id IS NOT NULL`).Error)
		require.NoError(t, db.Exec(`DELETE FROM ledger_entries WHERE origin = 'offer'`).Error)
		_, err = p.DownTo(ctx, 15)
		require.NoError(t, err)
		assert.False(t, db.Migrator().HasColumn("wallets", "owed_minor"))
		assert.False(t, db.Migrator().HasColumn("ledger_entries", "debt_minor"))
		assert.False(t, db.Migrator().HasColumn("ledger_entries", "reverses_id"))
		_, err = ledgerRow{pid: pid, panelID: panel.ID, seq: 2, amount: 300, origin: "offer"}.insert(db)
		assert.Error(t, err, "version 15 has no offer origin")
		_, err = ledgerRow{pid: pid, panelID: panel.ID, seq: 2, amount: 0, origin: "manual"}.insert(db)
		assert.Error(t, err, "version 15 refuses a zero that is not a competition's")
		_, err = ledgerRow{pid: pid, panelID: panel.ID, seq: 2, amount: 0, origin: "campaign", competition: true}.insert(db)
		assert.NoError(t, err, "version 15 keeps a competition's zero")
		var n int64
		require.NoError(t, db.Raw(`SELECT COUNT(*) FROM ledger_entries WHERE id = ?`, credit).Scan(&n).Error)
		assert.Equal(t, int64(1), n, "the entries before are kept")

		// And up again.
		require.NoError(t, migrations.Up(ctx, db, nil))
		_, err = ledgerRow{pid: pid, panelID: panel.ID, seq: 3, amount: 0, origin: "offer", debt: ptr(int64(300)), reverses: &credit}.insert(db)
		assert.NoError(t, err, "version 16 again")
		assert.Error(t, refused(db, `UPDATE wallets SET owed_minor = -1 WHERE participant_id = ?`, pid))
		if migrations.DialectOf(db) == migrations.SQLite {
			var check string
			require.NoError(t, db.Raw(`PRAGMA integrity_check`).Scan(&check).Error)
			assert.Equal(t, "ok", check, "the schema edits leave a sound database")
		}
	})
}
