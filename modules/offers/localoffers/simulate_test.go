package localoffers_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSimulatingACompletionSendsASignedPostbackToThePanel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		offer, name, amount string
	}{
		{"budget-buddy", "Try Budget Buddy free for 7 days", "3.00"},
		{"daily-digest", "Subscribe to the Daily Digest newsletter", "0.50"},
		{"word-orchard", "Win 3 matches in Word Orchard", "1.75"},
	}
	for _, tc := range cases {
		t.Run(tc.offer, func(t *testing.T) {
			e := newEnv(t, nil)
			started := e.start(t, tc.offer, "sub-7")
			_, page := e.get(t, started.RedirectURL)
			resp, result := e.submit(t, page)
			require.Equal(t, http.StatusOK, resp.StatusCode)

			got := e.panel.postbacks()
			require.Len(t, got, 1)
			pb := got[0]
			assert.NoError(t, pb.verify, "the panel verifies the signature with its secret: %s", pb.target)
			assert.True(t, strings.HasPrefix(pb.target, "/offers/postback?panel=demo&sub_id=sub-7&"), "the postback address keeps its own query: %s", pb.target)
			for k, want := range map[string]string{
				"sub_id": "sub-7", "transaction_id": "ltx-" + started.ClickID, "offer_id": tc.offer,
				"offer_name": tc.name, "amount": tc.amount, "currency": "GBP", "status": "credited",
			} {
				assert.Equal(t, []string{want}, pb.query[k], k)
			}
			assert.NotEmpty(t, pb.query.Get("signature"))

			assert.Contains(t, result, "<h1>Local development offers provider — not a real offerwall</h1>")
			assert.Contains(t, result, "<strong>Accepted:</strong> the panel answered 200 OK.")
			assert.Contains(t, result, "<code>ltx-"+started.ClickID+"</code>")
			assert.Contains(t, result, "<pre>{&#34;status&#34;:&#34;credited&#34;}</pre>", "the panel's answer is quoted")
			assert.Contains(t, result, `action="`+mountPath+`/go/`+tc.offer+`/reverse"`)
			assert.Contains(t, result, "Simulate reversal")
			assert.Contains(t, result, `<a href="`+returnURL+`">`)
		})
	}
}

func TestPressingTheButtonAgainSendsTheSameTransactionAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	started := e.start(t, "tile-tumble", "sub-7")
	_, page := e.get(t, started.RedirectURL)
	e.submit(t, page)
	e.submit(t, page)
	other := e.start(t, "tile-tumble", "sub-7")
	_, otherPage := e.get(t, other.RedirectURL)
	e.submit(t, otherPage)

	got := e.panel.postbacks()
	require.Len(t, got, 3)
	assert.Equal(t, got[0].query.Get("transaction_id"), got[1].query.Get("transaction_id"), "a retry, as a provider's")
	assert.NotEqual(t, got[0].query.Get("transaction_id"), got[2].query.Get("transaction_id"), "another start is another transaction")
	for _, pb := range got {
		assert.NoError(t, pb.verify)
	}
}

func TestSimulatingAReversalTakesBackTheSameTransaction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	started := e.start(t, "harbour-tycoon", "sub-9")
	_, page := e.get(t, started.RedirectURL)
	_, credited := e.submit(t, page)
	e.panel.answerWith(http.StatusOK, `{"status":"reversed"}`)
	resp, reversed := e.submit(t, credited)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	got := e.panel.postbacks()
	require.Len(t, got, 2)
	assert.NoError(t, got[1].verify)
	assert.Equal(t, "reversed", got[1].query.Get("status"))
	assert.Equal(t, "credited", got[0].query.Get("status"))
	for _, k := range []string{"transaction_id", "sub_id", "offer_id", "amount", "currency"} {
		assert.Equal(t, got[0].query.Get(k), got[1].query.Get(k), k)
	}
	assert.Equal(t, "4.00", got[1].query.Get("amount"), "the amount reversed, in major units")
	assert.Contains(t, reversed, "<h2 id=\"result\">Reversal postback</h2>")
	assert.Contains(t, reversed, "<strong>Accepted:</strong>")
	assert.NotContains(t, reversed, "<form", "a reversal is the end of it")
	assert.Contains(t, reversed, `<a href="`+returnURL+`">`)
}

func TestAPostbackThePanelRefusesIsShownAndCannotBeReversed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.panel.answerWith(http.StatusForbidden, `{"error":"bad_signature"}`)
	_, page := e.get(t, e.start(t, "budget-buddy", "sub-1").RedirectURL)
	resp, result := e.submit(t, page)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, result, "<strong>Refused:</strong> the panel answered 403 Forbidden.")
	assert.Contains(t, result, "bad_signature")
	assert.NotContains(t, result, "Simulate reversal")
	assert.Contains(t, result, `<a href="`+returnURL+`">`)
}

func TestAPanelThatCannotBeReachedIsShown(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + l.Addr().String() + "/offers/postback"
	require.NoError(t, l.Close())
	e := newEnv(t, func(*panel) string { return closed })
	_, page := e.get(t, e.start(t, "budget-buddy", "sub-1").RedirectURL)
	resp, result := e.submit(t, page)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, result, "<strong>Not delivered.</strong> The panel could not be reached")
	assert.NotContains(t, result, "signature=", "the signed address is not printed")
	assert.NotContains(t, result, "Simulate reversal")
}

func TestAPanelOnALocalhostSubdomainIsReachedOnLoopback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(p *panel) string {
		_, port, err := net.SplitHostPort(strings.TrimPrefix(p.srv.URL, "http://"))
		require.NoError(t, err)
		return "http://northwind.localhost:" + port + "/offers/postback"
	})
	_, page := e.get(t, e.start(t, "daily-digest", "sub-1").RedirectURL)
	_, result := e.submit(t, page)
	assert.Contains(t, result, "<strong>Accepted:</strong>")
	got := e.panel.postbacks()
	require.Len(t, got, 1)
	assert.NoError(t, got[0].verify)
}

func TestAnAppWithoutAPostbackAddressSaysSo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(*panel) string { return "" })
	_, page := e.get(t, e.start(t, "daily-digest", "sub-1").RedirectURL)
	_, result := e.submit(t, page)
	assert.Contains(t, result, "no postback address or secret configured")
	assert.Empty(t, e.panel.postbacks())
}
