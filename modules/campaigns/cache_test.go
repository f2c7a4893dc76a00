package campaigns

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestADecodedCampaignIsReusedUntilTheCampaignChanges(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		def := definition("Cached")
		id := f.campaigns(f.acme, def)[0]
		first, err := f.m.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		again, err := f.m.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		assert.Same(t, first, again, "the second load reuses the decoded campaign")

		def.Name = Text{"en": "Renamed"}
		f.campaigns(f.acme, def)
		after, err := f.m.Campaign(f.ctx, f.acme, id)
		require.NoError(t, err)
		assert.NotSame(t, first, after)
		assert.Equal(t, "Renamed", after.Definition.Name.In("en", "en"), "a re-import is seen at once")

		_, err = f.m.Campaign(f.ctx, f.globex, id)
		assert.ErrorIs(t, err, ErrNotFound, "another panel's campaign is not found")
	})
}
