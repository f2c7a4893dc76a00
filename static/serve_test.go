package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/canvass/canvass/modules/testsupport/httpcoding"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func brotlied(b []byte) []byte { return fasthttp.AppendBrotliBytesLevel(nil, b, 11) }

var (
	mainJS   = []byte(strings.Repeat("export const greeting = 'hello, members on slow networks';\n", 80))
	appCSS   = []byte(strings.Repeat(".card { color: var(--color-primary); padding: 1rem; }\n", 60))
	logoSVG  = []byte(`<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat(`<circle cx="5" cy="5" r="4"/>`, 30) + `</svg>`)
	staleSVG = []byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9"/></svg>`)
	photoPNG = []byte("\x89PNG\r\n\x1a\n not really a picture")
)

// testFiles is a build as islands/precompress.mjs leaves it: bundles with both variants, the
// hand-written stylesheet's under dist/precompressed, an SVG with gzip only, a stale variant,
// and files that are not served (dotfiles).
func testFiles(t *testing.T) fs.FS {
	t.Helper()
	file := func(b []byte) *fstest.MapFile { return &fstest.MapFile{Data: b} }
	return fstest.MapFS{
		"dist/.gitignore":                     file([]byte("*\n")),
		"dist/.vite/manifest.json":            file([]byte(`{}`)),
		"dist/assets/main-abc123.js":          file(mainJS),
		"dist/assets/main-abc123.js.br":       file(brotlied(mainJS)),
		"dist/assets/main-abc123.js.gz":       file(gzipped(t, mainJS)),
		"dist/assets/tiny-abc123.js":          file([]byte("export{}")),
		"css/app.css":                         file(appCSS),
		"dist/precompressed/css/app.css.br":   file(brotlied(appCSS)),
		"dist/precompressed/css/app.css.gz":   file(gzipped(t, appCSS)),
		"img/logo.svg":                        file(logoSVG),
		"dist/precompressed/img/logo.svg.gz":  file(gzipped(t, logoSVG)),
		"img/stale.svg":                       file(staleSVG),
		"dist/precompressed/img/stale.svg.br": file(brotlied([]byte("<svg>an older drawing</svg>"))),
		"img/photo.png":                       file(photoPNG),
	}
}

// staticApp serves files under /static like app/server.go; what the handler passes on
// answers 418, so that the test sees it.
func staticApp(t *testing.T, fsys fs.FS) (*fiber.App, *Files) {
	t.Helper()
	files, err := NewFiles(fsys)
	require.NoError(t, err)
	app := fiber.New()
	app.Use("/static", files.Handler())
	app.Use(func(c fiber.Ctx) error { return c.SendStatus(fiber.StatusTeapot) })
	return app, files
}

func serve(t *testing.T, app *fiber.App, method, target string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, "http://localhost"+target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := app.Test(req, fiber.TestConfig{Timeout: 10 * time.Second, FailOnTimeout: true})
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, body
}

