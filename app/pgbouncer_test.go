package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pgbouncerBinary is Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it).
const pgbouncerBinary = "/usr/sbin/pgbouncer"

// startPgBouncer runs PgBouncer in transaction mode in front of the test cluster until the
// test ends and returns its address. Without PgBouncer the test is skipped, unless
// CANVASS_REQUIRE_PGBOUNCER=1 (CI) makes that a failure.
func startPgBouncer(t *testing.T, direct string) string {
	t.Helper()
	if _, err := os.Stat(pgbouncerBinary); err != nil {
		if os.Getenv("CANVASS_REQUIRE_PGBOUNCER") == "1" {
			t.Fatalf("PgBouncer is required (CANVASS_REQUIRE_PGBOUNCER=1) and missing: %v", err)
		}
		t.Skipf("PgBouncer is not installed (%s): apt-get install pgbouncer", pgbouncerBinary)
	}
	server, err := neturlHostPort(direct)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()

	// PgBouncer runs as postgres when started as root: its folder is readable by others (a
	// test's own folder is not), and it logs to its standard error.
	dir, err := os.MkdirTemp("", "pgbouncer-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
admin_users = postgres
pool_mode = transaction
max_client_conn = 400
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,search_path,options
`, server[0], server[1], port, filepath.Join(dir, "users.txt"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "users.txt"), []byte(`"postgres" ""`+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pgbouncer.ini"), []byte(ini), 0o644))
	args := []string{filepath.Join(dir, "pgbouncer.ini")}
	if os.Geteuid() == 0 {
		args = append([]string{"-u", "postgres"}, args...) // it will not run as root
	}
	cmd := exec.Command(pgbouncerBinary, args...)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 10*time.Second, 50*time.Millisecond, "PgBouncer listens: %s", out)
	return addr
}

// neturlHostPort is the host and port of a postgres:// URL.
func neturlHostPort(raw string) ([2]string, error) {
	dsn, _, err := migrations.PostgresDSN(raw)
	if err != nil {
		return [2]string{}, err
	}
	rest := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(dsn, "postgresql://"), "postgres://"), "@", 2)
	hostPort := strings.SplitN(rest[len(rest)-1], "/", 2)[0]
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return [2]string{hostPort, "5432"}, nil
	}
	return [2]string{host, port}, nil
}

// withHost is a postgres:// URL with another host and port and extra query parameters.
func withHost(raw, addr, extra string) string {
	at := strings.Index(raw, "@")
	slash := strings.Index(raw[at:], "/")
	out := raw[:at+1] + addr + raw[at+slash:]
	if extra != "" {
		if strings.Contains(out, "?") {
			out += "&" + extra
		} else {
			out += "?" + extra
		}
	}
	return out
}

// TestBehindPgBouncerInTransactionModeMembersAnswerAndArePaidAndTheJobQueueWorks runs Canvass
// on PostgreSQL through PgBouncer with pool_mode = transaction (each transaction may run on
// another server connection): members sign in, read their feed, complete a campaign and are
// paid once, many at once, and the job queue (inserting and working jobs through PgBouncer,
// LISTENing on the direct URL) delivers a mail; PgBouncer counts the transactions it carried.
func TestBehindPgBouncerInTransactionModeMembersAnswerAndArePaidAndTheJobQueueWorks(t *testing.T) {
	t.Parallel()
	if os.Getenv("CANVASS_TEST_POSTGRES_URL") == "" {
		if os.Getenv("CANVASS_REQUIRE_POSTGRES") == "1" {
			t.Fatal("CANVASS_TEST_POSTGRES_URL is not set")
		}
		t.Skip("PostgreSQL is not configured (CANVASS_TEST_POSTGRES_URL)")
	}
	cfg := testConfig("development")
	seeded := demoDB(t, migrations.Postgres, cfg) // a fresh database holding the demo, direct
	var name string
	require.NoError(t, seeded.Raw("SELECT current_database()").Scan(&name).Error)
	direct := os.Getenv("CANVASS_TEST_POSTGRES_URL")
	direct = direct[:strings.LastIndex(strings.SplitN(direct, "?", 2)[0], "/")+1] + name + queryOf(direct)
	bouncer := startPgBouncer(t, direct)

	cfg.DatabaseURL = withHost(direct, bouncer, migrations.PoolModeParam+"=transaction")
	cfg.DatabaseListenURL = direct
	cfg.UploadsDir = t.TempDir()
	cfg.JobPoll = 100 * time.Millisecond
	require.NoError(t, cfg.Validate())
	db, err := migrations.Open(cfg.DatabaseURL)
	require.NoError(t, err)
	t.Cleanup(func() { closeDB(db) })
	require.NoError(t, migrations.Up(context.Background(), db, testLogger(t)), "migrations run through PgBouncer")
	smtp := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: smtp.URL(), From: "no-reply@canvass.test"}, nil)
	require.NoError(t, err)
	app, err := NewApp(cfg, db, testLogger(t), Options{Mail: sender, WorkJobs: true})
	require.NoError(t, err)
	startJobs(t, app)
	e := &env{t: t, app: app, db: db, smtp: smtp, cfg: cfg}

	// The demo member completes the Quick poll and is paid once.
	m := e.member()
	before := e.balanceOf(m)
	poll := e.campaignID("demo", "Quick poll")
	api := "/api/v1/demo/campaigns/" + poll
	require.Equal(t, http.StatusOK, m.get("/feed").StatusCode)
	require.Equal(t, http.StatusOK, m.get(api+"/go").StatusCode)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/morning_drink", `{"answer":"tea"}`).StatusCode)
	assert.NotEqual(t, before, e.balanceOf(m), "paid")
	paid := e.balanceOf(m)
	require.Equal(t, http.StatusOK, m.postJSON(api+"/question/morning_drink", `{"answer":"tea"}`).StatusCode)
	assert.Equal(t, paid, e.balanceOf(m), "once")

	// Many at once: every request is transactions on whichever server connection is free.
	token := m.cookie("pp-token")
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := e.client("localhost")
			c.header.Set("Pp-Token", token)
			for range 5 {
				assert.Equal(t, http.StatusOK, c.get("/feed").StatusCode)
				assert.Equal(t, http.StatusOK, c.get("/api/v3/user/profile").StatusCode)
			}
		}()
	}
	wg.Wait()

	// The job queue: a reset mail asked for through PgBouncer arrives.
	require.Equal(t, http.StatusOK, e.client("localhost").postJSON("/ah/api/v2/user/forgot-password", `{"email":"`+DemoEmail+`"}`).StatusCode)
	smtp.WaitFor(t, DemoEmail, 15*time.Second)

	// PgBouncer carried it all: its admin console shows the app's connections to the database
	// as its clients, served by its own server connections.
	admin, err := pgx.Connect(context.Background(), withHost(strings.Replace(direct, "/"+name, "/pgbouncer", 1), bouncer, "default_query_exec_mode=simple_protocol"))
	require.NoError(t, err)
	defer admin.Close(context.Background())
	rows, err := admin.Query(context.Background(), "SHOW POOLS")
	require.NoError(t, err)
	records, err := pgx.CollectRows(rows, pgx.RowToMap)
	require.NoError(t, err)
	count := func(r map[string]any, col string) int {
		var n int
		fmt.Sscan(fmt.Sprint(r[col]), &n)
		return n
	}
	clients, servers := 0, 0
	for _, r := range records {
		if r["database"] == name {
			clients += count(r, "cl_active") + count(r, "cl_waiting")
			servers += count(r, "sv_active") + count(r, "sv_idle") + count(r, "sv_used")
		}
	}
	assert.Positive(t, clients, "the app's connections are PgBouncer's clients: %v", records)
	assert.Positive(t, servers, "served by PgBouncer's own connections: %v", records)
}

// queryOf is a URL's query string with its "?" ("" for none).
func queryOf(raw string) string {
	if i := strings.Index(raw, "?"); i >= 0 {
		return raw[i:]
	}
	return ""
}
