// Package mailer sends transactional e-mail (verification links, reward
// notices, ...) over SMTP, or to the log when no SMTP server is configured.
package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
)

// DefaultFrom is the sender address used when Config.From is empty.
const DefaultFrom = "no-reply@canvass.local"

var (
	// ErrInvalidConfig is wrapped by every error New returns for a bad Config.
	ErrInvalidConfig = errors.New("mailer: invalid config")
	// ErrInvalidMessage is wrapped by every error Send returns for a bad Message.
	ErrInvalidMessage = errors.New("mailer: invalid message")
)

// Message is one e-mail to one recipient.
type Message struct {
	To       string // recipient address, e.g. "ann@example.com"
	ToName   string // optional display name of the recipient
	FromName string // the panel's name, shown as the From display name
	Subject  string
	Text     string // text/plain part, required
	HTML     string // optional text/html alternative
	Lang     string // BCP 47 tag for Content-Language, e.g. "ru"
	// Headers are extra header fields, in order (List-Unsubscribe and List-Unsubscribe-Post on
	// bulk mail). Names are RFC 5322 field names; values printable ASCII on one line. The
	// fields the sender writes itself (From, To, Subject, Date, Message-Id, MIME and Content
	// fields) cannot be set here.
	Headers []Header
}

// Header is one extra header field of a Message.
type Header struct {
	Name  string
	Value string
}

// reservedHeaders are the fields a sender writes itself; a Message may not set them.
var reservedHeaders = map[string]bool{
	"from": true, "to": true, "cc": true, "bcc": true, "subject": true, "date": true, "message-id": true,
	"mime-version": true, "content-type": true, "content-transfer-encoding": true, "content-language": true,
	"sender": true, "reply-to": true, "return-path": true,
}

// validHeader: a field name is printable ASCII but the colon (RFC 5322 section 3.6.8); a value
// here is printable ASCII and spaces, so it is written as it is, without encoding.
func validHeader(h Header) error {
	if h.Name == "" || reservedHeaders[strings.ToLower(h.Name)] {
		return fmt.Errorf("%w: header %q cannot be set", ErrInvalidMessage, h.Name)
	}
	for _, r := range h.Name {
		if r < 33 || r > 126 || r == ':' {
			return fmt.Errorf("%w: header name %q", ErrInvalidMessage, h.Name)
		}
	}
	for _, r := range h.Value {
		if r < 32 || r > 126 {
			return fmt.Errorf("%w: header %s has a value that is not printable ASCII on one line", ErrInvalidMessage, h.Name)
		}
	}
	return nil
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Config selects and configures the Sender returned by New.
type Config struct {
	// URL is smtp://user:pass@host:port (STARTTLS when offered),
	// smtps://user:pass@host:port (implicit TLS), or empty to log mail
	// instead of sending it.
	URL string
	// From is the sender address; DefaultFrom when empty.
	From string
}

// New returns a LogSender when cfg.URL is empty and an SMTPSender otherwise.
func New(cfg Config, logger *slog.Logger) (Sender, error) {
	from := cfg.From
	if from == "" {
		from = DefaultFrom
	}
	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("%w: from address %q: %v", ErrInvalidConfig, from, err)
	}
	if cfg.URL == "" {
		return &LogSender{Logger: logger, From: fromAddr}, nil
	}
	return newSMTPSender(cfg.URL, fromAddr)
}

// smtpEndpoint is the parsed form of Config.URL.
type smtpEndpoint struct {
	host           string
	port           int
	implicitTLS    bool
	user, password string
}

func parseURL(raw string) (smtpEndpoint, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error repeats the URL, which may hold a password.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return smtpEndpoint{}, fmt.Errorf("%w: SMTP URL: %v", ErrInvalidConfig, err)
	}
	var ep smtpEndpoint
	switch u.Scheme {
	case "smtp":
		ep.port = 587
	case "smtps":
		ep.port, ep.implicitTLS = 465, true
	default:
		return ep, fmt.Errorf("%w: SMTP URL scheme must be smtp or smtps, got %q", ErrInvalidConfig, u.Scheme)
	}
	if ep.host = u.Hostname(); ep.host == "" {
		return ep, fmt.Errorf("%w: SMTP URL has no host", ErrInvalidConfig)
	}
	if p := u.Port(); p != "" {
		if ep.port, err = strconv.Atoi(p); err != nil || ep.port < 1 || ep.port > 65535 {
			return ep, fmt.Errorf("%w: SMTP URL port %q out of range", ErrInvalidConfig, p)
		}
	}
	if u.User != nil {
		ep.user = u.User.Username()
		ep.password, _ = u.User.Password()
	}
	return ep, nil
}

// validate checks m and returns the parsed recipient.
func validate(m Message) (*mail.Address, error) {
	// These end up in headers; a line break would let the value add headers.
	for _, f := range []struct{ name, value string }{
		{"Subject", m.Subject}, {"ToName", m.ToName}, {"FromName", m.FromName}, {"Lang", m.Lang},
	} {
		if strings.ContainsAny(f.value, "\r\n") {
			return nil, fmt.Errorf("%w: %s contains a line break", ErrInvalidMessage, f.name)
		}
	}
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return nil, fmt.Errorf("%w: To address %q: %v", ErrInvalidMessage, m.To, err)
	}
	if m.ToName != "" {
		to.Name = m.ToName
	}
	if strings.TrimSpace(m.Subject) == "" {
		return nil, fmt.Errorf("%w: Subject is required", ErrInvalidMessage)
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, fmt.Errorf("%w: Text part is required", ErrInvalidMessage)
	}
	for _, h := range m.Headers {
		if err := validHeader(h); err != nil {
			return nil, err
		}
	}
	return to, nil
}

// LogSender writes each message to a slog.Logger instead of sending it.
// It is meant for development, where the links in the text are all one needs.
type LogSender struct {
	Logger *slog.Logger // slog.Default() when nil
	From   *mail.Address
}

// Send logs m at Info level after the same validation SMTPSender does.
func (s *LogSender) Send(ctx context.Context, m Message) error {
	to, err := validate(m)
	if err != nil {
		return err
	}
	logger := s.Logger
	if logger == nil {
		logger = slog.Default()
	}
	from := ""
	if s.From != nil {
		from = fromAddress(s.From, m.FromName).String()
	}
	attrs := []any{"to", to.String(), "from", from, "subject", m.Subject, "lang", m.Lang, "text", m.Text}
	for _, h := range m.Headers {
		attrs = append(attrs, "header."+h.Name, h.Value)
	}
	logger.InfoContext(ctx, "mail not sent (no SMTP URL configured)", attrs...)
	return nil
}

// fromAddress is the configured sender shown under the panel's name, if any.
func fromAddress(cfg *mail.Address, name string) *mail.Address {
	if name == "" {
		name = cfg.Name
	}
	return &mail.Address{Name: name, Address: cfg.Address}
}
