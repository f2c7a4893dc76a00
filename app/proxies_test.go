package main

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheClientAddressComesFromXForwardedForOnlyThroughATrustedProxy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, migrations.SQLite)
	for _, tc := range []struct {
		name      string
		proxies   string
		forwarded string
		wantIP    string
	}{
		{"a trusted proxy's address gives the forwarded client", "127.0.0.1", "203.0.113.7", "203.0.113.7"},
		{"a proxy inside a trusted range gives the forwarded client", "10.0.0.0/8, 127.0.0.0/8", "203.0.113.8", "203.0.113.8"},
		{"the first address of a forwarded list is the client", "127.0.0.1", "203.0.113.9, 10.1.2.3", "203.0.113.9"},
		{"a forged header from an untrusted address is ignored", "10.0.0.0/8", "203.0.113.10", "127.0.0.1"},
		{"with no trusted proxies the header is ignored", "", "203.0.113.11", "127.0.0.1"},
		{"a header that names no address falls back to the peer", "127.0.0.1", "not-an-address", "127.0.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfig(func(k string) string {
				switch k {
				case "CANVASS_ENV":
					return "development"
				case "CANVASS_SECRET":
					return "test-secret-test-secret-test-secret-0123"
				case "CANVASS_TRUSTED_PROXIES":
					return tc.proxies
				}
				return ""
			})
			require.NoError(t, err)
			cfg.UploadsDir = t.TempDir()
			app, err := NewApp(cfg, e.db, testLogger(t), Options{})
			require.NoError(t, err)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			require.NoError(t, err)
			go func() { _ = app.Fiber.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
			t.Cleanup(func() { _ = app.Fiber.Shutdown() })
			require.NoError(t, e.db.Exec(`DELETE FROM rate_limits WHERE key LIKE 'login:%'`).Error)

			// A failed login counts against the client's address: the key shows which it was.
			req, err := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/ah/api/v2/user/login",
				strings.NewReader(`{"email":"member@demo.test","password":"not-the-password"}`))
			require.NoError(t, err)
			req.Host = "localhost"
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", tc.forwarded)
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			require.Equal(t, http.StatusUnauthorized, res.StatusCode)
			var keys []string
			require.NoError(t, e.db.Raw(`SELECT key FROM rate_limits WHERE key LIKE 'login:ip:%'`).Scan(&keys).Error)
			assert.Equal(t, []string{"login:ip:" + tc.wantIP}, keys)
		})
	}
}
