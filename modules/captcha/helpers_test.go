package captcha_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/canvass/canvass/modules/captcha"
	"github.com/canvass/canvass/modules/captcha/localcaptcha"
)

const (
	testSecret  = "sekrit-0xDEADBEEF-never-in-errors"
	testSiteKey = "site-key-1234"
	panelHost   = "panel.example.com"
)

// fixture is a Verifier talking over loopback HTTP to a localcaptcha server.
type fixture struct {
	srv *localcaptcha.Server
	url string
	cfg captcha.Config
	v   *captcha.Verifier
}

// newFixture starts a localcaptcha server imitating kind and a config of that kind pointing at
// it. The server is mounted under a prefix, as the demo mounts it.
func newFixture(t *testing.T, kind captcha.Kind) *fixture {
	t.Helper()
	srv := localcaptcha.New(testSecret)
	srv.Imitate(kind)
	mux := http.NewServeMux()
	mux.Handle("/dev/captcha/", srv)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &fixture{
		srv: srv,
		url: ts.URL,
		cfg: captcha.Config{
			Kind:      kind,
			SiteKey:   testSiteKey,
			Secret:    testSecret,
			VerifyURL: ts.URL + "/dev/captcha/siteverify",
			Mode:      captcha.ModeAlways,
		},
		v: captcha.New(ts.Client()),
	}
}

// jsonServer answers every request with status and body, counting the calls.
func jsonServer(t *testing.T, status int, body string, check func(*http.Request)) (url string, calls *int) {
	t.Helper()
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if check != nil {
			check(r)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/siteverify", &n
}

// configFor is a valid config of kind aimed at url.
func configFor(kind captcha.Kind, url string) captcha.Config {
	return captcha.Config{Kind: kind, SiteKey: testSiteKey, Secret: testSecret, VerifyURL: url, Mode: captcha.ModeAlways}
}
