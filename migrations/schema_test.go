package migrations_test

import (
	"context"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/require"
)

// Every module's models are checked against the migrated schema in app/schema_test.go: the
// app is what knows every module, and migrations imports none of them.

func TestMigrationsApplyOnEveryDialectAndAreIdempotent(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			db := dbtest.OpenEmpty(t, d)
			require.NoError(t, migrations.Up(context.Background(), db, nil))
			require.NoError(t, migrations.Up(context.Background(), db, nil), "a second run applies nothing and fails nothing")
		})
	}
}
