// Package metrics owns Canvass's Prometheus registry and collectors: HTTP requests per route
// pattern, the database pool, the ledger's credits and debits, member logins, mail and SMS
// deliveries and the ledger reconcile. Each Metrics has a registry of its own (never the
// global default one), so every App, and every test, counts apart. It is served on
// CANVASS_METRICS_ADDR only, a listener of its own, never on a panel's domain (app wiring).
//
// Background jobs (issue 22 part 1) are not here yet: the jobs module will bring a collector
// of its own (queue depth, failures, latency) and hand it to Register, and a readiness check
// for a stuck queue to the home module, beside the pool's (PoolWatch).
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric Canvass defines itself (Go's and the pool's keep theirs).
const Namespace = "canvass"

// Login methods and results (the accounts module's observer reports these).
const (
	LoginPassword = "password"
	LoginSocial   = "social"

	LoginSuccess     = "success"
	LoginFailed      = "failed"
	LoginRateLimited = "rate_limited"
	LoginInvalid     = "invalid"
	LoginError       = "error"
)

// Delivery channels.
const (
	ChannelMail = "mail"
	ChannelSMS  = "sms"
)

// Metrics is one registry and the instruments Canvass updates as it works.
type Metrics struct {
	reg *prometheus.Registry

	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	logins   *prometheus.CounterVec
	messages *prometheus.CounterVec

	reconcileMismatches prometheus.Gauge
	reconcileLast       prometheus.Gauge
	reconcileDuration   prometheus.Gauge
	reconcileErrors     prometheus.Counter
}

// latencyBuckets reach from a cached page (1 ms) to a stuck request (10 s).
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// New builds a registry with the Go runtime and process collectors and Canvass's own.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "http_requests_total",
		Help: "HTTP requests answered, by matched route pattern, method and status.",
	}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace, Name: "http_request_duration_seconds",
		Help:    "Time from the request reaching Canvass to its answer, by matched route pattern, method and status.",
		Buckets: latencyBuckets,
	}, []string{"route", "method", "status"})
	m.logins = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "member_logins_total",
		Help: "Member logins by method (password, social) and result (success, failed, rate_limited, invalid, error).",
	}, []string{"method", "result"})
	m.messages = prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Name: "messages_total",
		Help: "Mails and SMS handed to their provider (result sent) or refused by it (result failed).",
	}, []string{"channel", "result"})
	m.reconcileMismatches = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "ledger_reconcile_mismatches",
		Help: "Wallets whose cached balance, counters or debt disagreed with their ledger entries at the last reconcile.",
	})
	m.reconcileLast = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "ledger_reconcile_last_success_timestamp_seconds",
		Help: "Unix time of the last reconcile that ran to its end (0: none yet).",
	})
	m.reconcileDuration = prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "ledger_reconcile_duration_seconds",
		Help: "How long the last reconcile took.",
	})
	m.reconcileErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: Namespace, Name: "ledger_reconcile_errors_total",
		Help: "Reconciles that could not run to their end (the database refused the query).",
	})
	// Every series an alert divides by or compares exists from the start, at zero.
	for _, method := range []string{LoginPassword, LoginSocial} {
		for _, result := range []string{LoginSuccess, LoginFailed, LoginRateLimited, LoginInvalid, LoginError} {
			m.logins.WithLabelValues(method, result)
		}
	}
	for _, ch := range []string{ChannelMail, ChannelSMS} {
		for _, result := range []string{"sent", "failed"} {
			m.messages.WithLabelValues(ch, result)
		}
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.logins, m.messages,
		m.reconcileMismatches, m.reconcileLast, m.reconcileDuration, m.reconcileErrors,
	)
	return m
}

// Registry is the registry behind Handler (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Register adds a collector of another module (the seam the job queue will use).
func (m *Metrics) Register(c prometheus.Collector) error { return m.reg.Register(c) }

// Handler serves the registry in Prometheus's text (or OpenMetrics) format. A collector that
// fails (the ledger's query) is reported in the answer while the others are still served.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		Registry: m.reg, ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true,
		Timeout: 20 * time.Second, MaxRequestsInFlight: 4,
	})
}

// WatchPool exports the database pool's sql.DBStats (go_sql_* with db_name=name).
func (m *Metrics) WatchPool(name string, db *sql.DB) error {
	return m.reg.Register(collectors.NewDBStatsCollector(db, name))
}

// Login counts one member login.
func (m *Metrics) Login(method, result string) { m.logins.WithLabelValues(method, result).Inc() }

// Delivered counts one mail or SMS: sent when err is nil, failed otherwise.
func (m *Metrics) Delivered(channel string, err error) {
	result := "sent"
	if err != nil {
		result = "failed"
	}
	m.messages.WithLabelValues(channel, result).Inc()
}

// Reconciled records a reconcile's outcome: how many wallets disagreed with their entries, or
// the error that stopped it (the last good count stays).
func (m *Metrics) Reconciled(mismatches int, took time.Duration, at time.Time, err error) {
	if err != nil {
		m.reconcileErrors.Inc()
		return
	}
	m.reconcileMismatches.Set(float64(mismatches))
	m.reconcileDuration.Set(took.Seconds())
	m.reconcileLast.Set(float64(at.Unix()))
}

// RouteLabel names a request that the router's pattern does not name well (the operator
// console, answered by a handler of its own behind one middleware). ok false: use the pattern.
type RouteLabel func(c fiber.Ctx) (label string, ok bool)

// Middleware counts and times every request by the pattern of the route that answered it
// (Fiber's matched route path, never the raw URL, so an id in a path never makes a series of
// its own), the method and the final status. It goes first, so its time covers the others.
// A request that ended in a middleware mounted with Use (static files, the 404 fallback) is
// labelled with that mount's prefix and a star: "/static*", "/*".
func (m *Metrics) Middleware(label RouteLabel) fiber.Handler {
	return func(c fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			// The error handler writes the answer after the chain returns: the status it will
			// write is the one web.AsError gives (as the access log does).
			status = web.AsError(err).Status
		}
		route, ok := "", false
		if label != nil {
			route, ok = label(c)
		}
		if !ok {
			route = c.Route().Path
			if c.IsMiddleware() {
				route += "*"
			}
		}
		values := []string{route, methodLabel(c.Method()), strconv.Itoa(status)}
		m.requests.WithLabelValues(values...).Inc()
		m.latency.WithLabelValues(values...).Observe(time.Since(start).Seconds())
		return err
	}
}

// methodLabel maps the method to a constant string: Fiber's strings point into a buffer that
// is reused by the next request, and a client's invented method must not make a series.
func methodLabel(method string) string {
	switch method {
	case fiber.MethodGet:
		return fiber.MethodGet
	case fiber.MethodHead:
		return fiber.MethodHead
	case fiber.MethodPost:
		return fiber.MethodPost
	case fiber.MethodPut:
		return fiber.MethodPut
	case fiber.MethodPatch:
		return fiber.MethodPatch
	case fiber.MethodDelete:
		return fiber.MethodDelete
	case fiber.MethodOptions:
		return fiber.MethodOptions
	default:
		return "OTHER"
	}
}
