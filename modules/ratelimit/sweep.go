package ratelimit

import (
	"context"
	"fmt"
	"time"
)

// LongestWindow is the longest window any caller counts in (a day: referral sends, texts to
// one number). A counter whose window started longer ago than that is over for every caller:
// Hit would start it again at 1, so deleting it changes no answer.
const LongestWindow = 24 * time.Hour

// Sweep deletes the counters whose window started more than LongestWindow before now.
func (l *Limiter) Sweep(ctx context.Context, now time.Time) (int64, error) {
	res := l.db.WithContext(ctx).Where("window_start < ?", now.UTC().Add(-LongestWindow)).Delete(&RateLimit{})
	if res.Error != nil {
		return 0, fmt.Errorf("delete spent rate limits: %w", res.Error)
	}
	return res.RowsAffected, nil
}
