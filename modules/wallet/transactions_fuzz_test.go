package wallet

import (
	"strings"
	"testing"
	"time"
)

// filterSeeds are ?filter= values of the transactions page and API, and hostile ones;
// testdata/fuzz/FuzzParseFilterAcceptsOnlyTheThreeFilters holds the same.
var filterSeeds = []struct{ name, filter string }{
	{"empty", ""},
	{"most-recent", "MOST_RECENT"},
	{"most-recent-lowercase", "most_recent"},
	{"most-recent-long-s", "MO\u017fT_RECENT"},
	{"competitions", "competitions"},
	{"competitions-capitalised", "Competitions"},
	{"redemptions", "redemptions"},
	{"padded", " redemptions"},
	{"nul-byte", "redemptions\x00"},
	{"invalid-utf8", "\xff\xfe"},
	{"right-to-left-override", "\u202esnoitpmeder"},
	{"zero-width-joiner", "compet\u200ditions"},
	{"emoji", "\U0001F4B8"},
	{"script-tag", "<script>alert(1)</script>"},
	{"sql-and-like", "redemptions' OR '1'='1 %_\\"},
}

func FuzzParseFilterAcceptsOnlyTheThreeFilters(f *testing.F) {
	for _, s := range filterSeeds {
		f.Add(s.filter)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseFilter(s)
		// The rule: empty and MOST_RECENT in any case are MOST_RECENT; the others exactly.
		var want Filter
		switch {
		case s == "" || strings.EqualFold(s, "MOST_RECENT"):
			want = FilterMostRecent
		case s == "competitions" || s == "redemptions":
			want = Filter(s)
		}
		if ok != (want != "") || (ok && got != want) {
			t.Fatalf("ParseFilter(%q) = %q, %v; want %q", s, got, ok, want)
		}
	})
}

// daySeeds are ?after= and ?before= values, and hostile ones;
// testdata/fuzz/FuzzParseDayAcceptsOnlyCalendarDaysAndWritesThemBackTheSame holds the same.
var daySeeds = []struct{ name, day string }{
	{"empty", ""},
	{"day", "2026-02-28"},
	{"leap-day", "2024-02-29"},
	{"not-a-leap-year", "2023-02-29"},
	{"century-not-leap", "1900-02-29"},
	{"quadricentennial-leap", "2000-02-29"},
	{"thirty-first-of-april", "2026-04-31"},
	{"month-thirteen", "2026-13-01"},
	{"day-zero", "2026-01-00"},
	{"year-zero", "0000-01-01"},
	{"single-digit-month", "2026-1-05"},
	{"negative-year", "-123-01-02"},
	{"plus-year", "+123-01-02"},
	{"with-time", "2026-02-28T00:00:00Z"},
	{"padded", " 2026-02-28"},
	{"slashes", "28/02/2026"},
	{"fullwidth-digits", "\uff12\uff10\uff12\uff16-02-28"},
	{"nul-byte", "2026-02-28\x00"},
	{"invalid-utf8", "\xff\xfe"},
	{"right-to-left-override", "\u202e2026-02-28"},
	{"zero-width-joiner", "2026-02\u200d-28"},
	{"emoji", "2026-02-\U0001F4C5"},
	{"script-tag", "<script>alert(1)</script>"},
	{"sql-and-like", "2026-02-28' OR '1'='1 %_\\"},
}

// isCalendarDay is the YYYY-MM-DD rule with the Gregorian calendar written out by hand.
func isCalendarDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	num := func(t string) (int, bool) {
		n := 0
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return 0, false
			}
			n = n*10 + int(t[i]-'0')
		}
		return n, true
	}
	y, ok1 := num(s[:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

func FuzzParseDayAcceptsOnlyCalendarDaysAndWritesThemBackTheSame(f *testing.F) {
	for _, s := range daySeeds {
		f.Add(s.day)
	}
	f.Fuzz(func(t *testing.T, s string) {
		day, err := ParseDay(s)
		if s == "" {
			if err != nil || !day.IsZero() {
				t.Fatalf("ParseDay(\"\") = %v, %v; want the zero time (no bound)", day, err)
			}
			return
		}
		if want := isCalendarDay(s); (err == nil) != want {
			t.Fatalf("ParseDay(%q) = %v, %v; a calendar day: %v", s, day, err, want)
		}
		if err != nil {
			return
		}
		if back := day.Format(time.DateOnly); back != s {
			t.Fatalf("ParseDay(%q) formats back as %q", s, back)
		}
		if day.Location() != time.UTC || day.Hour() != 0 || day.Minute() != 0 || day.Second() != 0 || day.Nanosecond() != 0 {
			t.Fatalf("ParseDay(%q) = %v, not the start of the day in UTC", s, day)
		}
	})
}
