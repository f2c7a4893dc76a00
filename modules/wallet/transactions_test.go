package wallet

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// creditAt credits a member at an instant.
func (f *fixture) creditAt(at time.Time, pid string, amount int64, competition bool) *Entry {
	f.t.Helper()
	f.clock = at
	mv := earning(f.acme, pid, amount, f.key("campaign"))
	mv.Competition = competition
	e, created, err := f.m.Credit(f.ctx, mv)
	require.NoError(f.t, err)
	require.True(f.t, created)
	return e
}

// debitAt redeems at an instant.
func (f *fixture) debitAt(at time.Time, pid string, amount int64) *Entry {
	f.t.Helper()
	f.clock = at
	return f.debit(f.acme, pid, amount)
}

// adjustAt is an operator's adjustment at an instant.
func (f *fixture) adjustAt(at time.Time, pid, amount string) *Entry {
	f.t.Helper()
	f.clock = at
	e, created, err := f.m.Adjust(f.ctx, f.acme, pid, amount, "correction", "ops", "")
	require.NoError(f.t, err)
	require.True(f.t, created)
	return e
}

func day(s string) time.Time {
	d, err := ParseDay(s)
	if err != nil {
		panic(err)
	}
	return d
}

func instant(s string) time.Time {
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return at
}

func seqs(es []Entry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

func span(from, to int64) []int64 {
	var out []int64
	for s := from; s >= to; s-- {
		out = append(out, s)
	}
	return out
}

func TestTransactionsArePagedNewestFirstTenAtATime(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		other := f.member(f.acme)
		start := f.clock
		for i := range 25 {
			f.creditAt(start.Add(time.Duration(i)*time.Hour), pid, int64(i+1), false)
			if i%5 == 0 {
				f.creditAt(start.Add(time.Duration(i)*time.Hour), other, 1, false)
			}
		}
		cases := []struct {
			page     int
			pageSize int
			want     []int64
			more     bool
		}{
			{page: 1, want: span(25, 16), more: true},
			{page: 0, want: span(25, 16), more: true}, // the page floor is 1
			{page: 2, want: span(15, 6), more: true},
			{page: 3, want: span(5, 1), more: false},
			{page: 4, want: nil, more: false}, // beyond the end
			{page: 99, want: nil, more: false},
			{page: 1, pageSize: 0, want: span(25, 16), more: true},    // the default size
			{page: 1, pageSize: 1001, want: span(25, 16), more: true}, // too large: the default size
			{page: 2, pageSize: 12, want: span(13, 2), more: true},    // one left
			{page: 1, pageSize: 25, want: span(25, 1), more: false},   // exactly all of them
			{page: 5, pageSize: 5, want: span(5, 1), more: false},     // the last page is full
			{page: 1, pageSize: MaxPageSize, want: span(25, 1), more: false},
		}
		for _, c := range cases {
			rows, more, err := f.m.Transactions(f.ctx, pid, Query{Page: c.page, PageSize: c.pageSize})
			require.NoError(t, err)
			assert.Equal(t, c.want, nilIfEmpty(seqs(rows)), "page %d of %d", c.page, c.pageSize)
			assert.Equal(t, c.more, more, "hasMore of page %d of %d", c.page, c.pageSize)
			for _, e := range rows {
				assert.Equal(t, pid, e.ParticipantID, "another member's entry in the page")
			}
		}
		// Each entry still reads as it was written: amount i+1 at seq i+1.
		rows, _, err := f.m.Transactions(f.ctx, pid, Query{Page: 1})
		require.NoError(t, err)
		assert.Equal(t, int64(25), rows[0].AmountMinor)
		assert.Equal(t, int64(325), rows[0].BalanceAfter)
	})
}

