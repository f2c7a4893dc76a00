package web

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"strings"

	"github.com/canvass/canvass/static"
	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

// Dynamic compression. Fiber's compress middleware (fasthttp's CompressHandlerBrotliLevel) was
// not enough: it matches Accept-Encoding by substring and ignores q-values ("gzip;q=1" matches
// nothing), compresses every text/* and application/* type including streams, has a fixed
// 200-byte threshold and offers Brotli only at quality 0, 4 or 11. This one picks the coding
// with static.PreferredEncoding and compresses with fasthttp's pooled writers.
const (
	// CompressMinSize is the smallest body compressed: below about 1 KiB the coding's framing
	// and the CPU time buy little (and a 1-packet answer stays one packet anyway).
	CompressMinSize = 1024
	// CompressBrotliLevel is the Brotli quality for dynamic answers, held to about 0.3 ms for a
	// 25 KiB page (BenchmarkDynamicCompressionLevels in app/, on the 2-core build machine: the
	// demo feed page, 26 KiB): 4 makes it 3.6 KB in 0.27 ms of CPU (0.29-0.35 ms wall-clock
	// under load); 3 is 0.21 ms for 6% more bytes; 5 is 9% smaller but 0.34 ms and up.
	CompressBrotliLevel = 4
	// CompressGzipLevel is gzip's level for clients without Brotli: 6, the zlib default
	// (3.75 KB in 0.08 ms on the same page; 9 saves 1% for 2x the time).
	CompressGzipLevel = 6
)

// compressibleTypes are the media types worth compressing. Images other than SVG (the 1x1
// tracking GIF of events/record), fonts and archives are compressed already; text/event-stream
// must reach the client event by event, not at the end of a compressed block.
var compressibleTypes = map[string]bool{
	"text/html": true, "text/plain": true, "text/css": true, "text/javascript": true, "text/xml": true,
	"application/json": true, "application/javascript": true, "application/xml": true,
	"application/problem+json": true, "image/svg+xml": true,
}

// BREACH (length oracles on compressed responses). An attacker who can make a member's browser
// send requests (another site's links, images, forms) and see the size of the answers on the
// wire can recover a secret in a compressed body byte by byte, if the same body also reflects
// text the attacker chose. Audit of the compressible answers that carry a secret:
//
//   - Every HTML page: the CSRF token (<meta name="csrf-token">, hidden _csrf fields), and
//     every page reflects the request (its URL in the language links, /error?title=, a form
//     sent back). The token is rendered masked with a fresh pad per response (csrf.go:
//     maskCSRF), so no two responses share its bytes; the raw token lives only in the
//     XSRF-TOKEN cookie, a header, never compressed into a body.
//   - POST /ah/api/v2/user/login and /register answer the pp-token (ppToken); GET and POST
//     /ah/api/v1/user/profile and GET /api/v3/user/profile answer it too (UserProfile.PPToken),
//     GET /ah/api/v1/user/profile/jwt a signed token: never compressed (secretPaths).
//   - Any other answer whose body contains the signed-in member's pp-token, such as the
//     /embed/ notice whose gate link carries ?token= (accounts.GateFor): never compressed, by
//     content, so a new page that prints the token is covered without being listed.
//   - Compressed HTML for a signed-in member gets a random-length comment (padHTML) that
//     blurs the lengths of what else a page shows (email, names, balance).
//
// Checked and left as they are: password-reset and email-validation tokens come in the
// request's own URL (an attacker who could send them would not need an oracle); mobile
// verification codes are sent by SMS and never answered; payout details are answered masked,
// and in full only in the POST that sent them (which CSRF keeps to our own pages); preview
// signatures, like reset tokens, only come back to whoever already sent them; the pp-token and
// session cookies and Location headers are headers, not bodies.
var secretPaths = map[string]bool{
	"/ah/api/v2/user/login":       true,
	"/ah/api/v2/user/register":    true,
	"/ah/api/v1/user/profile":     true,
	"/ah/api/v1/user/profile/jwt": true,
	"/api/v3/user/profile":        true,
}

type noCompressKey struct{}

// NoCompression keeps this request's answer uncompressed: for a handler whose body carries a
// secret next to text the request chose (see the BREACH notes in compress.go).
func NoCompression(c fiber.Ctx) { c.Locals(noCompressKey{}, true) }

