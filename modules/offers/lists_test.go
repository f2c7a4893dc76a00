package offers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListsAreKeptFiveSecondsPerPanelCountryLanguageAndDevice(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		acme := f.fake["acme"]
		acme.SetOffers("US", offers.Offer{ID: "us-only", Name: "US offer", Reward: "1.00"})
		acme.SetOffers("", offers.Offer{ID: "everywhere", Name: "Anywhere offer", Reward: "0.50"})
		ana, _ := f.member(f.acme)
		ben, _ := f.member(f.acme)
		calls := func() int { return len(acme.CallsTo(offerstest.EndpointOffers)) }

		list, err := f.svc.List(f.ctx, f.who(f.acme, ana, "US"), offers.KindOffer)
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Equal(t, "us-only", list[0].ID)
		assert.Equal(t, offers.KindOffer, list[0].Kind)
		first := acme.CallsTo(offerstest.EndpointOffers)[0]
		assert.True(t, first.Authorized, "the panel's app id and API key")
		assert.Equal(t, "US", first.Country)
		assert.Empty(t, first.SubID, "lists never name a member")

		_, err = f.svc.List(f.ctx, f.who(f.acme, ben, "US"), offers.KindOffer)
		require.NoError(t, err)
		assert.Equal(t, 1, calls(), "another member of the same panel, country, language and device shares the kept list")

		f.after(offers.CacheTTL - time.Millisecond)
		_, err = f.svc.List(f.ctx, f.who(f.acme, ana, "US"), offers.KindOffer)
		require.NoError(t, err)
		assert.Equal(t, 1, calls(), "still kept just before 5000 ms")

		f.after(time.Millisecond)
		_, err = f.svc.List(f.ctx, f.who(f.acme, ana, "US"), offers.KindOffer)
		require.NoError(t, err)
		assert.Equal(t, 2, calls(), "asked again at 5000 ms")

		gb := f.who(f.acme, ana, "GB")
		list, err = f.svc.List(f.ctx, gb, offers.KindOffer)
		require.NoError(t, err)
		assert.Equal(t, "everywhere", list[0].ID)
		assert.Equal(t, 3, calls(), "another country is its own list")
		gb.Query.Lang = "es"
		_, err = f.svc.List(f.ctx, gb, offers.KindOffer)
		require.NoError(t, err)
		gb.Query.Device = "android"
		_, err = f.svc.List(f.ctx, gb, offers.KindOffer)
		require.NoError(t, err)
		assert.Equal(t, 5, calls(), "so are another language and another device")

		_, err = f.svc.List(f.ctx, f.who(f.acme, ana, "US"), offers.KindGame)
		require.NoError(t, err)
		assert.Len(t, acme.CallsTo(offerstest.EndpointGames), 1, "games are a list of their own")

		globexMember, _ := f.member(f.globex)
		_, err = f.svc.List(f.ctx, f.who(f.globex, globexMember, "US"), offers.KindOffer)
		require.NoError(t, err)
		assert.Len(t, f.fake["globex"].CallsTo(offerstest.EndpointOffers), 1, "another panel asks its own provider")
	})
}

func TestAProviderThatIsDownIsAClearErrorAndNothingIsKept(t *testing.T) {
	t.Parallel()
	eachFixture(t, func(t *testing.T, f *fixture) {
		acme := f.fake["acme"]
		acme.SetOffers("", offers.Offer{ID: "o1", Name: "Offer", Reward: "1.00"})
		pid, _ := f.member(f.acme)
		acme.SetDown(true)
		_, err := f.svc.List(f.ctx, f.who(f.acme, pid, "US"), offers.KindOffer)
		require.Error(t, err)
		assert.True(t, errors.Is(err, offers.ErrUnavailable), "%v", err)
		acme.SetDown(false)
		list, err := f.svc.List(f.ctx, f.who(f.acme, pid, "US"), offers.KindOffer)
		require.NoError(t, err, "a failure is not kept for 5000 ms")
		assert.Len(t, list, 1)
	})
}
