package main

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeGtag stands in for Google's gtag.js (the tests have no internet): it sends each
// configured id's page view as GA4 does, to google-analytics.com's collect address with the
// page's location as dl, which the test answers too.
const fakeGtag = `(function () {
  var dl = window.dataLayer || []
  for (var i = 0; i < dl.length; i++) {
    var c = dl[i]
    if (c && c[0] === 'config') {
      var loc = (c[2] && c[2].page_location) || location.href
      navigator.sendBeacon('https://region1.google-analytics.com/g/collect?v=2&en=page_view&tid=' + encodeURIComponent(c[1]) + '&dl=' + encodeURIComponent(loc))
    }
  }
})()`

func TestInChromiumTheTagLoadsAndReportsThePageViewWithoutTokens(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	for _, tc := range []struct{ panel, host, id string }{
		{"demo", "localhost", "G-TEST1234"},
		{"northwind", "northwind.localhost", "G-NORTH5678"},
	} {
		t.Run(tc.panel, func(t *testing.T) {
			setPanelTags(t, b.env, tc.panel, tc.id, "")
			pageViewWithoutTokens(t, b, tc.host, tc.id)
		})
	}
}

// pageViewWithoutTokens opens a host's login page with tokens in its address and checks the
// tag's page view, answered locally, carries none of them.
func pageViewWithoutTokens(t *testing.T, b *browserEnv, host, id string) {
	var mu sync.Mutex
	var tagURLs, hits []string
	incognito, err := b.browser.Incognito()
	require.NoError(t, err)
	t.Cleanup(func() { _ = incognito.Close() })
	p, err := incognito.Page(proto.TargetCreateTarget{URL: "about:blank"})
	require.NoError(t, err)
	p = p.Timeout(browserStep)
	router := p.HijackRequests()
	router.MustAdd("https://www.googletagmanager.com/*", func(h *rod.Hijack) {
		mu.Lock()
		tagURLs = append(tagURLs, h.Request.URL().String())
		mu.Unlock()
		h.Response.SetHeader("Content-Type", "text/javascript")
		h.Response.SetBody(fakeGtag)
	})
	router.MustAdd("https://*.google-analytics.com/*", func(h *rod.Hijack) {
		mu.Lock()
		hits = append(hits, h.Request.URL().String())
		mu.Unlock()
		h.Response.SetHeader("Content-Type", "text/plain")
		h.Response.SetBody("")
	})
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })

	token := "0b9a8c7d-1e2f-4a5b-9c8d-7e6f5a4b3c2d"
	p.MustNavigate(b.url(host, "/login?token="+token+"&pp-token="+token+"&refresh=1700000000&redirect=%2Ffeed"))
	p.MustWaitLoad()

	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(hits) > 0
	}, 15*time.Second, 50*time.Millisecond, "the page view reached the (fake) collect address")

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, tagURLs, 1)
	assert.Equal(t, "https://www.googletagmanager.com/gtag/js?id="+id, tagURLs[0])
	hit, err := url.Parse(hits[0])
	require.NoError(t, err)
	assert.Equal(t, id, hit.Query().Get("tid"))
	dl, err := url.Parse(hit.Query().Get("dl"))
	require.NoError(t, err)
	assert.Equal(t, "/login", dl.Path)
	assert.Equal(t, "/feed", dl.Query().Get("redirect"), "other parameters stay")
	for _, name := range []string{"token", "pp-token", "refresh"} {
		assert.False(t, dl.Query().Has(name), "page_location carries no %s: %s", name, dl)
	}
	assert.NotContains(t, hits[0], strings.ReplaceAll(token, "-", ""), "the token is nowhere in the hit")
	assert.NotContains(t, hits[0], token)
}

func TestInChromiumAPanelWithoutATagRequestsNothingFromGoogle(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	var mu sync.Mutex
	var google []string
	incognito, err := b.browser.Incognito()
	require.NoError(t, err)
	t.Cleanup(func() { _ = incognito.Close() })
	p, err := incognito.Page(proto.TargetCreateTarget{URL: "about:blank"})
	require.NoError(t, err)
	p = p.Timeout(browserStep)
	router := p.HijackRequests()
	router.MustAdd("*google*", func(h *rod.Hijack) {
		mu.Lock()
		google = append(google, h.Request.URL().String())
		mu.Unlock()
		h.Response.Fail(proto.NetworkErrorReasonBlockedByClient)
	})
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })

	// Whatever the page asks for, it asks for by the time its network has gone quiet.
	idle := p.MustWaitRequestIdle()
	p.MustNavigate(b.url("localhost", "/login"))
	p.MustWaitLoad()
	idle()
	assert.False(t, p.MustEval(`() => 'dataLayer' in window`).Bool())
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, google)
}
