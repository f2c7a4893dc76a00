// Package loadgen is Canvass's own HTTP load generator: a fixed number of keep-alive
// connections, each sending its next request as soon as the last answer arrived (the shape of
// wrk), for a fixed time. It uses fasthttp's client, which costs the machine far less per
// request than net/http, so on a small box more of the CPU is left to the server measured.
// It measures; it never decides whether a figure is good enough.
package loadgen

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// Request is one request of a run. Host is the Host header (the panel's domain).
type Request struct {
	Method string
	Path   string
	Host   string
	Header map[string]string
	Body   []byte
}

// Target is what a run repeats: Request, or Each(worker, i) for the i-th request of a worker
// when requests differ (answers move from question to question). Each returns false when that
// worker has nothing left to send.
type Target struct {
	Name    string
	Addr    string // host:port
	Request Request
	Each    func(worker, i int) (Request, bool)
	// Want is the status every answer must have (200 when zero).
	Want int
}

// Result is what a run measured.
type Result struct {
	Name     string
	Requests int
	Errors   int
	// FirstError describes the first failed request (a transport error or an unwanted status).
	FirstError string
	Elapsed    time.Duration
	P50, P99   time.Duration
	Max        time.Duration
}

// PerSecond is the throughput of the successful requests.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Run drives target over conns connections for d (or until every worker is done) and
// returns the throughput and latency percentiles of the answers with the wanted status.
func Run(target Target, conns int, d time.Duration) Result {
	want := target.Want
	if want == 0 {
		want = fasthttp.StatusOK
	}
	client := &fasthttp.HostClient{Addr: target.Addr, MaxConns: conns, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, MaxIdemponentCallAttempts: 1}
	defer client.CloseIdleConnections()
	var stop atomic.Bool
	var errs atomic.Int64
	var firstErr sync.Once
	res := Result{Name: target.Name}
	perWorker := make([][]time.Duration, conns)
	var wg sync.WaitGroup
	start := time.Now()
	timer := time.AfterFunc(d, func() { stop.Store(true) })
	defer timer.Stop()
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := fasthttp.AcquireRequest()
			resp := fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			lat := make([]time.Duration, 0, 4096)
			for i := 0; !stop.Load(); i++ {
				r := target.Request
				if target.Each != nil {
					var more bool
					if r, more = target.Each(w, i); !more {
						break
					}
				}
				fill(req, target.Addr, r)
				t0 := time.Now()
				err := client.Do(req, resp)
				took := time.Since(t0)
				switch {
				case err != nil:
					errs.Add(1)
					firstErr.Do(func() { res.FirstError = fmt.Sprintf("%s %s: %v", r.Method, r.Path, err) })
				case resp.StatusCode() != want:
					errs.Add(1)
					firstErr.Do(func() {
						res.FirstError = fmt.Sprintf("%s %s: status %d: %.200s", r.Method, r.Path, resp.StatusCode(), resp.Body())
					})
				default:
					lat = append(lat, took)
				}
			}
			perWorker[w] = lat
		}()
	}
	wg.Wait()
	res.Elapsed = time.Since(start)
	var all []time.Duration
	for _, l := range perWorker {
		all = append(all, l...)
	}
	slices.Sort(all)
	res.Requests, res.Errors = len(all), int(errs.Load())
	if len(all) > 0 {
		pct := func(p float64) time.Duration { return all[int(float64(len(all)-1)*p)] }
		res.P50, res.P99, res.Max = pct(0.50), pct(0.99), all[len(all)-1]
	}
	return res
}

func fill(req *fasthttp.Request, addr string, r Request) {
	req.Reset()
	method := r.Method
	if method == "" {
		method = fasthttp.MethodGet
	}
	req.Header.SetMethod(method)
	req.SetRequestURI("http://" + addr + r.Path)
	if r.Host != "" {
		req.UseHostHeader = true // the panel's domain, not the loopback address dialled
		req.Header.SetHost(r.Host)
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	if r.Body != nil {
		req.SetBody(r.Body)
	}
}
