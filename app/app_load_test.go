package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/events"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var trackingImageRE = regexp.MustCompile(`<img class="tracking" src="([^"]+)" alt="" width="1" height="1" aria-hidden="true"`)

// trackingImages lists the sources of a page's tracking images (app load, tracking pixel).
func trackingImages(body string) []string {
	var out []string
	for _, m := range trackingImageRE.FindAllStringSubmatch(body, -1) {
		out = append(out, htmlUnescape(m[1]))
	}
	return out
}

// appLoadImage is the page's app-load tracking image, "" when it has none.
func appLoadImage(body string) string {
	for _, src := range trackingImages(body) {
		if strings.Contains(src, "/events/record?") && strings.Contains(src, "eventName="+events.AppLoad) {
			return src
		}
	}
	return ""
}

func TestThePageAVisitEntersTheAppByRecordsTheAppLoadThroughATrackingImage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		panel, err := e.app.Tenancy.PanelByKey(ctx, "demo")
		require.NoError(t, err)
		c := e.member()

		// Come from another site: the image carries the app-load event, the panel key and the
		// referrer, and no session token (the cookie goes with it).
		page := c.do(http.MethodGet, "/feed", nil, http.Header{"Referer": {"https://news.example/"}})
		require.Equal(t, http.StatusOK, page.StatusCode)
		src := appLoadImage(page.Body)
		require.NotEmpty(t, src, "the page a visit enters by loads the app-load image")
		u, err := url.Parse(src)
		require.NoError(t, err)
		assert.Equal(t, "/api/v1/demo/events/record", u.Path)
		assert.Equal(t, events.AppLoad, u.Query().Get("eventName"))
		assert.Equal(t, "demo", u.Query().Get("pp-panel"))
		assert.JSONEq(t, `{"referrer":"https://news.example/"}`, u.Query().Get("eventData"))
		assert.False(t, u.Query().Has("pp-token"), "no session token is written into the page")
		assert.False(t, u.Query().Has("token"))

		img := c.get(src)
		require.Equal(t, http.StatusOK, img.StatusCode, img.Body)
		assert.Equal(t, "image/gif", img.Header.Get("Content-Type"))
		list, err := events.New(e.db).Recent(ctx, panel.ID, events.AppLoad, 5)
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.JSONEq(t, `{"referrer":"https://news.example/"}`, list[0].Data)
		assert.NotNil(t, list[0].ParticipantID, "the member is known from the cookie")

		// Typed or bookmarked: no Referer, an empty referrer.
		u, err = url.Parse(appLoadImage(c.get("/transactions").Body))
		require.NoError(t, err)
		assert.JSONEq(t, `{"referrer":""}`, u.Query().Get("eventData"))

		// A move inside the app (a link of this origin) and an htmx swap load nothing again.
		inside := c.do(http.MethodGet, "/transactions", nil, http.Header{"Referer": {"http://localhost/feed"}})
		require.Equal(t, http.StatusOK, inside.StatusCode)
		assert.Empty(t, appLoadImage(inside.Body), "a page reached from the app's own page")
		swap := c.do(http.MethodGet, "/feed?page=2", nil, http.Header{"HX-Request": {"true"}})
		assert.Empty(t, appLoadImage(swap.Body), "an htmx swap")

		// A visitor's entry page records the load too (no member), on each panel its own.
		visitor := appLoadImage(e.client("northwind.localhost").get("/login").Body)
		require.NotEmpty(t, visitor)
		u, err = url.Parse(visitor)
		require.NoError(t, err)
		assert.Equal(t, "/api/v1/northwind/events/record", u.Path)
		assert.Equal(t, "northwind", u.Query().Get("pp-panel"))
	})
}

// setTrackingPixel gives Canvass Demo an app_settings.tracking_pixel as a tenant file would.
func setTrackingPixel(t *testing.T, e *env, pixel string) {
	t.Helper()
	e.changeDemoPanel(t, "demo", func(spec *tenancy.PanelSpec) { spec.AppSettings.TrackingPixel = pixel })
}

// pixelImages are a page's tracking images but the app-load one.
func pixelImages(body string) []string {
	var out []string
	for _, src := range trackingImages(body) {
		if !strings.Contains(src, "/events/record?") {
			out = append(out, src)
		}
	}
	return out
}

func TestThePanelsTrackingPixelLoadsAsAnImageOnTheMemberPageAVisitEntersBy(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.app.Tenancy.CacheFor(time.Nanosecond) // a row is changed behind the module's back below
		c := e.member()
		visitor := e.client("localhost")
		assert.Empty(t, pixelImages(c.get("/feed").Body), "no tracking_pixel, no image")

		setTrackingPixel(t, e, "https://pixel.partner.example/match.gif?panel=demo&x=1")
		page := c.get("/feed")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Equal(t, []string{"https://pixel.partner.example/match.gif?panel=demo&x=1"}, pixelImages(page.Body))
		assert.Contains(t, directive(page.Header.Get("Content-Security-Policy"), "img-src"), "https:", "img-src allows https images already")
		assert.Equal(t, "img-src 'self' https: data:", directive(page.Header.Get("Content-Security-Policy"), "img-src"), "nothing is added for an https pixel")

		inside := c.do(http.MethodGet, "/transactions", nil, http.Header{"Referer": {"http://localhost/feed"}})
		assert.Empty(t, pixelImages(inside.Body), "a move inside the app loads it no more")
		assert.Empty(t, pixelImages(visitor.get("/login").Body), "visitors' pages do not carry it")

		// http is rewritten to https (spec section 5's URL helper); on this machine it stays
		// http, and only then does the page's img-src name its origin.
		setTrackingPixel(t, e, "http://pixel.partner.example/p.gif")
		assert.Equal(t, []string{"https://pixel.partner.example/p.gif"}, pixelImages(c.get("/feed").Body))
		setTrackingPixel(t, e, "http://127.0.0.1:8089/p.gif")
		page = c.get("/feed")
		assert.Equal(t, []string{"http://127.0.0.1:8089/p.gif"}, pixelImages(page.Body))
		assert.Equal(t, "img-src 'self' https: data: http://127.0.0.1:8089", directive(page.Header.Get("Content-Security-Policy"), "img-src"))
		assert.Equal(t, "img-src 'self' https: data:", directive(visitor.get("/login").Header.Get("Content-Security-Policy"), "img-src"),
			"only the pages that show it")

		// The setting is the tenant's text: never markup, never another scheme. Such a value is
		// refused when saved; one stored before that rule is still never shown.
		for _, bad := range []string{
			`"><script>alert(1)</script>`,
			`<img src=x onerror=alert(1)>`,
			"javascript:alert(1)",
			"data:image/gif;base64,R0lGODlhAQABAAAAACw=",
			"//pixel.partner.example/p.gif",
			"/p.gif",
			"https://user:secret@pixel.partner.example/p.gif",
			"https://pixel.partner.example/p.gif\" onload=\"alert(1)",
		} {
			spec := demoPanels()[0]
			spec.AppSettings.TrackingPixel = bad
			_, err := e.app.Tenancy.Apply(context.Background(), spec)
			require.ErrorContains(t, err, "tracking_pixel", bad)
			require.NoError(t, e.db.Exec("UPDATE panels SET app_settings = ? WHERE key = 'demo'", `{"tracking_pixel":`+strconv.Quote(bad)+`}`).Error)
			page := c.get("/feed")
			require.Equal(t, http.StatusOK, page.StatusCode, bad)
			assert.Empty(t, pixelImages(page.Body), bad)
			assert.NotContains(t, page.Body, "alert(1)", bad)
		}
	})
}
