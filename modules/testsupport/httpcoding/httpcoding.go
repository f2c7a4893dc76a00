// Package httpcoding undoes a response's Content-Encoding in tests: Fiber's app.Test and a
// raw fasthttp call hand back the body as sent, and the tests ask for br or gzip themselves.
package httpcoding

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// Decode returns body without the coding enc names ("" is the body as it is); any other
// coding, or a body that does not decode, fails the test.
func Decode(t testing.TB, enc string, body []byte) []byte {
	t.Helper()
	var out []byte
	var err error
	switch enc {
	case "":
		return body
	case "br":
		out, err = fasthttp.AppendUnbrotliBytes(nil, body)
	case "gzip":
		out, err = fasthttp.AppendGunzipBytes(nil, body)
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
	}
	if err != nil {
		t.Fatalf("decode %s body: %v", enc, err)
	}
	return out
}
