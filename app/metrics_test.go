package main

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/metrics"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// metricValue is the value of the series of name whose labels include want (0 when absent).
func metricValue(t *testing.T, reg prometheus.Gatherer, name string, want map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if hasLabels(m, want) {
				switch {
				case m.Counter != nil:
					return m.Counter.GetValue()
				case m.Gauge != nil:
					return m.Gauge.GetValue()
				case m.Histogram != nil:
					return float64(m.Histogram.GetSampleCount())
				}
			}
		}
	}
	return 0
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	got := map[string]string{}
	for _, l := range m.GetLabel() {
		got[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func TestMetricsCountRequestsLoginsMailsTheLedgerAndThePool(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		require.Equal(t, http.StatusUnauthorized, c.postJSON("/ah/api/v2/user/login", `{"email":"member@demo.test","password":"not-the-password"}`).StatusCode)
		require.Equal(t, http.StatusOK, c.postJSON("/ah/api/v2/user/login", `{"email":"member@demo.test","password":"demo-password-1"}`).StatusCode)
		forgot := e.client("localhost").postJSON("/ah/api/v2/user/forgot-password", `{"email":"member@demo.test"}`)
		require.Less(t, forgot.StatusCode, 300, forgot.Body)
		e.drainJobs(t) // the reset mail is sent by the job queue
		reg := e.app.Metrics.Registry()
		for _, tc := range []struct {
			name    string
			metric  string
			labels  map[string]string
			atLeast float64
			exactly bool
		}{
			{"a refused login counts under its route pattern and status", "canvass_http_requests_total",
				map[string]string{"route": "/ah/api/v2/user/login", "method": "POST", "status": "401"}, 1, true},
			{"its latency is observed under the same labels", "canvass_http_request_duration_seconds",
				map[string]string{"route": "/ah/api/v2/user/login", "method": "POST", "status": "401"}, 1, true},
			{"a failed password login is counted", "canvass_member_logins_total",
				map[string]string{"method": "password", "result": "failed"}, 1, true},
			{"a successful password login is counted", "canvass_member_logins_total",
				map[string]string{"method": "password", "result": "success"}, 1, true},
			{"the reset mail is counted as sent", "canvass_messages_total",
				map[string]string{"channel": "mail", "result": "sent"}, 1, false},
			{"the demo member's starting balance is a manual credit", "canvass_ledger_credited_minor_total",
				map[string]string{"origin": "manual", "currency": "USD"}, 2500, false},
			{"manual credits are counted as entries too", "canvass_ledger_credits_total",
				map[string]string{"origin": "manual", "currency": "USD"}, 1, false},
			{"the pool's limit is exported", "go_sql_max_open_connections",
				map[string]string{"db_name": "canvass"}, 1, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := metricValue(t, reg, tc.metric, tc.labels)
				if tc.exactly {
					assert.Equal(t, tc.atLeast, got)
				} else {
					assert.GreaterOrEqual(t, got, tc.atLeast)
				}
			})
		}
		assert.Equal(t, http.StatusNotFound, e.client("localhost").get("/metrics").StatusCode, "metrics never show on a panel's domain")
	})
}

