package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/metrics"
	"github.com/canvass/canvass/modules/mobile"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// What the metrics module counts of the others, wired here so no module imports another:
// the mail and SMS senders decorated, the ledger's sums, the pool, the console's label.

// countedMail counts every mail handed to the sender (sent) or refused by it (failed).
type countedMail struct {
	next    mailer.Sender
	metrics *metrics.Metrics
}

func (s countedMail) Send(ctx context.Context, m mailer.Message) error {
	err := s.next.Send(ctx, m)
	s.metrics.Delivered(metrics.ChannelMail, err)
	return err
}

// countedSMS counts every text message handed to the provider (sent) or refused (failed).
type countedSMS struct {
	next    mobile.Sender
	metrics *metrics.Metrics
}

func (s countedSMS) Send(ctx context.Context, to, body string) (string, error) {
	id, err := s.next.Send(ctx, to, body)
	s.metrics.Delivered(metrics.ChannelSMS, err)
	return id, err
}

// ledgerTotals is the wallet's sums as the metrics read them.
func ledgerTotals(w *wallet.Module) metrics.LedgerTotals {
	return func(ctx context.Context) ([]metrics.LedgerTotal, error) {
		list, err := w.Totals(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]metrics.LedgerTotal, len(list))
		for i, t := range list {
			out[i] = metrics.LedgerTotal{
				Origin: string(t.Origin), Currency: t.Currency, Credits: t.Credits, CreditedMinor: t.CreditedMinor,
				Debits: t.Debits, DebitedMinor: t.DebitedMinor,
			}
		}
		return out, nil
	}
}

// ledgerReconcile is the wallet's reconcile as the metrics count it.
func ledgerReconcile(w *wallet.Module) metrics.Reconcile {
	return func(ctx context.Context) (int, error) {
		bad, err := w.Reconcile(ctx, "")
		return len(bad), err
	}
}

// watchDatabase exports the pool's statistics and adds the exhausted pool to /readyz.
func watchDatabase(a *App, db *gorm.DB) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	if err := a.Metrics.WatchPool("canvass", sqlDB); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	if err := a.Metrics.WatchLedger(ledgerTotals(a.Wallet)); err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	a.Home.AddQuickCheck(metrics.NewPoolWatch(sqlDB).Check)
	return nil
}

// consoleRoute labels the operator console's requests "console": it answers them with a
// router of its own behind one middleware, whose pattern would be "/*" like a 404.
func consoleRoute(host string) metrics.RouteLabel {
	return func(c fiber.Ctx) (string, bool) {
		if c.IsMiddleware() && normalizeConsoleHost(c.Hostname()) == host {
			return "console", true
		}
		return "", false
	}
}

func normalizeConsoleHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(h, ".")
}

// serveMetrics serves /metrics, and nothing else, on addr: a listener of its own, so the
// figures never show on a panel's domain. Keep it on a private network or loopback.
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (stop func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics listener %s: %w", addr, err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics served", "addr", ln.Addr().String(), "path", "/metrics")
	return func() { _ = srv.Close() }, nil
}