func nilIfEmpty(s []int64) []int64 {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestTransactionsFilterCompetitionsAndRedemptions(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		at := f.clock
		next := func() time.Time { at = at.Add(time.Hour); return at }
		plain := f.creditAt(next(), pid, 1000, false)
		contest := f.creditAt(next(), pid, 500, true)
		redeemed := f.debitAt(next(), pid, 300)
		manual := f.adjustAt(next(), pid, "-1.00")
		contest2 := f.creditAt(next(), pid, 50, true)
		redeemed2 := f.debitAt(next(), pid, 20)

		for _, c := range []struct {
			filter Filter
			want   []string
		}{
			{FilterMostRecent, []string{redeemed2.ID, contest2.ID, manual.ID, redeemed.ID, contest.ID, plain.ID}},
			{"", []string{redeemed2.ID, contest2.ID, manual.ID, redeemed.ID, contest.ID, plain.ID}},
			{FilterCompetitions, []string{contest2.ID, contest.ID}},
			{FilterRedemptions, []string{redeemed2.ID, redeemed.ID}},
		} {
			rows, more, err := f.m.Transactions(f.ctx, pid, Query{Filter: c.filter})
			require.NoError(t, err)
			assert.Equal(t, c.want, ids(rows), "filter %q", c.filter)
			assert.False(t, more)
		}

		// Filters page too.
		rows, more, err := f.m.Transactions(f.ctx, pid, Query{Filter: FilterRedemptions, PageSize: 1})
		require.NoError(t, err)
		assert.Equal(t, []string{redeemed2.ID}, ids(rows))
		assert.True(t, more)
		rows, more, err = f.m.Transactions(f.ctx, pid, Query{Filter: FilterRedemptions, Page: 2, PageSize: 1})
		require.NoError(t, err)
		assert.Equal(t, []string{redeemed.ID}, ids(rows))
		assert.False(t, more)
	})
}

func TestTransactionsAfterIsInclusiveAndBeforeIsExclusive(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		eve := f.creditAt(instant("2026-03-09T23:59:59.999999Z"), pid, 1, false)
		midnight := f.creditAt(instant("2026-03-10T00:00:00Z"), pid, 2, false)
		afternoon := f.creditAt(instant("2026-03-10T15:04:05.5Z"), pid, 3, true)
		late := f.creditAt(instant("2026-03-11T23:59:59.999999Z"), pid, 4, false)
		nextMidnight := f.creditAt(instant("2026-03-12T00:00:00Z"), pid, 5, false)

		for _, c := range []struct {
			name          string
			after, before time.Time
			filter        Filter
			want          []*Entry
		}{
			{name: "both bounds", after: day("2026-03-10"), before: day("2026-03-12"), want: []*Entry{late, afternoon, midnight}},
			{name: "after only", after: day("2026-03-10"), want: []*Entry{nextMidnight, late, afternoon, midnight}},
			{name: "before only", before: day("2026-03-10"), want: []*Entry{eve}},
			{name: "one day", after: day("2026-03-11"), before: day("2026-03-12"), want: []*Entry{late}},
			{name: "sub-second bound", after: instant("2026-03-10T15:04:05.5Z"), before: instant("2026-03-10T15:04:05.500001Z"), want: []*Entry{afternoon}},
			{name: "a bound in another zone", after: instant("2026-03-11T01:00:00+01:00"), want: []*Entry{nextMidnight, late}},
			{name: "no day", after: day("2026-03-13"), want: nil},
			{name: "bounds and a filter", after: day("2026-03-10"), before: day("2026-03-12"), filter: FilterCompetitions, want: []*Entry{afternoon}},
		} {
			rows, _, err := f.m.Transactions(f.ctx, pid, Query{Filter: c.filter, After: c.after, Before: c.before})
			require.NoError(t, err)
			want := []string{}
			for _, e := range c.want {
				want = append(want, e.ID)
			}
			assert.Equal(t, want, ids(rows), c.name)
		}
	})
}

