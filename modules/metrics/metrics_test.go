package metrics

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestsAreCountedByTheirRoutePatternMethodAndFinalStatus(t *testing.T) {
	t.Parallel()
	m := New()
	f := fiber.New(fiber.Config{ErrorHandler: func(c fiber.Ctx, err error) error {
		return c.Status(web.AsError(err).Status).SendString("error")
	}})
	f.Use(m.Middleware(func(c fiber.Ctx) (string, bool) {
		if c.Hostname() == "console.test" {
			return "console", true
		}
		return "", false
	}))
	f.Use("/static", func(c fiber.Ctx) error { return c.SendString("file") })
	f.Get("/members/:id/wallet", func(c fiber.Ctx) error { return c.SendString("wallet " + c.Params("id")) })
	f.Post("/members/:id/wallet", func(c fiber.Ctx) error { return web.NotFound() })
	f.Get("/boom", func(c fiber.Ctx) error { return errors.New("broken") })
	f.Use(func(c fiber.Ctx) error { return c.Status(fiber.StatusNotFound).SendString("nothing here") })

	for _, tc := range []struct {
		name, method, host, target string
		route, wantMethod, status  string
	}{
		{"a path with an id counts under its pattern", "GET", "panel.test", "/members/8c4e/wallet", "/members/:id/wallet", "GET", "200"},
		{"another id counts under the same pattern", "GET", "panel.test", "/members/ffff/wallet", "/members/:id/wallet", "GET", "200"},
		{"an error's status is the one the error handler writes", "POST", "panel.test", "/members/8c4e/wallet", "/members/:id/wallet", "POST", "404"},
		{"a failing handler counts as a 500", "GET", "panel.test", "/boom", "/boom", "GET", "500"},
		{"a mounted middleware counts under its prefix and a star", "GET", "panel.test", "/static/app.js", "/static*", "GET", "200"},
		{"an unknown path counts under the fallback, never its own URL", "GET", "panel.test", "/no/such/page", "/*", "GET", "404"},
		{"a method outside the usual ones counts as OTHER", "TRACE", "panel.test", "/no/such/page", "/*", "OTHER", "404"},
		{"the label function names what the pattern cannot", "GET", "console.test", "/no/such/page", "console", "GET", "404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := testutil.ToFloat64(m.requests.WithLabelValues(tc.route, tc.wantMethod, tc.status))
			req := httptest.NewRequest(tc.method, "http://"+tc.host+tc.target, nil)
			_, err := f.Test(req)
			require.NoError(t, err)
			assert.Equal(t, before+1, testutil.ToFloat64(m.requests.WithLabelValues(tc.route, tc.wantMethod, tc.status)))
		})
	}
	assert.Equal(t, 7, testutil.CollectAndCount(m.latency, "canvass_http_request_duration_seconds"), "one latency series per pattern, method and status: eight requests, seven series")
	out := scrape(t, m)
	assert.NotContains(t, out, "8c4e", "no raw URL ever becomes a label")
	assert.Contains(t, out, `canvass_http_request_duration_seconds_bucket{method="GET",route="/members/:id/wallet",status="200",le="0.001"}`)
}

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	b, err := io.ReadAll(rec.Body)
	require.NoError(t, err)
	return string(b)
}

func TestLoginsAndDeliveriesAreCountedByTheirOutcome(t *testing.T) {
	t.Parallel()
	m := New()
	for _, tc := range []struct {
		name   string
		record func()
		metric string
		labels []string
	}{
		{"a successful password login", func() { m.Login(LoginPassword, LoginSuccess) }, "logins", []string{"password", "success"}},
		{"a failed social login", func() { m.Login(LoginSocial, LoginFailed) }, "logins", []string{"social", "failed"}},
		{"a mail handed over", func() { m.Delivered(ChannelMail, nil) }, "messages", []string{"mail", "sent"}},
		{"an SMS the provider refused", func() { m.Delivered(ChannelSMS, errors.New("refused")) }, "messages", []string{"sms", "failed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vec := m.logins
			if tc.metric == "messages" {
				vec = m.messages
			}
			before := testutil.ToFloat64(vec.WithLabelValues(tc.labels...))
			tc.record()
			assert.Equal(t, before+1, testutil.ToFloat64(vec.WithLabelValues(tc.labels...)))
		})
	}
	out := scrape(t, m)
	assert.Contains(t, out, `canvass_member_logins_total{method="password",result="rate_limited"} 0`, "every outcome exists from the start")
	assert.Contains(t, out, `canvass_messages_total{channel="sms",result="sent"} 0`)
}

