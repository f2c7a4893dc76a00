package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/mailer/mailertest"
	"github.com/canvass/canvass/modules/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type subscriptionsJSON struct {
	SurveyInvitations bool `json:"surveyInvitations"`
	Newsletters       bool `json:"newsletters"`
	Reminders         bool `json:"reminders"`
}

var allOn = subscriptionsJSON{SurveyInvitations: true, Newsletters: true, Reminders: true}

// eachMailtoEnv is eachDialect with a configured unsubscribe mailbox.
func eachMailtoEnv(t *testing.T, fn func(t *testing.T, e *env)) {
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			cfg := testConfig("development")
			cfg.UnsubscribeMailto = "unsubscribe@canvass.test"
			fn(t, newEnvWith(t, d, cfg))
		})
	}
}

// newsletter is a bulk mail written in English and Spanish.
func newsletter(kind profile.MailKind) profile.BulkMail {
	return profile.BulkMail{
		Kind:    kind,
		Subject: map[string]string{"en": "What's new this month", "es": "Novedades del mes"},
		Body:    map[string]string{"en": "New surveys are waiting.\n\nThank you for taking part.", "es": "Te esperan encuestas nuevas."},
	}
}

func TestAMemberChoosesWhichBulkMailsTheyReceive(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "choices@demo.test")
		assert.Equal(t, allOn, decodeJSON[subscriptionsJSON](t, c.get("/ah/api/v1/subscriptions"), http.StatusOK), "every kind until they say otherwise")
		assert.Equal(t, allOn, decodeJSON[subscriptionsJSON](t, c.get("/api/v1/demo/subscriptions"), http.StatusOK), "the panel-instance API's path")

		off := decodeJSON[subscriptionsJSON](t, c.postJSON("/ah/api/v1/subscriptions", `{"newsletters":false}`), http.StatusOK)
		assert.Equal(t, subscriptionsJSON{SurveyInvitations: true, Reminders: true}, off, "only the named kind changes")
		assert.Equal(t, off, decodeJSON[subscriptionsJSON](t, c.get("/api/v2/demo/subscriptions"), http.StatusOK))

		for body, field := range map[string]string{`{"spam":true}`: "spam", `{"reminders":"no"}`: "reminders", `{"reminders":null}`: "reminders"} {
			bad := decodeJSON[apiErrorJSON](t, c.postJSON("/ah/api/v1/subscriptions", body), http.StatusBadRequest)
			assert.Equal(t, field, bad.Details[0].Field, body)
		}
		assert.Equal(t, off, decodeJSON[subscriptionsJSON](t, c.get("/ah/api/v1/subscriptions"), http.StatusOK), "refusals changed nothing")
		assert.Equal(t, http.StatusNotFound, c.get("/api/v1/northwind/subscriptions").StatusCode, "another instance's code")

		page := e.member()
		page.get("/settings")
		res := page.postForm("/settings/subscriptions", url.Values{"surveyInvitations": {"on"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		settings := page.get("/settings")
		assert.Regexp(t, `name="surveyInvitations" value="on" checked`, settings.Body)
		assert.NotRegexp(t, `name="newsletters" value="on" checked`, settings.Body, "an unticked box is off")
		assert.Contains(t, settings.Body, "Your email choices have been saved.")
	})
}

// oneClickRE finds the https (or, in tests, http) address of a List-Unsubscribe header.
var oneClickRE = regexp.MustCompile(`<(https?://[^>]+)>`)

