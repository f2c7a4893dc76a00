package offers_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	fakeAppID  = "panel-app-1"
	fakeAPIKey = "api-key-of-the-panel"
)

var (
	tileTumble = offers.Offer{ID: "tile-tumble", Name: "Reach level 10 in Tile Tumble", Description: "A puzzle game.",
		Requirements: "New players only.", Reward: "2.50", Currency: "USD", Minutes: 45, Platforms: []string{"android", "ios"}}
	budgetBuddy = offers.Offer{ID: "budget-buddy", Kind: "offer", Name: "Try Budget Buddy", Reward: "3.00", Currency: "USD", Minutes: 10}
	newsletter  = offers.Offer{ID: "daily-digest", Name: "Sign up for the Daily Digest", Reward: "0.50", Currency: "USD", Minutes: 2}
)

func newFake(t *testing.T) (*offerstest.Server, offers.Provider) {
	t.Helper()
	fake := offerstest.New(t, fakeAppID, fakeAPIKey)
	fake.SetOffers("", budgetBuddy)
	fake.SetOffers("GB", newsletter, budgetBuddy)
	fake.SetGames("", tileTumble)
	return fake, offers.NewHTTPProvider(fake.Config(postbackSecret), nil)
}

func TestTheListsAreTheProvidersForTheCountryAndNameNoMember(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		list    func(offers.Query) ([]offers.Offer, error)
		q       offers.Query
		want    []string
		kind    string
		asked   string
		country string
	}{
		{"offers for a country with its own list", func(q offers.Query) ([]offers.Offer, error) { return p.Offers(ctx, q) },
			offers.Query{Country: "GB", Lang: "en", Device: "desktop"}, []string{"daily-digest", "budget-buddy"}, "offer", offerstest.EndpointOffers, "GB"},
		{"offers for any other country", func(q offers.Query) ([]offers.Offer, error) { return p.Offers(ctx, q) },
			offers.Query{Country: "US", Lang: "es", Device: "android"}, []string{"budget-buddy"}, "offer", offerstest.EndpointOffers, "US"},
		{"games for an unknown country", func(q offers.Query) ([]offers.Offer, error) { return p.Games(ctx, q) },
			offers.Query{Lang: "en", Device: "ios"}, []string{"tile-tumble"}, "game", offerstest.EndpointGames, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(fake.CallsTo(tc.asked))
			list, err := tc.list(tc.q)
			require.NoError(t, err)
			var ids []string
			for _, o := range list {
				ids = append(ids, o.ID)
				assert.Equal(t, tc.kind, o.Kind, "the kind comes from the list when the provider leaves it out")
			}
			assert.Equal(t, tc.want, ids)
			calls := fake.CallsTo(tc.asked)
			require.Len(t, calls, before+1)
			c := calls[len(calls)-1]
			assert.True(t, c.Authorized, "app id and bearer key accepted")
			assert.Equal(t, fakeAPIKey, c.APIKey)
			assert.Equal(t, offers.Query{Country: tc.country, Lang: tc.q.Lang, Device: tc.q.Device}, offers.Query{Country: c.Country, Lang: c.Lang, Device: c.Device})
			assert.Empty(t, c.SubID, "a list is shared between members, so it never names one")
		})
	}
	t.Run("every field of an offer comes through", func(t *testing.T) {
		games, err := p.Games(ctx, offers.Query{Country: "US"})
		require.NoError(t, err)
		want := tileTumble
		want.Kind = "game"
		assert.Equal(t, []offers.Offer{want}, games)
	})
	t.Run("an empty list is empty, not an error", func(t *testing.T) {
		fake.SetGames("")
		games, err := p.Games(ctx, offers.Query{Country: "US"})
		require.NoError(t, err)
		assert.Empty(t, games)
	})
}