func TestTheLedgerIsReadAtScrapeTimeAtMostOncePerRefresh(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	reads := 0
	var fail error
	c := &ledgerCollector{now: func() time.Time { return now }, read: func(context.Context) ([]LedgerTotal, error) {
		reads++
		if fail != nil {
			return nil, fail
		}
		return []LedgerTotal{{Origin: "campaign", Currency: "USD", Credits: int64(reads), CreditedMinor: 150 * int64(reads), Debits: 1, DebitedMinor: 20}}, nil
	}}
	m := New()
	require.NoError(t, m.reg.Register(c))
	for _, tc := range []struct {
		name      string
		advance   time.Duration
		fail      error
		wantReads int
		want      string
	}{
		{"the first scrape reads the ledger", 0, nil, 1, `canvass_ledger_credited_minor_total{currency="USD",origin="campaign"} 150`},
		{"a scrape within the refresh serves the same sums", LedgerRefresh / 2, nil, 1, `canvass_ledger_credits_total{currency="USD",origin="campaign"} 1`},
		{"a scrape after the refresh reads again", LedgerRefresh, nil, 2, `canvass_ledger_credited_minor_total{currency="USD",origin="campaign"} 300`},
		{"a failed read serves the last good sums", LedgerRefresh, errors.New("database down"), 3, `canvass_ledger_debited_minor_total{currency="USD",origin="campaign"} 20`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now = now.Add(tc.advance)
			fail = tc.fail
			out := scrape(t, m)
			assert.Equal(t, tc.wantReads, reads)
			assert.Contains(t, out, tc.want)
		})
	}
}

func TestReconcileSetsTheDriftGauges(t *testing.T) {
	t.Parallel()
	m := New()
	for _, tc := range []struct {
		name       string
		mismatches int
		err        error
		want       float64
		errors     float64
	}{
		{"a clean ledger shows no mismatch", 0, nil, 0, 0},
		{"drift shows the wallets that disagree", 3, nil, 3, 0},
		{"a failed reconcile keeps the last count and is counted", 0, errors.New("timeout"), 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := m.ReconcileOnce(context.Background(), func(context.Context) (int, error) { return tc.mismatches, tc.err })
			assert.Equal(t, tc.err, err)
			assert.Equal(t, tc.want, testutil.ToFloat64(m.reconcileMismatches))
			assert.Equal(t, tc.errors, testutil.ToFloat64(m.reconcileErrors))
			assert.NotZero(t, testutil.ToFloat64(m.reconcileLast))
		})
	}
}

func TestAnExhaustedPoolIsReportedOnlyOnceItLastsPastTheThreshold(t *testing.T) {
	t.Parallel()
	type look struct {
		at              time.Duration // since the start
		inUse, maxOpen  int
		waitCount       int64
		wantUnavailable bool
	}
	for _, tc := range []struct {
		name  string
		looks []look
	}{
		{"a pool with free connections is ready", []look{
			{0, 3, 8, 0, false}, {20 * time.Second, 7, 8, 0, false},
		}},
		{"a full pool with nobody waiting is ready", []look{
			{0, 8, 8, 5, false}, {20 * time.Second, 8, 8, 5, false},
		}},
		{"a full pool with waiters for less than the threshold is ready", []look{
			{0, 8, 8, 0, false}, {time.Second, 8, 8, 4, false}, {5 * time.Second, 8, 8, 9, false},
		}},
		{"a full pool with waiters past the threshold is not ready", []look{
			{0, 8, 8, 0, false}, {time.Second, 8, 8, 4, false}, {6 * time.Second, 8, 8, 9, false}, {12 * time.Second, 8, 8, 15, true},
		}},
		{"a pool that frees up in between starts counting again", []look{
			{0, 8, 8, 0, false}, {time.Second, 8, 8, 4, false}, {6 * time.Second, 2, 8, 4, false}, {12 * time.Second, 8, 8, 9, false},
		}},
		{"waits before the first look are history", []look{
			{0, 8, 8, 1000, false}, {12 * time.Second, 8, 8, 1000, false},
		}},
		{"an unlimited pool is never exhausted", []look{
			{0, 80, 0, 0, false}, {12 * time.Second, 90, 0, 50, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Unix(1_700_000_000, 0)
			var cur look
			w := &PoolWatch{
				Stats: func() sql.DBStats {
					return sql.DBStats{InUse: cur.inUse, MaxOpenConnections: cur.maxOpen, OpenConnections: cur.inUse, WaitCount: cur.waitCount}
				},
				Threshold: PoolThreshold,
				Now:       func() time.Time { return start.Add(cur.at) },
			}
			for i, l := range tc.looks {
				cur = l
				reason := w.Check(context.Background())
				if l.wantUnavailable {
					assert.Contains(t, reason, "database pool exhausted", "look %d", i)
					assert.Contains(t, reason, "8 of 8 connections in use", "look %d", i)
				} else {
					assert.Empty(t, reason, "look %d", i)
				}
			}
		})
	}
}

func TestTheRegistryIsTheMetricsOwnAndServesTheTextFormat(t *testing.T) {
	t.Parallel()
	a, b := New(), New()
	a.Login(LoginPassword, LoginSuccess)
	assert.Contains(t, scrape(t, a), `canvass_member_logins_total{method="password",result="success"} 1`)
	assert.Contains(t, scrape(t, b), `canvass_member_logins_total{method="password",result="success"} 0`, "two registries never share a count")
	assert.True(t, strings.Contains(scrape(t, a), "go_goroutines"), "the Go runtime is exported too")
}