func TestMonthsAreListedNewestFirstWithTheCountsOfEachFilter(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		f.creditAt(instant("2025-12-31T23:59:59Z"), pid, 900, false)
		f.creditAt(instant("2026-01-01T00:00:00Z"), pid, 100, true)
		f.creditAt(instant("2026-01-20T10:00:00Z"), pid, 200, false)
		f.debitAt(instant("2026-03-05T10:00:00Z"), pid, 150)
		f.creditAt(instant("2026-03-31T23:59:59.999999Z"), pid, 40, true)
		f.adjustAt(instant("2026-04-01T00:00:00Z"), pid, "-0.90")
		f.debitAt(instant("2026-04-02T00:00:00Z"), pid, 10)

		dec := MonthSummary{Year: 2025, Month: 12, Entries: 1, Credited: 900}
		jan := MonthSummary{Year: 2026, Month: 1, Entries: 2, Credited: 300}
		mar := MonthSummary{Year: 2026, Month: 3, Entries: 2, Credited: 40, Debited: 150}
		apr := MonthSummary{Year: 2026, Month: 4, Entries: 2, Debited: 100}
		with := func(s MonthSummary, n int) MonthSummary { s.Entries = n; return s }

		for _, c := range []struct {
			name          string
			filter        Filter
			after, before time.Time
			want          []MonthSummary
		}{
			{name: "everything", filter: FilterMostRecent, want: []MonthSummary{apr, mar, jan, dec}},
			{name: "competitions", filter: FilterCompetitions, want: []MonthSummary{with(mar, 1), with(jan, 1)}},
			{name: "redemptions", filter: FilterRedemptions, want: []MonthSummary{with(apr, 1), with(mar, 1)}},
			{name: "after the middle of February", after: day("2026-02-15"), want: []MonthSummary{apr, mar}},
			{name: "after a month's last day", after: day("2026-01-31"), want: []MonthSummary{apr, mar, jan}},
			{name: "before March", before: day("2026-03-01"), want: []MonthSummary{jan, dec}},
			{name: "before the second of March", before: day("2026-03-02"), want: []MonthSummary{mar, jan, dec}},
			{name: "the last day of March", after: day("2026-03-31"), before: day("2026-04-01"), want: []MonthSummary{mar}},
			{name: "across the new year", after: day("2025-12-01"), before: day("2026-02-01"), want: []MonthSummary{jan, dec}},
			{name: "competitions before March", filter: FilterCompetitions, before: day("2026-03-01"), want: []MonthSummary{with(jan, 1)}},
			{name: "a range without entries", after: day("2026-02-01"), before: day("2026-03-01"), want: []MonthSummary{}},
			{name: "after the last entry", after: day("2026-05-01"), want: []MonthSummary{}},
		} {
			months, err := f.m.Months(f.ctx, pid, c.filter, c.after, c.before)
			require.NoError(t, err)
			assert.Equal(t, c.want, months, c.name)
		}

		// Another member's months are theirs.
		months, err := f.m.Months(f.ctx, f.member(f.acme), FilterMostRecent, time.Time{}, time.Time{})
		require.NoError(t, err)
		assert.Empty(t, months)
		assert.Equal(t, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), mar.Start())
	})
}

