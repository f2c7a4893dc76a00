package profile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/web"
	mailviews "github.com/canvass/canvass/views/mail"
	"gorm.io/gorm"
)

// Bulk mail is every mail of a MailKind: it goes only to members subscribed to its kind, and
// carries the RFC 8058 headers (List-Unsubscribe with the one-click https address, and a mailto
// address when one is configured; List-Unsubscribe-Post) and an unsubscribe link in its text.
// Transactional mail (accounts' Mails) carries none of this: a member cannot stop a password reset.

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

// Key names the mail by its content (kind, subjects and bodies): the same file sent again has
// the same key. With a recipient it is the event key of that recipient's copy (BulkEvent).
func (b BulkMail) Key() string {
	raw, _ := json.Marshal(struct {
		Kind    MailKind
		Subject map[string]string
		Body    map[string]string
	}{b.Kind, b.Subject, b.Body}) // maps marshal in key order: the same mail, the same bytes
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:16])
}

// BulkEvent is the event key of one member's copy of a bulk mail: one mail goes out per key,
// however often the mail is sent (a re-run of the same command after a crash).
func BulkEvent(mail BulkMail, accountHolderID string) string {
	return "bulk:" + mail.Key() + ":" + accountHolderID
}

// BulkResult counts a panel-wide send: mails queued, copies already queued or sent by an
// earlier send of the same mail (not queued again), and members who unsubscribed.
type BulkResult struct{ Queued, Already, Skipped int }

// SendBulk queues a bulk mail for one member, unless they unsubscribed from its kind
// (ErrUnsubscribed). origin is where the mail's links point (https://panel.example).
func (m *Module) SendBulk(ctx context.Context, panel *web.Panel, origin, participantID string, mail BulkMail) error {
	if err := mail.Check(); err != nil {
		return err
	}
	ah, _, err := m.svc.memberOf(ctx, panel.ID, participantID)
	if err != nil {
		return err
	}
	sub, err := m.svc.store.Subscription(ctx, participantID)
	if err != nil {
		return err
	}
	if ah.Status != accounts.StatusActive || !sub.receives(mail.Kind) {
		return ErrUnsubscribed
	}
	return migrations.InTx(ctx, m.svc.store.db, func(tx *gorm.DB) error {
		_, err := m.svc.queueBulk(tx, panel, origin, ah, mail)
		return err
	})
}

// SendBulkToPanel queues the mail for every active member of the panel subscribed to its kind,
// a page of members (one transaction) at a time; the job queue sends each copy, retried, once
// per member (BulkEvent). Sent again, the same mail queues nobody twice: a run that stopped
// half-way (a crash) is finished by running it again.
func (m *Module) SendBulkToPanel(ctx context.Context, panel *web.Panel, origin string, mail BulkMail) (BulkResult, error) {
	var res BulkResult
	if err := mail.Check(); err != nil {
		return res, err
	}
	after := ""
	for {
		page, err := m.svc.accounts.ActiveMembers(ctx, panel.ID, after, 500)
		if err != nil {
			return res, err
		}
		if len(page) == 0 {
			return res, nil
		}
		recipients, skipped, err := m.svc.subscribed(ctx, page, mail.Kind)
		if err != nil {
			return res, err
		}
		var queued, already int
		err = migrations.InTx(ctx, m.svc.store.db, func(tx *gorm.DB) error {
			queued, already = 0, 0
			for _, ah := range recipients {
				ok, err := m.svc.queueBulk(tx, panel, origin, ah, mail)
				if err != nil {
					return fmt.Errorf("queue bulk mail for %s: %w", ah.ID, err)
				}
				if ok {
					queued++
				} else {
					already++
				}
			}
			return nil
		})
		if err != nil {
			return res, err
		}
		res.Queued, res.Already, res.Skipped = res.Queued+queued, res.Already+already, res.Skipped+skipped
		after = page[len(page)-1].ID
	}
}

// subscribed picks the members of a page who receive the kind (no row: every kind), and counts
// those who stopped it.
func (s *Service) subscribed(ctx context.Context, page []accounts.ActiveMember, kind MailKind) ([]*accounts.AccountHolder, int, error) {
	ids := make([]string, len(page))
	for i := range page {
		ids[i] = page[i].ParticipantID
	}
	subs, err := s.store.Subscriptions(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	var out []*accounts.AccountHolder
	skipped := 0
	for i := range page {
		if sub, ok := subs[page[i].ParticipantID]; ok && !sub.receives(kind) {
			skipped++
			continue
		}
		out = append(out, &page[i].AccountHolder)
	}
	return out, skipped, nil
}

// queueBulk queues one member's copy in tx under its event key; false when a copy for the key
// is queued or sent already.
func (s *Service) queueBulk(tx *gorm.DB, panel *web.Panel, origin string, ah *accounts.AccountHolder, mail BulkMail) (bool, error) {
	msg, err := s.bulkMessage(tx.Statement.Context, panel, origin, ah, mail)
	if err != nil {
		return false, err
	}
	event := BulkEvent(mail, ah.ID)
	if once, ok := s.outbox.(mailer.OnceOutbox); ok {
		return once.QueueOnce(tx, event, msg)
	}
	return true, s.outbox.Queue(tx, event, msg)
}

// bulkMessage renders one member's copy of a bulk mail with its unsubscribe headers and link.
func (s *Service) bulkMessage(ctx context.Context, panel *web.Panel, origin string, ah *accounts.AccountHolder, mail BulkMail) (mailer.Message, error) {
	lang := mail.in(ah.LanguageCode, panel)
	app := panel.WebAppName
	if app == "" {
		app = panel.Name
	}
	tr := func(id string, data map[string]any) string { return s.locales.Translate(lang, id, data, nil) }
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
		return mailer.Message{}, err
	}
	text := strings.Join([]string{greeting, "", strings.Join(props.Paragraphs, "\n\n"), "", "--", props.Why, props.Unsubscribe + ": " + page}, "\n")
	unsubscribe := "<" + oneClick + ">"
	if s.unsubscribeMailto != "" {
		q := url.Values{"subject": {"unsubscribe " + panel.ID + " " + ah.ID + " " + s.UnsubscribeHash(panel.ID, ah.ID) + " " + string(mail.Kind)}}
		unsubscribe += ", <mailto:" + s.unsubscribeMailto + "?" + strings.ReplaceAll(q.Encode(), "+", "%20") + ">"
	}
	return mailer.Message{
		To: ah.Email, ToName: strings.TrimSpace(ah.FirstName + " " + ah.LastName), FromName: app, Subject: props.Title,
		Text: text, HTML: html.String(), Lang: lang,
		Headers: []mailer.Header{
			{Name: "List-Unsubscribe", Value: unsubscribe},
			{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"},
		},
	}, nil
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
