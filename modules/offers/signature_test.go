package offers_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const postbackSecret = "postback-secret-of-the-panel"

// pathAndQuery is what a server sees of a signed address: its request target.
func pathAndQuery(t *testing.T, signed string) string {
	t.Helper()
	u, err := url.Parse(signed)
	require.NoError(t, err)
	return u.RequestURI()
}

func sign(t *testing.T, raw string) string {
	t.Helper()
	signed, err := offers.SignPostback(raw, postbackSecret)
	require.NoError(t, err)
	return signed
}

func TestASignedPostbackVerifiesWithTheSameSecret(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, raw string
	}{
		{"a postback with every parameter", "https://panel.example/offers/postback?sub_id=s-1&transaction_id=tx-9&offer_id=o-1&offer_name=Tile%20Tumble&amount=1.50&currency=USD&status=credited"},
		{"a postback address that has a query of its own", "https://panel.example/postback?panel=demo&sub_id=s-1&amount=2.00"},
		{"a path with escaped characters", "https://panel.example/offers/post%20back/d%C3%A9mo?sub_id=s-1"},
		{"an address without parameters", "https://panel.example/offers/postback"},
		{"an address without a path", "https://panel.example?sub_id=s-1"},
		{"parameters in a non-alphabetical order", "http://127.0.0.1:3000/p?status=credited&amount=1.50&sub_id=s-1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			signed := sign(t, tc.raw)
			assert.True(t, strings.HasPrefix(signed, strings.SplitN(tc.raw, "?", 2)[0]), "the address is kept: %s", signed)
			assert.NoError(t, offers.VerifyPostback(pathAndQuery(t, signed), postbackSecret))
		})
	}
}

func TestSigningKeepsTheOtherParametersAsTheyWereWritten(t *testing.T) {
	t.Parallel()
	raw := "https://panel.example/pb?sub_id=s-1&offer_name=Tile%20Tumble+Deluxe&amount=1.50&status=credited"
	signed := sign(t, raw)
	require.True(t, strings.HasPrefix(signed, raw+"&signature="), "nothing re-encoded or sorted, the signature last: %s", signed)
	sig := strings.TrimPrefix(signed, raw+"&signature=")
	m := hmac.New(sha256.New, []byte(postbackSecret))
	m.Write([]byte("/pb?sub_id=s-1&offer_name=Tile%20Tumble+Deluxe&amount=1.50&status=credited"))
	assert.Equal(t, hex.EncodeToString(m.Sum(nil)), sig, "hex HMAC-SHA256 of path and query as sent")
}

func TestSigningAgainReplacesAnOldSignature(t *testing.T) {
	t.Parallel()
	once := sign(t, "https://panel.example/pb?sub_id=s-1&amount=1.50")
	again, err := offers.SignPostback(once, "another-secret")
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(again, "signature="))
	assert.NoError(t, offers.VerifyPostback(pathAndQuery(t, again), "another-secret"))
	assert.ErrorIs(t, offers.VerifyPostback(pathAndQuery(t, again), postbackSecret), offers.ErrBadSignature)
}

func TestTheSignatureMayStandAnywhereInTheQuery(t *testing.T) {
	t.Parallel()
	signed := sign(t, "https://panel.example/pb?sub_id=s-1&amount=1.50&status=credited")
	sig := signed[strings.Index(signed, "signature="):]
	cases := map[string]string{
		"first":  "/pb?" + sig + "&sub_id=s-1&amount=1.50&status=credited",
		"middle": "/pb?sub_id=s-1&" + sig + "&amount=1.50&status=credited",
		"last":   "/pb?sub_id=s-1&amount=1.50&status=credited&" + sig,
	}
	for name, target := range cases {
		t.Run(name, func(t *testing.T) {
			assert.NoError(t, offers.VerifyPostback(target, postbackSecret))
		})
	}
}

func TestAPostbackThatIsNotAsSignedIsRefused(t *testing.T) {
	t.Parallel()
	signed := pathAndQuery(t, sign(t, "https://panel.example/pb?sub_id=s-1&transaction_id=tx-1&amount=1.50&currency=USD&status=credited"))
	sig := signed[strings.Index(signed, "signature=")+len("signature="):]
	cases := []struct {
		name   string
		target string
		secret string
		want   error
	}{
		{"a tampered amount", strings.Replace(signed, "amount=1.50", "amount=150.00", 1), postbackSecret, offers.ErrBadSignature},
		{"a tampered status", strings.Replace(signed, "status=credited", "status=reversed", 1), postbackSecret, offers.ErrBadSignature},
		{"another path", strings.Replace(signed, "/pb?", "/pb2?", 1), postbackSecret, offers.ErrBadSignature},
		{"the same parameters in another order (the signature covers the bytes as sent)",
			"/pb?amount=1.50&sub_id=s-1&transaction_id=tx-1&currency=USD&status=credited&signature=" + sig, postbackSecret, offers.ErrBadSignature},
		{"a value re-encoded", strings.Replace(signed, "tx-1", "tx%2D1", 1), postbackSecret, offers.ErrBadSignature},
		{"an added parameter", strings.Replace(signed, "&signature=", "&bonus=1&signature=", 1), postbackSecret, offers.ErrBadSignature},
		{"another secret", signed, "not-the-panel-secret", offers.ErrBadSignature},
		{"an empty secret on our side", signed, "", offers.ErrBadSignature},
		{"a signature that is not hex", strings.Replace(signed, sig, "zz"+sig[2:], 1), postbackSecret, offers.ErrBadSignature},
		{"a truncated signature", strings.Replace(signed, sig, sig[:32], 1), postbackSecret, offers.ErrBadSignature},
		{"two signatures", signed + "&signature=" + sig, postbackSecret, offers.ErrBadSignature},
		{"no signature", strings.Replace(signed, "&signature="+sig, "", 1), postbackSecret, offers.ErrNoSignature},
		{"an empty signature", strings.Replace(signed, "signature="+sig, "signature=", 1), postbackSecret, offers.ErrNoSignature},
		{"no query at all", "/pb", postbackSecret, offers.ErrNoSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.ErrorIs(t, offers.VerifyPostback(tc.target, tc.secret), tc.want)
		})
	}
}

func TestAPostbackCannotBeSignedWithoutASecretOrAUsableAddress(t *testing.T) {
	t.Parallel()
	cases := map[string]struct{ raw, secret string }{
		"an empty secret":       {"https://panel.example/pb?sub_id=s-1", ""},
		"an address that fails": {"https://panel.example/pb?%zz\x7f", postbackSecret},
		"an opaque address":     {"mailto:someone@example.com?sub_id=s-1", postbackSecret},
		"two signatures":        {"https://panel.example/pb?signature=a&signature=b", postbackSecret},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := offers.SignPostback(tc.raw, tc.secret)
			assert.Error(t, err)
		})
	}
}

func TestASignedPostbackSentOverHTTPVerifiesAsReceived(t *testing.T) {
	t.Parallel()
	var got error
	var target string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target = r.RequestURI
		got = offers.VerifyPostback(r.RequestURI, postbackSecret)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	signed := sign(t, srv.URL+"/offers/post%20back?sub_id=s%2F1&offer_name=Word+Orchard&amount=1.75")
	resp, err := http.Get(signed)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.NoError(t, got, "received as %s", target)
}
