package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/testsupport/loadgen"
	"github.com/stretchr/testify/require"
)

// The ceiling run (`make bench`, CANVASS_BENCH=1) measures what a member page costs the
// server against the cheapest request a Fiber + database server can serve: the ceiling
// program (app/ceiling, one query per request) on the same database, in the same run, driven
// by the same load generator (modules/testsupport/loadgen) at 64 connections. Canvass runs as
// its own process (`canvass serve`), as in production. It measures; it asserts nothing about
// time. `make profile TARGET=feed` runs one target with the CPU and allocation profiles on.
const (
	benchConns        = 64
	benchAnswerSurvey = 8  // surveys each answering member works through
	benchQuestions    = 40 // questions per survey
)

// benchTarget is one line of the table: short is the name `make profile TARGET=` takes.
type benchTarget struct {
	short, name string
	target      func(b *benchRun) loadgen.Target
}

var benchTargets = []benchTarget{
	{"ceiling", "bare Fiber, one query", func(b *benchRun) loadgen.Target {
		return loadgen.Target{Addr: b.ceiling, Request: loadgen.Request{Path: "/db?n=41"}}
	}},
	{"login", "login page (visitor)", func(b *benchRun) loadgen.Target { return b.page("/login", "") }},
	{"balance", "balance API", func(b *benchRun) loadgen.Target { return b.page("/api/v3/user/balance", b.member) }},
	{"feed-api", "feed API (first page)", func(b *benchRun) loadgen.Target {
		t := b.page("/api/v3/campaigns/paged", b.member)
		t.Request.Method, t.Request.Body = http.MethodPost, []byte(`[]`)
		t.Request.Header["Content-Type"] = "application/json"
		return t
	}},
	{"transactions", "transactions page", func(b *benchRun) loadgen.Target { return b.page("/transactions", b.member) }},
	{"feed", "feed page", func(b *benchRun) loadgen.Target { return b.page("/feed", b.member) }},
	{"survey", "survey page (invitation)", func(b *benchRun) loadgen.Target { return b.page("/survey/"+b.invitation+"/", b.member) }},
	{"go", "survey go", func(b *benchRun) loadgen.Target {
		return b.page("/api/v1/demo/campaigns/"+b.started+"/go", b.member)
	}},
	{"answer", "answer submit", func(b *benchRun) loadgen.Target {
		return loadgen.Target{Addr: b.canvass, Each: func(w, i int) (loadgen.Request, bool) {
			if i >= benchAnswerSurvey*benchQuestions {
				return loadgen.Request{}, false
			}
			s := b.answerSurveys[i/benchQuestions]
			return loadgen.Request{Method: http.MethodPost, Host: "localhost", Body: []byte(`{"answer":"a"}`),
				Path:   "/api/v1/demo/campaigns/" + s + "/question/" + fmt.Sprintf("q%02d", i%benchQuestions+1),
				Header: map[string]string{"Pp-Token": b.answerers[w], "Content-Type": "application/json"}}, true
		}}
	}},
}

// benchRun is one database's Canvass and ceiling processes and the members signed in to them.
type benchRun struct {
	canvass, ceiling, pprof string
	member                  string // the demo member's pp-token
	invitation, started     string // a survey the member was invited to; one they started
	answerSurveys           []string
	answerers               []string // pp-tokens of the members answering
}

func (b *benchRun) page(path, token string) loadgen.Target {
	h := map[string]string{}
	if token != "" {
		h["Pp-Token"] = token
	}
	return loadgen.Target{Addr: b.canvass, Request: loadgen.Request{Path: path, Host: "localhost", Header: h}}
}