func TestMonthTransactionsAreBoundedByTheMonthAndByAfterAndBefore(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		feb := f.creditAt(instant("2026-02-28T23:59:59.999999Z"), pid, 1000, false)
		first := f.creditAt(instant("2026-03-01T00:00:00Z"), pid, 10, false)
		mid := f.debitAt(instant("2026-03-15T12:00:00Z"), pid, 20)
		last := f.creditAt(instant("2026-03-31T23:59:59.999999Z"), pid, 30, true)
		apr := f.creditAt(instant("2026-04-01T00:00:00Z"), pid, 40, false)
		decLast := f.creditAt(instant("2026-12-31T23:59:59Z"), pid, 50, false)
		janFirst := f.creditAt(instant("2027-01-01T00:00:00Z"), pid, 60, false)

		for _, c := range []struct {
			name          string
			year, month   int
			filter        Filter
			after, before time.Time
			want          []*Entry
		}{
			{name: "the whole month", year: 2026, month: 3, want: []*Entry{last, mid, first}},
			{name: "February", year: 2026, month: 2, want: []*Entry{feb}},
			{name: "April", year: 2026, month: 4, want: []*Entry{apr}},
			{name: "December ends at the new year", year: 2026, month: 12, want: []*Entry{decLast}},
			{name: "January starts at the new year", year: 2027, month: 1, want: []*Entry{janFirst}},
			{name: "a month without entries", year: 2026, month: 5, want: nil},
			{name: "after inside the month", year: 2026, month: 3, after: day("2026-03-15"), want: []*Entry{last, mid}},
			{name: "before inside the month", year: 2026, month: 3, before: day("2026-03-15"), want: []*Entry{first}},
			{name: "after and before inside the month", year: 2026, month: 3, after: day("2026-03-02"), before: day("2026-03-31"), want: []*Entry{mid}},
			{name: "bounds wider than the month", year: 2026, month: 3, after: day("2026-01-01"), before: day("2026-06-01"), want: []*Entry{last, mid, first}},
			{name: "after the month", year: 2026, month: 3, after: day("2026-04-01"), want: nil},
			{name: "before the month", year: 2026, month: 3, before: day("2026-03-01"), want: nil},
			{name: "a filter", year: 2026, month: 3, filter: FilterRedemptions, want: []*Entry{mid}},
			{name: "competitions", year: 2026, month: 3, filter: FilterCompetitions, want: []*Entry{last}},
		} {
			rows, more, err := f.m.MonthTransactions(f.ctx, pid, c.year, c.month, c.filter, c.after, c.before)
			require.NoError(t, err)
			var want []string
			for _, e := range c.want {
				want = append(want, e.ID)
			}
			got := ids(rows)
			if len(got) == 0 {
				got = nil
			}
			assert.Equal(t, want, got, c.name)
			assert.False(t, more, c.name)
		}
	})
}

func TestTransfersListOnlyTheOperatorsManualEntries(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		at := f.clock
		next := func() time.Time { at = at.Add(time.Minute); return at }
		f.creditAt(next(), pid, 1000, false)
		a := f.adjustAt(next(), pid, "2.00")
		f.debitAt(next(), pid, 100)
		b := f.adjustAt(next(), pid, "-1.50")
		f.creditAt(next(), pid, 100, true)
		c := f.adjustAt(next(), pid, "0.01")
		other := f.member(f.acme)
		f.adjustAt(next(), other, "9.00")

		rows, more, err := f.m.Transfers(f.ctx, pid, 1, 10)
		require.NoError(t, err)
		assert.Equal(t, []string{c.ID, b.ID, a.ID}, ids(rows))
		assert.False(t, more)
		for _, e := range rows {
			assert.Equal(t, OriginManual, e.Origin)
			assert.Equal(t, "correction", e.Reason)
		}

		rows, more, err = f.m.Transfers(f.ctx, pid, 1, 2)
		require.NoError(t, err)
		assert.Equal(t, []string{c.ID, b.ID}, ids(rows))
		assert.True(t, more)
		rows, more, err = f.m.Transfers(f.ctx, pid, 2, 2)
		require.NoError(t, err)
		assert.Equal(t, []string{a.ID}, ids(rows))
		assert.False(t, more)
		rows, more, err = f.m.Transfers(f.ctx, pid, 3, 2)
		require.NoError(t, err)
		assert.Empty(t, rows)
		assert.False(t, more)

		rows, _, err = f.m.Transfers(f.ctx, f.member(f.acme), 1, 10)
		require.NoError(t, err)
		assert.Empty(t, rows, "a member without manual entries has no transfers")
	})
}