func TestBulkMailGoesToSubscribersWithTheOneClickUnsubscribeHeaders(t *testing.T) {
	t.Parallel()
	eachMailtoEnv(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		panel, demoPID := e.demoParticipant()
		stopped := e.apiMember("localhost", "no-news@demo.test")
		require.Equal(t, http.StatusOK, stopped.postJSON("/ah/api/v1/subscriptions", `{"newsletters":false}`).StatusCode)
		spanish := e.apiMember("localhost", "lector@demo.test")
		require.Equal(t, http.StatusOK, spanish.postJSON("/ah/api/v1/user/profile", `{"languageCode":"es"}`).StatusCode)

		var active int64
		require.NoError(t, e.db.Table("account_holders").Where("panel_id = ? AND status = 'active'", panel.ID).Count(&active).Error)
		res, err := e.app.Profile.SendBulkToPanel(ctx, panel, "http://localhost", newsletter(profile.KindNewsletters))
		require.NoError(t, err)
		assert.Equal(t, profile.BulkResult{Queued: int(active) - 1, Skipped: 1}, res, "every active member but the one who stopped newsletters")

		mail := e.smtp.WaitFor(t, DemoEmail, 30*time.Second)
		assert.Equal(t, "What's new this month", mail.Subject)
		assert.Equal(t, "List-Unsubscribe=One-Click", mail.Header("List-Unsubscribe-Post"))
		header := mail.Header("List-Unsubscribe")
		m := oneClickRE.FindStringSubmatch(header)
		require.NotNil(t, m, header)
		oneClick, err := url.Parse(m[1])
		require.NoError(t, err)
		holder := e.holderID(t, demoPID)
		assert.Equal(t, "/ah/api/v1/public/unsubscribe/panel/"+panel.ID+"/ah/"+holder, oneClick.Path)
		assert.Equal(t, "newsletters", oneClick.Query().Get("kind"))
		assert.Contains(t, header, ", <mailto:unsubscribe@canvass.test?subject=unsubscribe%20"+panel.ID+"%20"+holder+"%20")
		assert.Contains(t, strings.ReplaceAll(mail.Text, "\r\n", "\n"), "New surveys are waiting.\n\nThank you for taking part.")
		page := mailertest.FirstLink(mail.HTML, "http://localhost/unsubscribe/")
		assert.Equal(t, "http://localhost/unsubscribe/"+panel.ID+"/"+holder+"/"+oneClick.Query().Get("hash")+"?kind=newsletters", page)

		es := e.smtp.WaitFor(t, "lector@demo.test", 30*time.Second)
		assert.Equal(t, "Novedades del mes", es.Subject, "in the member's language")
		assert.Contains(t, es.Text, "Dejar de recibir Boletines")
		for _, m := range e.smtp.Messages() {
			assert.NotContains(t, m.To, "no-news@demo.test", "nothing for the member who stopped newsletters")
		}

		// The member's mail provider follows the header: a POST without cookies or a CSRF token.
		provider := e.client("localhost")
		one := provider.do(http.MethodPost, oneClick.RequestURI(), strings.NewReader("List-Unsubscribe=One-Click"),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Equal(t, subscriptionsJSON{SurveyInvitations: true, Reminders: true}, decodeJSON[subscriptionsJSON](t, one, http.StatusOK))
		err = e.app.Profile.SendBulk(ctx, panel, "http://localhost", demoPID, newsletter(profile.KindNewsletters))
		assert.ErrorIs(t, err, profile.ErrUnsubscribed, "a member who stopped a kind gets none of it")
		require.NoError(t, e.app.Profile.SendBulk(ctx, panel, "http://localhost", demoPID, newsletter(profile.KindReminders)), "but still the other kinds")
		assert.Contains(t, e.smtp.WaitFor(t, DemoEmail, 30*time.Second).Header("List-Unsubscribe"), "kind=reminders")

		// A transactional mail carries no unsubscribe header: it cannot be stopped.
		require.Equal(t, http.StatusOK, e.client("localhost").postJSON("/ah/api/v2/user/forgot-password", `{"email":"`+DemoEmail+`"}`).StatusCode)
		assert.Empty(t, e.smtp.WaitFor(t, DemoEmail, 30*time.Second).Header("List-Unsubscribe"))
	})
}

