package competitions

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerifyOnChecksADrawOfThePanelAndNeverAnotherPanels(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		drawAt := f.clock.Add(time.Hour)
		c := f.competition(f.acme, 5000, 2, &drawAt)
		entrants := f.entered(f.acme, c, 3)

		_, err := f.m.VerifyOn(f.ctx, f.acme, c.ID)
		require.ErrorIs(t, err, ErrNotDrawn, "nothing to verify before the draw")

		f.at(drawAt)
		d, err := f.m.Draw(f.ctx, f.acme, c.ID, "finance@ops", "the draw date", false)
		require.NoError(t, err)

		v, err := f.m.VerifyOn(f.ctx, f.acme, c.ID)
		require.NoError(t, err)
		assert.True(t, v.OK(), "%v", v.Problems)
		assert.Equal(t, entrants, v.Entrants)
		assert.Equal(t, d.Record.Seed, v.Draw.Record.Seed)
		assert.Len(t, v.Expected, 2)

		_, err = f.m.VerifyOn(f.ctx, f.globex, c.ID)
		assert.ErrorIs(t, err, ErrNotFound, "another panel's competition is not found")
		_, err = f.m.VerifyOn(f.ctx, f.acme, "not-a-uuid")
		assert.ErrorIs(t, err, ErrNotFound)
	})
}