func TestPreferredEncodingHonoursTheClientsQValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		accept string
		offer  []string
		want   string
	}{
		{name: "no header gets the file as written", accept: "", offer: []string{"br", "gzip"}, want: ""},
		{name: "a browser's list gets Brotli", accept: "gzip, deflate, br, zstd", offer: []string{"br", "gzip"}, want: "br"},
		{name: "gzip alone gets gzip", accept: "gzip", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "Brotli refused with q=0 falls back to gzip", accept: "br;q=0, gzip", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "a higher q-value beats the server's preference", accept: "br;q=0.5, gzip;q=0.8", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "equal q-values go to the server's preference", accept: "gzip;q=0.8, br;q=0.8", offer: []string{"br", "gzip"}, want: "br"},
		{name: "q-values with spaces and capitals are read", accept: " GZIP ; Q = 1.0 ", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "everything refused gets the file as written", accept: "br;q=0, gzip;q=0", offer: []string{"br", "gzip"}, want: ""},
		{name: "only unknown codings get the file as written", accept: "deflate, zstd", offer: []string{"br", "gzip"}, want: ""},
		{name: "identity alone gets the file as written", accept: "identity", offer: []string{"br", "gzip"}, want: ""},
		{name: "a star accepts what is not named", accept: "*", offer: []string{"br", "gzip"}, want: "br"},
		{name: "a star does not undo a named refusal", accept: "br;q=0, *", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "a refusing star refuses what is not named", accept: "*;q=0, gzip;q=0.1", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "identity preferred explicitly wins", accept: "identity;q=1, gzip;q=0.5", offer: []string{"br", "gzip"}, want: ""},
		{name: "x-gzip counts as gzip", accept: "x-gzip", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "an unreadable q-value refuses that coding", accept: "br;q=high, gzip", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "a q-value above 1 refuses that coding", accept: "br;q=2, gzip", offer: []string{"br", "gzip"}, want: "gzip"},
		{name: "only what is offered is chosen", accept: "br, gzip", offer: []string{"gzip"}, want: "gzip"},
		{name: "nothing offered gets the file as written", accept: "br, gzip", offer: nil, want: ""},
		{name: "a coding's name inside another's is no match", accept: "brotli, xgzip", offer: []string{"br", "gzip"}, want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, PreferredEncoding(tc.accept, tc.offer...))
		})
	}
}

func TestTheHandlerSendsTheVariantTheClientPrefers(t *testing.T) {
	t.Parallel()
	app, _ := staticApp(t, testFiles(t))
	cases := []struct {
		name        string
		path        string
		accept      string
		wantEnc     string
		wantType    string
		wantVary    bool
		wantCache   string
		wantContent []byte
	}{
		{name: "a bundle in Brotli to a browser", path: "/static/dist/assets/main-abc123.js", accept: "gzip, deflate, br, zstd",
			wantEnc: "br", wantType: "text/javascript; charset=utf-8", wantVary: true, wantCache: cacheImmutable, wantContent: mainJS},
		{name: "a bundle in gzip without Brotli", path: "/static/dist/assets/main-abc123.js", accept: "gzip",
			wantEnc: "gzip", wantType: "text/javascript; charset=utf-8", wantVary: true, wantCache: cacheImmutable, wantContent: mainJS},
		{name: "a bundle as written without Accept-Encoding", path: "/static/dist/assets/main-abc123.js",
			wantType: "text/javascript; charset=utf-8", wantVary: true, wantCache: cacheImmutable, wantContent: mainJS},
		{name: "a bundle as written when both codings are refused", path: "/static/dist/assets/main-abc123.js", accept: "br;q=0, gzip;q=0",
			wantType: "text/javascript; charset=utf-8", wantVary: true, wantCache: cacheImmutable, wantContent: mainJS},
		{name: "a bundle without variants as written", path: "/static/dist/assets/tiny-abc123.js", accept: "br, gzip",
			wantType: "text/javascript; charset=utf-8", wantCache: cacheImmutable, wantContent: []byte("export{}")},
		{name: "the stylesheet from dist/precompressed, for an hour", path: "/static/css/app.css", accept: "br",
			wantEnc: "br", wantType: "text/css; charset=utf-8", wantVary: true, wantCache: cacheHour, wantContent: appCSS},
		{name: "the stylesheet versioned by ?v= for a year", path: "/static/css/app.css?v=3f2a", accept: "gzip",
			wantEnc: "gzip", wantType: "text/css; charset=utf-8", wantVary: true, wantCache: cacheImmutable, wantContent: appCSS},
		{name: "an SVG with only gzip gets gzip though Brotli is preferred", path: "/static/img/logo.svg", accept: "br, gzip",
			wantEnc: "gzip", wantType: "image/svg+xml", wantVary: true, wantCache: cacheHour, wantContent: logoSVG},
		{name: "an SVG with only gzip as written to a Brotli-only client", path: "/static/img/logo.svg", accept: "br",
			wantType: "image/svg+xml", wantVary: true, wantCache: cacheHour, wantContent: logoSVG},
		{name: "a stale variant is never sent", path: "/static/img/stale.svg", accept: "br",
			wantType: "image/svg+xml", wantCache: cacheHour, wantContent: staleSVG},
		{name: "a picture as it is", path: "/static/img/photo.png", accept: "br, gzip",
			wantType: "image/png", wantCache: cacheHour, wantContent: photoPNG},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := serve(t, app, http.MethodGet, tc.path, http.Header{"Accept-Encoding": {tc.accept}})
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, tc.wantEnc, res.Header.Get("Content-Encoding"))
			assert.Equal(t, tc.wantType, res.Header.Get("Content-Type"))
			assert.Equal(t, tc.wantCache, res.Header.Get("Cache-Control"))
			if tc.wantVary {
				assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
			} else {
				assert.Empty(t, res.Header.Get("Vary"))
			}
			assert.Equal(t, strconv.Itoa(len(body)), res.Header.Get("Content-Length"), "the length of the variant sent")
			assert.Equal(t, tc.wantContent, httpcoding.Decode(t, tc.wantEnc, body))
			if tc.wantEnc != "" {
				assert.Less(t, len(body), len(tc.wantContent))
			}
			assert.Empty(t, res.Header.Get("Last-Modified"), "no made-up modification time")
			assert.Regexp(t, `^"[0-9a-f]{24}(-br|-gz)?"$`, res.Header.Get("ETag"))
		})
	}
}

