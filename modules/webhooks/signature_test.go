package webhooks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestASignatureVerifiesOnlyWithItsSecretItsBodyAndATimestampWithinTheTolerance(t *testing.T) {
	t.Parallel()
	const secret = "whsec_the-receivers-secret"
	body := []byte(`{"id":"e1","event":"participation.completed"}`)
	sent := time.Unix(1795860000, 0) // 2026-11-28 10:00 UTC
	header := Sign(secret, body, sent)
	other := Sign("whsec_another-secret", body, sent)
	for _, tc := range []struct {
		name      string
		secret    string
		header    string
		body      []byte
		now       time.Time
		tolerance time.Duration
		want      error
	}{
		{"the right secret, body and a fresh timestamp verify", secret, header, body, sent.Add(30 * time.Second), DefaultTolerance, nil},
		{"a wrong secret does not", "whsec_wrong", header, body, sent, DefaultTolerance, ErrSignatureMismatch},
		{"a tampered body does not", secret, header, []byte(`{"id":"e1","event":"participation.screened"}`), sent, DefaultTolerance, ErrSignatureMismatch},
		{"a body with a byte more does not", secret, header, append([]byte(nil), append(body, ' ')...), sent, DefaultTolerance, ErrSignatureMismatch},
		{"an old timestamp is a replay", secret, header, body, sent.Add(DefaultTolerance + time.Second), DefaultTolerance, ErrSignatureExpired},
		{"a timestamp from the future is refused too", secret, header, body, sent.Add(-DefaultTolerance - time.Second), DefaultTolerance, ErrSignatureExpired},
		{"no tolerance checks no time", secret, header, body, sent.Add(48 * time.Hour), 0, nil},
		{"a timestamp changed to look fresh breaks the signature", secret, "t=" + "1900000000" + header[len("t=1795860000"):], body, time.Unix(1900000000, 0), DefaultTolerance, ErrSignatureMismatch},
		{"one matching v1 among several verifies (a secret being rotated)", secret, other + ",v1=" + header[len("t=1795860000,v1="):], body, sent, DefaultTolerance, nil},
		{"a missing header is malformed", secret, "", body, sent, DefaultTolerance, ErrSignatureHeader},
		{"a header without v1 is malformed", secret, "t=1795860000", body, sent, DefaultTolerance, ErrSignatureHeader},
		{"a header without t is malformed", secret, header[len("t=1795860000,"):], body, sent, DefaultTolerance, ErrSignatureHeader},
		{"a v1 that is not hex is malformed", secret, "t=1795860000,v1=zz", body, sent, DefaultTolerance, ErrSignatureHeader},
		{"two timestamps are malformed", secret, "t=1,t=2,v1=" + header[len("t=1795860000,v1="):], body, sent, DefaultTolerance, ErrSignatureHeader},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.ErrorIs(t, Verify(tc.secret, tc.header, tc.body, tc.now, tc.tolerance), tc.want)
		})
	}
}

func TestASignatureIsStripesScheme(t *testing.T) {
	t.Parallel()
	// HMAC-SHA256("whsec_x", "1795860000.{}"), computed independently:
	// printf '1795860000.{}' | openssl dgst -sha256 -hmac whsec_x
	at := time.Unix(1795860000, 0)
	assert.Equal(t, "t=1795860000,v1=79910938a8d1196f9e57844864a1895832b611f637e3f209cb55034593e118a9", Sign("whsec_x", []byte("{}"), at))
}