func TestOpeningAnOfferSendsTheViewAndTheClickAndGivesTheMembersLink(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t)
	ctx := context.Background()
	click := offers.Click{SubID: "sub-42", OfferID: "budget-buddy", IP: "203.0.113.7", UserAgent: "Mozilla/5.0 (test)"}
	require.NoError(t, p.ViewOffer(ctx, click))
	started, err := p.StartOffer(ctx, click)
	require.NoError(t, err)

	views := fake.CallsTo(offerstest.EndpointViewOffer)
	require.Len(t, views, 1)
	assert.Equal(t, fakeAppID, views[0].AppID)
	assert.Equal(t, "sub-42", views[0].SubID)
	assert.Equal(t, "budget-buddy", views[0].OfferID)

	starts := fake.CallsTo(offerstest.EndpointStartOffer)
	require.Len(t, starts, 1)
	s := starts[0]
	assert.Equal(t, []string{fakeAppID, "sub-42", "budget-buddy", "203.0.113.7", "Mozilla/5.0 (test)"},
		[]string{s.AppID, s.SubID, s.OfferID, s.IP, s.UserAgent})
	assert.Equal(t, s.Started, started)
	assert.NotEmpty(t, started.ClickID)
	assert.Equal(t, fake.URL+"/go/budget-buddy?sub_id=sub-42&click_id="+started.ClickID, started.RedirectURL)
}

func TestAnIssueReportIsForwardedAndGetsTheProvidersTicket(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t)
	ticket, err := p.ReportIssue(context.Background(), offers.Issue{
		SubID: "sub-42", OfferID: "budget-buddy", ClickID: "click-7", TransactionID: "tx-3", Message: "I finished it yesterday.",
	})
	require.NoError(t, err)
	reports := fake.CallsTo(offerstest.EndpointReportIssue)
	require.Len(t, reports, 1)
	r := reports[0]
	assert.Equal(t, []string{fakeAppID, "sub-42", "budget-buddy", "click-7", "tx-3", "I finished it yesterday."},
		[]string{r.AppID, r.SubID, r.OfferID, r.ClickID, r.TransactionID, r.Message})
	assert.Equal(t, r.TicketID, ticket)
	assert.NotEmpty(t, ticket)
}

func TestARefusalCarriesTheStatusAndTheProvidersMessage(t *testing.T) {
	t.Parallel()
	fake, _ := newFake(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		cfg     offers.ProviderConfig
		call    func(offers.Provider) error
		status  int
		message string
	}{
		{"a wrong API key", offers.ProviderConfig{BaseURL: fake.URL, AppID: fakeAppID, APIKey: "not-the-key"},
			func(p offers.Provider) error { _, err := p.Offers(ctx, offers.Query{}); return err },
			http.StatusUnauthorized, "unknown app_id or API key"},
		{"no API key", offers.ProviderConfig{BaseURL: fake.URL, AppID: fakeAppID},
			func(p offers.Provider) error { _, err := p.Games(ctx, offers.Query{}); return err },
			http.StatusUnauthorized, "unknown app_id or API key"},
		{"another app", offers.ProviderConfig{BaseURL: fake.URL + "/", AppID: "another-app", APIKey: fakeAPIKey},
			func(p offers.Provider) error {
				return p.ViewOffer(ctx, offers.Click{SubID: "s", OfferID: "budget-buddy"})
			},
			http.StatusUnauthorized, "unknown app_id or API key"},
		{"an offer the provider does not know", fake.Config(postbackSecret),
			func(p offers.Provider) error {
				_, err := p.StartOffer(ctx, offers.Click{SubID: "s", OfferID: "gone"})
				return err
			},
			http.StatusNotFound, "unknown offer_id gone"},
		{"an empty report", fake.Config(postbackSecret),
			func(p offers.Provider) error {
				_, err := p.ReportIssue(ctx, offers.Issue{SubID: "s", OfferID: "budget-buddy"})
				return err
			},
			http.StatusBadRequest, "message is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(offers.NewHTTPProvider(tc.cfg, nil))
			var pe *offers.ProviderError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.status, pe.Status)
			assert.Equal(t, tc.message, pe.Message)
			assert.Contains(t, err.Error(), tc.message)
			assert.NotErrorIs(t, err, offers.ErrUnavailable, "a refusal is not an outage")
			assert.NotContains(t, err.Error(), fakeAPIKey)
		})
	}
}

