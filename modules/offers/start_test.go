package offers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpeningAndStartingAnOfferTellTheProviderTheMembersSubID(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		acme := f.fake["acme"]
		acme.SetOffers("", offers.Offer{ID: "o1", Name: "Try the app", Reward: "2.50", Minutes: 15, Requirements: "New users only"})
		pid, sub := f.member(f.acme)
		who := f.who(f.acme, pid, "US")

		o, err := f.svc.View(f.ctx, who, "o1")
		require.NoError(t, err)
		assert.Equal(t, "Try the app", o.Name)
		views := acme.CallsTo(offerstest.EndpointViewOffer)
		require.Len(t, views, 1)
		assert.Equal(t, sub, views[0].SubID)
		assert.Equal(t, "o1", views[0].OfferID)

		row, started, err := f.svc.Start(f.ctx, who, "o1")
		require.NoError(t, err)
		starts := acme.CallsTo(offerstest.EndpointStartOffer)
		require.Len(t, starts, 1)
		assert.Equal(t, sub, starts[0].SubID)
		assert.Equal(t, "198.51.100.7", starts[0].IP)
		assert.True(t, strings.HasPrefix(started.RedirectURL, acme.URL), started.RedirectURL)
		assert.Contains(t, started.RedirectURL, "sub_id="+sub)
		assert.Equal(t, offers.StatusPending, row.Status)
		assert.Equal(t, int64(250), row.RewardMinor, "the list's reward until the provider says what it pays")
		assert.Equal(t, started.ClickID, row.ClickID)

		again, _, err := f.svc.Start(f.ctx, who, "o1")
		require.NoError(t, err)
		assert.Equal(t, row.ID, again.ID, "starting again keeps one pending row, with the new click")

		_, _, err = f.svc.Start(f.ctx, who, "no-such-offer")
		assert.True(t, errors.Is(err, offers.ErrNoOffer))

		other, otherSub := f.member(f.acme)
		assert.NotEqual(t, sub, otherSub, "every member has their own sub-id")
		_, otherStart, err := f.svc.Start(f.ctx, f.who(f.acme, other, "US"), "o1")
		require.NoError(t, err)
		assert.NotContains(t, otherStart.RedirectURL, sub, "one member's link is never another's")
	})
}

func TestAnIssueReportIsStoredAndForwardedAndKeptWhenTheProviderIsDown(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		acme := f.fake["acme"]
		acme.SetOffers("", offers.Offer{ID: "o1", Name: "Try the app", Reward: "2.50"})
		pid, sub := f.member(f.acme)
		who := f.who(f.acme, pid, "US")
		row, _, err := f.svc.Start(f.ctx, who, "o1")
		require.NoError(t, err)

		_, err = f.svc.ReportIssue(f.ctx, who, row.ID, "   ")
		assert.True(t, errors.Is(err, offers.ErrIssueEmpty))
		_, err = f.svc.ReportIssue(f.ctx, who, row.ID, strings.Repeat("x", offers.MaxIssueMessage+1))
		assert.True(t, errors.Is(err, offers.ErrIssueLong))

		issue, err := f.svc.ReportIssue(f.ctx, who, row.ID, "I installed it and reached level 10 yesterday.")
		require.NoError(t, err)
		assert.NotEmpty(t, issue.TicketID)
		reports := acme.CallsTo(offerstest.EndpointReportIssue)
		require.Len(t, reports, 1)
		assert.Equal(t, sub, reports[0].SubID)
		assert.Equal(t, row.ClickID, reports[0].ClickID)
		assert.Equal(t, "I installed it and reached level 10 yesterday.", reports[0].Message)

		acme.SetDown(true)
		kept, err := f.svc.ReportIssue(f.ctx, who, row.ID, "Still nothing.")
		require.NoError(t, err, "the member's report is kept though the provider is down")
		assert.NotEmpty(t, kept.ForwardError)
		var stored offers.IssueRow
		require.NoError(t, f.db.Where("id = ?", kept.ID).Take(&stored).Error)
		assert.Nil(t, stored.ForwardedAt)

		stranger, _ := f.member(f.acme)
		_, err = f.svc.ReportIssue(f.ctx, f.who(f.acme, stranger, "US"), row.ID, "Not mine")
		assert.True(t, errors.Is(err, offers.ErrNoRow), "a row of another member is no row")
	})
}
