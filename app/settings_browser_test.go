package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/profile"
	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Journeys through the member's settings in Chromium, each with JavaScript and without it (none
// of the app's scripts load: every form must work as plain HTML).

// withAndWithoutJS runs a journey twice, in a fresh server each time.
func withAndWithoutJS(t *testing.T, journey func(t *testing.T, b *browserEnv, open func(address string) *rod.Page, js bool)) {
	for _, js := range []bool{true, false} {
		name := "with JavaScript"
		if !js {
			name = "without JavaScript"
		}
		t.Run(name, func(t *testing.T) {
			b := newBrowserEnv(t)
			open := func(address string) *rod.Page {
				p := b.page(t, "about:blank")
				if !js {
					// The app's scripts never arrive: what runs is what the server rendered. (Turning
					// script execution off would stop the test's own driving of the page too.)
					router := p.HijackRequests()
					router.MustAdd("*/static/dist/*.js", func(h *rod.Hijack) { h.Response.Fail(proto.NetworkErrorReasonBlockedByClient) })
					go router.Run()
					t.Cleanup(func() { _ = router.Stop() })
				}
				p.MustNavigate(address).MustWaitLoad()
				return p
			}
			journey(t, b, open, js)
		})
	}
}

// signedIn opens the settings page signed in as the demo member.
func signedIn(t *testing.T, b *browserEnv, open func(string) *rod.Page) *rod.Page {
	t.Helper()
	p := open(b.url("localhost", "/settings"))
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	submit(p, "button[type=submit]")
	require.Equal(t, "/settings", path(p))
	return p
}

func TestInChromiumAMemberChangesTheirUsername(t *testing.T) {
	t.Parallel()
	withAndWithoutJS(t, func(t *testing.T, b *browserEnv, open func(string) *rod.Page, js bool) {
		p := signedIn(t, b, open)
		fill(p, map[string]string{"#f-username": "no spaces"})
		submit(p, "form[action='/settings/username'] button[type=submit]")
		assert.Contains(t, p.MustElement("#e-username").MustText(), "letters, digits, dots, dashes and underscores")

		fill(p, map[string]string{"#f-username": "Demo.Member"})
		submit(p, "form[action='/settings/username'] button[type=submit]")
		assert.Equal(t, "/settings", path(p))
		assert.Equal(t, "Demo.Member", p.MustElement(".username-current").MustText())
		if js {
			assert.Contains(t, p.MustElement(".toasts .toast--success").MustText(), "Your username has been changed.")
		}
	})
}

func TestInChromiumAMemberSetsTheirAddressByPostcode(t *testing.T) {
	t.Parallel()
	withAndWithoutJS(t, func(t *testing.T, b *browserEnv, open func(string) *rod.Page, js bool) {
		p := signedIn(t, b, open)
		fill(p, map[string]string{"#f-postcode": "1000", "#f-addressLine1": "350 5th Ave"})
		if js {
			// htmx swaps the address section in place: the page stays where it is.
			p.MustElement("#postcode-find").MustClick()
			p.MustElement("fieldset.postcode-results")
			assert.Equal(t, "/settings", path(p))
		} else {
			submit(p, "#postcode-find")
		}
		assert.Contains(t, p.MustElement("fieldset.postcode-results legend").MustText(), "places match")
		assert.Equal(t, "350 5th Ave", p.MustElement("#f-addressLine1").MustProperty("value").String(), "what was typed stays")
		p.MustElement("#f-postcodeId-10003").MustClick()
		submit(p, "form[action='/settings/address'] > button[type=submit]")

		assert.Equal(t, "/settings", path(p))
		assert.Equal(t, "10003", p.MustElement("#f-postcode").MustProperty("value").String())
		assert.Equal(t, "New York", p.MustElement("#f-city").MustProperty("value").String(), "the town comes from the postcode")
		_, pid := b.demoParticipant()
		has, err := b.app.Profile.HasPostalAddress(context.Background(), pid)
		require.NoError(t, err)
		assert.True(t, has)
	})
}

