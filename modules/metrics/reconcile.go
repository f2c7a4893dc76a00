package metrics

import (
	"context"
	"time"
)

// ReconcileEvery is how often a serving process checks every wallet against its ledger for
// canvass_ledger_reconcile_mismatches. The check joins every wallet with the sums of all its
// entries: it grows with the ledger, so it runs on this clock in the background rather than at
// each scrape, and not in `canvass ledger reconcile` (a command has no /metrics to scrape).
const ReconcileEvery = 15 * time.Minute

// Reconcile counts the wallets that disagree with their ledger (wallet.Module.Reconcile).
type Reconcile func(ctx context.Context) (mismatches int, err error)

// ReconcileOnce runs one reconcile and records its outcome.
func (m *Metrics) ReconcileOnce(ctx context.Context, run Reconcile) error {
	start := time.Now()
	n, err := run(ctx)
	m.Reconciled(n, time.Since(start), time.Now(), err)
	return err
}

// RunReconcile reconciles at once and then every interval until ctx ends. Errors are counted
// (canvass_ledger_reconcile_errors_total) and given to onError, and the loop goes on.
func (m *Metrics) RunReconcile(ctx context.Context, every time.Duration, run Reconcile, onError func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := m.ReconcileOnce(ctx, run); err != nil && ctx.Err() == nil && onError != nil {
			onError(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
