package accounts

import (
	"bytes"
	"strings"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/web"
	mailviews "github.com/canvass/canvass/views/mail"
	"gorm.io/gorm"
)

// Mails composes the account mails in the member's language, with the panel's name.
// Each is queued in the transaction of the change it tells of (the token it carries, the
// closing), under that change's event key (mailer.Outbox), and goes out once it commits.
type Mails struct {
	outbox  mailer.Outbox
	locales *web.Locales
}

func (m *Mails) PasswordReset(tx *gorm.DB, event string, panel *web.Panel, ah *AccountHolder, lang, link string) error {
	return m.send(tx, event, panel, ah, lang, "mail.reset", link)
}

func (m *Mails) ValidateEmail(tx *gorm.DB, event string, panel *web.Panel, ah *AccountHolder, lang, link string) error {
	return m.send(tx, event, panel, ah, lang, "mail.validate", link)
}

// CloseLink mails a member without a password the link that closes their account.
func (m *Mails) CloseLink(tx *gorm.DB, event string, panel *web.Panel, ah *AccountHolder, lang, link string) error {
	return m.send(tx, event, panel, ah, lang, "mail.close_link", link)
}

// AccountClosed confirms a closing to the address the account had; its button joins again.
func (m *Mails) AccountClosed(tx *gorm.DB, event string, panel *web.Panel, ah *AccountHolder, lang, joinLink string) error {
	return m.send(tx, event, panel, ah, lang, "mail.closed", joinLink)
}

// send renders mail "<prefix>.subject/.body/.button" with the shared greeting and footer.
func (m *Mails) send(tx *gorm.DB, event string, panel *web.Panel, ah *AccountHolder, lang, prefix, link string) error {
	app := panel.WebAppName
	if app == "" {
		app = panel.Name
	}
	data := map[string]any{"App": app, "Name": strings.TrimSpace(ah.FirstName)}
	tr := func(id string) string { return m.locales.Translate(lang, id, data, nil) }
	greeting := tr("mail.greeting_anonymous")
	if data["Name"] != "" {
		greeting = tr("mail.greeting")
	}
	// The panel's button colours, with text that reads on them; a panel resolved without a
	// theme gets the default theme's black button with white text.
	cta, ctaText := panel.CTAColor, panel.CTAText
	if cta == "" || ctaText == "" {
		cta, ctaText = "#000000", "#ffffff"
	}
	props := mailviews.ActionProps{
		Lang: lang, AppName: app, Title: tr(prefix + ".subject"), Greeting: greeting, Body: tr(prefix + ".body"),
		Button: tr(prefix + ".button"), URL: link, Fallback: tr("mail.fallback"), Footer: tr(prefix + ".footer"),
		CTAColor: cta, CTAText: ctaText,
	}
	var html bytes.Buffer
	if err := mailviews.Action(props).Render(tx.Statement.Context, &html); err != nil {
		return err
	}
	text := strings.Join([]string{greeting, "", props.Body, "", props.Button + ":", link, "", props.Footer}, "\n")
	return m.outbox.Queue(tx, event, mailer.Message{
		To: ah.Email, ToName: strings.TrimSpace(ah.FirstName + " " + ah.LastName), FromName: app,
		Subject: props.Title, Text: text, HTML: html.String(), Lang: lang,
	})
}
