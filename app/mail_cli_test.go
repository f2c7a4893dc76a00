package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMailSendRefusesABadFileBeforeTouchingTheDatabase(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, file string
		args       []string
		want       string
	}{
		{"no action", "", nil, "usage: canvass mail send"},
		{"no panel", "kind: newsletters\nsubject: {en: Hi}\nbody: {en: Hello}\n", []string{"send"}, "usage: canvass mail send"},
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

		assert.Regexp(t, `^surveyInvitations to demo: \d+ sent, 1 skipped \(unsubscribed\), 0 failed\n$`, out.String())
		mail := e.smtp.WaitFor(t, DemoEmail, 5*time.Second)
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
