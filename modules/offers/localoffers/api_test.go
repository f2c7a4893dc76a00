package localoffers_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/localoffers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var twoDecimals = regexp.MustCompile(`^[0-9]+\.[0-9]{2}$`)

func ids(list []offers.Offer) []string {
	var out []string
	for _, o := range list {
		out = append(out, o.ID)
	}
	return out
}

func TestTheLocalProviderListsItsOffersAndGamesInThePanelsCurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	all, err := e.provider.Offers(ctx, offers.Query{Country: "GB", Lang: "en"})
	require.NoError(t, err)
	games, err := e.provider.Games(ctx, offers.Query{Country: "GB", Lang: "en"})
	require.NoError(t, err)
	assert.Equal(t, []string{"daily-digest", "budget-buddy", "home-garden-survey", "streambox-trial"}, ids(all))
	assert.Equal(t, []string{"tile-tumble", "word-orchard", "harbour-tycoon"}, ids(games))
	for _, o := range append(all, games...) {
		assert.Regexp(t, twoDecimals, o.Reward, "%s: major units with two decimals", o.ID)
		assert.Equal(t, "GBP", o.Currency, o.ID)
		assert.NotEmpty(t, o.Name, o.ID)
		assert.NotEmpty(t, o.Description, o.ID)
		assert.NotEmpty(t, o.Requirements, o.ID)
		assert.Positive(t, o.Minutes, o.ID)
		assert.Empty(t, o.ImageURL, "%s: the demo loads nothing from the internet", o.ID)
	}
	rewards := map[string]string{}
	for _, o := range append(all, games...) {
		rewards[o.ID] = o.Reward
	}
	assert.Equal(t, "0.50", rewards["daily-digest"])
	assert.Equal(t, "1.25", rewards["home-garden-survey"])
	assert.Equal(t, "4.00", rewards["harbour-tycoon"])
}

func TestTheLocalProviderListsOnlyWhatTheDeviceCanPlay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	cases := []struct {
		device string
		want   []string
	}{
		{"desktop", []string{"word-orchard", "harbour-tycoon"}},
		{"android", []string{"tile-tumble", "word-orchard"}},
		{"ios", []string{"tile-tumble", "word-orchard"}},
		{"", []string{"tile-tumble", "word-orchard", "harbour-tycoon"}},
	}
	for _, tc := range cases {
		t.Run("on "+tc.device, func(t *testing.T) {
			games, err := e.provider.Games(context.Background(), offers.Query{Device: tc.device})
			require.NoError(t, err)
			assert.Equal(t, tc.want, ids(games))
		})
	}
}

func TestTheLocalProviderRefusesAnUnknownAppOrKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	cases := map[string]offers.ProviderConfig{
		"a wrong key":   {BaseURL: e.base, AppID: appID, APIKey: "wrong"},
		"no key":        {BaseURL: e.base, AppID: appID},
		"another app":   {BaseURL: e.base, AppID: "another", APIKey: apiKey},
		"no app at all": {BaseURL: e.base, APIKey: apiKey},
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			p := offers.NewHTTPProvider(cfg, nil)
			_, err := p.Offers(context.Background(), offers.Query{})
			var pe *offers.ProviderError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, http.StatusUnauthorized, pe.Status)
			_, err = p.StartOffer(context.Background(), offers.Click{SubID: "s", OfferID: "budget-buddy"})
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, http.StatusUnauthorized, pe.Status)
		})
	}
}

func TestStartingAnOfferLeadsToItsPageAtTheLocalProvider(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	require.NoError(t, e.provider.ViewOffer(ctx, offers.Click{SubID: "sub 1", OfferID: "budget-buddy"}))
	first := e.start(t, "budget-buddy", "sub 1")
	second := e.start(t, "budget-buddy", "sub 1")

	assert.True(t, strings.HasPrefix(first.RedirectURL, e.base+"/go/budget-buddy?"), first.RedirectURL)
	u, err := url.Parse(first.RedirectURL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{"app_id": {appID}, "sub_id": {"sub 1"}, "click_id": {first.ClickID}}, u.Query())
	assert.NotEqual(t, first.ClickID, second.ClickID, "every start is a new click")

	t.Run("an offer it does not have is refused", func(t *testing.T) {
		var pe *offers.ProviderError
		_, err := e.provider.StartOffer(ctx, offers.Click{SubID: "s", OfferID: "no-such-offer"})
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, http.StatusNotFound, pe.Status)
		require.ErrorAs(t, e.provider.ViewOffer(ctx, offers.Click{SubID: "s", OfferID: "no-such-offer"}), &pe)
		assert.Equal(t, http.StatusNotFound, pe.Status)
	})
	t.Run("a start without a member is refused", func(t *testing.T) {
		var pe *offers.ProviderError
		_, err := e.provider.StartOffer(ctx, offers.Click{OfferID: "budget-buddy"})
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, http.StatusBadRequest, pe.Status)
	})
}

func TestAnIssueReportGetsALocalTicket(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	ticket, err := e.provider.ReportIssue(ctx, offers.Issue{SubID: "s", OfferID: "tile-tumble", ClickID: "c", Message: "Reached level 10 yesterday."})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(ticket, "LOCAL-"), ticket)

	_, err = e.provider.ReportIssue(ctx, offers.Issue{SubID: "s", OfferID: "tile-tumble", Message: "  "})
	var pe *offers.ProviderError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, http.StatusBadRequest, pe.Status)
}

func TestTheLocalProviderAnswersWhetherOrNotItsPrefixIsStripped(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + mountPath
	srv.Config.Handler = localoffers.New(base, map[string]localoffers.App{appID: {APIKey: apiKey, Currency: "USD"}})
	srv.Start()
	defer srv.Close()
	p := offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: base, AppID: appID, APIKey: apiKey}, nil)
	games, err := p.Games(context.Background(), offers.Query{})
	require.NoError(t, err)
	assert.Len(t, games, 3)
	s, err := p.StartOffer(context.Background(), offers.Click{SubID: "s", OfferID: "word-orchard"})
	require.NoError(t, err)
	resp, err := http.Get(s.RedirectURL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestTheLocalProviderNeedsAnAbsoluteBaseURL(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"", "/_dev/offers", "ftp://localhost/x", "localhost:3000"} {
		assert.Panics(t, func() { localoffers.New(base, nil) }, base)
	}
}