func TestAnEntryOfAnotherMemberIsNotFound(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		other := f.member(f.acme)
		mine := f.credit(f.acme, pid, 100)
		theirs := f.credit(f.acme, other, 200)

		e, err := f.m.Entry(f.ctx, pid, mine.ID)
		require.NoError(t, err)
		assert.Equal(t, int64(100), e.AmountMinor)

		_, err = f.m.Entry(f.ctx, pid, theirs.ID)
		assert.ErrorIs(t, err, web.ErrNotFound)
		_, err = f.m.Entry(f.ctx, pid, "00000000-0000-0000-0000-000000000000")
		assert.ErrorIs(t, err, web.ErrNotFound)

		// Nor can it be reported.
		_, _, err = f.m.Report(f.ctx, pid, theirs.ID, "other", "not mine")
		assert.ErrorIs(t, err, web.ErrNotFound)
		reports, err := f.m.Reports(f.ctx, pid)
		require.NoError(t, err)
		assert.Empty(t, reports)
	})
}

func TestAReportNeedsAKnownReasonCodeAReasonTextOfAtMostAThousandCharactersAndATextForOther(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		e := f.credit(f.acme, pid, 100)
		for _, c := range []struct {
			code, text, field string
		}{
			{code: "", field: "reasonCode"},
			{code: "bogus", field: "reasonCode"},
			{code: "MISSING_REWARD", field: "reasonCode"},
			{code: "other", text: strings.Repeat("é", 1001), field: "reasonText"},
			{code: "other", text: "  \n ", field: "reasonText"},
		} {
			r, created, err := f.m.Report(f.ctx, pid, e.ID, c.code, c.text)
			var we *web.Error
			require.True(t, errors.As(err, &we), "code %q: %v", c.code, err)
			require.NotEmpty(t, we.Details)
			assert.Equal(t, c.field, we.Details[0].Field)
			assert.Nil(t, r)
			assert.False(t, created)
		}
		reports, err := f.m.Reports(f.ctx, pid)
		require.NoError(t, err)
		assert.Empty(t, reports, "a refused report was written")

		// Every listed code is accepted, and 1000 characters is not too many.
		for _, code := range ReasonCodes {
			e := f.credit(f.acme, pid, 1)
			_, created, err := f.m.Report(f.ctx, pid, e.ID, code, strings.Repeat("é", 1000))
			require.NoError(t, err, code)
			assert.True(t, created, code)
		}
	})
}

func TestAReportWithinSixtyOneDaysReturnsTheEarlierOneAndANewOneAfter(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		e := f.credit(f.acme, pid, 100)
		other := f.credit(f.acme, pid, 200)
		reported := f.clock

		first, created, err := f.m.Report(f.ctx, pid, e.ID, "wrong_amount", "  should be 2.00  ")
		require.NoError(t, err)
		require.True(t, created)
		assert.Equal(t, "should be 2.00", first.ReasonText)
		assert.Equal(t, e.ID, first.TransactionID)
		assert.Equal(t, e.CampaignID, first.CampaignID)
		assert.True(t, f.m.IsRecent(*first))

		f.clock = reported.Add(ReportRecency - time.Minute)
		again, created, err := f.m.Report(f.ctx, pid, e.ID, "other", "still wrong")
		require.NoError(t, err)
		assert.False(t, created, "a report within 61 days returns the earlier one")
		assert.Equal(t, first.ID, again.ID)
		assert.Equal(t, "wrong_amount", again.ReasonCode, "the earlier report is returned as it was")
		assert.True(t, f.m.IsRecent(*again))

		// Another transaction of the member is reported on its own.
		separate, created, err := f.m.Report(f.ctx, pid, other.ID, "other", "not mine")
		require.NoError(t, err)
		assert.True(t, created)
		assert.NotEqual(t, first.ID, separate.ID)

		// At the window's edge, Report and IsRecent agree about the earlier report.
		f.clock = reported.Add(ReportRecency)
		edge, created, err := f.m.Report(f.ctx, pid, e.ID, "other", "edge")
		require.NoError(t, err)
		assert.Equal(t, f.m.IsRecent(*first), !created, "Report and IsRecent disagree at the window's edge")
		if !created {
			assert.Equal(t, first.ID, edge.ID)
			f.clock = reported.Add(ReportRecency + time.Minute)
			edge, created, err = f.m.Report(f.ctx, pid, e.ID, "other", "edge")
			require.NoError(t, err)
		}
		assert.True(t, created, "a report after 61 days is a new one")
		assert.NotEqual(t, first.ID, edge.ID)
		assert.Equal(t, "edge", edge.ReasonText)
		assert.False(t, f.m.IsRecent(*first))

		// That new report is now the recent one.
		f.clock = f.clock.Add(24 * time.Hour)
		again, created, err = f.m.Report(f.ctx, pid, e.ID, "other", "not mine")
		require.NoError(t, err)
		assert.False(t, created)
		assert.Equal(t, edge.ID, again.ID)

		reports, err := f.m.Reports(f.ctx, pid)
		require.NoError(t, err)
		require.Len(t, reports, 3)
		assert.Equal(t, []string{edge.ID, separate.ID, first.ID}, []string{reports[0].ID, reports[1].ID, reports[2].ID}, "newest first")
		others, err := f.m.Reports(f.ctx, f.member(f.acme))
		require.NoError(t, err)
		assert.Empty(t, others)
	})
}

