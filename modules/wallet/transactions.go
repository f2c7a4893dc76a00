package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/web"
	"gorm.io/gorm"
)

// Filter is the spec's transactions filter type: MOST_RECENT (everything), competitions or
// redemptions.
type Filter string

const (
	FilterMostRecent   Filter = "MOST_RECENT"
	FilterCompetitions Filter = "competitions"
	FilterRedemptions  Filter = "redemptions"
)

// Filters in the order the page offers them.
var Filters = []Filter{FilterMostRecent, FilterCompetitions, FilterRedemptions}

// Spec constants: transactions page size 10 and page 1; a month loads with pageSize 1000.
const (
	DefaultPageSize = 10
	MonthPageSize   = 1000
	MaxPageSize     = 1000
)

// Query selects a page of a member's transactions, newest first.
type Query struct {
	Filter   Filter
	After    time.Time // inclusive; zero: no lower bound
	Before   time.Time // exclusive; zero: no upper bound
	Page     int
	PageSize int
}

// Balance is a member's balance with the panel's currency, and their open offer debt.
type Balance struct {
	Minor    int64
	Currency string
	Owed     int64 // reversed offer credits the balance could not cover; while > 0, Minor is 0
}

// Balance reads the cached balance (a member without entries has zero in the panel's currency).
func (m *Module) Balance(ctx context.Context, panel *web.Panel, participantID string) (Balance, error) {
	w, err := m.wallet(ctx, participantID)
	if err != nil {
		return Balance{}, err
	}
	return balanceOf(panel, w), nil
}

// balanceOf is the balance of a wallet row (zero in the panel's currency when there is none).
func balanceOf(panel *web.Panel, w *Wallet) Balance {
	if w == nil || w.PanelID != panel.ID {
		return Balance{Currency: panel.CurrencyCode}
	}
	return Balance{Minor: w.BalanceMinor, Currency: w.CurrencyCode, Owed: w.OwedMinor}
}

// wallet returns the member's wallet row, or nil before their first entry. Every member page
// reads it (the balance in the top bar), so it scans by hand rather than through GORM's
// reflection; a test holds walletColumns to the model.
func (m *Module) wallet(ctx context.Context, participantID string) (*Wallet, error) {
	rows, err := m.db.WithContext(ctx).Raw(walletSQL, participantID).Rows()
	if err != nil {
		return nil, fmt.Errorf("load wallet of %s: %w", participantID, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("load wallet of %s: %w", participantID, err)
		}
		return nil, nil
	}
	var w Wallet
	if err := rows.Scan(&w.ParticipantID, &w.PanelID, &w.CurrencyCode, &w.BalanceMinor, &w.OwedMinor, &w.EntryCount, &w.SeenSeq, &w.UpdatedAt); err != nil {
		return nil, fmt.Errorf("load wallet of %s: %w", participantID, err)
	}
	return &w, nil
}

// walletColumns are what wallet scans, in the model's field order.
var walletColumns = []string{"participant_id", "panel_id", "currency_code", "balance_minor", "owed_minor", "entry_count", "seen_seq", "updated_at"}

var walletSQL = "SELECT " + strings.Join(walletColumns, ", ") + " FROM wallets WHERE participant_id = ?"

// Transactions returns one page of a member's entries, newest first, and whether more follow.
func (m *Module) Transactions(ctx context.Context, participantID string, q Query) ([]Entry, bool, error) {
	if q.Page < 1 {
		q.Page = 1
	}
	if q.PageSize < 1 || q.PageSize > MaxPageSize {
		q.PageSize = DefaultPageSize
	}
	tx := m.filtered(ctx, participantID, q.Filter, q.After, q.Before)
	var rows []Entry
	// One row more than the page tells whether another page follows.
	err := tx.Order("seq DESC").Limit(q.PageSize + 1).Offset((q.Page - 1) * q.PageSize).Find(&rows).Error
	if err != nil {
		return nil, false, fmt.Errorf("load transactions of %s: %w", participantID, err)
	}
	more := len(rows) > q.PageSize
	if more {
		rows = rows[:q.PageSize]
	}
	return rows, more, nil
}

func (m *Module) filtered(ctx context.Context, participantID string, f Filter, after, before time.Time) *gorm.DB {
	tx := m.db.WithContext(ctx).Where("participant_id = ?", participantID)
	switch f {
	case FilterCompetitions:
		tx = tx.Where("competition = ?", true)
	case FilterRedemptions:
		tx = tx.Where("origin = ?", OriginRedeem)
	}
	if !after.IsZero() {
		tx = tx.Where("created_at >= ?", after.UTC())
	}
	if !before.IsZero() {
		tx = tx.Where("created_at < ?", before.UTC())
	}
	return tx
}

