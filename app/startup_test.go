package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTheStartUpLineNamesTheDatabaseButNeverItsPassword(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, url string
		want      []any
	}{
		{"sqlite with its file", "sqlite://data/canvass.db", []any{"database", "sqlite", "path", "data/canvass.db"}},
		{"postgres with its host and database", "postgres://canvass:s3cret@db.internal:5432/canvass?sslmode=require",
			[]any{"database", "postgres", "host", "db.internal:5432", "name", "canvass"}},
		{"postgres on a socket", "postgresql://canvass:s3cret@/canvass?host=/run/postgresql",
			[]any{"database", "postgres", "host", "/run/postgresql", "name", "canvass"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := databaseAttrs(tc.url)
			assert.Equal(t, tc.want, got)
			assert.NotContains(t, fmt.Sprint(got), "s3cret")
		})
	}
}

func TestTheStartUpLineHasThePortListenedOnAndTheMetricsAndProfilesAddresses(t *testing.T) {
	t.Parallel()
	cfg := testConfig("production")
	cfg.Addr, cfg.MetricsAddr, cfg.PprofAddr = ":0", "127.0.0.1:9090", "127.0.0.1:6060"
	assert.Equal(t, []any{"addr", ":41234", "env", "production", "database", "sqlite", "path", "data/canvass.db",
		"metrics", "127.0.0.1:9090", "pprof", "127.0.0.1:6060"}, startupAttrs(cfg, 41234))

	cfg.MetricsAddr, cfg.PprofAddr = "", ""
	assert.Equal(t, []any{"addr", ":3000", "env", "production", "database", "sqlite", "path", "data/canvass.db"},
		startupAttrs(cfg, 3000), "without metrics or profiles, none are named")
}

func TestTheDemosAddressesAreThoseOfThePortTheServerListensOn(t *testing.T) {
	t.Parallel()
	cfg := testConfig("development")
	cfg.Demo, cfg.Addr = true, ":8123"
	var out bytes.Buffer

	printDemoAddresses(&out, cfg, 8123)

	for _, want := range []string{
		"Canvass Demo       http://localhost:8123",
		"Northwind Rewards  http://northwind.localhost:8123",
		"Partner demo       http://partner.localhost:8123",
		"Console            http://console.localhost:8123",
		"Demo sign-ins: see README.md, section 'Demo accounts'",
	} {
		assert.Contains(t, out.String(), want)
	}
	assert.NotContains(t, out.String(), ":3000")
}
