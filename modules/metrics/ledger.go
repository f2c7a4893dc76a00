package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// LedgerTotal is what the ledger holds of one origin in one currency: the credit entries and
// the minor units they added, the debit entries and the minor units they took.
type LedgerTotal struct {
	Origin        string
	Currency      string
	Credits       int64
	CreditedMinor int64
	Debits        int64
	DebitedMinor  int64
}

// LedgerTotals reads the sums from the ledger (wallet.Module.Totals through app wiring).
type LedgerTotals func(ctx context.Context) ([]LedgerTotal, error)

// LedgerRefresh is how long a scrape's sums are served again before the ledger is read anew:
// one aggregate query a half-minute per process, however often Prometheus scrapes.
const LedgerRefresh = 30 * time.Second

// WatchLedger exports the ledger's credits and debits by origin and currency, read from the
// ledger entries at scrape time (at most once per LedgerRefresh) rather than counted where
// movements are posted: most movements are posted inside a caller's transaction that may
// still roll back, so a counter there would count money that never moved; the sums count
// committed entries only, survive restarts, and every process reports the same figures.
func (m *Metrics) WatchLedger(read LedgerTotals) error {
	return m.reg.Register(&ledgerCollector{read: read, now: time.Now})
}

var (
	ledgerCredits = prometheus.NewDesc(Namespace+"_ledger_credits_total",
		"Ledger credit entries, by origin and currency (read from the ledger: the same in every process).",
		[]string{"origin", "currency"}, nil)
	ledgerCredited = prometheus.NewDesc(Namespace+"_ledger_credited_minor_total",
		"Minor units (cents) credited by ledger entries, by origin and currency.",
		[]string{"origin", "currency"}, nil)
	ledgerDebits = prometheus.NewDesc(Namespace+"_ledger_debits_total",
		"Ledger debit entries, by origin and currency.",
		[]string{"origin", "currency"}, nil)
	ledgerDebited = prometheus.NewDesc(Namespace+"_ledger_debited_minor_total",
		"Minor units (cents) debited by ledger entries, by origin and currency.",
		[]string{"origin", "currency"}, nil)
)

type ledgerCollector struct {
	read LedgerTotals
	now  func() time.Time

	mu     sync.Mutex
	at     time.Time
	totals []LedgerTotal
}

func (l *ledgerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- ledgerCredits
	ch <- ledgerCredited
	ch <- ledgerDebits
	ch <- ledgerDebited
}

func (l *ledgerCollector) Collect(ch chan<- prometheus.Metric) {
	totals, err := l.current()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(ledgerCredits, err)
		return
	}
	for _, t := range totals {
		ch <- prometheus.MustNewConstMetric(ledgerCredits, prometheus.CounterValue, float64(t.Credits), t.Origin, t.Currency)
		ch <- prometheus.MustNewConstMetric(ledgerCredited, prometheus.CounterValue, float64(t.CreditedMinor), t.Origin, t.Currency)
		ch <- prometheus.MustNewConstMetric(ledgerDebits, prometheus.CounterValue, float64(t.Debits), t.Origin, t.Currency)
		ch <- prometheus.MustNewConstMetric(ledgerDebited, prometheus.CounterValue, float64(t.DebitedMinor), t.Origin, t.Currency)
	}
}

// current is the sums of the last read, read again when they are older than LedgerRefresh. A
// failed read serves the last good sums when there are any.
func (l *ledgerCollector) current() ([]LedgerTotal, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.at.IsZero() && l.now().Sub(l.at) < LedgerRefresh {
		return l.totals, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	totals, err := l.read(ctx)
	if err != nil {
		if l.totals != nil {
			return l.totals, nil
		}
		return nil, err
	}
	l.totals, l.at = totals, l.now()
	return totals, nil
}
