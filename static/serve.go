package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

// Content codings the build writes next to a file (islands/precompress.mjs), in the order the
// server prefers them: Brotli is 10-15% smaller than gzip on our bundles.
const (
	EncodingBrotli = "br"
	EncodingGzip   = "gzip"
)

// suffixes maps a content coding to the file suffix of its variant.
var suffixes = map[string]string{EncodingBrotli: ".br", EncodingGzip: ".gz"}

// precompressedDir holds the variants of the hand-written files (css/, img/): they are built
// under dist/ so that nothing generated sits beside committed sources.
const precompressedDir = "dist/precompressed/"

// hashedDir holds Vite's content-hashed bundles: a changed file gets a new name.
const hashedDir = "dist/assets/"

const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheHour      = "public, max-age=3600"
)

// contentTypes fixes the types of the files we ship; mime.TypeByExtension would read the
// machine's /etc/mime.types and could answer differently from one host to another.
var contentTypes = map[string]string{
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".html":  "text/html; charset=utf-8",
	".txt":   "text/plain; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".xml":   "application/xml",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".jpeg":  "image/jpeg",
	".gif":   "image/gif",
	".webp":  "image/webp",
	".avif":  "image/avif",
	".ico":   "image/x-icon",
	".woff":  "font/woff",
	".woff2": "font/woff2",
}

func contentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// variant is one representation of a file: its bytes, their coding and their validator.
type variant struct {
	body     []byte
	encoding string // "" for identity
	etag     string
}

// file is a servable file with the variants the build made of it.
type file struct {
	contentType string
	hashed      bool      // under dist/assets/: the name changes with the content
	identity    variant   // the file as written
	variants    []variant // compressed, in the server's order of preference
	offered     []string  // the variants' codings, for PreferredEncoding
}

// pick returns the variant to send for an Accept-Encoding header.
func (f *file) pick(acceptEncoding string) *variant {
	if enc := PreferredEncoding(acceptEncoding, f.offered...); enc != "" {
		for i := range f.variants {
			if f.variants[i].encoding == enc {
				return &f.variants[i]
			}
		}
	}
	return &f.identity
}

// Files is a set of static files prepared for serving: every file read, hashed and paired with
// its precompressed variants once, so that a request only looks a path up and sends bytes.
type Files struct {
	byPath map[string]*file
	stale  []string
}

// NewFiles prepares every file of fsys (normally FS). It does not serve dotfiles (dist/.vite's
// manifest is build metadata, read by Load) nor the variants by their own names. A variant that
// does not decompress to its original (a source edited since the last `npm run build`) is left
// out, so the original is sent, and reported by Stale.
func NewFiles(fsys fs.FS) (*Files, error) {
	data := map[string][]byte{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("static: read %s: %w", p, err)
		}
		data[p] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: list files: %w", err)
	}

	out := &Files{byPath: map[string]*file{}}
	isVariant := func(p string) bool {
		if strings.HasPrefix(p, precompressedDir) {
			return true
		}
		for _, suffix := range suffixes {
			if orig, ok := strings.CutSuffix(p, suffix); ok {
				if _, exists := data[orig]; exists {
					return true
				}
			}
		}
		return false
	}
	for p, body := range data {
		if isVariant(p) {
			continue
		}
		f := &file{
			contentType: contentType(p),
			hashed:      strings.HasPrefix(p, hashedDir),
			identity:    variant{body: body, etag: etag(body, "")},
		}
		for _, enc := range []string{EncodingBrotli, EncodingGzip} {
			vp := variantPath(p, enc)
			vb, ok := data[vp]
			if !ok {
				continue
			}
			if !decodesTo(vb, enc, body) {
				out.stale = append(out.stale, vp)
				continue
			}
			f.variants = append(f.variants, variant{body: vb, encoding: enc, etag: etag(vb, enc)})
			f.offered = append(f.offered, enc)
		}
		out.byPath[p] = f
	}
	sort.Strings(out.stale)
	return out, nil
}

// variantPath is where the build writes the variant of p in coding enc.
func variantPath(p, enc string) string {
	if strings.HasPrefix(p, "dist/") {
		return p + suffixes[enc]
	}
	return precompressedDir + p + suffixes[enc]
}

// decodesTo tells whether body in coding enc decompresses to want.
func decodesTo(body []byte, enc string, want []byte) bool {
	var got []byte
	var err error
	switch enc {
	case EncodingBrotli:
		got, err = fasthttp.AppendUnbrotliBytes(nil, body)
	case EncodingGzip:
		got, err = fasthttp.AppendGunzipBytes(nil, body)
	default:
		return false
	}
	return err == nil && bytes.Equal(got, want)
}

// etag is a strong validator of one variant's bytes: 96 bits of their SHA-256, with the coding
// as a suffix so that the variants of a file are told apart at a glance.
func etag(body []byte, enc string) string {
	sum := sha256.Sum256(body)
	tag := hex.EncodeToString(sum[:12])
	switch enc {
	case EncodingBrotli:
		tag += "-br"
	case EncodingGzip:
		tag += "-gz"
	}
	return `"` + tag + `"`
}

// Stale lists the variants left out because they do not match their original: the static
// files changed after the last build (run `make islands`).
func (s *Files) Stale() []string { return s.stale }

var embedded = sync.OnceValues(func() (*Files, error) { return NewFiles(FS) })

