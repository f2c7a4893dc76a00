package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// Collector is the queue's metrics: the jobs in each state and kind (read from the shared
// tables at each scrape: every process reports the same figures), the attempts this process
// finished by result, and how long they ran and waited.
type Collector struct {
	q        *Queue
	depth    *prometheus.Desc
	oldest   *prometheus.Desc
	finished *prometheus.CounterVec
	run      *prometheus.HistogramVec
	wait     *prometheus.HistogramVec
}

var jobBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// NewCollector builds the queue's collector (register it, and pass Observe to Deps).
func NewCollector(namespace string) *Collector {
	c := &Collector{
		depth: prometheus.NewDesc(namespace+"_jobs", "Background jobs in the queue by state and kind (the whole database's).", []string{"state", "kind"}, nil),
		oldest: prometheus.NewDesc(namespace+"_jobs_oldest_available_age_seconds",
			"How long the oldest job that is due has waited for a worker (0: none waiting).", nil, nil),
		finished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "jobs_finished_total",
			Help: "Job attempts this process finished, by kind and result (completed, failed: retried later, discarded: no attempts left, cancelled).",
		}, []string{"kind", "result"}),
		run: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "job_duration_seconds", Help: "How long a job attempt ran, by kind.", Buckets: jobBuckets,
		}, []string{"kind"}),
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "job_wait_seconds", Help: "How long a job waited, available, before a worker took it, by kind.", Buckets: jobBuckets,
		}, []string{"kind"}),
	}
	for _, kind := range []string{KindMail, KindSMS, KindSweep, KindTask} {
		for _, r := range []string{"completed", "failed", "discarded", "cancelled"} {
			c.finished.WithLabelValues(kind, r)
		}
	}
	return c
}

// Watch points the collector's depth at q.
func (c *Collector) Watch(q *Queue) { c.q = q }

// Observe counts one finished attempt (Deps.Observe).
func (c *Collector) Observe(f Finished) {
	c.finished.WithLabelValues(f.Kind, f.Result).Inc()
	c.run.WithLabelValues(f.Kind).Observe(f.Duration.Seconds())
	c.wait.WithLabelValues(f.Kind).Observe(f.Wait.Seconds())
}

func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.depth
	ch <- c.oldest
	c.finished.Describe(ch)
	c.run.Describe(ch)
	c.wait.Describe(ch)
}

func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	c.finished.Collect(ch)
	c.run.Collect(ch)
	c.wait.Collect(ch)
	if c.q == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	depth, err := c.q.Depth(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.depth, err)
		return
	}
	for _, d := range depth {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(d.Jobs), d.State, d.Kind)
	}
	age, err := c.q.OldestAvailable(ctx, time.Now())
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.oldest, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, age.Seconds())
}

// Count is the jobs of one state and kind.
type Count struct {
	State, Kind string
	Jobs        int64
}

// Depth counts the jobs by state and kind.
func (q *Queue) Depth(ctx context.Context) ([]Count, error) {
	var out []Count
	err := q.db.WithContext(ctx).Raw(`SELECT CAST(state AS TEXT) AS state, kind, COUNT(*) AS jobs FROM river_job GROUP BY state, kind ORDER BY 1, 2`).Scan(&out).Error
	return out, err
}

// OldestAvailable is how long the oldest job that could run has waited since it was due (0
// when none): available, or scheduled or retryable with its time come (River's leader makes
// those available every few seconds), by the database's clock (River's own times are the database's on SQLite).
func (q *Queue) OldestAvailable(ctx context.Context, _ time.Time) (time.Duration, error) {
	query := `SELECT COALESCE((julianday('now') - julianday(MIN(scheduled_at))) * 86400.0, 0) FROM river_job
WHERE state IN ('available', 'scheduled', 'retryable') AND scheduled_at <= datetime('now', 'subsec')`
	if q.postgres {
		query = `SELECT COALESCE(EXTRACT(EPOCH FROM now() - MIN(scheduled_at))::float8, 0) FROM river_job
WHERE state IN ('available', 'scheduled', 'retryable') AND scheduled_at <= now()`
	}
	var secs float64
	// GORM's Row is nil when the query could not run (a closed pool): Scan reports it instead.
	if err := q.db.WithContext(ctx).Raw(query).Scan(&secs).Error; err != nil {
		return 0, err
	}
	return max(time.Duration(secs*float64(time.Second)), 0), nil
}

// StuckCheck is /readyz's look at the queue (home.Check): a job that could run has waited
// longer than StuckAfter while this process works jobs. "" while the queue moves.
func (q *Queue) StuckCheck(ctx context.Context) string {
	if !q.Working() {
		return ""
	}
	age, err := q.OldestAvailable(ctx, time.Now())
	if err != nil {
		return ""
	}
	if age > StuckAfter {
		return fmt.Sprintf("job queue stuck: the oldest due job has waited %s for a worker", age.Round(time.Second))
	}
	return ""
}