func TestCeilingRun(t *testing.T) {
	if os.Getenv("CANVASS_BENCH") != "1" {
		t.Skip("set CANVASS_BENCH=1 (make bench) to run the ceiling run")
	}
	profile := os.Getenv("CANVASS_PROFILE_TARGET")
	seconds := 5
	if s := os.Getenv("CANVASS_BENCH_SECONDS"); s != "" {
		_, err := fmt.Sscan(s, &seconds)
		require.NoError(t, err, "CANVASS_BENCH_SECONDS")
	}
	bins := t.TempDir()
	ceilingBin := os.Getenv("CANVASS_CEILING_BIN") // one yardstick for the runs of two checkouts
	for _, b := range [][2]string{{"canvass", "."}, {"ceiling", "./ceiling"}} {
		if b[0] == "ceiling" && ceilingBin != "" {
			require.NoError(t, os.Symlink(ceilingBin, filepath.Join(bins, "ceiling")))
			continue
		}
		out, err := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(bins, b[0]), b[1]).CombinedOutput()
		require.NoError(t, err, "go build %s: %s", b[1], out)
	}
	dialects := dbtest.Dialects(t)
	if profile != "" {
		dialects = dialects[len(dialects)-1:] // PostgreSQL when configured
	}
	for _, d := range dialects {
		t.Run(string(d), func(t *testing.T) {
			dbURL := "sqlite://" + filepath.Join(t.TempDir(), "bench.db")
			if d == migrations.Postgres {
				dbURL = dbtest.PostgresURL(t)
			}
			b := startBench(t, bins, dbURL, profile != "")
			var ceiling float64
			fmt.Printf("\n%s, %d connections, %d s a target\n%-26s %9s %9s %9s %9s\n", d, benchConns, seconds, "target", "req/s", "p50", "p99", "ceiling")
			for _, bt := range benchTargets {
				if profile != "" && bt.short != profile {
					continue
				}
				tg := bt.target(b)
				tg.Name = bt.name
				if bt.short != "answer" { // answers use up their surveys; the members' go calls warmed them
					loadgen.Run(tg, benchConns, time.Second)
				}
				var stopProfile func()
				if profile != "" {
					stopProfile = b.profile(t, seconds)
				}
				r := loadgen.Run(tg, benchConns, time.Duration(seconds)*time.Second)
				if stopProfile != nil {
					stopProfile()
				}
				require.Zero(t, r.Errors, "%s: %d failed requests, first: %s", bt.name, r.Errors, r.FirstError)
				share := "—"
				switch {
				case bt.short == "ceiling":
					ceiling, share = r.PerSecond(), "100%"
				case bt.short != "login" && ceiling > 0:
					share = fmt.Sprintf("%.0f%%", 100*r.PerSecond()/ceiling)
				}
				fmt.Printf("%-26s %9.0f %9s %9s %9s\n", bt.name, r.PerSecond(), ms(r.P50), ms(r.P99), share)
			}
		})
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// startBench seeds the database (the demo, a survey the member is invited to, one they have
// started, and 64 members each with 8 surveys of 40 questions started), then starts Canvass
// and the ceiling program on it and signs the members in.
func startBench(t *testing.T, bins, dbURL string, pprof bool) *benchRun {
	ctx := context.Background()
	db, err := migrations.Open(dbURL)
	require.NoError(t, err)
	require.NoError(t, migrations.Up(ctx, db, nil))
	cfg := testConfig("staging")
	app, err := NewApp(cfg, db, testLogger(t), Options{})
	require.NoError(t, err)
	require.NoError(t, LoadDemo(ctx, app))
	e := &env{t: t, app: app, db: db, cfg: cfg}
	b := &benchRun{invitation: importBudgetSurvey(t, e, benchQuestions).UUID, started: importBudgetSurvey(t, e, benchQuestions).UUID}
	for range benchAnswerSurvey {
		b.answerSurveys = append(b.answerSurveys, importBudgetSurvey(t, e, benchQuestions).UUID)
	}
	panel, err := app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)
	for w := range benchConns {
		require.NoError(t, app.Accounts.Service().EnsureMember(ctx, panel, accounts.RegisterInput{Email: fmt.Sprintf("answer%02d@demo.test", w), Password: "load-password-1", AcceptTerms: true, LanguageCode: "en"}, accounts.Metadata{"welcomeCampaignCompleted": true}))
	}
	closeDB(db)

	b.canvass, b.ceiling = freeAddr(t), freeAddr(t)
	env := append(os.Environ(), "CANVASS_ENV=staging", "CANVASS_SECRET="+cfg.Secret, "CANVASS_DATABASE_URL="+dbURL, "CANVASS_ADDR="+b.canvass, "CANVASS_DEMO=")
	if pprof {
		b.pprof = freeAddr(t)
		env = append(env, "CANVASS_PPROF_ADDR="+b.pprof)
	}
	startProcess(t, env, filepath.Join(bins, "canvass"), "serve")
	startProcess(t, nil, filepath.Join(bins, "ceiling"), "-db", dbURL, "-addr", b.ceiling)
	waitUp(t, "http://"+b.canvass+"/healthz")
	waitUp(t, "http://"+b.ceiling+"/db")

	b.member = benchLogin(t, b.canvass, DemoEmail, DemoPassword)
	for w := range benchConns {
		token := benchLogin(t, b.canvass, fmt.Sprintf("answer%02d@demo.test", w), "load-password-1")
		b.answerers = append(b.answerers, token)
		for _, s := range b.answerSurveys {
			memberGet(t, b.canvass, "/api/v1/demo/campaigns/"+s+"/go", token)
		}
	}
	memberGet(t, b.canvass, "/api/v1/demo/campaigns/"+b.started+"/go", b.member)
	return b
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// startProcess runs a program until the test ends; its output goes to the test's log on failure.
func startProcess(t *testing.T, env []string, bin string, args ...string) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	log, err := os.Create(filepath.Join(t.TempDir(), filepath.Base(bin)+".log"))
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			data, _ := os.ReadFile(log.Name())
			t.Logf("%s output (last 2 KB): %s", filepath.Base(bin), tail(string(data), 2048))
		}
		log.Close()
	})
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func waitUp(t *testing.T, target string) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(target)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		require.True(t, time.Now().Before(deadline), "%s did not answer within 30 s: %v", target, err)
		time.Sleep(100 * time.Millisecond)
	}
}

