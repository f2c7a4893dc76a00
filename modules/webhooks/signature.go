package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The headers of every delivery.
const (
	HeaderSignature = "Canvass-Signature"
	HeaderEventID   = "Canvass-Event-Id"
	HeaderEvent     = "Canvass-Event"
	UserAgent       = "Canvass-Webhooks/1"
)

// DefaultTolerance is how far a signature's timestamp may be from the receiver's clock before
// Verify refuses it as a replay (Stripe's default).
const DefaultTolerance = 5 * time.Minute

// Sign is the Canvass-Signature header of body sent at t: "t=UNIX,v1=HEX", HEX being the
// HMAC-SHA256, keyed with the webhook's secret, of "UNIX." followed by the body. The
// timestamp is inside what is signed, so a captured delivery replayed later fails Verify.
func Sign(secret string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Why Verify refuses a delivery.
var (
	// ErrSignatureHeader: the header is missing or not "t=UNIX,v1=HEX[,v1=HEX…]".
	ErrSignatureHeader = errors.New("webhooks: malformed Canvass-Signature header")
	// ErrSignatureMismatch: no v1 signature is the body's with this secret (another secret, or
	// a body changed on the way).
	ErrSignatureMismatch = errors.New("webhooks: the signature does not match the body")
	// ErrSignatureExpired: the timestamp is further than the tolerance from now (a replay, or
	// a clock far off).
	ErrSignatureExpired = errors.New("webhooks: the signature's timestamp is outside the tolerance")
)

// Verify checks a delivery as a receiver does: header is the Canvass-Signature header, body the
// request's body exactly as received (before any JSON decoding), now the receiver's clock and
// tolerance how far the signed timestamp may be from it (DefaultTolerance; 0 or less checks no
// time). Any one v1 signature matching is enough (several are sent while a secret is rotated).
// Signatures are compared in constant time.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrSignatureHeader
		}
		switch k {
		case "t":
			if ts != "" {
				return ErrSignatureHeader
			}
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil || len(sig) != sha256.Size {
				return ErrSignatureHeader
			}
			sigs = append(sigs, sig)
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return ErrSignatureHeader
	}
	want := mac(secret, ts, body)
	matched := false
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			matched = true
		}
	}
	if !matched {
		return ErrSignatureMismatch
	}
	if tolerance > 0 {
		if d := now.Sub(time.Unix(unix, 0)); d > tolerance || d < -tolerance {
			return ErrSignatureExpired
		}
	}
	return nil
}
