package mailer

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// connectTimeout bounds the dial and, in go-mail, every later read and write.
const connectTimeout = 10 * time.Second

// SMTPSender sends messages through an SMTP server with go-mail.
// It is safe for concurrent use; each Send opens its own connection.
type SMTPSender struct {
	client *gomail.Client
	from   *mail.Address
}

func newSMTPSender(rawURL string, from *mail.Address) (*SMTPSender, error) {
	ep, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	opts := []gomail.Option{
		gomail.WithPort(ep.port),
		gomail.WithTimeout(connectTimeout),
		gomail.WithTLSPolicy(gomail.TLSOpportunistic),
	}
	if ep.implicitTLS {
		opts = append(opts, gomail.WithSSL())
	}
	if ep.user != "" {
		// go-mail's PLAIN refuses to send the password over a plain-text
		// connection to anything but localhost.
		opts = append(opts,
			gomail.WithSMTPAuth(gomail.SMTPAuthPlain),
			gomail.WithUsername(ep.user),
			gomail.WithPassword(ep.password),
		)
	}
	client, err := gomail.NewClient(ep.host, opts...)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	return &SMTPSender{client: client, from: from}, nil
}

// Send delivers m as multipart/alternative (text/plain + text/html), UTF-8.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	to, err := validate(m)
	if err != nil {
		return err
	}
	msg := gomail.NewMsg(gomail.WithCharset(gomail.CharsetUTF8))
	msg.FromMailAddress(fromAddress(s.from, m.FromName))
	msg.ToMailAddress(to)
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageIDWithValue(messageID(s.from.Address))
	if m.Lang != "" {
		msg.SetGenHeader(gomail.HeaderContentLang, m.Lang)
	}
	// validate allowed printable ASCII only: written as given, never RFC 2047-encoded, which
	// would break a URL in List-Unsubscribe.
	for _, h := range m.Headers {
		msg.SetGenHeaderPreformatted(gomail.Header(h.Name), h.Value)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send mail to %s: %w", to.Address, err)
	}
	return nil
}

// messageID uses the sender's domain rather than go-mail's default (the
// machine's hostname), which is meaningless inside a container.
func messageID(from string) string {
	domain := from[strings.LastIndexByte(from, '@')+1:]
	return rand.Text() + "@" + domain
}
