package offerstest_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/offerstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const secret = "panel-postback-secret"

// receiver stands for Canvass's postback endpoint: it verifies and keeps what it got.
func receiver(t *testing.T) (*httptest.Server, func() (string, error)) {
	t.Helper()
	var mu sync.Mutex
	var target string
	var verr error
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		target, verr = r.RequestURI, offers.VerifyPostback(r.RequestURI, secret)
		if verr != nil {
			http.Error(w, "refused", http.StatusForbidden)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, func() (string, error) {
		mu.Lock()
		defer mu.Unlock()
		return target, verr
	}
}

func TestThePostbackHelperSendsASignedGetThePanelCanVerify(t *testing.T) {
	t.Parallel()
	fake := offerstest.New(t, "app", "key")
	srv, last := receiver(t)
	resp, err := fake.Postback(srv.URL+"/offers/postback?panel=demo", secret, offerstest.PostbackParams{
		SubID: "sub 1", TransactionID: "tx-1", OfferID: "o-1", OfferName: "Tile Tumble & friends",
		Amount: "1.50", Currency: "USD", Status: "credited",
	})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(body), "the answer stays readable")
	target, verr := last()
	assert.NoError(t, verr)
	assert.True(t, strings.HasPrefix(target,
		"/offers/postback?panel=demo&sub_id=sub+1&transaction_id=tx-1&offer_id=o-1&offer_name=Tile+Tumble+%26+friends&amount=1.50&currency=USD&status=credited&signature="),
		"the protocol's order after the address's own query: %s", target)

	t.Run("empty parameters are left out", func(t *testing.T) {
		_, err := fake.Postback(srv.URL+"/pb", secret, offerstest.PostbackParams{TransactionID: "tx-2", Amount: "x"})
		require.NoError(t, err)
		target, verr := last()
		assert.NoError(t, verr)
		u, err := url.Parse(target)
		require.NoError(t, err)
		assert.Equal(t, []string{"amount", "signature", "transaction_id"}, slices.Sorted(maps.Keys(u.Query())))
	})
	t.Run("another secret is refused by the panel", func(t *testing.T) {
		resp, err := fake.Postback(srv.URL+"/pb", "wrong", offerstest.PostbackParams{SubID: "s", TransactionID: "tx-3"})
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		_, verr := last()
		assert.ErrorIs(t, verr, offers.ErrBadSignature)
	})
	t.Run("a tampered address is refused by the panel", func(t *testing.T) {
		signed, err := offerstest.PostbackURL(srv.URL+"/pb", secret, offerstest.PostbackParams{SubID: "s", Amount: "1.00"})
		require.NoError(t, err)
		resp, err := offerstest.Get(strings.Replace(signed, "amount=1.00", "amount=9.00", 1))
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	})
}

func TestTheFakeRecordsEveryCallFromConcurrentMembers(t *testing.T) {
	t.Parallel()
	fake := offerstest.New(t, "app", "key")
	fake.SetOffers("", offers.Offer{ID: "o-1", Name: "One", Reward: "1.00", Currency: "USD"})
	p := offers.NewHTTPProvider(fake.Config(secret), nil)
	const members = 20
	var wg sync.WaitGroup
	clicks := make([]string, members)
	errs := make([]error, members)
	for i := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := p.StartOffer(context.Background(), offers.Click{SubID: fmt.Sprintf("sub-%d", i), OfferID: "o-1"})
			clicks[i], errs[i] = s.ClickID, err
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range members {
		require.NoError(t, errs[i])
		seen[clicks[i]] = true
	}
	assert.Len(t, seen, members, "every click has its own id")
	calls := fake.CallsTo(offerstest.EndpointStartOffer)
	require.Len(t, calls, members)
	subs := map[string]bool{}
	for _, c := range calls {
		subs[c.SubID] = true
		assert.True(t, c.Authorized)
	}
	assert.Len(t, subs, members)
}

func TestAStartedMemberLandsOnTheFakesOfferPage(t *testing.T) {
	t.Parallel()
	fake := offerstest.New(t, "app", "key")
	fake.SetGames("US", offers.Offer{ID: "g/1", Name: "Game"})
	s, err := offers.NewHTTPProvider(fake.Config(secret), nil).StartOffer(context.Background(), offers.Click{SubID: "sub-1", OfferID: "g/1"})
	require.NoError(t, err)
	assert.Equal(t, fake.URL+"/go/g%2F1?sub_id=sub-1&click_id="+s.ClickID, s.RedirectURL)
	resp, err := http.Get(s.RedirectURL)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestTheFakeFailsAsToldUntilItRecovers(t *testing.T) {
	t.Parallel()
	fake := offerstest.New(t, "app", "key")
	p := offers.NewHTTPProvider(fake.Config(secret), nil)
	fake.Fail(http.StatusBadRequest, "plain words")
	_, err := p.Offers(context.Background(), offers.Query{})
	var pe *offers.ProviderError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "plain words", pe.Message)
	fake.Fail(http.StatusServiceUnavailable, "")
	_, err = p.Games(context.Background(), offers.Query{})
	assert.ErrorIs(t, err, offers.ErrUnavailable)
	fake.Recover()
	_, err = p.Games(context.Background(), offers.Query{})
	assert.NoError(t, err)
	assert.Len(t, fake.Calls(), 3, "failed calls are recorded too")
}
