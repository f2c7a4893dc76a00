package ratelimit

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// clock is a settable now for the limiter.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newLimiter(db *gorm.DB) (*Limiter, *clock) {
	c := &clock{t: time.Date(2030, 5, 17, 12, 0, 0, 0, time.UTC)}
	l := New(db)
	l.now = c.now
	return l, c
}

func TestHitCountsUpWithinAWindowAndRestartsAfterIt(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		l, clk := newLimiter(db)
		start := clk.t
		const window = time.Minute
		steps := []struct {
			name string
			at   time.Duration // after the first hit
			want int
		}{
			{"the first hit is 1", 0, 1},
			{"a second hit in the window is 2", 10 * time.Second, 2},
			{"a hit just before the window ends is 3", window - time.Second, 3},
			{"a hit once the window is over starts again at 1", window + time.Second, 1},
			{"the new window counts from its own start", window + 30*time.Second, 2},
			{"the new window ends a window after it started", 2*window + 2*time.Second, 1},
		}
		for _, s := range steps {
			clk.t = start.Add(s.at)
			got, err := l.Hit(ctx, "login:ann@example.com", window)
			require.NoError(t, err, s.name)
			assert.Equal(t, s.want, got, s.name)
		}
	})
}

func TestCountReadsTheWindowWithoutAddingAHit(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		l, clk := newLimiter(db)
		const key, window = "signup:10.0.0.1", time.Minute

		n, err := l.Count(ctx, key, window)
		require.NoError(t, err)
		assert.Equal(t, 0, n, "a key never hit counts 0")

		for range 3 {
			_, err := l.Hit(ctx, key, window)
			require.NoError(t, err)
		}
		for range 2 {
			n, err := l.Count(ctx, key, window)
			require.NoError(t, err)
			assert.Equal(t, 3, n, "counting twice adds nothing")
		}
		hit, err := l.Hit(ctx, key, window)
		require.NoError(t, err)
		assert.Equal(t, 4, hit)

		clk.t = clk.t.Add(window + time.Second)
		n, err = l.Count(ctx, key, window)
		require.NoError(t, err)
		assert.Equal(t, 0, n, "an expired window counts 0")
	})
}

func TestResetForgetsAKeyAndOnlyThatKey(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		l, _ := newLimiter(db)
		const window = time.Minute
		for range 3 {
			_, err := l.Hit(ctx, "login:ann", window)
			require.NoError(t, err)
		}
		_, err := l.Hit(ctx, "login:bob", window)
		require.NoError(t, err)

		require.NoError(t, l.Reset(ctx, "login:ann"))
		n, err := l.Count(ctx, "login:ann", window)
		require.NoError(t, err)
		assert.Equal(t, 0, n)
		n, err = l.Count(ctx, "login:bob", window)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "another key is untouched")

		hit, err := l.Hit(ctx, "login:ann", window)
		require.NoError(t, err)
		assert.Equal(t, 1, hit, "a reset key starts again at 1")
		assert.NoError(t, l.Reset(ctx, "login:nobody"), "resetting an unknown key is fine")
	})
}

func TestFiftyConcurrentHitsOnOneKeyCountExactlyFifty(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		l, _ := newLimiter(db)
		const key, window, n = "login:race", time.Hour, 50

		var wg sync.WaitGroup
		results := make([]int, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() { results[i], errs[i] = l.Hit(ctx, key, window) })
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}

		total, err := l.Count(ctx, key, window)
		require.NoError(t, err)
		assert.Equal(t, n, total)

		sort.Ints(results)
		want := make([]int, n)
		for i := range want {
			want[i] = i + 1
		}
		assert.Equal(t, want, results, "every hit saw its own count: 1 to 50, none twice")
	})
}

func TestAHitGivenBackLeavesItsWindowAndOnlyItsWindowAndNeverGoesBelowNothing(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		l, clk := newLimiter(db)
		const key, window = "login:acct:ann", time.Minute
		count := func() int {
			n, err := l.Count(ctx, key, window)
			require.NoError(t, err)
			return n
		}
		take := func() Taken {
			taken, err := l.Take(ctx, key, window)
			require.NoError(t, err)
			return taken
		}

		var held []Taken
		for range 3 {
			held = append(held, take())
		}
		assert.Equal(t, 3, held[2].Hits)
		require.NoError(t, l.GiveBack(ctx, held[0]))
		assert.Equal(t, 2, count(), "one hit taken back")
		for _, h := range []Taken{held[1], held[2], held[1], held[2]} {
			require.NoError(t, l.GiveBack(ctx, h))
		}
		assert.Equal(t, 0, count(), "never below nothing")

		// A sign-in resets the key while others are in flight: what they give back afterwards
		// belongs to the window before the reset, and the hits counted since stay.
		clk.t = clk.t.Add(time.Second)
		before := take()
		require.NoError(t, l.Reset(ctx, key))
		clk.t = clk.t.Add(time.Millisecond)
		after := take()
		take()
		require.NoError(t, l.GiveBack(ctx, before))
		assert.Equal(t, 2, count(), "a hit from before the reset takes nothing from after it")
		require.NoError(t, l.GiveBack(ctx, after))
		assert.Equal(t, 1, count())

		// A window that expired and began again is a new window too.
		clk.t = clk.t.Add(window + time.Second)
		fresh := take()
		assert.Equal(t, 1, fresh.Hits, "the next hit starts a new window")
		require.NoError(t, l.GiveBack(ctx, after), "a hit of an expired window is left alone")
		assert.Equal(t, 1, count())
		require.NoError(t, l.GiveBack(ctx, fresh))
		assert.Equal(t, 0, count())
	})
}
