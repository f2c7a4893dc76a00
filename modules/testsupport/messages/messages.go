// Package messages is test support: the embedded message files (locales/*.yaml), parsed once
// per test process. Parsing them took about a second a fixture under the race detector, and a
// module's table tests build a fixture per case; the app parses them once per process too
// (app/server.go). The Locales it returns is safe to share: its cache is locked.
package messages

import (
	"sync"
	"testing"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/web"
)

var embedded = sync.OnceValues(func() (*web.Locales, error) { return web.NewLocales(locales.FS, nil) })

// Locales is every language's messages as the app ships them.
func Locales(t testing.TB) *web.Locales {
	t.Helper()
	loc, err := embedded()
	if err != nil {
		t.Fatalf("load the message files: %v", err)
	}
	return loc
}
