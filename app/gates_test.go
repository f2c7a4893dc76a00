package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// follow requests target and follows redirects, returning the last response and every hop.
func (c *client) follow(target string) (*response, []string) {
	var hops []string
	res := c.get(target)
	for i := 0; i < 10 && res.StatusCode >= 300 && res.StatusCode < 400; i++ {
		loc := res.Header.Get("Location")
		hops = append(hops, loc)
		res = c.get(loc)
	}
	return res, hops
}

func TestNorthwindSendsANewMemberThroughTheTermsThenTheEmailGate(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("northwind.localhost")
		c.get("/join")
		joined := c.postForm("/join", url.Values{"email": {"gate@northwind.test"}, "password": {"a-good-password"}})
		require.Equal(t, http.StatusSeeOther, joined.StatusCode, joined.Body)

		page, hops := c.follow("/feed")
		require.NotEmpty(t, hops)
		assert.Regexp(t, `^/accept-terms-and-conditions\?lang=en&token=[0-9a-f-]{36}$`, hops[0], "the gate carries token and lang")
		assert.Equal(t, "/accept-terms-and-conditions", hops[len(hops)-1])
		assert.Contains(t, page.Body, "Terms and conditions")
		assert.Equal(t, http.StatusSeeOther, c.get("/").StatusCode, "every private page is gated")

		accepted := c.postForm("/accept-terms-and-conditions", url.Values{})
		require.Equal(t, http.StatusSeeOther, accepted.StatusCode, accepted.Body)
		assert.Regexp(t, `^/validate-email\?lang=en&token=`, accepted.Header.Get("Location"))

		page, _ = c.follow(accepted.Header.Get("Location"))
		assert.Contains(t, page.Body, "gate@northwind.test")
		mail := e.smtp.WaitFor(t, "gate@northwind.test", 30*time.Second)
		assert.Equal(t, "Confirm your email for Northwind Rewards", mail.Subject)
		link := mailertest.FirstLink(mail.Text, "http://northwind.localhost/validate-email/confirm?token=")
		require.NotEmpty(t, link, mail.Text)

		u, _ := url.Parse(link)
		done, hops := c.follow(u.RequestURI())
		assert.Equal(t, []string{"/email-validation-done"}, hops)
		assert.Contains(t, done.Body, "Your email is confirmed")

		feed, hops := c.follow("/feed")
		assert.Empty(t, hops, "both gates are passed")
		assert.Equal(t, http.StatusOK, feed.StatusCode)

		again := c.get(u.RequestURI())
		assert.Equal(t, http.StatusBadRequest, again.StatusCode, "a validation link works once")
	})
}

func TestTheDemoMemberPassesNoGate(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		res := c.login(DemoEmail, DemoPassword)
		assert.Equal(t, "/feed", res.Header.Get("Location"))
		feed, hops := c.follow("/feed")
		assert.Empty(t, hops)
		assert.Equal(t, http.StatusOK, feed.StatusCode)
		assert.Contains(t, feed.Body, `href="/logout"`)
	})
}

func TestASuspendedMemberGoesToTheSuspendedPage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.login(DemoEmail, DemoPassword)
		require.NoError(t, e.db.Exec("UPDATE account_holders SET status = 'suspended' WHERE email_normalized = ?", DemoEmail).Error)
		page, hops := c.follow("/feed")
		assert.Equal(t, []string{"/suspended"}, hops)
		assert.Contains(t, page.Body, "Your account is suspended")
	})
}

func TestTheTermsPageShowsThePanelsTermsInTheMembersLanguageAndLinksItsOwnPage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("northwind.localhost")
		c.get("/join")
		joined := c.postForm("/join", url.Values{"email": {"terms@northwind.test"}, "password": {"a-good-password"}})
		require.Equal(t, http.StatusSeeOther, joined.StatusCode, joined.Body)

		page, _ := c.follow("/feed")
		assert.Contains(t, page.Body, `<section class="terms-text" tabindex="0" aria-labelledby="terms-text-h" lang="en">`)
		assert.Contains(t, page.Body, "<p>Rewards. Each completed survey earns the reward it shows", "the demo's terms, a paragraph each")
		assert.NotContains(t, page.Body, "terms-link", "Northwind has no terms page of its own")
		assert.Less(t, strings.Index(page.Body, "Your data. We keep"), strings.Index(page.Body, `action="/accept-terms-and-conditions"`), "read before the button")

		page, _ = c.follow("/accept-terms-and-conditions?lang=ru")
		assert.Contains(t, page.Body, `lang="ru"`)
		assert.Contains(t, page.Body, "<p>Вознаграждения. За каждый завершённый опрос")

		// Terms in English alone and a page of its own: a Chinese member reads the English,
		// marked as English, and gets the link.
		e.changeDemoPanel(t, "northwind", func(spec *tenancy.PanelSpec) {
			spec.AppSettings.TermsText = map[string]string{"en": "Only English terms.\r\n\r\nSecond paragraph."}
			spec.AppSettings.TermsURL = "https://northwind.example/terms"
		})
		page, _ = c.follow("/accept-terms-and-conditions?lang=zh")
		assert.Contains(t, page.Body, `<section class="terms-text" tabindex="0" aria-labelledby="terms-text-h" lang="en"><h2 id="terms-text-h" class="visually-hidden">条款和条件</h2><p>Only English terms.</p><p>Second paragraph.</p></section>`)
		assert.Contains(t, page.Body, `<a href="https://northwind.example/terms" target="_blank" rel="noopener">阅读完整的条款和条件`)
	})
}
