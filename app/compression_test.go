package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/httpcoding"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// app.Test goes through net/http's ReadResponse, which neither asks for nor undoes a coding:
// these tests set Accept-Encoding themselves and decode what comes back.
func decodeBody(t testing.TB, res *response) string {
	t.Helper()
	return string(httpcoding.Decode(t, res.Header.Get("Content-Encoding"), []byte(res.Body)))
}

func accepting(enc string) http.Header {
	if enc == "" {
		return http.Header{}
	}
	return http.Header{"Accept-Encoding": {enc}}
}

func TestPagesAndAPIAnswersAreCompressedAsTheClientAccepts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	member := e.member()
	targets := []struct {
		name                                   string
		c                                      *client
		method, path, body, wantType, wantText string
	}{
		{name: "the login page", c: e.client("localhost"), method: http.MethodGet, path: "/login", wantType: "text/html", wantText: `name="csrf-token"`},
		{name: "the feed page", c: member, method: http.MethodGet, path: "/feed", wantType: "text/html", wantText: "Quick poll"},
		{name: "the feed's campaigns", c: member, method: http.MethodPost, path: "/api/v3/campaigns/paged", body: `{}`, wantType: "application/json", wantText: `"campaigns":[`},
	}
	encodings := []struct {
		accept, want string
	}{
		{accept: "gzip, deflate, br, zstd", want: "br"},
		{accept: "gzip", want: "gzip"},
		{accept: "br;q=0, gzip;q=0.5", want: "gzip"},
		{accept: "", want: ""},
		{accept: "identity", want: ""},
		{accept: "br;q=0, gzip;q=0", want: ""},
	}
	for _, target := range targets {
		for _, enc := range encodings {
			t.Run(target.name+" with Accept-Encoding "+strconv.Quote(enc.accept), func(t *testing.T) {
				header := accepting(enc.accept)
				header.Set("Content-Type", "application/json")
				res := target.c.do(target.method, target.path, strings.NewReader(target.body), header)
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.Contains(t, res.Header.Get("Content-Type"), target.wantType)
				assert.Equal(t, enc.want, res.Header.Get("Content-Encoding"))
				assert.Contains(t, res.Header.Get("Vary"), "Accept-Encoding", "caches keep the variants apart")
				assert.Equal(t, strconv.Itoa(len(res.Body)), res.Header.Get("Content-Length"))
				body := decodeBody(t, res)
				assert.Contains(t, body, target.wantText)
				if enc.want != "" {
					assert.Less(t, len(res.Body)*2, len(body), "compressed to less than half")
				}
			})
		}
	}

	t.Run("a small answer stays as it is, with Vary", func(t *testing.T) {
		res := e.client("localhost").do(http.MethodGet, "/api/v1/survey-themes/"+surveys.Theme2GUID, nil, accepting("br, gzip"))
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.Less(t, len(res.Body), web.CompressMinSize)
		assert.Empty(t, res.Header.Get("Content-Encoding"))
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"))
		assert.Contains(t, res.Body, `"theme2"`)
	})
}

func TestWhatMustNotBeCompressedIsNot(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	member := e.member()
	const browser = "gzip, deflate, br, zstd"

	t.Run("the tracking image", func(t *testing.T) {
		res := member.do(http.MethodGet, "/api/v1/demo/events/record?eventName=APP_LOAD", nil, accepting(browser))
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		assert.Equal(t, "image/gif", res.Header.Get("Content-Type"))
		assert.Empty(t, res.Header.Get("Content-Encoding"))
		assert.True(t, strings.HasPrefix(res.Body, "GIF8"), "the image's own bytes")
	})
	t.Run("static files, which come precompressed", func(t *testing.T) {
		res := member.do(http.MethodGet, "/static/css/app.css", nil, accepting(browser))
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "br", res.Header.Get("Content-Encoding"))
		assert.Equal(t, "Accept-Encoding", res.Header.Get("Vary"), "once, from the static handler")
		assert.Contains(t, decodeBody(t, res), "--color-primary")
	})

	// The answers that carry the pp-token: register and login, the profiles. A member with long
	// names and a long address makes the first two larger than CompressMinSize, so that only the
	// secret keeps them uncompressed (the profile stays a little below; web's own tests cover
	// its path with a large body).
	email := strings.Repeat("m", 64) + "@" + strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 40) + ".example"
	const password = "a-long-password-1"
	signIn := func(path, body string) *response {
		return e.client("localhost").do(http.MethodPost, path, strings.NewReader(body), http.Header{"Content-Type": {"application/json"}, "Accept-Encoding": {browser}})
	}
	var signedIn struct {
		PPToken string `json:"ppToken"`
	}
	profile := func(path string) func() *response {
		return func() *response {
			return e.client("localhost").do(http.MethodGet, path, nil, http.Header{"pp-token": {signedIn.PPToken}, "Accept-Encoding": {browser}})
		}
	}
	secret := []struct {
		name  string
		large bool
		res   func() *response
	}{
		{name: "the register answer", large: true, res: func() *response {
			return signIn("/ah/api/v2/user/register", `{"email":"`+email+`","password":"`+password+`","acceptedTermsConditions":true,`+
				`"firstName":"`+strings.Repeat("F", 100)+`","lastName":"`+strings.Repeat("L", 100)+`","username":"`+strings.Repeat("u", 40)+`"}`)
		}},
		{name: "the login answer", large: true, res: func() *response {
			res := signIn("/ah/api/v2/user/login", `{"email":"`+email+`","password":"`+password+`"}`)
			require.NoError(t, json.Unmarshal([]byte(res.Body), &signedIn), res.Body)
			return res
		}},
		{name: "the login answer by another spelling of its path", large: true, res: func() *response {
			return signIn("/AH/api/v2/user/login/", `{"email":"`+email+`","password":"`+password+`"}`)
		}},
		{name: "the profile", res: profile("/ah/api/v1/user/profile")},
		{name: "the profile of the instance API", res: profile("/api/v3/user/profile")},
	}
	for _, tc := range secret {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.res()
			require.Less(t, res.StatusCode, 300, res.Body)
			if tc.large {
				assert.Greater(t, len(res.Body), web.CompressMinSize, "large enough to be compressed otherwise")
			}
			assert.Empty(t, res.Header.Get("Content-Encoding"))
			assert.Contains(t, res.Body, `"ppToken":"`, "it does carry the token")
		})
	}
}

