package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/testsupport/contract"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// env is a whole Canvass over a fresh database with the demo data and a loopback SMTP server.
type env struct {
	t    testing.TB
	app  *App
	db   *gorm.DB
	smtp *mailertest.Server
	cfg  Config
}

func testConfig(env string) Config {
	cfg, err := LoadConfig(func(k string) string {
		switch k {
		case "CANVASS_ENV":
			return env
		case "CANVASS_SECRET":
			return "test-secret-test-secret-test-secret-0123"
		}
		return ""
	})
	if err != nil {
		panic(err)
	}
	return cfg
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("CANVASS_TEST_LOG") == "1" {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func newEnv(t testing.TB, d migrations.Dialect) *env {
	t.Helper()
	return newEnvWith(t, d, testConfig("development"))
}

func newEnvWith(t testing.TB, d migrations.Dialect, cfg Config) *env {
	t.Helper()
	if cfg.UploadsDir == testConfig("development").UploadsDir {
		cfg.UploadsDir = t.TempDir() // a test's pictures never land in the source tree
	}
	db := demoDB(t, d, cfg)
	smtp := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
	require.NoError(t, err)
	if cfg.JobPoll == testConfig("development").JobPoll {
		// A queued mail reaches the test's SMTP server within a tenth of a second (at once on
		// PostgreSQL, whose workers hear of a new job). Faster polling cost every idle test
		// app CPU while others ran beside it: 25 ms took twice the CPU of 250 ms.
		cfg.JobPoll = 100 * time.Millisecond
	}
	app, err := NewApp(cfg, db, testLogger(t), Options{Mail: sender, WorkJobs: true})
	require.NoError(t, err)
	startJobs(t, app)
	return &env{t: t, app: app, db: db, smtp: smtp, cfg: cfg}
}

// demoDB is a fresh database of the dialect holding the demo (LoadDemo's panels, campaigns,
// members, operators), as an app with cfg loads it. Loading it took about 2 s a test under the
// race detector, so it is loaded once per config and copied (dbtest.OpenSeeded); the copy is
// at most demoMaxAge older than the test, the same rows LoadDemo would write now but for
// their clocks.
func demoDB(t testing.TB, d migrations.Dialect, cfg Config) *gorm.DB {
	t.Helper()
	keyed := cfg
	keyed.UploadsDir = "" // the test's own folder; the demo writes no file there
	return dbtest.OpenSeeded(t, d, fmt.Sprintf("%#v", keyed), demoMaxAge, func(db *gorm.DB) error {
		app, err := NewApp(cfg, db, slog.New(slog.NewTextHandler(io.Discard, nil)), Options{})
		if err != nil {
			return err
		}
		return LoadDemo(context.Background(), app)
	})
}

const demoMaxAge = 5 * time.Minute

// startJobs works the app's background jobs (the mail) until the test ends.
func startJobs(t testing.TB, app *App) {
	t.Helper()
	require.NoError(t, app.Jobs.Start(context.Background()))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = app.Jobs.Stop(ctx)
	})
}

// eachDialect runs fn on SQLite and, when configured, PostgreSQL, side by side: each its own
// database and app. A parallel subtest starts only once its parent's function has returned,
// so a test that compares what the dialects saw does so in a t.Cleanup of the parent.
func eachDialect(t *testing.T, fn func(t *testing.T, e *env)) {
	eachDialectWith(t, testConfig("development"), fn)
}

// eachDialectWith is eachDialect with a config of the test's own.
func eachDialectWith(t *testing.T, cfg Config, fn func(t *testing.T, e *env)) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, newEnvWith(t, d, cfg))
		})
	}
}

// withoutJobWorkers is the test config of an app that queues jobs but works none: the tests
// that count every table's rows, or the database round trips, around a request see only what
// the request did (a worker polling for jobs, or sending earlier requests' mail, would add its
// own at any moment).
func withoutJobWorkers() Config {
	cfg := testConfig("development")
	cfg.JobWorkers = 0
	return cfg
}

// client is a browser-like HTTP client over app.Test: it keeps cookies per host and never
// follows redirects, so tests see each hop.
type client struct {
	e    *env
	host string
	jar  *cookiejar.Jar
	// header is sent with every request (Accept-Language, pp-token, ...).
	header http.Header
}

func (e *env) client(host string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, host: host, jar: jar, header: http.Header{}}
}

type response struct {
	*http.Response
	Body string
}

func (c *client) do(method, target string, body io.Reader, header http.Header) *response {
	c.e.t.Helper()
	var sent []byte
	if body != nil {
		var err error
		sent, err = io.ReadAll(body)
		require.NoError(c.e.t, err)
		body = bytes.NewReader(sent)
	}
	req, err := http.NewRequest(method, "http://"+c.host+target, body)
	require.NoError(c.e.t, err)
	for k, v := range c.header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header[k] = v
	}
	u := &url.URL{Scheme: "http", Host: c.host, Path: "/"}
	for _, ck := range c.jar.Cookies(u) {
		req.AddCookie(ck)
	}
	// The bound guards against a hang, not slowness: requests sent together (limits_at_once_test)
	// queue on SQLite's one writer, under the race detector, beside other packages' tests.
	res, err := c.e.app.Fiber.Test(req, fiber.TestConfig{Timeout: 90 * time.Second})
	require.NoError(c.e.t, err)
	data, err := io.ReadAll(res.Body)
	require.NoError(c.e.t, err)
	res.Body.Close()
	c.jar.SetCookies(u, res.Cookies())
	contract.Check(c.e.t, req, sent, res, data)
	return &response{Response: res, Body: string(data)}
}

func (c *client) get(target string) *response { return c.do(http.MethodGet, target, nil, nil) }

// postForm sends a form with the CSRF token taken from the cookie jar, as a page's form would.
func (c *client) postForm(target string, form url.Values) *response {
	if form.Get("_csrf") == "" {
		form.Set("_csrf", c.cookie("XSRF-TOKEN"))
	}
	return c.do(http.MethodPost, target, strings.NewReader(form.Encode()), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

func (c *client) postJSON(target, body string) *response {
	return c.do(http.MethodPost, target, strings.NewReader(body), http.Header{"Content-Type": {"application/json"}})
}

func (c *client) cookie(name string) string {
	for _, ck := range c.jar.Cookies(&url.URL{Scheme: "http", Host: c.host, Path: "/"}) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// login signs the client in through the login form and returns where it was sent.
func (c *client) login(email, password string) *response {
	c.e.t.Helper()
	c.get("/login")
	return c.postForm("/login", url.Values{"email": {email}, "password": {password}})
}

var titleRE = regexp.MustCompile(`<title>([^<]*)</title>`)

func title(body string) string {
	m := titleRE.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return htmlUnescape(m[1])
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#39;", "'", "&quot;", `"`, "&lt;", "<", "&gt;", ">").Replace(s)
}
