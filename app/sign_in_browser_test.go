package main

import (
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crossSubmit clicks and waits until the page is at another address and loaded. Across
// sites (panel → provider → panel) Chromium swaps the renderer, and waiting for the
// navigation event of the page that started it never ends; the address always changes.
func crossSubmit(t *testing.T, p *rod.Page, selector string) {
	t.Helper()
	before := p.MustInfo().URL
	p.MustElement(selector).MustClick()
	require.Eventually(t, func() bool {
		info, err := p.Info()
		return err == nil && info.URL != before
	}, 20*time.Second, 50*time.Millisecond, "no navigation after clicking %s", selector)
	p.MustWaitLoad()
}

// pickIdentity clicks an identity on the local provider's page and waits for the panel.
func pickIdentity(t *testing.T, p *rod.Page, subject string) {
	t.Helper()
	assert.Contains(t, p.MustElement("h1").MustText(), "Local development sign-in", "the stand-in says what it is")
	crossSubmit(t, p, "button[name=subject][value='"+subject+"']")
}

// withoutJavaScript blocks the page's scripts at the network (as the accessibility walk does):
// the page is what the server rendered, as for a member whose browser runs no scripts.
func withoutJavaScript(t *testing.T, p *rod.Page) {
	t.Helper()
	router := p.HijackRequests()
	router.MustAdd("*/static/dist/*.js", func(h *rod.Hijack) { h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) })
	go router.Run()
	t.Cleanup(func() { _ = router.Stop() })
}

func TestInChromiumAVisitorJoinsWithEachProviderAndLandsOnTheFeed(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	b.withLocalSignIn(t)
	for _, tc := range []struct {
		name, button, subject string
		noJS                  bool
	}{
		{"Google", ".sign-in-google", newcomer.Subject, false},
		{"Facebook without JavaScript", ".sign-in-facebook", fbFriend.Subject, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.page(t, b.url("localhost", "/join"))
			if tc.noJS {
				withoutJavaScript(t, p)
			}
			crossSubmit(t, p, tc.button)
			pickIdentity(t, p, tc.subject)
			assert.Equal(t, "/feed", path(p))
			assert.True(t, p.MustHas("nav.nav a[href='/logout']"))
		})
	}
	t.Run("X, which gives no email, asks for one", func(t *testing.T) {
		p := b.page(t, b.url("localhost", "/login"))
		crossSubmit(t, p, ".sign-in-twitter")
		pickIdentity(t, p, noEmail.Subject)
		require.Equal(t, "/sign-in/complete", path(p))
		assert.Equal(t, "Sam Noemail", p.MustElement("#f-firstName").MustProperty("value").String())
		fill(p, map[string]string{"#f-email": "sam@demo.test"})
		crossSubmit(t, p, "form[action='/sign-in/complete'] button[type=submit]")
		assert.Equal(t, "/feed", path(p))
	})
}

func TestInChromiumTheDemoMemberLinksGoogleWithTheirPasswordThenConnectsAndDisconnectsFacebook(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	b.withLocalSignIn(t)
	p := b.page(t, b.url("localhost", "/login"))
	crossSubmit(t, p, ".sign-in-google")
	pickIdentity(t, p, demoSelf.Subject)
	require.Equal(t, "/sign-in/link", path(p))
	assert.Contains(t, p.MustElement(".lead").MustText(), DemoEmail)
	fill(p, map[string]string{"#f-password": DemoPassword})
	crossSubmit(t, p, "form[action='/sign-in/link'] button[type=submit]")
	assert.Equal(t, "/feed", path(p))

	p.MustNavigate(b.url("localhost", "/settings")).MustWaitLoad()
	assert.Contains(t, p.MustElement("#connections-h").MustParent().MustText(), "Disconnect Google")
	crossSubmit(t, p, "a[href='/settings/connections/facebook']")
	pickIdentity(t, p, fbFriend.Subject)
	assert.Equal(t, "/settings", path(p))
	assert.Contains(t, p.MustElement(".toast, [role=status]").MustText(), "connected")
	p.MustElement("form[action='/settings/connections/facebook/disconnect'] button").MustClick()
	require.Eventually(t, func() bool { return p.MustHas("a[href='/settings/connections/facebook']") }, 20*time.Second, 50*time.Millisecond, "Facebook can be connected again")
	assert.Equal(t, "/settings", path(p))
}
