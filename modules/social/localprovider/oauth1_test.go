package localprovider_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/dghubble/oauth1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// capture keeps the last request an OAuth 1.0a client signed, so a test can replay or alter
// it; with no base it sends nothing and answers 204.
type capture struct {
	base http.RoundTripper
	last *http.Request
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	c.last = r.Clone(r.Context())
	if c.base == nil {
		return &http.Response{StatusCode: http.StatusNoContent, Body: http.NoBody, Request: r}, nil
	}
	return c.base.RoundTrip(r)
}

func TestOAuth1RequestsAreCheckedLikeTwitterChecksThem(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok, secret := e.lp.IssueOAuth1Token("1001")
	verifyURL := e.cfg[social.Twitter].APIURL + "/1.1/account/verify_credentials.json?include_email=true"

	// signedRequest signs one verify_credentials request and returns it with the status the
	// server answered, or 204 when sent is false and the server never saw it.
	signedRequest := func(t *testing.T, sent bool) (*http.Request, int) {
		t.Helper()
		cp := &capture{}
		if sent {
			cp.base = e.srv.Client().Transport
		}
		hc := oauth1.NewConfig(clientID, clientSecret).Client(
			context.WithValue(context.Background(), oauth1.HTTPClient, &http.Client{Transport: cp}), oauth1.NewToken(tok, secret))
		resp, err := hc.Get(verifyURL)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return cp.last, resp.StatusCode
	}
	send := func(t *testing.T, r *http.Request) int {
		t.Helper()
		resp, err := e.srv.Client().Transport.RoundTrip(r)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}

	t.Run("a correctly signed request is answered", func(t *testing.T) {
		_, status := signedRequest(t, true)
		assert.Equal(t, http.StatusOK, status)
	})
	t.Run("the same signed request sent again is refused as a replay", func(t *testing.T) {
		r, status := signedRequest(t, true)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, http.StatusUnauthorized, send(t, r))
	})
	t.Run("a signed request whose query was changed is refused", func(t *testing.T) {
		r, _ := signedRequest(t, false)
		untouched := r.Clone(r.Context())
		r.URL.RawQuery = "include_email=false"
		assert.Equal(t, http.StatusUnauthorized, send(t, r))
		assert.Equal(t, http.StatusOK, send(t, untouched), "the request as signed would have passed")
	})
	t.Run("a request with no OAuth header is refused", func(t *testing.T) {
		r, err := http.NewRequest(http.MethodGet, verifyURL, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusUnauthorized, send(t, r))
	})
}