// benchLogin signs in through the login form, as a browser would, and returns the pp-token.
// Cookies are carried by hand: they belong to the panel's domain, not the loopback address.
func benchLogin(t *testing.T, addr, email, password string) string {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	base := "http://" + addr
	req, _ := http.NewRequest(http.MethodGet, base+"/login", nil)
	req.Host = "localhost"
	res, err := hc.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	cookie := func(res *http.Response, name string) string {
		for _, c := range res.Cookies() {
			if c.Name == name {
				return c.Value
			}
		}
		return ""
	}
	csrf := cookie(res, "XSRF-TOKEN")
	form := url.Values{"email": {email}, "password": {password}, "_csrf": {csrf}}
	req, _ = http.NewRequest(http.MethodPost, base+"/login", strings.NewReader(form.Encode()))
	req.Host = "localhost"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Referer", "http://localhost/login")
	for _, c := range res.Cookies() {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	res, err = hc.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusSeeOther, res.StatusCode, "sign in %s", email)
	token := cookie(res, "pp-token")
	require.NotEmpty(t, token, "sign in %s: no pp-token", email)
	return token
}

func memberGet(t *testing.T, addr, path, token string) {
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
	req.Host = "localhost"
	req.Header.Set("Pp-Token", token)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "GET %s: %s", path, body)
}

// profile records a CPU profile of Canvass for the next seconds and its allocations over the
// same time; the returned func waits for both and prints the top functions of each.
func (b *benchRun) profile(t *testing.T, seconds int) func() {
	dir := os.Getenv("CANVASS_PROFILE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	fetch := func(path, file string) {
		res, err := http.Get("http://" + b.pprof + path)
		require.NoError(t, err)
		defer res.Body.Close()
		f, err := os.Create(filepath.Join(dir, file))
		require.NoError(t, err)
		defer f.Close()
		_, err = io.Copy(f, res.Body)
		require.NoError(t, err)
	}
	fetch("/debug/pprof/allocs", "allocs-before.pprof")
	done := make(chan struct{})
	go func() {
		defer close(done)
		fetch(fmt.Sprintf("/debug/pprof/profile?seconds=%d", seconds), "cpu.pprof")
	}()
	return func() {
		<-done
		fetch("/debug/pprof/allocs", "allocs.pprof")
		for _, args := range [][]string{
			{"-top", "-nodecount=25", filepath.Join(dir, "cpu.pprof")},
			{"-top", "-cum", "-nodecount=40", filepath.Join(dir, "cpu.pprof")},
			{"-top", "-nodecount=20", "-sample_index=alloc_space", "-diff_base", filepath.Join(dir, "allocs-before.pprof"), filepath.Join(dir, "allocs.pprof")},
		} {
			out, err := exec.Command("go", append([]string{"tool", "pprof"}, args...)...).CombinedOutput()
			require.NoError(t, err, "go tool pprof: %s", out)
			fmt.Printf("\n$ go tool pprof %s\n%s", strings.Join(args, " "), out)
		}
		fmt.Printf("\nprofiles kept in %s\n", dir)
	}
}
