package feed

import (
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReportingABrokenCampaignHidesItAndCountsOnceWhileRecent(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Broken"))[0]
		who := f.member(f.acme, "en", true, nil)

		first, created, err := f.m.Report(f.ctx, f.acme, who, id, "error_message", "  It said\n 500   twice ")
		require.NoError(t, err)
		assert.True(t, created)
		assert.Equal(t, "It said 500 twice", first.ReasonText, "the text is trimmed and its whitespace collapsed")
		page, err := f.m.Feed(f.ctx, f.acme, who, FeedQuery{})
		require.NoError(t, err)
		assert.Empty(t, page.Cards, "a reported campaign leaves the feed")

		f.clock = f.clock.Add(60 * 24 * time.Hour)
		again, created, err := f.m.Report(f.ctx, f.acme, who, id, "not_loading", "")
		require.NoError(t, err)
		assert.False(t, created, "a report under 61 days old still counts")
		assert.Equal(t, first.ID, again.ID)

		f.clock = f.clock.Add(2 * 24 * time.Hour)
		later, created, err := f.m.Report(f.ctx, f.acme, who, id, "not_loading", "")
		require.NoError(t, err)
		assert.True(t, created, "after 61 days a new report is taken")

		list, err := f.m.Reports(f.ctx, who)
		require.NoError(t, err)
		require.Len(t, list, 2)
		assert.Equal(t, later.ID, list[0].ID, "newest first")
		assert.True(t, f.m.IsRecent(list[0]))
		assert.False(t, f.m.IsRecent(list[1]))
	})
}

func TestABrokenReportNeedsAKnownReasonAndTextForOther(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, code, text, field string
	}{
		{"no reason", "", "", "reasonCode"},
		{"an unknown reason", "boring", "", "reasonCode"},
		{"other without words", "other", "   ", "reasonText"},
		{"a text over 1000 characters", "other", strings.Repeat("a", 1001), "reasonText"},
	}
	eachFixture(t, func(t *testing.T, f *fixture) {
		id := f.campaigns(f.acme, definition("Broken"))[0]
		who := f.member(f.acme, "en", true, nil)
		for _, tc := range cases {
			_, _, err := f.m.Report(f.ctx, f.acme, who, id, tc.code, tc.text)
			var we *web.Error
			require.ErrorAs(t, err, &we, tc.name)
			assert.Equal(t, tc.field, we.Details[0].Field, tc.name)
		}
		list, err := f.m.Reports(f.ctx, who)
		require.NoError(t, err)
		assert.Empty(t, list, "nothing was stored")
		page, _ := f.m.Feed(f.ctx, f.acme, who, FeedQuery{})
		assert.Len(t, page.Cards, 1, "nor hidden")
	})
}