func TestEachVariantHasItsOwnETagAndRevalidatesWith304(t *testing.T) {
	t.Parallel()
	app, _ := staticApp(t, testFiles(t))
	const path = "/static/dist/assets/main-abc123.js"
	tags := map[string]string{}
	for _, accept := range []string{"br", "gzip", ""} {
		res, _ := serve(t, app, http.MethodGet, path, http.Header{"Accept-Encoding": {accept}})
		tags[accept] = res.Header.Get("ETag")
	}
	assert.Len(t, map[string]bool{tags["br"]: true, tags["gzip"]: true, tags[""]: true}, 3, "three variants, three validators: %v", tags)
	assert.True(t, strings.HasSuffix(tags["br"], `-br"`))
	assert.True(t, strings.HasSuffix(tags["gzip"], `-gz"`))

	cases := []struct {
		name        string
		accept      string
		ifNoneMatch string
		want        int
	}{
		{name: "the Brotli variant's tag revalidates the Brotli variant", accept: "br", ifNoneMatch: tags["br"], want: http.StatusNotModified},
		{name: "a weak form of the tag matches too", accept: "br", ifNoneMatch: "W/" + tags["br"], want: http.StatusNotModified},
		{name: "the tag among others matches", accept: "gzip", ifNoneMatch: `"old", ` + tags["gzip"], want: http.StatusNotModified},
		{name: "a star matches", accept: "", ifNoneMatch: "*", want: http.StatusNotModified},
		{name: "the identity tag does not revalidate the Brotli variant", accept: "br", ifNoneMatch: tags[""], want: http.StatusOK},
		{name: "an old tag gets the file", accept: "gzip", ifNoneMatch: `"0123456789abcdef01234567-gz"`, want: http.StatusOK},
		{name: "a malformed header gets the file", accept: "br", ifNoneMatch: "not-a-tag", want: http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := serve(t, app, http.MethodGet, path, http.Header{"Accept-Encoding": {tc.accept}, "If-None-Match": {tc.ifNoneMatch}})
			require.Equal(t, tc.want, res.StatusCode)
			assert.Equal(t, tags[tc.accept], res.Header.Get("ETag"))
			assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
			assert.Equal(t, cacheImmutable, res.Header.Get("Cache-Control"))
			if tc.want == http.StatusNotModified {
				assert.Empty(t, body, "a 304 has no body")
			} else {
				assert.NotEmpty(t, body)
			}
		})
	}
}

