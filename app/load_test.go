package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/require"
)

// TestLoadRun drives the real server over loopback with concurrent clients and reports latency
// percentiles. It measures; it asserts nothing about time. `make bench` runs it (CANVASS_LOAD=1).
func TestLoadRun(t *testing.T) {
	if os.Getenv("CANVASS_LOAD") != "1" {
		t.Skip("set CANVASS_LOAD=1 (make bench) to run the load run")
	}
	e := newEnv(t, "sqlite")
	if url := os.Getenv("CANVASS_TEST_POSTGRES_URL"); url != "" {
		e = newEnv(t, "postgres")
	}
	base := listenLoopback(t, e)

	login := e.client("localhost")
	login.login(DemoEmail, DemoPassword)
	header := http.Header{"Pp-Token": {login.cookie("pp-token")}}

	const workers, perWorker = 64, 50
	for _, target := range []loadTarget{
		{name: "login page", path: "/login", header: header},
		{name: "feed page (signed in)", path: "/feed", header: header},
		{name: "profile API", path: "/api/v3/user/profile", header: header},
	} {
		drive(t, base, target, workers, perWorker)
	}
}

// listenLoopback starts the env's app on a loopback port until the test ends and returns its base URL.
func listenLoopback(t *testing.T, e *env) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = e.app.Fiber.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
	t.Cleanup(func() { _ = e.app.Fiber.Shutdown() })
	return fmt.Sprintf("http://%s", ln.Addr())
}

// loadTarget is one request a load run repeats: GET unless method says otherwise, always for
// the host localhost (Canvass Demo).
type loadTarget struct {
	name   string
	method string
	path   string
	body   string
	header http.Header
	// each, when set, makes request i of worker w (answers move on from question to question).
	each func(w, i int) loadTarget
}

// drive sends workers×perWorker requests to the target over workers concurrent connections
// and logs the throughput and latency percentiles. It measures; it asserts nothing about time.
func drive(t *testing.T, base string, target loadTarget, workers, perWorker int) {
	t.Helper()
	latencies, elapsed := hammer(t, base, target, workers, perWorker)
	if len(latencies) == 0 {
		t.Errorf("%s: no request succeeded", target.name)
		return
	}
	pct := func(p float64) time.Duration { return latencies[int(float64(len(latencies)-1)*p)] }
	t.Logf("%-24s %d requests, %d connections: %.0f req/s, p50 %v, p99 %v, max %v",
		target.name, len(latencies), workers, float64(len(latencies))/elapsed.Seconds(),
		pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
}

// hammer runs the requests of drive and returns their latencies, sorted, and the wall time.
// Any status but 200 is an error.
func hammer(t *testing.T, base string, target loadTarget, workers, perWorker int) ([]time.Duration, time.Duration) {
	t.Helper()
	method := target.method
	if method == "" {
		method = http.MethodGet
	}
	latencies := make([]time.Duration, 0, workers*perWorker)
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				tg := target
				if target.each != nil {
					tg = target.each(w, i)
				}
				var body io.Reader
				if tg.body != "" {
					body = strings.NewReader(tg.body)
				}
				req, _ := http.NewRequest(method, base+tg.path, body)
				req.Host = "localhost"
				for k, v := range tg.header {
					req.Header[k] = v
				}
				t0 := time.Now()
				res, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				d := time.Since(t0)
				if res.StatusCode != http.StatusOK {
					t.Errorf("%s %s: status %d", method, target.path, res.StatusCode)
					return
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	return latencies, elapsed
}