func TestAForgedOrForeignUnsubscribeLinkIsRefusedAndChangesNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		panel, demoPID := e.demoParticipant()
		holder := e.holderID(t, demoPID)
		svc := e.app.Profile.Service()
		hash := svc.UnsubscribeHash(panel.ID, holder)
		other := e.apiMember("localhost", "other@demo.test")
		otherHolder := e.holderID(t, other.participantID(t))
		nw, err := e.app.Tenancy.PanelByKey(context.Background(), "northwind")
		require.NoError(t, err)
		api := func(panelID, id, hash string) string {
			return "/ah/api/v1/public/unsubscribe/panel/" + panelID + "/ah/" + id + "?hash=" + url.QueryEscape(hash)
		}
		visitor := e.client("localhost")
		assert.Equal(t, allOn, decodeJSON[subscriptionsJSON](t, visitor.get(api(panel.ID, holder, hash)), http.StatusOK), "the right link reads the state")

		forged := strings.Repeat("0", len(hash))
		tests := []struct {
			name, target string
			status       int
		}{
			{"a forged hash", api(panel.ID, holder, forged), http.StatusForbidden},
			{"a hash cut short", api(panel.ID, holder, hash[:16]), http.StatusForbidden},
			{"no hash", api(panel.ID, holder, ""), http.StatusForbidden},
			{"another member's hash", api(panel.ID, otherHolder, hash), http.StatusForbidden},
			{"another panel's uuid", api(nw.ID, holder, svc.UnsubscribeHash(nw.ID, holder)), http.StatusNotFound},
		}
		for _, tt := range tests {
			for _, method := range []string{http.MethodGet, http.MethodPost} {
				res := visitor.do(method, tt.target, nil, nil)
				assert.Equal(t, tt.status, res.StatusCode, "%s %s: %s", method, tt.name, res.Body)
				if tt.status == http.StatusForbidden {
					body := decodeJSON[apiErrorJSON](t, res, http.StatusForbidden)
					assert.Equal(t, "unsubscribe_link_invalid", body.Details[0].Code)
					assert.Contains(t, body.Message, "This unsubscribe link is not valid.")
				}
			}
		}
		// The same link on another panel's host is that panel's: not found.
		assert.Equal(t, http.StatusNotFound, e.client("northwind.localhost").get(api(panel.ID, holder, hash)).StatusCode)

		pageOf := func(panelID, id, hash string) string { return "/unsubscribe/" + panelID + "/" + id + "/" + hash }
		forgedPage := visitor.get(pageOf(panel.ID, holder, forged))
		assert.Equal(t, http.StatusForbidden, forgedPage.StatusCode)
		assert.Contains(t, forgedPage.Body, "This unsubscribe link is not valid.")
		visitor.get(pageOf(panel.ID, holder, hash))
		post := visitor.postForm(pageOf(panel.ID, otherHolder, hash), url.Values{"kind": {"all"}})
		assert.Equal(t, http.StatusForbidden, post.StatusCode, "a foreign hash posted from the page")
		assert.Equal(t, http.StatusNotFound, e.client("northwind.localhost").get(pageOf(panel.ID, holder, hash)).StatusCode)

		for _, pid := range []string{demoPID, other.participantID(t)} {
			sub, err := svc.Subscriptions(context.Background(), pid)
			require.NoError(t, err)
			assert.True(t, sub.Newsletters && sub.Reminders && sub.SurveyInvitations, "nothing changed")
		}
	})
}

func TestTheUnsubscribePageSaysWhatStopsAndStopsIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		panel, demoPID := e.demoParticipant()
		link := e.app.Profile.Service().UnsubscribePath(panel.ID, e.holderID(t, demoPID), profile.KindNewsletters)
		c := e.client("localhost")

		page := c.get(link)
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, "no longer receive these emails from Canvass Demo:")
		assert.Contains(t, page.Body, "<li>Newsletters</li>")
		assert.NotContains(t, page.Body, "<li>Reminders</li>", "only the mail's kind, unless all")
		assert.Equal(t, http.StatusBadRequest, c.get(strings.Replace(link, "newsletters", "spam", 1)).StatusCode)

		done := c.postForm(strings.Split(link, "?")[0], url.Values{"kind": {"newsletters"}})
		require.Equal(t, http.StatusOK, done.StatusCode, done.Body)
		assert.Contains(t, done.Body, "re unsubscribed.")
		sub, err := e.app.Profile.Service().Subscriptions(context.Background(), demoPID)
		require.NoError(t, err)
		assert.False(t, sub.Newsletters)
		assert.True(t, sub.Reminders && sub.SurveyInvitations)

		all := c.postForm(strings.Split(link, "?")[0], url.Values{"kind": {"all"}})
		require.Equal(t, http.StatusOK, all.StatusCode)
		assert.Contains(t, all.Body, "<li>Reminders</li>")
		sub, err = e.app.Profile.Service().Subscriptions(context.Background(), demoPID)
		require.NoError(t, err)
		assert.False(t, sub.Reminders || sub.SurveyInvitations || sub.Newsletters)
	})
}

// holderID is the account holder (the profile's guid) of a participant.
func (e *env) holderID(t *testing.T, participantID string) string {
	t.Helper()
	var ids []string
	require.NoError(t, e.db.Table("participants").Where("id = ?", participantID).Pluck("account_holder_id", &ids).Error)
	require.Len(t, ids, 1)
	return ids[0]
}