// MonthSummary is a calendar month in which a member has entries of a filter.
type MonthSummary struct {
	Year, Month int
	Entries     int
	Credited    int64
	Debited     int64
}

// Start is the first instant of the month (UTC).
func (s MonthSummary) Start() time.Time {
	return time.Date(s.Year, time.Month(s.Month), 1, 0, 0, 0, 0, time.UTC)
}

// Months lists the months, newest first, in which the member has entries of the filter and
// that overlap [after, before).
func (m *Module) Months(ctx context.Context, participantID string, f Filter, after, before time.Time) ([]MonthSummary, error) {
	tx := m.db.WithContext(ctx).Model(&Month{}).Where("participant_id = ?", participantID)
	switch f {
	case FilterCompetitions:
		tx = tx.Where("competitions > 0")
	case FilterRedemptions:
		tx = tx.Where("redemptions > 0")
	default:
		tx = tx.Where("entries > 0")
	}
	// Months as year*12+month-1, so a range is one comparison on both dialects.
	if !after.IsZero() {
		a := after.UTC()
		tx = tx.Where("year * 12 + month - 1 >= ?", a.Year()*12+int(a.Month())-1)
	}
	if !before.IsZero() {
		b := before.UTC().Add(-time.Nanosecond)
		tx = tx.Where("year * 12 + month - 1 <= ?", b.Year()*12+int(b.Month())-1)
	}
	var rows []Month
	if err := tx.Order("year DESC, month DESC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load months of %s: %w", participantID, err)
	}
	out := make([]MonthSummary, 0, len(rows))
	for _, r := range rows {
		s := MonthSummary{Year: r.Year, Month: r.Month, Entries: r.Entries, Credited: r.CreditedMinor, Debited: r.DebitedMinor}
		switch f {
		case FilterCompetitions:
			s.Entries = r.Competitions
		case FilterRedemptions:
			s.Entries = r.Redemptions
		}
		out = append(out, s)
	}
	return out, nil
}

// MonthTransactions is one month's entries of a filter within [after, before), at most the
// spec's monthly page size.
func (m *Module) MonthTransactions(ctx context.Context, participantID string, year, month int, f Filter, after, before time.Time) ([]Entry, bool, error) {
	start := time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, 1, 0)
	if after.After(start) {
		start = after
	}
	if !before.IsZero() && before.Before(end) {
		end = before
	}
	if !end.After(start) {
		return nil, false, nil
	}
	return m.Transactions(ctx, participantID, Query{Filter: f, After: start, Before: end, Page: 1, PageSize: MonthPageSize})
}

// Transfers lists the member's fixed balance transfers: the operator's manual entries.
func (m *Module) Transfers(ctx context.Context, participantID string, page, pageSize int) ([]Entry, bool, error) {
	if pageSize < 1 || pageSize > MaxPageSize {
		pageSize = DefaultPageSize
	}
	if page < 1 {
		page = 1
	}
	var rows []Entry
	err := m.db.WithContext(ctx).Where("participant_id = ? AND origin = ?", participantID, OriginManual).
		Order("seq DESC").Limit(pageSize + 1).Offset((page - 1) * pageSize).Find(&rows).Error
	if err != nil {
		return nil, false, fmt.Errorf("load transfers of %s: %w", participantID, err)
	}
	more := len(rows) > pageSize
	if more {
		rows = rows[:pageSize]
	}
	return rows, more, nil
}

// Entry returns one of the member's entries; another member's is ErrNotFound.
func (m *Module) Entry(ctx context.Context, participantID, id string) (*Entry, error) {
	var e Entry
	err := m.db.WithContext(ctx).Where("id = ? AND participant_id = ?", id, participantID).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("transaction %s: %w", id, web.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load transaction %s: %w", id, err)
	}
	return &e, nil
}

// ParseFilter reads the page's filter; empty is MOST_RECENT.
func ParseFilter(s string) (Filter, bool) {
	if s == "" {
		return FilterMostRecent, true
	}
	f := Filter(s)
	if strings.EqualFold(s, string(FilterMostRecent)) {
		f = FilterMostRecent
	}
	return f, slices.Contains(Filters, f)
}

// ParseDay reads a YYYY-MM-DD date as the start of that day in UTC; empty is the zero time.
func ParseDay(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.ParseInLocation(time.DateOnly, s, time.UTC)
}