func TestThePaymentNotificationShowsTheCreditsSinceTheMemberLastLooked(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		pid := f.member(f.acme)
		header := func() (Balance, *Payment) {
			t.Helper()
			b, pay, err := f.m.header(f.ctx, f.acme, pid)
			require.NoError(t, err)
			return b, pay
		}
		seen := func() int64 {
			t.Helper()
			var w Wallet
			require.NoError(t, f.db.Where("participant_id = ?", pid).Take(&w).Error)
			return w.SeenSeq
		}
		markSeen := func(upTo int64) {
			t.Helper()
			require.NoError(t, f.m.MarkSeen(f.ctx, pid, upTo))
		}

		b, pay := header()
		assert.Equal(t, Balance{Minor: 0, Currency: "USD"}, b, "a member without a wallet")
		assert.Nil(t, pay)
		require.NoError(t, f.m.MarkSeen(f.ctx, pid, 0), "marking a member without a wallet is harmless")

		f.credit(f.acme, pid, 300) // 1
		f.credit(f.acme, pid, 200) // 2
		b, pay = header()
		assert.Equal(t, Balance{Minor: 500, Currency: "USD"}, b)
		assert.Equal(t, &Payment{Amount: 500, Currency: "USD", UpTo: 2}, pay)

		f.debit(f.acme, pid, 100) // 3: debits are not payments
		b, pay = header()
		assert.Equal(t, int64(400), b.Minor)
		assert.Equal(t, &Payment{Amount: 500, Currency: "USD", UpTo: 3}, pay)

		markSeen(3)
		_, pay = header()
		assert.Nil(t, pay, "after MarkSeen nothing is new")

		f.debit(f.acme, pid, 50) // 4
		_, pay = header()
		assert.Nil(t, pay, "a debit alone shows no payment")

		f.credit(f.acme, pid, 70) // 5
		_, pay = header()
		assert.Equal(t, &Payment{Amount: 70, Currency: "USD", UpTo: 5}, pay, "exactly the new credit")

		markSeen(2) // an old notification's dismissal
		assert.Equal(t, int64(3), seen(), "MarkSeen moved backwards")
		_, pay = header()
		assert.Equal(t, &Payment{Amount: 70, Currency: "USD", UpTo: 5}, pay)

		f.credit(f.acme, pid, 30) // 6 arrives while the member looks at the notification up to 5
		markSeen(5)
		_, pay = header()
		assert.Equal(t, &Payment{Amount: 30, Currency: "USD", UpTo: 6}, pay, "dismissing up to 5 must not hide credit 6")

		markSeen(99) // beyond the entries: ignored
		assert.Equal(t, int64(5), seen())
		_, pay = header()
		assert.Equal(t, &Payment{Amount: 30, Currency: "USD", UpTo: 6}, pay)

		markSeen(0) // everything now
		assert.Equal(t, int64(6), seen())
		_, pay = header()
		assert.Nil(t, pay)

		markSeen(4)
		assert.Equal(t, int64(6), seen(), "MarkSeen moved backwards")
		_, pay = header()
		assert.Nil(t, pay)

		// Another panel's header doesn't show this member's wallet.
		b, pay, err := f.m.header(f.ctx, f.globex, pid)
		require.NoError(t, err)
		assert.Equal(t, Balance{Minor: 0, Currency: "GBP"}, b)
		assert.Nil(t, pay)

		// One member's MarkSeen is theirs alone.
		other := f.member(f.acme)
		f.credit(f.acme, other, 10)
		f.credit(f.acme, pid, 10)
		require.NoError(t, f.m.MarkSeen(f.ctx, other, 0))
		_, pay = header()
		assert.Equal(t, &Payment{Amount: 10, Currency: "USD", UpTo: 7}, pay)
	})
}

