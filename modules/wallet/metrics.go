package wallet

import (
	"context"
	"fmt"
)

// Total is what the ledger holds of one origin in one currency: how many credit entries and
// the minor units they added, how many debit entries and the minor units they took. Entries
// that move no money (a competition entered) count in neither.
type Total struct {
	Origin        Origin
	Currency      string
	Credits       int64
	CreditedMinor int64
	Debits        int64
	DebitedMinor  int64
}

// Totals sums every committed ledger entry by origin and currency (the metrics' ledger
// counters read it at scrape time). One aggregate over the entries: the caller bounds how often.
func (m *Module) Totals(ctx context.Context) ([]Total, error) {
	var out []Total
	err := m.db.WithContext(ctx).Raw(`SELECT origin, currency_code AS currency,
			SUM(CASE WHEN amount_minor > 0 THEN 1 ELSE 0 END) AS credits,
			SUM(CASE WHEN amount_minor > 0 THEN amount_minor ELSE 0 END) AS credited_minor,
			SUM(CASE WHEN amount_minor < 0 THEN 1 ELSE 0 END) AS debits,
			SUM(CASE WHEN amount_minor < 0 THEN -amount_minor ELSE 0 END) AS debited_minor
		FROM ledger_entries GROUP BY origin, currency_code ORDER BY origin, currency_code`).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("ledger totals: %w", err)
	}
	return out, nil
}