func TestAProvidersMessageIsReadFromItsUsualShapesAndClipped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, want string
	}{
		{"error as a string", `{"error":"app suspended"}`, "app suspended"},
		{"error as an object", `{"error":{"code":12,"message":"quota exceeded"}}`, "quota exceeded"},
		{"a message field", `{"message":"bad country"}`, "bad country"},
		{"plain text with control characters", "nope\r\n\x1b[31m red", "nope [31m red"},
		{"a long text", strings.Repeat("x", 500), strings.Repeat("x", 200) + "…"},
		{"nothing", ``, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusForbidden)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			_, err := offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: srv.URL, AppID: "a"}, nil).Offers(context.Background(), offers.Query{})
			var pe *offers.ProviderError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.want, pe.Message)
		})
	}
}

func TestAProviderThatDoesNotAnswerWellIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	listOffers := func(p offers.Provider) error { _, err := p.Offers(ctx, offers.Query{Country: "US"}); return err }
	startOffer := func(p offers.Provider) error {
		_, err := p.StartOffer(ctx, offers.Click{SubID: "s", OfferID: "budget-buddy"})
		return err
	}
	var redirectedTo atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirectedTo.Add(1)
		_, _ = w.Write([]byte(`{"offers":[]}`))
	}))
	defer elsewhere.Close()
	cases := []struct {
		name    string
		handler http.HandlerFunc
		call    func(offers.Provider) error
	}{
		{"a 500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }, listOffers},
		{"a 429", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTooManyRequests) }, listOffers},
		{"a body that is not JSON", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>maintenance</html>")) }, listOffers},
		{"a list of the wrong shape", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"offers":{"id":1}}`)) }, listOffers},
		{"a body over 1 MiB", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"offers":[],"pad":"` + strings.Repeat("x", 1<<20) + `"}`))
		}, listOffers},
		{"a redirect, which is not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.URL+"/offers", http.StatusTemporaryRedirect)
		}, listOffers},
		{"a start without a redirect_url", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"click_id":"c-1"}`)) }, startOffer},
		{"a start leading to a javascript: address", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"click_id":"c-1","redirect_url":"javascript:alert(1)"}`))
		}, startOffer},
		{"a start leading to a relative address", func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"click_id":"c-1","redirect_url":"/settings"}`))
		}, startOffer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			err := tc.call(offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: srv.URL, AppID: "a", APIKey: fakeAPIKey}, nil))
			assert.ErrorIs(t, err, offers.ErrUnavailable)
			assert.NotContains(t, err.Error(), fakeAPIKey)
		})
	}
	assert.Zero(t, redirectedTo.Load(), "the API key is never carried to a redirect's target")

	t.Run("the fake provider while it is down", func(t *testing.T) {
		fake, p := newFake(t)
		fake.SetDown(true)
		assert.ErrorIs(t, listOffers(p), offers.ErrUnavailable)
		assert.ErrorIs(t, startOffer(p), offers.ErrUnavailable)
		fake.SetDown(false)
		assert.NoError(t, listOffers(p), "and it is back once it recovers")
	})
	t.Run("a provider that is gone", func(t *testing.T) {
		fake, p := newFake(t)
		fake.Close()
		assert.ErrorIs(t, listOffers(p), offers.ErrUnavailable)
	})
	t.Run("a base URL that is not http", func(t *testing.T) {
		p := offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: "ftp://offers.example", AppID: "a"}, nil)
		assert.ErrorIs(t, listOffers(p), offers.ErrUnavailable)
	})
}

func TestACallEndsAtItsContextsDeadline(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	p := offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: srv.URL, AppID: "a"}, &http.Client{Timeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.Games(ctx, offers.Query{})
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.ErrorIs(t, err, offers.ErrUnavailable)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "the cause is kept: %v", err)
}