// Embedded is FS prepared by NewFiles, once per process (every app in a test binary shares it).
func Embedded() (*Files, error) { return embedded() }

// Handler serves the files under URLPrefix (mount it with app.Use("/static", ...)):
//
//   - the variant the client prefers by Accept-Encoding (Brotli, then gzip, else the file as
//     written), with Content-Encoding, Vary: Accept-Encoding and its own Content-Length;
//   - the Content-Type of the original file's extension;
//   - a strong ETag per variant, and 304 Not Modified to a matching If-None-Match. There is no
//     Last-Modified: go:embed keeps no modification times (Fiber's static middleware sent the
//     zero time), and the process's start time would claim a change at every restart and
//     differ between replicas; the ETag is exact.
//   - Cache-Control: a year, immutable, for content-hashed bundles (dist/assets/) and for URLs
//     versioned by ?v= (app.css); an hour otherwise.
//
// Unknown paths and directories are a plain 404 (there are no listings); methods other than
// GET and HEAD go on to the next handler, as they did with Fiber's static middleware.
func (s *Files) Handler() fiber.Handler {
	return func(c fiber.Ctx) error {
		method := c.Method()
		if method != fiber.MethodGet && method != fiber.MethodHead {
			return c.Next()
		}
		name, ok := strings.CutPrefix(c.Path(), URLPrefix)
		f := s.byPath[name]
		if !ok || f == nil {
			c.Set(fiber.HeaderCacheControl, "no-cache")
			return c.Status(fiber.StatusNotFound).SendString("Not Found")
		}
		v := f.pick(c.Get(fiber.HeaderAcceptEncoding))
		h := &c.Response().Header
		// Set on a 304 too: caches merge its headers into the response they keep.
		h.SetContentType(f.contentType)
		if f.hashed || c.Query("v") != "" {
			h.Set(fiber.HeaderCacheControl, cacheImmutable)
		} else {
			h.Set(fiber.HeaderCacheControl, cacheHour)
		}
		if len(f.variants) > 0 {
			h.Add(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
		}
		if v.encoding != "" {
			h.Set(fiber.HeaderContentEncoding, v.encoding)
		}
		h.Set(fiber.HeaderETag, v.etag)
		if noneMatch := c.Get(fiber.HeaderIfNoneMatch); noneMatch != "" && etagMatches(noneMatch, v.etag) {
			c.Status(fiber.StatusNotModified)
			return nil
		}
		// The bytes are shared by every request and never written to.
		c.Response().SetBodyRaw(v.body)
		return nil
	}
}

// etagMatches applies If-None-Match's weak comparison (RFC 9110, 13.1.2): "*" or any listed
// tag whose opaque part equals tag's, with or without W/.
func etagMatches(header, tag string) bool {
	for rest := header; ; {
		rest = strings.TrimLeft(rest, " \t,")
		if rest == "" {
			return false
		}
		if rest[0] == '*' {
			return true
		}
		rest = strings.TrimPrefix(rest, "W/")
		if rest == "" || rest[0] != '"' {
			return false // malformed: nothing after it can be trusted
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return false
		}
		if rest[:end+2] == tag {
			return true
		}
		rest = rest[end+2:]
	}
}

// PreferredEncoding picks the content coding of a response from a request's Accept-Encoding
// among offered, which lists the codings available in the server's order of preference. The
// coding with the highest q-value wins, the earlier in offered on a tie; "*" stands for every
// coding not named; q=0 refuses a coding. It returns "" (identity) when the header is absent or
// accepts none of offered, or when it names identity with a higher q-value than the best of
// them. Codings and parameter names are case-insensitive; x-gzip counts as gzip.
func PreferredEncoding(acceptEncoding string, offered ...string) string {
	if strings.TrimSpace(acceptEncoding) == "" || len(offered) == 0 {
		return ""
	}
	const maxOffered = 4
	var q [maxOffered]float64
	var named [maxOffered]bool
	star, starNamed := 0.0, false
	identity, identityNamed := 0.0, false
	for rest := acceptEncoding; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		w := qValue(params)
		switch {
		case coding == "":
		case coding == "*":
			star, starNamed = w, true
		case strings.EqualFold(coding, "identity"):
			identity, identityNamed = w, true
		default:
			if strings.EqualFold(coding, "x-gzip") {
				coding = EncodingGzip
			}
			for i, o := range offered {
				if i < maxOffered && !named[i] && strings.EqualFold(coding, o) {
					q[i], named[i] = w, true
				}
			}
		}
	}
	best, bestQ := "", 0.0
	for i, o := range offered {
		if i >= maxOffered {
			break
		}
		w := q[i]
		if !named[i] {
			if !starNamed {
				continue
			}
			w = star
		}
		if w > bestQ {
			best, bestQ = o, w
		}
	}
	if best != "" && identityNamed && identity > bestQ {
		return ""
	}
	return best
}

// qValue reads the q parameter of one Accept-Encoding element: 1 when absent, 0 when it is not
// a number from 0 to 1 (a coding the client spelled wrongly is not one to send it).
func qValue(params string) float64 {
	for rest := params; rest != ""; {
		var p string
		p, rest, _ = strings.Cut(rest, ";")
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || q < 0 || q > 1 {
			return 0
		}
		return q
	}
	return 1
}