// Compress compresses HTML, JSON and other text answers of at least CompressMinSize bytes with
// Brotli or gzip, as the request's Accept-Encoding prefers, and marks every answer that could
// have been compressed with Vary: Accept-Encoding. It leaves alone /static/ (precompressed at
// build time), HEAD, statuses without a body or with a range, streamed bodies, answers that
// already have a Content-Encoding or say Cache-Control: no-transform, and answers that carry a
// secret (see above). An error goes up uncompressed to the app's error handler, which must
// render last (after SecurityHeaders: the unexpected-error page sets its own CSP).
func Compress() fiber.Handler {
	return func(c fiber.Ctx) error {
		if strings.HasPrefix(c.Path(), static.URLPrefix) {
			return c.Next()
		}
		if err := c.Next(); err != nil {
			return err
		}
		resp := c.Response()
		h := &resp.Header
		// Before anything reads Body(), which would drain a stream into memory.
		if resp.IsBodyStream() || len(h.ContentEncoding()) > 0 || !compressibleType(h.ContentType()) {
			return nil
		}
		if secretPaths[normalPath(c.Path())] || c.Locals(noCompressKey{}) != nil {
			return nil
		}
		body := resp.Body()
		if m := MemberOf(c); m != nil && m.Token != "" && bytes.Contains(body, []byte(m.Token)) {
			return nil
		}
		if status := resp.StatusCode(); status < 200 || status == fiber.StatusNoContent ||
			status == fiber.StatusResetContent || status == fiber.StatusNotModified || status == fiber.StatusPartialContent {
			return nil
		}
		if c.Get(fiber.HeaderRange) != "" || hasToken(string(h.Peek(fiber.HeaderCacheControl)), "no-transform") {
			return nil
		}
		addVary(h)
		if c.Method() == fiber.MethodHead || len(body) < CompressMinSize {
			return nil
		}
		enc := static.PreferredEncoding(c.Get(fiber.HeaderAcceptEncoding), static.EncodingBrotli, static.EncodingGzip)
		if enc == "" {
			return nil
		}
		if MemberOf(c) != nil && bytes.HasPrefix(h.ContentType(), []byte("text/html")) {
			body = padHTML(body)
		}
		out := make([]byte, 0, len(body)/3)
		if enc == static.EncodingBrotli {
			out = fasthttp.AppendBrotliBytesLevel(out, body, CompressBrotliLevel)
		} else {
			out = fasthttp.AppendGzipBytesLevel(out, body, CompressGzipLevel)
		}
		if len(out) >= len(body) {
			return nil
		}
		resp.SetBodyRaw(out)
		h.Set(fiber.HeaderContentEncoding, enc)
		// A strong validator names exact bytes: the compressed ones are others.
		if tag := string(h.Peek(fiber.HeaderETag)); strings.HasPrefix(tag, `"`) && strings.HasSuffix(tag, `"`) && len(tag) >= 2 {
			h.Set(fiber.HeaderETag, tag[:len(tag)-1]+"-"+enc+`"`)
		}
		return nil
	}
}

func compressibleType(contentType []byte) bool {
	mt, _, _ := bytes.Cut(contentType, []byte(";"))
	return compressibleTypes[strings.ToLower(strings.TrimSpace(string(mt)))]
}

// normalPath is the path as the router matches it (case-insensitive, trailing slash optional).
func normalPath(p string) string {
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return strings.ToLower(p)
}

// addVary adds Accept-Encoding to the response's Vary unless it is there already (or "*").
func addVary(h *fasthttp.ResponseHeader) {
	vary := string(h.Peek(fiber.HeaderVary))
	switch {
	case vary == "":
		h.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	case hasToken(vary, fiber.HeaderAcceptEncoding), hasToken(vary, "*"):
	default:
		h.Set(fiber.HeaderVary, vary+", "+fiber.HeaderAcceptEncoding)
	}
}

// hasToken tells whether a comma-separated header value lists token (case-insensitive).
func hasToken(value, token string) bool {
	for part := range strings.SplitSeq(value, ",") {
		if name, _, _ := strings.Cut(part, "="); strings.EqualFold(strings.TrimSpace(name), token) {
			return true
		}
	}
	return false
}

// padHTML appends a comment of 0 to 31 random characters: the compressed length of a page
// then varies from one response to the next by more than a guessed byte changes it.
func padHTML(body []byte) []byte {
	var r [25]byte
	if _, err := rand.Read(r[:]); err != nil {
		panic(err)
	}
	n := int(r[0] % 32)
	pad := base64.RawURLEncoding.EncodeToString(r[1:])[:n]
	out := make([]byte, 0, len(body)+len(pad)+7)
	out = append(out, body...)
	return append(append(append(out, "<!--"...), pad...), "-->"...)
}