func TestReadyzAnswers503WithTheReasonWhileThePoolIsExhausted(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		sqlDB, err := e.db.DB()
		require.NoError(t, err)
		sqlDB.SetMaxOpenConns(2)
		t.Cleanup(func() { sqlDB.SetMaxOpenConns(8) })
		now := time.Unix(1_700_000_000, 0)
		watch := &metrics.PoolWatch{Stats: sqlDB.Stats, Threshold: metrics.PoolThreshold, Now: func() time.Time { return now }}
		e.app.Home.AddQuickCheck(watch.Check)
		ctx := context.Background()

		// waiter queues one more request for a connection, and returns once it has queued.
		var waiting []context.CancelFunc
		waiter := func() {
			before := sqlDB.Stats().WaitCount
			wctx, cancel := context.WithCancel(ctx)
			waiting = append(waiting, cancel)
			go func() { _ = sqlDB.PingContext(wctx) }()
			require.Eventually(t, func() bool { return sqlDB.Stats().WaitCount > before }, 10*time.Second, time.Millisecond)
		}
		var held []*sql.Conn
		release := func() {
			for _, cancel := range waiting {
				cancel()
			}
			for _, c := range held {
				c.Close()
			}
			waiting, held = nil, nil
		}
		t.Cleanup(release)

		for _, tc := range []struct {
			name       string
			step       func()
			wantStatus int
			wantBody   string
		}{
			{"a pool with free connections is ready", func() {}, http.StatusOK, "ok"},
			{"a pool that has just filled up with requests waiting is still ready", func() {
				for range 2 {
					c, err := sqlDB.Conn(ctx)
					require.NoError(t, err)
					held = append(held, c)
				}
				waiter()
				require.Empty(t, watch.Check(ctx)) // the first look that sees it full
				now = now.Add(metrics.PoolThreshold / 2)
				waiter()
			}, http.StatusOK, ""},
			{"a pool full with requests waiting past the threshold is not ready, and says why", func() {
				now = now.Add(metrics.PoolThreshold)
				waiter()
			}, http.StatusServiceUnavailable, "database pool exhausted: 2 of 2 connections in use"},
			{"a pool that frees up is ready again", release, http.StatusOK, "ok"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.step()
				if tc.wantStatus == http.StatusOK && len(held) > 0 {
					// While the pool is full the ping itself would queue: ask the check alone.
					assert.Empty(t, watch.Check(ctx))
					return
				}
				res := e.client("localhost").get("/readyz")
				assert.Equal(t, tc.wantStatus, res.StatusCode)
				assert.Contains(t, res.Body, tc.wantBody)
			})
		}
	})
}

type failingMail struct{ err error }

func (f failingMail) Send(context.Context, mailer.Message) error { return f.err }

type failingSMS struct{ err error }

func (f failingSMS) Send(context.Context, string, string) (string, error) { return "SM1", f.err }

func TestMailAndSMSAreCountedAsSentOrFailedByTheirDecorators(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	refused := errors.New("provider refused")
	for _, tc := range []struct {
		name    string
		send    func() error
		channel string
		result  string
	}{
		{"a mail the server took is sent", func() error { return countedMail{failingMail{}, m}.Send(context.Background(), mailer.Message{}) }, "mail", "sent"},
		{"a mail the server refused is failed", func() error { return countedMail{failingMail{refused}, m}.Send(context.Background(), mailer.Message{}) }, "mail", "failed"},
		{"an SMS the provider took is sent", func() error {
			_, err := countedSMS{failingSMS{}, m}.Send(context.Background(), "+1", "code")
			return err
		}, "sms", "sent"},
		{"an SMS the provider refused is failed", func() error {
			_, err := countedSMS{failingSMS{refused}, m}.Send(context.Background(), "+1", "code")
			return err
		}, "sms", "failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels := map[string]string{"channel": tc.channel, "result": tc.result}
			before := metricValue(t, m.Registry(), "canvass_messages_total", labels)
			err := tc.send()
			if tc.result == "failed" {
				assert.ErrorIs(t, err, refused, "the decorator hands the error on")
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, before+1, metricValue(t, m.Registry(), "canvass_messages_total", labels))
		})
	}
}

func TestTheMetricsListenerServesMetricsAndNothingElse(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	m := metrics.New()
	stop, err := serveMetrics(addr, m, testLogger(t))
	require.NoError(t, err)
	defer stop()
	for _, tc := range []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"GET /metrics answers the text format", http.MethodGet, "/metrics", http.StatusOK, "canvass_member_logins_total"},
		{"the root is not served", http.MethodGet, "/", http.StatusNotFound, ""},
		{"the health checks are not served there", http.MethodGet, "/healthz", http.StatusNotFound, ""},
		{"no other method reaches the metrics", http.MethodPost, "/metrics", http.StatusMethodNotAllowed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://"+addr+tc.path, nil)
			require.NoError(t, err)
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			assert.Equal(t, tc.status, res.StatusCode)
			assert.True(t, strings.Contains(string(b), tc.body))
		})
	}
}
