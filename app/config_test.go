package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAConfigurationValueThatCannotBeUsedIsRefusedByName(t *testing.T) {
	t.Parallel()
	base := map[string]string{"CANVASS_ENV": "development"}
	cases := []struct {
		name, key, value, want string
	}{
		{name: "an unknown environment", key: "CANVASS_ENV", value: "prod", want: "CANVASS_ENV must be production, staging or development"},
		{name: "an unknown database", key: "CANVASS_DATABASE_URL", value: "mysql://x", want: "CANVASS_DATABASE_URL must start with sqlite:// or postgres://"},
		{name: "a pool mode PgBouncer has not", key: "CANVASS_DATABASE_URL", value: "postgres://u@db/canvass?pool_mode=statement", want: "pool_mode must be session or transaction"},
		{name: "a listen URL through a transaction pooler", key: "CANVASS_DATABASE_LISTEN_URL", value: "postgres://u@pgbouncer/canvass?pool_mode=transaction", want: "CANVASS_DATABASE_LISTEN_URL must be a direct postgres:// URL"},
		{name: "a listen URL that is no PostgreSQL one", key: "CANVASS_DATABASE_LISTEN_URL", value: "sqlite://x.db", want: "CANVASS_DATABASE_LISTEN_URL must be a direct postgres:// URL"},
		{name: "a short secret", key: "CANVASS_SECRET", value: "short", want: "CANVASS_SECRET must be at least 32 characters"},
		{name: "a panel cache time that is not a duration", key: "CANVASS_PANEL_CACHE_TTL", value: "soon", want: "CANVASS_PANEL_CACHE_TTL must be a positive duration"},
		{name: "a panel cache time of zero", key: "CANVASS_PANEL_CACHE_TTL", value: "0s", want: "CANVASS_PANEL_CACHE_TTL must be a positive duration"},
		{name: "a negative panel cache time", key: "CANVASS_PANEL_CACHE_TTL", value: "-5s", want: "CANVASS_PANEL_CACHE_TTL must be a positive duration"},
		{name: "an unsubscribe mailbox that is no address", key: "CANVASS_UNSUBSCRIBE_MAILTO", value: "unsubscribe", want: "CANVASS_UNSUBSCRIBE_MAILTO must be a plain ASCII email address"},
		{name: "an unsubscribe mailbox with a display name", key: "CANVASS_UNSUBSCRIBE_MAILTO", value: "Unsubscribe <u@panel.example>", want: "CANVASS_UNSUBSCRIBE_MAILTO must be a plain ASCII email address"},
		{name: "an unsubscribe mailbox beyond ASCII", key: "CANVASS_UNSUBSCRIBE_MAILTO", value: "désabonner@panel.example", want: "CANVASS_UNSUBSCRIBE_MAILTO must be a plain ASCII email address"},
		{name: "a console host with a port", key: "CANVASS_CONSOLE_HOST", value: "console.example.com:8443", want: "CANVASS_CONSOLE_HOST must be a host name without port"},
		{name: "a console host that is a URL", key: "CANVASS_CONSOLE_HOST", value: "https://console.example.com", want: "CANVASS_CONSOLE_HOST must be a host name without port"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadConfig(func(k string) string {
				if k == tc.key {
					return tc.value
				}
				return base[k]
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestThePanelCacheTimeDefaultsToAMinuteAndTakesAnyPositiveDuration(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]time.Duration{"": time.Minute, "5s": 5 * time.Second, "2m30s": 150 * time.Second} {
		cfg, err := LoadConfig(func(k string) string {
			switch k {
			case "CANVASS_ENV":
				return "development"
			case "CANVASS_PANEL_CACHE_TTL":
				return value
			}
			return ""
		})
		require.NoError(t, err, value)
		assert.Equal(t, want, cfg.PanelCacheTTL, value)
	}
}

func TestUploadsGoUnderDataUnlessConfiguredAndTheUnsubscribeMailboxIsOptional(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(func(k string) string {
		if k == "CANVASS_ENV" {
			return "development"
		}
		return ""
	})
	require.NoError(t, err)
	assert.Equal(t, "data/uploads", cfg.UploadsDir)
	assert.Empty(t, cfg.UnsubscribeMailto)
	cfg, err = LoadConfig(func(k string) string {
		switch k {
		case "CANVASS_ENV":
			return "development"
		case "CANVASS_UPLOADS_DIR":
			return "/srv/canvass/uploads"
		case "CANVASS_UNSUBSCRIBE_MAILTO":
			return "unsubscribe@panel.example"
		}
		return ""
	})
	require.NoError(t, err)
	assert.Equal(t, "/srv/canvass/uploads", cfg.UploadsDir)
	assert.Equal(t, "unsubscribe@panel.example", cfg.UnsubscribeMailto)
}

func TestTheConsoleHostDefaultsToConsoleLocalhostAndIsComparedInLowerCase(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]string{"": "console.localhost", "Console.Example.COM": "console.example.com", "ops.panel.example": "ops.panel.example"} {
		cfg, err := LoadConfig(func(k string) string {
			switch k {
			case "CANVASS_ENV":
				return "development"
			case "CANVASS_CONSOLE_HOST":
				return value
			}
			return ""
		})
		require.NoError(t, err, value)
		assert.Equal(t, want, cfg.ConsoleHost, value)
	}
}
