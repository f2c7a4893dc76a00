package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = e.app.Fiber.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
	t.Cleanup(func() { _ = e.app.Fiber.Shutdown() })
	base := fmt.Sprintf("http://%s", ln.Addr())

	login := e.client("localhost")
	login.login(DemoEmail, DemoPassword)
	token := login.cookie("pp-token")

	const workers, perWorker = 64, 50
	for _, target := range []struct{ name, path string }{
		{"login page", "/login"},
		{"feed page (signed in)", "/feed"},
		{"profile API", "/api/v3/user/profile"},
	} {
		latencies := make([]time.Duration, 0, workers*perWorker)
		var mu sync.Mutex
		var wg sync.WaitGroup
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}, Timeout: 30 * time.Second}
		start := time.Now()
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < perWorker; i++ {
					req, _ := http.NewRequest(http.MethodGet, base+target.path, nil)
					req.Host = "localhost"
					req.Header.Set("pp-token", token)
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
						t.Errorf("%s: status %d", target.path, res.StatusCode)
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
		pct := func(p float64) time.Duration { return latencies[int(float64(len(latencies)-1)*p)] }
		t.Logf("%-24s %d requests, %d connections: %.0f req/s, p50 %v, p99 %v, max %v",
			target.name, len(latencies), workers, float64(len(latencies))/elapsed.Seconds(),
			pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	}
}
