package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/canvass/canvass/modules/profile"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
	"gorm.io/gorm"
)

// mailSend is `canvass mail send --panel KEY FILE.yaml`: an operator's bulk mail (a newsletter,
// survey invitations, a reminder) to every member of the panel subscribed to its kind, with the
// one-click unsubscribe headers. The file is read and checked before the database is opened.
// Each member's copy is queued as a mail job under an event key of the mail's content and the
// member (profile.BulkEvent), sent by the serving processes: the same file sent again (after a
// crash half-way) queues only the members the first run did not, and mails nobody twice.
//
//	kind: newsletters                 # surveyInvitations, newsletters or reminders
//	subject: {en: What's new, es: Novedades}
//	body:
//	  en: |
//	    New surveys are waiting.
//
//	    Thank you for taking part.
type mailSend struct {
	panelKey string
	origin   string
	mail     profile.BulkMail
}

// mailFile is the YAML of a bulk mail.
type mailFile struct {
	Kind    string            `yaml:"kind"`
	Subject map[string]string `yaml:"subject"`
	Body    map[string]string `yaml:"body"`
}

func (c *cli) mailCmd() *cobra.Command {
	var panelKey, origin string
	send := &cobra.Command{
		Use:   "send --panel KEY [--origin URL] FILE.yaml",
		Short: "Queue a bulk mail to the panel's members subscribed to its kind",
		Long: `Queues an operator's bulk mail (a newsletter, survey invitations, a reminder) to every member of
the panel subscribed to its kind, with the one-click unsubscribe headers; canvass serve sends them.
The file gives the kind (surveyInvitations, newsletters or reminders) and the subject and body per
language; it is read and checked before the database is opened. Sending the same file again
queues only the members an earlier run did not: nobody gets it twice.`,
		Example: `  canvass mail send --panel demo invitation.yaml

  # invitation.yaml
  kind: surveyInvitations
  subject: {en: A new survey for you, es: Una encuesta nueva para ti}
  body:
    en: |
      "Coffee habits" takes three minutes.
    es: Te espera una encuesta nueva.`,
		Args:              oneArg("mail FILE.yaml"),
		ValidArgsFunction: filesEnding("yaml", "yml"),
		RunE: c.body(func(cmd *cobra.Command, args []string) error {
			ms, err := prepareMailSend(panelKey, origin, args[0])
			if err != nil {
				return err
			}
			return c.withApp(cmd, ms, func(ctx context.Context, app *App, cfg Config, _ *gorm.DB) error {
				return ms.run(ctx, app, cfg, cmd.OutOrStdout())
			})
		}),
	}
	send.Flags().StringVar(&panelKey, "panel", "", "the key of the panel whose members get the mail (required)")
	send.Flags().StringVar(&origin, "origin", "", "where the mail's links point (default: CANVASS_BASE_URL, else https:// and the panel's first host)")
	required(send, "panel")
	return group("mail", "Bulk mail to a panel's members", send)
}

// prepareMailSend checks --origin and reads and checks the mail's file.
func prepareMailSend(panelKey, origin, file string) (*mailSend, error) {
	if origin != "" {
		if u, err := url.Parse(origin); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" && u.Path != "/" {
			return nil, usageErrorf("--origin: %q is not an origin such as https://panel.example", origin)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("mail send: %w", err)
	}
	var f mailFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	mail := profile.BulkMail{Kind: profile.MailKind(f.Kind), Subject: f.Subject, Body: f.Body}
	if err := mail.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &mailSend{panelKey: panelKey, origin: strings.TrimRight(origin, "/"), mail: mail}, nil
}

// run queues the mail and says how many copies were queued, were queued or sent by an earlier
// run of the same mail, and were skipped (unsubscribed).
func (ms *mailSend) run(ctx context.Context, app *App, cfg Config, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, ms.panelKey)
	if err != nil {
		return fmt.Errorf("panel %q: %w", ms.panelKey, err)
	}
	origin := ms.origin
	switch {
	case origin != "":
	case cfg.BaseURL != "":
		origin = cfg.BaseURL
	default:
		origin = "https://" + panel.Hosts[0]
	}
	res, err := app.Profile.SendBulkToPanel(ctx, panel, origin, ms.mail)
	if err != nil {
		return fmt.Errorf("%w (%d queued so far: run the same command again to queue the rest, nobody gets it twice)", err, res.Queued)
	}
	fmt.Fprintf(out, "%s to %s: %d queued, %d already queued or sent, %d skipped (unsubscribed)\n", ms.mail.Kind, panel.Key, res.Queued, res.Already, res.Skipped)
	if res.Queued > 0 {
		fmt.Fprintln(out, "canvass serve sends them (canvass jobs list shows their progress)")
	}
	return nil
}
