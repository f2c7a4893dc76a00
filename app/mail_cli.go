package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/canvass/canvass/modules/accounts"
	"gopkg.in/yaml.v3"
)

const mailUsage = "usage: canvass mail send --panel KEY [--origin https://panel.example] FILE.yaml  (kind, subject and body per language)"

// mailSend is `canvass mail send --panel KEY FILE.yaml`: an operator's bulk mail (a newsletter,
// survey invitations, a reminder) to every member of the panel subscribed to its kind, with the
// one-click unsubscribe headers. The file is read and checked before the database is opened.
// Each member's copy is queued as a mail job under an event key of the mail's content and the
// member (accounts.BulkEvent), sent by the serving processes: the same file sent again (after a
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
	mail     accounts.BulkMail
}

// mailFile is the YAML of a bulk mail.
type mailFile struct {
	Kind    string            `yaml:"kind"`
	Subject map[string]string `yaml:"subject"`
	Body    map[string]string `yaml:"body"`
}

func prepareMailCommand(args []string) (*mailSend, error) {
	if len(args) == 0 || args[0] != "send" {
		return nil, errors.New(mailUsage)
	}
	fs := flag.NewFlagSet("mail send", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	panelKey := fs.String("panel", "", "the key of the panel whose members get the mail")
	origin := fs.String("origin", "", "where the mail's links point (default: CANVASS_BASE_URL, else https:// and the panel's first host)")
	if err := fs.Parse(args[1:]); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, mailUsage)
	}
	if *panelKey == "" || fs.NArg() != 1 {
		return nil, errors.New(mailUsage)
	}
	if *origin != "" {
		if u, err := url.Parse(*origin); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" && u.Path != "/" {
			return nil, fmt.Errorf("--origin: %q is not an origin such as https://panel.example", *origin)
		}
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return nil, fmt.Errorf("mail send: %w", err)
	}
	var f mailFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	mail := accounts.BulkMail{Kind: accounts.MailKind(f.Kind), Subject: f.Subject, Body: f.Body}
	if err := mail.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	return &mailSend{panelKey: *panelKey, origin: strings.TrimRight(*origin, "/"), mail: mail}, nil
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
	res, err := app.Accounts.SendBulkToPanel(ctx, panel, origin, ms.mail)
	if err != nil {
		return fmt.Errorf("%w (%d queued so far: run the same command again to queue the rest, nobody gets it twice)", err, res.Queued)
	}
	fmt.Fprintf(out, "%s to %s: %d queued, %d already queued or sent, %d skipped (unsubscribed)\n", ms.mail.Kind, panel.Key, res.Queued, res.Already, res.Skipped)
	if res.Queued > 0 {
		fmt.Fprintln(out, "canvass serve sends them (canvass jobs list shows their progress)")
	}
	return nil
}
