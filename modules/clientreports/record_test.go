package clientreports

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// fixture is a database with two panels and the module's store over it.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	db    *gorm.DB
	store *Store
	acme  *web.Panel
	other *web.Panel
	clock time.Time
}

func eachFixture(t *testing.T, fn func(t *testing.T, f *fixture)) {
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := &fixture{t: t, ctx: context.Background(), db: db, store: NewStore(db), clock: time.Date(2026, 11, 22, 12, 10, 0, 0, time.UTC)}
		f.acme = seed.Panel(t, db, "acme", "USD", "en")
		f.other = seed.Panel(t, db, "globex", "GBP", "en")
		fn(t, f)
	})
}

func typeError(message string) Payload {
	return Payload{Level: "error", Href: "http://acme.test/feed", Name: "TypeError", Message: message, Source: "http://acme.test/static/dist/a.js", Lineno: 3, Colno: 7}
}

// report records p on panel as member (nil: a visitor) at the fixture's clock.
func (f *fixture) report(panel *web.Panel, p Payload, member *string) Recorded {
	f.t.Helper()
	rec, err := f.store.Record(f.ctx, Occurrence{PanelID: panel.ID, Payload: p, At: f.clock,
		Sample: Report{ParticipantID: member, RequestID: "req-" + f.clock.Format("150405.000"), UserAgent: "Chromium", AppName: "web", AppLang: "en",
			ViewportWidth: 412, ViewportHeight: 915, DPR: 2.63, NativeApp: ""}})
	require.NoError(f.t, err)
	return rec
}

func (f *fixture) rows(table string) int64 {
	var n int64
	require.NoError(f.t, f.db.Table(table).Count(&n).Error)
	return n
}

func TestAnIdenticalReportIsCountedRatherThanStoredAgain(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		first := f.report(f.acme, typeError("x is undefined"), nil)
		again := typeError("x is undefined")
		again.Href = "http://acme.test/offers" // the same error on another page
		second := f.report(f.acme, again, nil)

		assert.Equal(t, first.ErrorID, second.ErrorID)
		assert.Equal(t, []int64{1, 2}, []int64{first.Count, second.Count})
		assert.Equal(t, int64(1), f.rows("client_errors"))
		assert.Equal(t, int64(1), f.rows("client_error_hours"))

		// Another error, and the same error on another panel, are errors of their own.
		assert.NotEqual(t, first.ErrorID, f.report(f.acme, typeError("y is undefined"), nil).ErrorID)
		assert.NotEqual(t, first.ErrorID, f.report(f.other, typeError("x is undefined"), nil).ErrorID)
		assert.Equal(t, int64(3), f.rows("client_errors"))

		var e Error
		require.NoError(t, f.db.First(&e, "id = ?", first.ErrorID).Error)
		assert.Equal(t, int64(2), e.Count)
		assert.Equal(t, "http://acme.test/static/dist/a.js", e.Source)
		assert.Equal(t, f.clock, e.FirstSeenAt.UTC())
	})
}

func TestOnlyTheFirstFewReportsOfAnErrorInAnHourAreKeptInFull(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		member := seed.Member(t, f.db, f.acme, "en", nil, f.clock)
		var sampled []bool
		for range SamplesPerHour + 3 {
			sampled = append(sampled, f.report(f.acme, typeError("loop"), &member).Sampled)
			f.clock = f.clock.Add(time.Second)
		}
		for i, s := range sampled {
			assert.Equal(t, i < SamplesPerHour, s, "report %d", i+1)
		}
		assert.Equal(t, int64(SamplesPerHour), f.rows("client_reports"))

		// The next hour keeps samples again; the count never stopped.
		f.clock = f.clock.Add(time.Hour)
		next := f.report(f.acme, typeError("loop"), &member)
		assert.True(t, next.Sampled)
		assert.Equal(t, int64(SamplesPerHour+4), next.Count)
		assert.Equal(t, int64(2), f.rows("client_error_hours"))

		list, err := f.store.Recent(f.ctx, f.acme.ID, 100)
		require.NoError(t, err)
		require.Len(t, list, SamplesPerHour+1)
		got := list[0]
		assert.Equal(t, &member, got.ParticipantID)
		assert.Equal(t, []any{"loop", "TypeError", "web", "en", 412, 915, 2.63, int64(SamplesPerHour + 4)},
			[]any{got.Message, got.Name, got.AppName, got.AppLang, got.ViewportWidth, got.ViewportHeight, got.DPR, got.Count})
		assert.True(t, list[0].CreatedAt.After(list[1].CreatedAt), "newest first")
	})
}

func TestTopListsAPanelsErrorsByTheirReportsInTheWindow(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		start := f.clock
		// Two days ago: "old" came 10 times. Today: "busy" 4 times, "rare" once, "old" twice.
		f.clock = start.Add(-48 * time.Hour)
		for range 10 {
			f.report(f.acme, typeError("old"), nil)
		}
		f.clock = start
		for range 4 {
			f.report(f.acme, typeError("busy"), nil)
		}
		f.report(f.acme, typeError("rare"), nil)
		f.clock = start.Add(30 * time.Minute)
		f.report(f.acme, typeError("old"), nil)
		f.report(f.acme, typeError("old"), nil)
		for range 7 {
			f.report(f.other, typeError("elsewhere"), nil)
		}

		summary := func(list []TopError) []string {
			var out []string
			for _, e := range list {
				out = append(out, fmt.Sprintf("%s %d/%d", e.Message, e.InWindow, e.Count))
			}
			return out
		}
		day, err := f.store.Top(f.ctx, f.acme.ID, start.Add(-24*time.Hour), 10)
		require.NoError(t, err)
		assert.Equal(t, []string{"busy 4/4", "old 2/12", "rare 1/1"}, summary(day))

		week, err := f.store.Top(f.ctx, f.acme.ID, start.Add(-7*24*time.Hour), 2)
		require.NoError(t, err)
		assert.Equal(t, []string{"old 12/12", "busy 4/4"}, summary(week))

		all, err := f.store.Top(f.ctx, "", start.Add(-24*time.Hour), 10)
		require.NoError(t, err)
		assert.Equal(t, []string{"elsewhere 7/7", "busy 4/4", "old 2/12", "rare 1/1"}, summary(all))
	})
}

func TestClosingAnAccountErasesItsReportsButKeepsTheCounts(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		closing := seed.Member(t, f.db, f.acme, "en", nil, f.clock)
		staying := seed.Member(t, f.db, f.acme, "en", nil, f.clock)
		f.report(f.acme, typeError("x"), &closing)
		f.report(f.acme, typeError("x"), &staying)
		f.report(f.acme, typeError("x"), nil)

		m := New(Deps{DB: f.db})
		require.NoError(t, f.db.Transaction(func(tx *gorm.DB) error { return m.EraseMember(f.ctx, tx, closing) }))

		list, err := f.store.Recent(f.ctx, f.acme.ID, 10)
		require.NoError(t, err)
		require.Len(t, list, 2)
		for _, r := range list {
			assert.NotEqual(t, &closing, r.ParticipantID)
		}
		assert.Equal(t, int64(3), list[0].Count)
	})
}
