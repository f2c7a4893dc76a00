package tenancy

import (
	"context"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func applyPanel(t *testing.T, store *Store, key, host string, langs ...string) string {
	t.Helper()
	id, err := store.Apply(context.Background(), validSpec(key, []string{host}, langs...))
	require.NoError(t, err)
	return id
}

func TestMissingTranslationsAddUpPerPanelLanguageAndKey(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		acme := applyPanel(t, store, "acme", "acme.example.com", "en", "es")
		beta := applyPanel(t, store, "beta", "beta.example.com", "en", "es")
		t0 := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)

		require.NoError(t, store.RecordMissing(ctx, []MissingSighting{
			{PanelID: acme, Lang: "es", Key: "feed.title", Fallback: "Your feed", Source: SourceClient, Count: 1, First: t0, Last: t0},
			{PanelID: beta, Lang: "es", Key: "feed.title", Source: SourceServer, Count: 4, First: t0, Last: t0},
			{PanelID: acme, Lang: "en", Key: "feed.title", Source: SourceServer, Count: 1, First: t0, Last: t0},
		}))
		// Later sightings add to the count, move last seen on and keep the first; an empty
		// fallback (the server's) keeps the client's text.
		require.NoError(t, store.RecordMissing(ctx, []MissingSighting{
			{PanelID: acme, Lang: "es", Key: "feed.title", Source: SourceServer, Count: 2, First: t0.Add(time.Hour), Last: t0.Add(2 * time.Hour)},
		}))

		rows, err := store.ListMissing(ctx, MissingFilter{PanelKey: "acme", Lang: "es"})
		require.NoError(t, err)
		require.Len(t, rows, 1)
		got := rows[0]
		assert.Equal(t, "acme", got.PanelKey)
		assert.Equal(t, "feed.title", got.MessageKey)
		assert.Equal(t, int64(3), got.SeenCount)
		assert.Equal(t, "Your feed", got.Fallback)
		assert.Equal(t, SourceServer, got.Source)
		assert.True(t, got.FirstSeenAt.Equal(t0), "first seen %v", got.FirstSeenAt)
		assert.True(t, got.LastSeenAt.Equal(t0.Add(2*time.Hour)), "last seen %v", got.LastSeenAt)

		cases := []struct {
			name   string
			filter MissingFilter
			want   []string // panel/lang/count, in the list's order
		}{
			{"every panel and language", MissingFilter{}, []string{"acme/en/1", "beta/es/4", "acme/es/3"}},
			{"one language", MissingFilter{Lang: "es"}, []string{"beta/es/4", "acme/es/3"}},
			{"one panel", MissingFilter{PanelKey: "beta"}, []string{"beta/es/4"}},
			{"a panel with none", MissingFilter{PanelKey: "nobody"}, nil},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				rows, err := store.ListMissing(ctx, tc.filter)
				require.NoError(t, err)
				var got []string
				for _, r := range rows {
					got = append(got, r.PanelKey+"/"+r.LanguageCode+"/"+strconv.FormatInt(r.SeenCount, 10))
				}
				assert.Equal(t, tc.want, got)
			})
		}
	})
}

func TestPagesThatMissAKeyAreCountedInMemoryAndWrittenInOneBatch(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		acme := applyPanel(t, store, "acme", "acme.example.com", "en", "es")
		r := newMissingRecorder(store, slog.Default(), time.Hour) // no write in the background here

		for range 250 {
			r.note(acme, "es", "nav.feed")
		}
		r.note(acme, "es", "nav.logout")
		assert.Equal(t, int64(0), count(t, db, &MissingTranslation{}, "1 = 1"), "nothing is written per page")

		require.NoError(t, r.Flush(ctx))
		rows, err := store.ListMissing(ctx, MissingFilter{})
		require.NoError(t, err)
		require.Len(t, rows, 2)
		assert.Equal(t, "nav.feed", rows[0].MessageKey)
		assert.Equal(t, int64(250), rows[0].SeenCount)
		assert.Equal(t, SourceServer, rows[0].Source)
		assert.Equal(t, int64(1), rows[1].SeenCount)

		require.NoError(t, r.Flush(ctx), "an empty flush writes nothing")
		r.note(acme, "es", "nav.feed")
		require.NoError(t, r.Flush(ctx))
		rows, err = store.ListMissing(ctx, MissingFilter{Lang: "es"})
		require.NoError(t, err)
		assert.Equal(t, int64(251), rows[0].SeenCount, "a later batch adds to the row")
	})
}

func TestAWriteIsStartedWhenTheLastIsOldEnough(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		store := NewStore(db)
		acme := applyPanel(t, store, "acme", "acme.example.com", "en", "es")
		r := newMissingRecorder(store, slog.Default(), time.Minute)
		now := time.Now()
		r.now = func() time.Time { return now }
		r.lastFlush = now

		r.note(acme, "es", "nav.feed")
		now = now.Add(time.Minute)
		r.note(acme, "es", "nav.feed") // due: written in the background
		assert.Eventually(t, func() bool {
			var rows []MissingTranslation
			require.NoError(t, db.Find(&rows).Error)
			return len(rows) == 1 && rows[0].SeenCount == 2
		}, 5*time.Second, 20*time.Millisecond)
	})
}

func TestSightingsAFailedWriteHeldAreKeptForTheNext(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		acme := applyPanel(t, store, "acme", "acme.example.com", "en", "es")
		r := newMissingRecorder(store, slog.Default(), time.Hour)
		r.note(acme, "es", "nav.feed")
		r.note("no-such-panel", "es", "nav.feed") // refused by the panel's foreign key: the batch fails

		err := r.Flush(ctx)
		require.Error(t, err)
		assert.Equal(t, int64(0), count(t, db, &MissingTranslation{}, "1 = 1"), "all or none")
		assert.Len(t, r.pending, 2, "both sightings wait for the next write")
	})
}
