package referrals

import (
	"bytes"
	"strings"

	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/web"
	view "github.com/canvass/canvass/views/referrals"
	"gorm.io/gorm"
)

// Mails composes the module's mails with the panel's name and button colours: the invitation
// in the inviter's language, the thank-you in the referrer's.
// Each is queued in the transaction of the change it tells of (the invitation, its resend,
// the thank-you), under that change's event key (mailer.Outbox).
type Mails struct {
	outbox  mailer.Outbox
	locales *web.Locales
}

func appName(panel *web.Panel) string {
	if panel.WebAppName != "" {
		return panel.WebAppName
	}
	return panel.Name
}

// Invite mails an invitation to the friend: who invites them (their first name when they gave
// one), their message, and the /join/invite link.
func (m *Mails) Invite(tx *gorm.DB, event string, panel *web.Panel, r *Referral, inviter, link string) error {
	lang := web.ResolveLanguage(panel, r.LanguageCode, "")
	data := map[string]any{"App": appName(panel), "Name": strings.TrimSpace(inviter)}
	subject, body, footer := "referrals.mail_invite_subject_anonymous", "referrals.mail_invite_body_anonymous", "referrals.mail_invite_footer_anonymous"
	if data["Name"] != "" {
		subject, body, footer = "referrals.mail_invite_subject", "referrals.mail_invite_body", "referrals.mail_invite_footer"
	}
	p := view.MailProps{
		Lang: lang, AppName: appName(panel),
		Title:      m.locales.Translate(lang, subject, data, nil),
		Body:       m.locales.Translate(lang, body, data, nil),
		QuoteLabel: m.locales.Translate(lang, "referrals.mail_quote", data, nil),
		Quote:      r.Message,
		Button:     m.locales.Translate(lang, "referrals.mail_invite_button", data, nil),
		URL:        link,
		Fallback:   m.locales.Translate(lang, "mail.fallback", nil, nil),
		Footer:     m.locales.Translate(lang, footer, data, nil),
	}
	return m.send(tx, event, panel, r.Email, "", p)
}

// Thanks mails the referrer that the friend they invited says thank you.
func (m *Mails) Thanks(tx *gorm.DB, event string, panel *web.Panel, referrer *accounts.Contact, friend, link string) error {
	lang := web.ResolveLanguage(panel, "", referrer.LanguageCode)
	data := map[string]any{"App": appName(panel), "Name": strings.TrimSpace(referrer.FirstName), "Friend": friend}
	subject, body := "referrals.mail_thanks_subject_anonymous", "referrals.mail_thanks_body_anonymous"
	if friend != "" {
		subject, body = "referrals.mail_thanks_subject", "referrals.mail_thanks_body"
	}
	greeting := m.locales.Translate(lang, "mail.greeting_anonymous", data, nil)
	if data["Name"] != "" {
		greeting = m.locales.Translate(lang, "mail.greeting", data, nil)
	}
	p := view.MailProps{
		Lang: lang, AppName: appName(panel), Greeting: greeting,
		Title:    m.locales.Translate(lang, subject, data, nil),
		Body:     m.locales.Translate(lang, body, data, nil),
		Button:   m.locales.Translate(lang, "referrals.mail_thanks_button", data, nil),
		URL:      link,
		Fallback: m.locales.Translate(lang, "mail.fallback", nil, nil),
		Footer:   m.locales.Translate(lang, "referrals.mail_thanks_footer", data, nil),
	}
	return m.send(tx, event, panel, referrer.Email, strings.TrimSpace(referrer.FirstName), p)
}

func (m *Mails) send(tx *gorm.DB, event string, panel *web.Panel, to, toName string, p view.MailProps) error {
	// The panel's button colours, with text that reads on them (accounts' mails do the same).
	p.CTAColor, p.CTAText = panel.CTAColor, panel.CTAText
	if p.CTAColor == "" || p.CTAText == "" {
		p.CTAColor, p.CTAText = "#000000", "#ffffff"
	}
	var html bytes.Buffer
	if err := view.Mail(p).Render(tx.Statement.Context, &html); err != nil {
		return err
	}
	parts := []string{}
	if p.Greeting != "" {
		parts = append(parts, p.Greeting, "")
	}
	parts = append(parts, p.Body, "")
	if p.Quote != "" {
		parts = append(parts, p.QuoteLabel, quote(p.Quote), "")
	}
	parts = append(parts, p.Button+":", p.URL, "", p.Footer)
	return m.outbox.Queue(tx, event, mailer.Message{
		To: to, ToName: toName, FromName: p.AppName, Subject: p.Title, Text: strings.Join(parts, "\n"), HTML: html.String(), Lang: p.Lang,
	})
}

// quote marks each line of a message as quoted, for the plain-text part.
func quote(msg string) string {
	lines := strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = "> " + l
	}
	return strings.Join(lines, "\n")
}
