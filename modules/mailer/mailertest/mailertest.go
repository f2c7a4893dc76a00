// Package mailertest runs a real SMTP server on the loopback interface that
// records what it receives, so tests can read mail the app sends and follow
// the links inside.
package mailertest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/textproto"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Received is one message as the server got it.
type Received struct {
	From    string   // envelope sender (MAIL FROM)
	To      []string // envelope recipients (RCPT TO)
	Raw     []byte   // the message exactly as transmitted
	Subject string   // decoded Subject header
	Text    string   // decoded text/plain part
	HTML    string   // decoded text/html part
	// Headers holds the first value of each top-level header, RFC 2047
	// decoded, keyed by canonical name ("Content-Language", "Message-Id").
	Headers map[string]string
}

// Header returns the named header, whatever the case of name.
func (r Received) Header(name string) string {
	return r.Headers[textproto.CanonicalMIMEHeaderKey(name)]
}

// Server is an SMTP server on 127.0.0.1 without TLS that accepts any
// authentication (or none) and any sender and recipient.
type Server struct {
	smtp *smtp.Server
	addr string

	mu       sync.Mutex
	messages []Received
	taken    []bool // taken[i]: messages[i] was already returned by WaitFor
	errs     []error
	refuse   int // the next refuse messages are answered 451 (a temporary failure)
	refused  int // how many were refused so far
}

// RefuseNext makes the server refuse the next n messages at the end of DATA with 451, a
// temporary failure, as a busy or greylisting server does; the sender sees an error and
// nothing is recorded.
func (s *Server) RefuseNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = n
}

// Refused is how many messages the server refused (RefuseNext).
func (s *Server) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// refusing counts one refusal when some are left to make.
func (s *Server) refusing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refuse <= 0 {
		return false
	}
	s.refuse--
	s.refused++
	return true
}

// Start starts a Server on a free port; it is closed when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailertest: listen: %v", err)
	}
	s := &Server{addr: ln.Addr().String()}
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{server: s}, nil
	}))
	s.smtp.Domain = "mailertest.local"
	s.smtp.AllowInsecureAuth = true
	s.smtp.EnableSMTPUTF8 = true
	s.smtp.ReadTimeout = 10 * time.Second
	s.smtp.WriteTimeout = 10 * time.Second

	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.smtp.Serve(ln) // returns smtp.ErrServerClosed after Close
	}()
	t.Cleanup(func() {
		_ = s.smtp.Close()
		// go-smtp's Close misses a listener that Serve has not registered yet; closing it
		// ourselves always ends Serve.
		_ = ln.Close()
		<-done
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, err := range s.errs {
			t.Errorf("mailertest: %v", err)
		}
	})
	return s
}

// URL is the address to give mailer.Config.URL.
func (s *Server) URL() string { return "smtp://" + s.addr }

// Messages returns every message received so far, oldest first.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.messages...)
}

// WaitFor returns the oldest message for recipient to (case-insensitive)
// that an earlier WaitFor has not returned yet, polling until timeout, and
// fails the test if none arrives. Waiting twice for one address thus gets
// the first and then the second mail sent to it.
func (s *Server) WaitFor(t testing.TB, to string, timeout time.Duration) Received {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if r, ok := s.take(to); ok {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("mailertest: no new mail for %s within %v; received for: %v", to, timeout, s.recipients())
			return Received{}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Server) take(to string) (Received, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.messages {
		if s.taken[i] {
			continue
		}
		for _, rcpt := range m.To {
			if strings.EqualFold(rcpt, to) {
				s.taken[i] = true
				return m, true
			}
		}
	}
	return Received{}, false
}

func (s *Server) recipients() []string {
	var all []string
	for _, m := range s.Messages() {
		all = append(all, m.To...)
	}
	return all
}

func (s *Server) record(r Received, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, r)
	s.taken = append(s.taken, false)
	if err != nil {
		// Reported when the test ends: a mail the helper cannot parse is
		// more likely a bug in the sender than in the test.
		s.errs = append(s.errs, err)
	}
}

type session struct {
	server *Server
	from   string
	to     []string
}

// AuthMechanisms and Auth make the session accept PLAIN with any password.
func (*session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (*session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, _, _ string) error { return nil }), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if ss.server.refusing() {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailertest: try again later"}
	}
	rec, err := Parse(raw)
	rec.From, rec.To = ss.from, ss.to
	ss.server.record(rec, err)
	return nil
}

func (ss *session) Reset()     { ss.from, ss.to = "", nil }
func (*session) Logout() error { return nil }

// Parse decodes a raw RFC 5322 message: headers, and the first text/plain
// and text/html parts, in any multipart nesting. On error it still returns
// what it got, with Raw set.
func Parse(raw []byte) (Received, error) {
	rec := Received{Raw: raw, Headers: map[string]string{}}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return rec, fmt.Errorf("parse message: %w", err)
	}
	dec := new(mime.WordDecoder)
	for k, v := range msg.Header {
		if d, err := dec.DecodeHeader(v[0]); err == nil {
			rec.Headers[k] = d
		} else {
			rec.Headers[k] = v[0]
		}
	}
	rec.Subject = rec.Headers["Subject"]
	err = rec.walk(textproto.MIMEHeader(msg.Header), msg.Body, true)
	return rec, err
}

func (r *Received) walk(h textproto.MIMEHeader, body io.Reader, top bool) error {
	ct := h.Get("Content-Type")
	if ct == "" {
		ct = "text/plain"
	}
	mediaType, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Errorf("content type %q: %w", ct, err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			// NextRawPart keeps Content-Transfer-Encoding for decode to see.
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("multipart: %w", err)
			}
			if err := r.walk(p.Header, p, false); err != nil {
				return err
			}
		}
	}
	if mediaType != "text/plain" && mediaType != "text/html" {
		return nil
	}
	b, err := io.ReadAll(decode(h.Get("Content-Transfer-Encoding"), body))
	if err != nil {
		return fmt.Errorf("%s part: %w", mediaType, err)
	}
	if top {
		// A message ends with a line break that belongs to SMTP, not to the
		// text; in a multipart body the boundary line takes it instead.
		b = bytes.TrimSuffix(bytes.TrimSuffix(b, []byte("\n")), []byte("\r"))
	}
	switch {
	case mediaType == "text/plain" && r.Text == "":
		r.Text = string(b)
	case mediaType == "text/html" && r.HTML == "":
		r.HTML = string(b)
	}
	return nil
}

func decode(cte string, r io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(cte)) {
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, r) // skips the line breaks itself
	default: // 7bit, 8bit, binary
		return r
	}
}

var linkRE = regexp.MustCompile(`https?://[^\s"'<>]+`)

// FirstLink returns the first http(s) URL in body that starts with prefix
// (any URL when prefix is empty), or "" if there is none. HTML entities
// such as &amp; are decoded and trailing sentence punctuation is dropped,
// so it works on both the Text and the HTML part.
func FirstLink(body, prefix string) string {
	for _, m := range linkRE.FindAllString(body, -1) {
		link := strings.TrimRight(html.UnescapeString(m), ".,;:!?)]}")
		if strings.HasPrefix(link, prefix) {
			return link
		}
	}
	return ""
}
