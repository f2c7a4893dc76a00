package webhooks

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeResolver answers every look-up with its addresses, or its error.
type fakeResolver struct {
	addrs []string
	err   error
}

func (r fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, a := range r.addrs {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, r.err
}

func TestAWebhookURLMustBeHttpsToAPublicAddressOutsideDevelopment(t *testing.T) {
	t.Parallel()
	public := fakeResolver{addrs: []string{"93.184.215.14"}}
	for _, tc := range []struct {
		name         string
		url          string
		resolver     fakeResolver
		allowPrivate bool
		want         error
	}{
		{"an https URL to a public host is taken", "https://hooks.example.com/canvass?x=1", public, false, nil},
		{"a public address with a port is taken", "https://93.184.215.14:8443/in", public, false, nil},
		{"plain http is refused", "http://hooks.example.com/canvass", public, false, ErrURLScheme},
		{"another scheme is refused", "ftp://hooks.example.com/", public, false, ErrURLScheme},
		{"a relative URL is refused", "/hooks", public, false, ErrURLInvalid},
		{"no host is refused", "https:///hooks", public, false, ErrURLInvalid},
		{"user info is refused", "https://user:pass@hooks.example.com/", public, false, ErrURLInvalid},
		{"spaces are refused", "https://hooks.example.com/a b", public, false, ErrURLInvalid},
		{"an empty URL is refused", "", public, false, ErrURLInvalid},
		{"a port out of range is refused", "https://hooks.example.com:70000/", public, false, ErrURLInvalid},
		{"loopback is refused", "https://127.0.0.1/hooks", public, false, ErrURLPrivate},
		{"IPv6 loopback is refused", "https://[::1]:8443/hooks", public, false, ErrURLPrivate},
		{"loopback mapped into IPv6 is refused", "https://[::ffff:127.0.0.1]/hooks", public, false, ErrURLPrivate},
		{"a private network is refused", "https://10.1.2.3/hooks", public, false, ErrURLPrivate},
		{"another private network is refused", "https://192.168.0.10/hooks", public, false, ErrURLPrivate},
		{"the cloud metadata address (link-local) is refused", "https://169.254.169.254/latest/meta-data", public, false, ErrURLPrivate},
		{"shared address space is refused", "https://100.64.0.1/", public, false, ErrURLPrivate},
		{"the unspecified address is refused", "https://0.0.0.0/", public, false, ErrURLPrivate},
		{"IPv6 unique-local is refused", "https://[fd00::1]/", public, false, ErrURLPrivate},
		{"localhost is refused without a look-up", "https://localhost:8443/hooks", fakeResolver{err: errors.New("no look-up expected")}, false, ErrURLPrivate},
		{"a name under localhost is refused", "https://api.localhost/hooks", public, false, ErrURLPrivate},
		{"a name that resolves to a private address is refused", "https://intranet.example.com/", fakeResolver{addrs: []string{"93.184.215.14", "10.0.0.7"}}, false, ErrURLPrivate},
		{"a name that does not resolve is refused", "https://nowhere.example.com/", fakeResolver{err: errors.New("no such host")}, false, ErrURLResolve},
		{"in development loopback is taken", "https://127.0.0.1:8443/hooks", public, true, nil},
		{"in development plain http is still refused", "http://127.0.0.1:8443/hooks", public, true, ErrURLScheme},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := CheckURL(context.Background(), tc.url, tc.allowPrivate, tc.resolver)
			if tc.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.want)
			}
		})
	}
}

func TestADeliveryClientRefusesToConnectToALoopbackAddressOutsideDevelopment(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(srv.Close)
	// A name that resolved to a public address when saved and to 127.0.0.1 now (DNS
	// rebinding) is stopped where it connects.
	_, err := NewClient(false).Post(srv.URL, "application/json", nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrURLPrivate)

	res, err := NewClient(true).Post(srv.URL, "application/json", nil)
	require.NoError(t, err, "development may reach loopback")
	res.Body.Close()
	assert.Equal(t, http.StatusNoContent, res.StatusCode)
}

func TestADeliveryClientFollowsNoRedirect(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	res, err := NewClient(true).Post(srv.URL, "application/json", nil)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusFound, res.StatusCode, "a redirect is an answer that is not 2xx, never followed")
}

func TestDeliveriesAreRetriedWithBackoffAtMostAnHourApartForADay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		attempt int
		wait    time.Duration
	}{
		{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {4, 4 * time.Minute}, {5, 8 * time.Minute},
		{6, 16 * time.Minute}, {7, 32 * time.Minute}, {8, time.Hour}, {9, time.Hour}, {40, time.Hour}, {0, 30 * time.Second},
	} {
		assert.Equal(t, tc.wait, RetryAfter(tc.attempt), "after attempt %d", tc.attempt)
	}
	var span time.Duration
	for a := 1; a < TaskAttempts; a++ {
		span += RetryAfter(a)
	}
	assert.Greater(t, span, RetryWindow, "the attempts outlast the window: the day, not the count, ends the retries")
}
