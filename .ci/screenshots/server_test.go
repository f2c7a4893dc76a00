package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeServer is a server whose process is an httptest handler.
func fakeServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	log := filepath.Join(t.TempDir(), "server.log")
	require.NoError(t, os.WriteFile(log, []byte("migrated\nlistening\n"), 0o644))
	return &server{side: "base", url: ts.URL, log: log, exited: make(chan struct{})}
}

func TestWaitReady(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		layouts []string
		err     string
	}{
		{"the work tree's list", 200, `[{"module":"feed","name":"empty","who":"member","path":"/feed","panels":[{"key":"demo","languages":["en","es"],"layouts":["default","compact"]}]}]`, []string{"default", "compact"}, ""},
		{"an older list without layouts", 200, `[{"module":"feed","name":"empty","who":"member","path":"/feed","panels":[{"key":"demo","languages":["en","es"]}]}]`, nil, ""},
		{"no gallery", 404, `Not Found`, nil, "main (abc1234) has no development gallery: GET /_dev/gallery/states.json answered 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
				assert.Equal(t, "/_dev/gallery/states.json", r.URL.Path)
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			states, err := s.waitReady(context.Background(), "main (abc1234)")
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, states, 1)
			assert.Equal(t, "feed", states[0].Module)
			assert.Equal(t, []string{"en", "es"}, states[0].Panels[0].Languages)
			assert.Equal(t, tt.layouts, states[0].Panels[0].Layouts)
		})
	}
}

func TestWaitReadyGivesUpWithTheLogWhenTheServerStops(t *testing.T) {
	s := fakeServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	close(s.exited)
	_, err := s.waitReady(context.Background(), "the work tree")
	assert.ErrorContains(t, err, "the base's server (the work tree) stopped before serving the gallery")
	assert.ErrorContains(t, err, "    listening")
}

func TestWithoutEnv(t *testing.T) {
	env := []string{"PATH=/bin", "CANVASS_ENV=production", "CANVASS_SECRET=x", "MAKEFLAGS=-j2", "MAKEFLAGSX=keep"}
	assert.Equal(t, []string{"PATH=/bin", "MAKEFLAGSX=keep"}, withoutEnv(env, "CANVASS_", "MAKEFLAGS="))
}

func TestTail(t *testing.T) {
	assert.Equal(t, "    c\n    d", tail("a\nb\nc\nd\n", 2))
	assert.Equal(t, "    a", tail("a", 5))
}
