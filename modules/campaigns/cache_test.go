package campaigns

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestADecodedCampaignIsReusedUntilTheCampaignChanges(t *testing.T) {
	eachFixture(t, func(t *testing.T, f *fixture) {
		def := definition("Cached")
		id := f.campaigns(f.acme, def)[0]
		who := f.member(f.acme, "en", true, nil)
		first, err := f.m.Load(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		again, err := f.m.Load(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.Same(t, first.Campaign, again.Campaign, "the second load reuses the decoded campaign")

		def.Name = Text{"en": "Renamed"}
		f.campaigns(f.acme, def)
		after, err := f.m.Load(f.ctx, f.acme, who, id)
		require.NoError(t, err)
		assert.NotSame(t, first.Campaign, after.Campaign)
		assert.Equal(t, "Renamed", after.Campaign.Definition.Name.In("en", "en"), "a re-import is seen at once")
	})
}
