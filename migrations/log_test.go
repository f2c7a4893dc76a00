package migrations_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEachMigrationIsLoggedAsItFinishesWithItsNameAndDuration(t *testing.T) {
	t.Parallel()
	versions, err := migrations.Versions()
	require.NoError(t, err)
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			require.NoError(t, migrations.Up(context.Background(), dbtest.OpenEmpty(t, d), slog.New(slog.NewJSONHandler(&buf, nil))))

			type line struct {
				Time    time.Time
				Msg     string
				Version int64
				Name    string
				Kind    string
				File    string
				Took    time.Duration
			}
			var lines []line
			for _, raw := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				var l line
				require.NoError(t, json.Unmarshal([]byte(raw), &l), raw)
				lines = append(lines, l)
			}
			require.Len(t, lines, len(versions), "one line per migration")
			byVersion := map[int64]line{}
			times := map[time.Time]bool{}
			for i, l := range lines {
				assert.Equal(t, "migration applied", l.Msg)
				assert.Equal(t, versions[i], l.Version, "in order")
				assert.NotEmpty(t, l.Name, "version %d", l.Version)
				assert.NotEmpty(t, l.File, "version %d", l.Version)
				assert.Positive(t, l.Took, "version %d", l.Version)
				if i > 0 {
					assert.False(t, l.Time.Before(lines[i-1].Time), "version %d is logged after the one before", l.Version)
				}
				byVersion[l.Version] = l
				times[l.Time] = true
			}
			assert.Greater(t, len(times), 1, "each line has the time its migration finished, not one time for all")
			assert.Equal(t, line{Version: 1, Name: "foundation", Kind: "sql", File: "00001_foundation.sql"},
				line{Version: byVersion[1].Version, Name: byVersion[1].Name, Kind: byVersion[1].Kind, File: byVersion[1].File})
			for v, want := range map[int64]string{9: "ledger_records", 16: "offer_ledger", 26: "river_queue_1_to_4", 27: "river_queue_5_to_8"} {
				assert.Equal(t, want, byVersion[v].Name, "version %d", v)
				assert.Equal(t, "go", byVersion[v].Kind, "version %d", v)
			}
		})
	}
}
