package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMailSendRefusesABadFileBeforeTouchingTheDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name, file string
		args       []string
		want       string
	}{
		{"no action", "", nil, "canvass mail needs a command: send"},
		{"no panel", "kind: newsletters\nsubject: {en: Hi}\nbody: {en: Hello}\n", []string{"send"}, `required flag(s) "panel" not set`},
		{"no file", "", []string{"send", "--panel", "demo"}, "canvass mail send needs one mail FILE.yaml"},
		{"an unknown kind", "kind: spam\nsubject: {en: Hi}\nbody: {en: Hello}\n", []string{"send", "--panel", "demo"}, `kind "spam" is not one of`},
		{"a subject without its body", "kind: reminders\nsubject: {en: Hi, es: Hola}\nbody: {en: Hello}\n", []string{"send", "--panel", "demo"}, "body.es: missing"},
		{"a two-line subject", "kind: reminders\nsubject: {en: \"Hi\\nBcc: x\"}\nbody: {en: Hello}\n", []string{"send", "--panel", "demo"}, "subject.en: one line"},
		{"a misspelt field", "kind: newsletters\nsubjet: {en: Hi}\nbody: {en: Hello}\n", []string{"send", "--panel", "demo"}, "field subjet not found"},
		{"an origin with a path", "kind: newsletters\nsubject: {en: Hi}\nbody: {en: Hello}\n", []string{"send", "--panel", "demo", "--origin", "https://x.example/path"}, "is not an origin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if c.file != "" {
				args = append(append([]string{}, args...), writeCampaignTestFile(t, dir, "mail.yaml", c.file))
			}
			_, err := prepareMailCommand(args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestMailSendMailsTheSubscribersOfItsKindWithTheUnsubscribeHeaders(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		stopped := e.apiMember("localhost", "quiet@demo.test")
		require.Equal(t, http.StatusOK, stopped.postJSON("/ah/api/v1/subscriptions", `{"surveyInvitations":false}`).StatusCode)
		file := writeCampaignTestFile(t, t.TempDir(), "invite.yaml", `kind: surveyInvitations
subject: {en: "A new survey for you", es: "Una encuesta nueva para ti"}
body:
  en: |
    "Coffee habits" takes three minutes and pays $0.50.

    Open the app to start.
  es: Te espera una encuesta nueva.
`)
		cmd, err := prepareMailCommand([]string{"send", "--panel", "demo", file})
		require.NoError(t, err)
		var out bytes.Buffer
		require.NoError(t, cmd.run(context.Background(), e.app, e.cfg, &out))

		assert.Regexp(t, `^surveyInvitations to demo: \d+ queued, 0 already queued or sent, 1 skipped \(unsubscribed\)\ncanvass serve sends them`, out.String())
		mail := e.smtp.WaitFor(t, DemoEmail, 30*time.Second)
		assert.Equal(t, "A new survey for you", mail.Subject)
		panel, _ := e.demoParticipant()
		assert.True(t, strings.HasPrefix(mail.Header("List-Unsubscribe"), "<https://"+panel.Hosts[0]+"/ah/api/v1/public/unsubscribe/panel/"+panel.ID+"/"),
			"without CANVASS_BASE_URL the links are https on the panel's first host: %s", mail.Header("List-Unsubscribe"))
		assert.Contains(t, mail.Header("List-Unsubscribe"), "kind=surveyInvitations")
		assert.Equal(t, "List-Unsubscribe=One-Click", mail.Header("List-Unsubscribe-Post"))
		for _, m := range e.smtp.Messages() {
			assert.NotContains(t, m.To, "quiet@demo.test")
		}
	})
}

func TestMailSendRunAgainAfterACrashMailsNobodyTwice(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		file := writeCampaignTestFile(t, t.TempDir(), "news.yaml", "kind: newsletters\nsubject: {en: \"News of the month\"}\nbody: {en: New surveys are waiting.}\n")
		cmd, err := prepareMailCommand([]string{"send", "--panel", "demo", file})
		require.NoError(t, err)
		panel, demoPID := e.demoParticipant()
		var recipients int
		require.NoError(t, e.db.Raw(`SELECT COUNT(*) FROM account_holders WHERE panel_id = ? AND status = 'active'`, panel.ID).Scan(&recipients).Error)
		require.Greater(t, recipients, 1)
		// The run that crashed had queued the demo member's copy, and it went.
		require.NoError(t, e.app.Profile.SendBulk(ctx, panel, "https://"+panel.Hosts[0], demoPID, cmd.mail))
		e.drainJobs(t)

		run := func() string {
			var out bytes.Buffer
			require.NoError(t, cmd.run(ctx, e.app, e.cfg, &out))
			e.drainJobs(t)
			return out.String()
		}
		for _, tc := range []struct {
			name, want string
			before     func()
		}{
			{name: "running it again queues everyone but the member the crashed run queued",
				want: fmt.Sprintf("newsletters to demo: %d queued, 1 already queued or sent, 0 skipped", recipients-1)},
			{name: "a third run while the jobs are kept queues nobody",
				want: fmt.Sprintf("newsletters to demo: 0 queued, %d already queued or sent, 0 skipped", recipients)},
			{name: "a run after the jobs are gone queues them again, and their sent-markers send nothing",
				want:   fmt.Sprintf("newsletters to demo: %d queued, 0 already", recipients),
				before: func() { require.NoError(t, e.db.Exec(`DELETE FROM river_job WHERE kind = 'mail'`).Error) }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.before != nil {
					tc.before()
				}
				assert.Contains(t, run(), tc.want)
				got := map[string]int{}
				for _, m := range e.smtp.Messages() {
					if m.Subject == "News of the month" {
						got[m.To[0]]++
					}
				}
				assert.Len(t, got, recipients, "every member got the mail")
				for to, n := range got {
					assert.Equal(t, 1, n, "%s got it once", to)
				}
			})
		}
	})
}
