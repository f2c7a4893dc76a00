package localoffers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/offers/localoffers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheOfferPageSaysItIsNotARealOfferwall(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	started := e.start(t, "tile-tumble", "sub-1")
	resp, page := e.get(t, started.RedirectURL)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Contains(t, page, `<html lang="en">`)
	assert.Contains(t, page, "<title>Reach level 10 in Tile Tumble – "+localoffers.Title+"</title>")
	assert.Contains(t, page, "<h1>Local development offers provider — not a real offerwall</h1>")
	assert.Less(t, strings.Index(page, "<h1>"), strings.Index(page, "<form"), "the label comes before the button")
	for _, want := range []string{
		"<h2>Reach level 10 in Tile Tumble</h2>",
		"<dt>Reward</dt><dd>2.50 GBP</dd>",
		"<dt>Time needed</dt><dd>About 45 minutes</dd>",
		"<dt>Type</dt><dd>Game</dd>",
		"Install the game for the first time and reach level 10 within 7 days.",
		`<form method="post" action="` + mountPath + `/go/tile-tumble/complete">`,
		`<p><button type="submit">Simulate completion</button></p>`,
		`<a href="` + returnURL + `">Back to the panel's offers</a>`,
	} {
		assert.Contains(t, page, want)
	}
	assert.NotContains(t, page, "Simulate reversal", "nothing is credited yet")
	assert.Empty(t, e.panel.postbacks(), "opening the page sends nothing")
}

func TestTheLocalPagesRunNoScriptAndLoadNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	resp, page := e.get(t, e.start(t, "budget-buddy", "sub-1").RedirectURL)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	for _, banned := range []string{"<script", "<style", "style=", "<link", "src=", "<img", "onclick"} {
		assert.NotContains(t, page, banned)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	assert.Contains(t, csp, "default-src 'none'")
	assert.Contains(t, csp, "form-action 'self'")
	assert.Contains(t, csp, "frame-ancestors 'none'")
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
}

func TestAnOfferPageThatCannotBeShownSaysWhy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	good := url.Values{"app_id": {appID}, "sub_id": {"sub-1"}, "click_id": {"c-1"}}
	without := func(k string) string {
		v := url.Values{}
		for key, vals := range good {
			if key != k {
				v[key] = vals
			}
		}
		return v.Encode()
	}
	cases := []struct {
		name, path string
		status     int
		problem    string
		backLink   bool
	}{
		{"an unknown offer", "/go/no-such-offer?" + good.Encode(), http.StatusNotFound, "This offer is not one of the local provider&#39;s.", false},
		{"an unknown app", "/go/budget-buddy?" + strings.Replace(good.Encode(), appID, "other-app", 1), http.StatusBadRequest, "The address names no app known to the local provider.", false},
		{"no click", "/go/budget-buddy?" + without("click_id"), http.StatusBadRequest, "The address has no sub_id or no click_id", true},
		{"no member", "/go/budget-buddy?" + without("sub_id"), http.StatusBadRequest, "The address has no sub_id or no click_id", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, page := e.get(t, e.base+tc.path)
			assert.Equal(t, tc.status, resp.StatusCode)
			assert.Contains(t, page, "<h1>"+localoffers.Title+"</h1>")
			assert.Contains(t, page, tc.problem)
			assert.NotContains(t, page, "<form")
			assert.Equal(t, tc.backLink, strings.Contains(page, returnURL))
		})
	}
	t.Run("what the address carries is escaped", func(t *testing.T) {
		v := url.Values{"app_id": {appID}, "sub_id": {`"><script>x</script>`}, "click_id": {"c-1"}}
		_, page := e.get(t, e.base+"/go/budget-buddy?"+v.Encode())
		assert.NotContains(t, page, "<script>")
		assert.Contains(t, page, `value="&#34;&gt;&lt;script&gt;x&lt;/script&gt;"`)
	})
	t.Run("the simulation buttons only answer a form post", func(t *testing.T) {
		resp, _ := e.get(t, e.base+"/go/budget-buddy/complete?"+good.Encode())
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
		assert.Empty(t, e.panel.postbacks())
	})
}