func TestHeadAnswersTheHeadersOfGetWithoutTheBody(t *testing.T) {
	t.Parallel()
	app, _ := staticApp(t, testFiles(t))
	for _, accept := range []string{"br", "gzip", ""} {
		t.Run("Accept-Encoding "+accept, func(t *testing.T) {
			get, getBody := serve(t, app, http.MethodGet, "/static/css/app.css", http.Header{"Accept-Encoding": {accept}})
			head, headBody := serve(t, app, http.MethodHead, "/static/css/app.css", http.Header{"Accept-Encoding": {accept}})
			require.Equal(t, http.StatusOK, head.StatusCode)
			assert.Empty(t, headBody)
			for _, h := range []string{"Content-Type", "Content-Encoding", "Content-Length", "ETag", "Vary", "Cache-Control"} {
				assert.Equal(t, get.Header.Get(h), head.Header.Get(h), h)
			}
			assert.Equal(t, strconv.Itoa(len(getBody)), head.Header.Get("Content-Length"))
		})
	}
}

func TestWhatIsNotAServedFileIsA404(t *testing.T) {
	t.Parallel()
	app, _ := staticApp(t, testFiles(t))
	cases := []struct {
		name string
		path string
	}{
		{name: "an unknown file", path: "/static/css/missing.css"},
		{name: "a directory", path: "/static/img"},
		{name: "a directory with a slash", path: "/static/dist/assets/"},
		{name: "the root", path: "/static/"},
		{name: "the mount point itself", path: "/static"},
		{name: "a variant by its own name", path: "/static/dist/assets/main-abc123.js.br"},
		{name: "the precompressed folder", path: "/static/dist/precompressed/css/app.css.gz"},
		{name: "Vite's manifest, a dotfile's folder", path: "/static/dist/.vite/manifest.json"},
		{name: "a dotfile", path: "/static/dist/.gitignore"},
		{name: "a path that climbs out", path: "/static/../static/css/app.css"},
		{name: "an encoded climb", path: "/static/css/..%2fcss/app.css"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, body := serve(t, app, http.MethodGet, tc.path, http.Header{"Accept-Encoding": {"br, gzip"}})
			assert.Equal(t, http.StatusNotFound, res.StatusCode)
			assert.Empty(t, res.Header.Get("Content-Encoding"))
			assert.NotContains(t, string(body), "<a href", "no listing")
		})
	}
}

func TestOtherMethodsGoOnToTheNextHandler(t *testing.T) {
	t.Parallel()
	app, _ := staticApp(t, testFiles(t))
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		res, _ := serve(t, app, method, "/static/css/app.css", nil)
		assert.Equal(t, http.StatusTeapot, res.StatusCode, method)
	}
}

func TestStaleVariantsAreReported(t *testing.T) {
	t.Parallel()
	_, files := staticApp(t, testFiles(t))
	assert.Equal(t, []string{"dist/precompressed/img/stale.svg.br"}, files.Stale())
}

func TestTheEmbeddedBuildHasBothVariantsOfEveryTextFile(t *testing.T) {
	t.Parallel()
	files, err := Embedded()
	require.NoError(t, err)
	assert.Empty(t, files.Stale(), "run `make islands` after changing static files")
	a, err := Load(FS)
	require.NoError(t, err)
	if !a.Built() {
		t.Skip("island bundles are not built (make islands)")
	}
	app := fiber.New()
	app.Use("/static", files.Handler())
	checked := 0
	for name, f := range files.byPath {
		if !compressibleExt(name) || len(f.identity.body) < 512 {
			continue
		}
		checked++
		assert.Equal(t, []string{EncodingBrotli, EncodingGzip}, f.offered, name)
		res, body := serve(t, app, http.MethodGet, URLPrefix+name, http.Header{"Accept-Encoding": {"gzip, deflate, br, zstd"}})
		assert.Equal(t, "br", res.Header.Get("Content-Encoding"), name)
		assert.Equal(t, f.identity.body, httpcoding.Decode(t, "br", body), name)
	}
	assert.Positive(t, checked)
}

func compressibleExt(name string) bool {
	for _, ext := range []string{".js", ".css", ".svg", ".json", ".html"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
