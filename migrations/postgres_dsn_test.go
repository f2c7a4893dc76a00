package migrations

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAPostgresURLSaysWhetherATransactionPoolerStandsInFrontAndPgxNeverSeesThatParameter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		url, dsn string
		pooled   bool
	}{
		{"postgres://u@db:5432/canvass?sslmode=disable", "postgres://u@db:5432/canvass?sslmode=disable", false},
		{"postgres://u@db/canvass?pool_mode=session&sslmode=disable", "postgres://u@db/canvass?sslmode=disable", false},
		{"postgres://u@bouncer:6432/canvass?sslmode=disable&pool_mode=transaction", "postgres://u@bouncer:6432/canvass?default_query_exec_mode=exec&sslmode=disable", true},
	} {
		dsn, pooled, err := PostgresDSN(c.url)
		require.NoError(t, err, c.url)
		assert.Equal(t, c.dsn, dsn, c.url)
		assert.Equal(t, c.pooled, pooled, c.url)
	}
	_, _, err := PostgresDSN("postgres://u@db/canvass?pool_mode=statement")
	assert.ErrorContains(t, err, "pool_mode must be session or transaction")
}