func TestInChromiumAMemberUploadsAndDeletesAPicture(t *testing.T) {
	t.Parallel()
	withAndWithoutJS(t, func(t *testing.T, b *browserEnv, open func(string) *rod.Page, js bool) {
		p := signedIn(t, b, open)
		assert.False(t, p.MustHas(".topbar-pic"))
		photo := filepath.Join(t.TempDir(), "holiday.jpg")
		require.NoError(t, os.WriteFile(photo, imagetest.WithEXIF(imagetest.JPEG(imagetest.Quadrants(300, 200)), 6, "CANVASS-SECRET"), 0o600))
		p.MustElement("#f-file").MustSetFiles(photo)
		submit(p, "form[action='/settings/pictures'] button[type=submit]")

		assert.Equal(t, "/settings", path(p))
		img := p.MustElement(".topbar-pic img")
		p.MustWait(`() => document.querySelector('.topbar-pic img').complete`)
		assert.Equal(t, 200, img.MustEval(`() => this.naturalWidth`).Int(), "the picture loads, turned upright (200 wide)")
		assert.Equal(t, 300, img.MustEval(`() => this.naturalHeight`).Int())
		assert.True(t, p.MustHas(".picture-main img"))

		submit(p, ".picture-delete")
		assert.False(t, p.MustHas(".topbar-pic"), "gone from the top bar")
		assert.Contains(t, p.MustElement("#pictures").MustText(), "You have no profile picture yet.")
	})
}

func TestInChromiumAMemberUnsubscribesFromTheMailedLink(t *testing.T) {
	t.Parallel()
	withAndWithoutJS(t, func(t *testing.T, b *browserEnv, open func(string) *rod.Page, js bool) {
		panel, pid := b.demoParticipant()
		require.NoError(t, b.app.Profile.SendBulk(context.Background(), panel, b.url("localhost", ""), pid, profile.BulkMail{
			Kind: profile.KindNewsletters, Subject: map[string]string{"en": "Our news"}, Body: map[string]string{"en": "New surveys are waiting."},
		}))
		mail := b.smtp.WaitFor(t, DemoEmail, 30*time.Second)
		link := mailertest.FirstLink(mail.HTML, b.url("localhost", "/unsubscribe/"))
		require.NotEmpty(t, link, mail.HTML)

		p := open(link) // not signed in: the link is enough
		assert.Contains(t, p.MustElement(".unsubscribe-stops").MustText(), "Newsletters")
		submit(p, "#unsubscribe-submit")
		assert.Contains(t, p.MustElement(".notice").MustText(), "unsubscribed")

		sub, err := b.app.Profile.Service().Subscriptions(context.Background(), pid)
		require.NoError(t, err)
		assert.False(t, sub.Newsletters)
		assert.True(t, sub.SurveyInvitations && sub.Reminders, "only the mail's kind stopped")
		err = b.app.Profile.SendBulk(context.Background(), panel, b.url("localhost", ""), pid, profile.BulkMail{
			Kind: profile.KindNewsletters, Subject: map[string]string{"en": "More news"}, Body: map[string]string{"en": "x"},
		})
		assert.ErrorIs(t, err, profile.ErrUnsubscribed)
	})
}

func TestInChromiumAMemberClosesTheirAccount(t *testing.T) {
	t.Parallel()
	withAndWithoutJS(t, func(t *testing.T, b *browserEnv, open func(string) *rod.Page, js bool) {
		p := signedIn(t, b, open)
		assert.Contains(t, p.MustElement(".close-balance").MustText(), "Your balance of $25.00 will be forfeited")
		fill(p, map[string]string{"#close #f-password": DemoPassword})
		submit(p, "#close-submit")
		assert.Equal(t, "/settings/close-account", path(p), "not ticked: the form comes back, nothing closes")
		assert.True(t, p.MustHas("#f-confirm[aria-invalid=true]"))

		fill(p, map[string]string{"#close #f-password": DemoPassword})
		p.MustElement("#f-confirm").MustClick()
		submit(p, "#close-submit")
		assert.Equal(t, "/login", path(p))
		if js {
			assert.Contains(t, p.MustElement(".toasts .toast--success").MustText(), "Your account is closed.")
		}
		p.MustNavigate(b.url("localhost", "/settings")).MustWaitLoad()
		assert.Equal(t, "/login?redirect=%2Fsettings", path(p), "signed out")
		fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
		submit(p, "button[type=submit]")
		assert.Contains(t, p.MustElement(".form-error").MustText(), "didn't work", "the account is gone")

		closed := b.smtp.WaitFor(t, DemoEmail, 30*time.Second) // sent by the job queue, after the closing
		assert.Equal(t, "Your Canvass Demo account is closed", closed.Subject)
	})
}
