package accounts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/web"
	mailviews "github.com/canvass/canvass/views/mail"
)

// Bulk mail is every mail of a MailKind: it goes only to members subscribed to its kind, and
// carries the RFC 8058 headers (List-Unsubscribe with the one-click https address, and a mailto
// address when one is configured; List-Unsubscribe-Post) and an unsubscribe link in its text.
// Transactional mail (Mails) carries none of this: a member cannot stop a password reset.

// BulkMail is one bulk mail's content in each language it is written in. Body is plain text;
// a blank line separates paragraphs.
type BulkMail struct {
	Kind    MailKind
	Subject map[string]string
	Body    map[string]string
}

// Check tells what is missing from a bulk mail before anything is sent.
func (b BulkMail) Check() error {
	if _, ok := ParseMailKind(string(b.Kind)); !ok {
		return fmt.Errorf("kind %q is not one of surveyInvitations, newsletters, reminders", b.Kind)
	}
	if len(b.Subject) == 0 || len(b.Body) == 0 {
		return errors.New("a bulk mail needs a subject and a body in at least one language")
	}
	for lang, s := range b.Subject {
		if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "\r\n") {
			return fmt.Errorf("subject.%s: one line of text", lang)
		}
		if strings.TrimSpace(b.Body[lang]) == "" {
			return fmt.Errorf("body.%s: missing (every language with a subject needs a body)", lang)
		}
	}
	return nil
}

// in picks the language of a member: theirs when the mail has it, else the panel's default,
// else English, else any (sorted, so the choice is stable).
func (b BulkMail) in(lang string, panel *web.Panel) string {
	for _, l := range []string{lang, panel.DefaultLanguage, "en"} {
		if _, ok := b.Subject[l]; ok && l != "" {
			return l
		}
	}
	best := ""
	for l := range b.Subject {
		if best == "" || l < best {
			best = l
		}
	}
	return best
}

// ErrUnsubscribed means the member does not receive this kind of mail (or cannot receive any:
// a closed account); nothing was sent.
var ErrUnsubscribed = errors.New("not subscribed to this kind of mail")

// BulkResult counts a panel-wide send.
type BulkResult struct{ Sent, Skipped, Failed int }

// SendBulk mails one member a bulk mail, unless they unsubscribed from its kind
// (ErrUnsubscribed). origin is where the mail's links point (https://panel.example).
func (m *Module) SendBulk(ctx context.Context, panel *web.Panel, origin, participantID string, mail BulkMail) error {
	if err := mail.Check(); err != nil {
		return err
	}
	p, err := m.svc.store.Participant(ctx, participantID)
	if err != nil {
		return err
	}
	if p.PanelID != panel.ID {
		return fmt.Errorf("member %s is not of panel %s: %w", participantID, panel.Key, ErrNotFound)
	}
	ah, err := m.svc.store.Holder(ctx, p.AccountHolderID)
	if err != nil {
		return err
	}
	sub, err := m.svc.store.Subscription(ctx, participantID)
	if err != nil {
		return err
	}
	if ah.Status != StatusActive || !sub.receives(mail.Kind) {
		return ErrUnsubscribed
	}
	return m.svc.sendBulk(ctx, panel, origin, ah, mail)
}

// SendBulkToPanel mails every active member of the panel subscribed to the mail's kind, a page
// of members at a time. A member whose mail fails is counted and logged; the others still get it.
func (m *Module) SendBulkToPanel(ctx context.Context, panel *web.Panel, origin string, mail BulkMail) (BulkResult, error) {
	var res BulkResult
	if err := mail.Check(); err != nil {
		return res, err
	}
	skipped, err := m.svc.store.BulkUnsubscribed(ctx, panel.ID, mail.Kind)
	if err != nil {
		return res, err
	}
	res.Skipped = skipped
	after := ""
	for {
		page, err := m.svc.store.BulkRecipients(ctx, panel.ID, mail.Kind, after, 500)
		if err != nil {
			return res, err
		}
		if len(page) == 0 {
			return res, nil
		}
		for i := range page {
			ah := &page[i]
			if err := m.svc.sendBulk(ctx, panel, origin, ah, mail); err != nil {
				res.Failed++
				m.svc.log.Warn("bulk mail not sent", "panel", panel.Key, "kind", mail.Kind, "account_holder", ah.ID, "err", err)
				continue
			}
			res.Sent++
		}
		after = page[len(page)-1].ID
	}
}

// sendBulk renders and sends one bulk mail with its unsubscribe headers and link.
func (s *Service) sendBulk(ctx context.Context, panel *web.Panel, origin string, ah *AccountHolder, mail BulkMail) error {
	lang := mail.in(ah.LanguageCode, panel)
	app := panel.WebAppName
	if app == "" {
		app = panel.Name
	}
	tr := func(id string, data map[string]any) string { return s.mails.locales.Translate(lang, id, data, nil) }
	name := strings.TrimSpace(ah.FirstName)
	greeting := tr("mail.greeting_anonymous", nil)
	if name != "" {
		greeting = tr("mail.greeting", map[string]any{"Name": name})
	}
	page := origin + s.UnsubscribePath(panel.ID, ah.ID, mail.Kind)
	oneClick := origin + s.UnsubscribeAPIPath(panel.ID, ah.ID, mail.Kind)
	kindName := tr("subscriptions."+string(mail.Kind), nil)
	props := mailviews.BulkProps{
		Lang: lang, AppName: app, Title: mail.Subject[lang], Greeting: greeting, Paragraphs: paragraphs(mail.Body[lang]),
		Why:         tr("mail.bulk.why", map[string]any{"App": app, "Kind": kindName}),
		Unsubscribe: tr("mail.bulk.unsubscribe", map[string]any{"Kind": kindName}), UnsubscribeURL: page,
	}
	var html bytes.Buffer
	if err := mailviews.Bulk(props).Render(ctx, &html); err != nil {
		return err
	}
	text := strings.Join([]string{greeting, "", strings.Join(props.Paragraphs, "\n\n"), "", "--", props.Why, props.Unsubscribe + ": " + page}, "\n")
	unsubscribe := "<" + oneClick + ">"
	if s.unsubscribeMailto != "" {
		q := url.Values{"subject": {"unsubscribe " + panel.ID + " " + ah.ID + " " + s.UnsubscribeHash(panel.ID, ah.ID) + " " + string(mail.Kind)}}
		unsubscribe += ", <mailto:" + s.unsubscribeMailto + "?" + strings.ReplaceAll(q.Encode(), "+", "%20") + ">"
	}
	return s.mail.Send(ctx, mailer.Message{
		To: ah.Email, ToName: strings.TrimSpace(ah.FirstName + " " + ah.LastName), FromName: app, Subject: props.Title,
		Text: text, HTML: html.String(), Lang: lang,
		Headers: []mailer.Header{
			{Name: "List-Unsubscribe", Value: unsubscribe},
			{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"},
		},
	})
}

// paragraphs splits a plain text at its blank lines.
func paragraphs(body string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