var csrfMetaRE = regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`)

func TestPagesCarryADifferentlyMaskedCSRFTokenThatFormsMaySend(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.client("localhost")
	var rendered []string
	for range 2 {
		res := c.do(http.MethodGet, "/login", nil, accepting("br"))
		m := csrfMetaRE.FindStringSubmatch(decodeBody(t, res))
		require.NotNil(t, m)
		rendered = append(rendered, m[1])
	}
	raw := c.cookie(web.CSRFCookie)
	assert.NotEqual(t, rendered[0], rendered[1], "no two responses share the token's bytes")
	assert.NotContains(t, rendered, raw, "the raw token stays in the cookie")

	// The first page's token signs the member in, as a form on it would.
	res := c.postForm("/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "_csrf": {rendered[0]}})
	assert.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
}

// TestDeliveredSizes reports what the main pages weigh on the wire, as written and compressed
// (go test -run TestDeliveredSizes -v ./app/). The gains are asserted loosely; the figures vary
// with the demo data.
func TestDeliveredSizes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	member := e.member()
	poll := e.campaignID("demo", "Quick poll")
	pages := []struct {
		name string
		c    *client
		path string
	}{
		{name: "login (visitor)", c: e.client("localhost"), path: "/login"},
		{name: "feed", c: member, path: "/feed"},
		{name: "survey (Quick poll)", c: member, path: "/survey/" + poll},
	}
	for _, p := range pages {
		identity := p.c.do(http.MethodGet, p.path, nil, nil)
		require.Equal(t, http.StatusOK, identity.StatusCode, p.path)
		sizes := map[string]int{}
		for _, enc := range []string{"br", "gzip"} {
			res := p.c.do(http.MethodGet, p.path, nil, accepting(enc))
			require.Equal(t, enc, res.Header.Get("Content-Encoding"), p.path)
			sizes[enc] = len(res.Body)
		}
		t.Logf("%-20s identity %6d B, gzip %5d B, br %5d B (%.1fx)", p.name, len(identity.Body), sizes["gzip"], sizes["br"], float64(len(identity.Body))/float64(sizes["br"]))
		assert.Less(t, sizes["br"]*2, len(identity.Body), p.path)
	}
}

// BenchmarkDynamicCompressionLevels times the compression of the demo member's feed page
// (about 24 KiB of HTML) at the levels web.Compress could use; web.CompressBrotliLevel is chosen
// from it: go test -run '^$' -bench DynamicCompressionLevels ./app/
func BenchmarkDynamicCompressionLevels(b *testing.B) {
	e := newEnv(b, "sqlite")
	page := []byte(e.member().get("/feed").Body)
	require.Greater(b, len(page), 10<<10)
	levels := []struct {
		name     string
		compress func([]byte) []byte
	}{}
	for _, l := range []int{1, 2, 3, 4, 5, 6} {
		levels = append(levels, struct {
			name     string
			compress func([]byte) []byte
		}{"br-" + strconv.Itoa(l), func(p []byte) []byte { return fasthttp.AppendBrotliBytesLevel(nil, p, l) }})
	}
	for _, l := range []int{1, 6, 9} {
		levels = append(levels, struct {
			name     string
			compress func([]byte) []byte
		}{"gzip-" + strconv.Itoa(l), func(p []byte) []byte { return fasthttp.AppendGzipBytesLevel(nil, p, l) }})
	}
	for _, l := range levels {
		b.Run(l.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			var n int
			for b.Loop() {
				n = len(l.compress(page))
			}
			b.ReportMetric(float64(n), "bytes-out")
		})
	}
}