func TestReconcileFindsAWalletThatDisagreesWithItsEntries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		corrupt string // SQL on the member's rows, ? the participant
		check   func(t *testing.T, m Mismatch)
	}{
		{
			name:    "a cached balance off by one",
			corrupt: `UPDATE wallets SET balance_minor = balance_minor + 1 WHERE participant_id = ?`,
			check: func(t *testing.T, m Mismatch) {
				assert.Equal(t, int64(801), m.Cached)
				assert.Equal(t, int64(800), m.Sum)
			},
		},
		{
			name:    "an entry counter off by one",
			corrupt: `UPDATE wallets SET entry_count = entry_count + 1 WHERE participant_id = ?`,
			check: func(t *testing.T, m Mismatch) {
				assert.Equal(t, int64(4), m.CachedCount)
				assert.Equal(t, int64(3), m.Count)
			},
		},
		{
			name:    "a gap in the entry numbers",
			corrupt: `UPDATE ledger_entries SET seq = 7 WHERE participant_id = ? AND seq = 3`,
		},
		{
			name:    "a month that misses an entry",
			corrupt: `UPDATE ledger_months SET entries = entries - 1 WHERE participant_id = ?`,
		},
		{
			name:    "a month whose totals disagree",
			corrupt: `UPDATE ledger_months SET credited_minor = credited_minor + 5 WHERE participant_id = ?`,
		},
		{
			name:    "an entry whose amount changed",
			corrupt: `UPDATE ledger_entries SET amount_minor = amount_minor + 1 WHERE participant_id = ? AND seq = 1`,
		},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		bystander := f.member(f.acme)
		f.credit(f.acme, bystander, 5)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f.t = t
				pid := f.member(f.acme)
				f.credit(f.acme, pid, 1000)
				f.debit(f.acme, pid, 300)
				f.credit(f.acme, pid, 100)
				f.reconciled("")

				require.NoError(t, f.db.Exec(c.corrupt, pid).Error)
				all, err := f.m.Reconcile(f.ctx, "")
				require.NoError(t, err)
				require.Len(t, all, 1, "Reconcile must find the corrupted wallet and only it")
				assert.Equal(t, pid, all[0].ParticipantID)
				if c.check != nil {
					c.check(t, all[0])
				}
				one, err := f.m.Reconcile(f.ctx, pid)
				require.NoError(t, err)
				assert.Equal(t, all, one)
				clean, err := f.m.Reconcile(f.ctx, bystander)
				require.NoError(t, err)
				assert.Empty(t, clean)

				require.NoError(t, f.db.Exec(`DELETE FROM wallets WHERE participant_id = ?`, pid).Error) // for the next case
			})
		}
	})
}
