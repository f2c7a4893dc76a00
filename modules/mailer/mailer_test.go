package mailer_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
)

const wait = 5 * time.Second

func validMessage() mailer.Message {
	return mailer.Message{
		To:       "ann@example.com",
		ToName:   "Ann",
		FromName: "Acme Panel",
		Subject:  "Confirm your e-mail",
		Text:     "Open https://panel.example.com/verify?t=abc to confirm.",
		HTML:     `<p><a href="https://panel.example.com/verify?t=abc">Confirm</a></p>`,
		Lang:     "en",
	}
}

// normalize undoes the CRLF line endings SMTP puts on the wire.
func normalize(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func TestSMTPSenderDelivers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		url  func(*mailertest.Server) string
		from string
		msg  func(*mailer.Message)
	}{
		{
			name: "an English message arrives with text and HTML parts",
			msg:  func(*mailer.Message) {},
		},
		{
			name: "a Russian subject, body and panel name decode",
			msg: func(m *mailer.Message) {
				m.To, m.ToName, m.FromName, m.Lang = "ivan@example.com", "Иван", "Панель Опросов", "ru"
				m.Subject = "Подтвердите адрес электронной почты"
				m.Text = "Здравствуйте!\nОткройте https://panel.example.com/verify?t=ру\nСпасибо."
				m.HTML = "<p>Здравствуйте! <a href=\"https://panel.example.com/verify?t=ру\">Подтвердить</a></p>"
			},
		},
		{
			name: "a Chinese subject and body decode",
			msg: func(m *mailer.Message) {
				m.To, m.FromName, m.Lang = "li@example.com", "调查面板", "zh-CN"
				m.Subject = "请确认您的电子邮件地址"
				m.Text = "您好，请点击链接确认：https://panel.example.com/verify?t=zh"
				m.HTML = "<p>您好</p>"
			},
		},
		{
			name: "a message without HTML arrives with the text part only",
			msg:  func(m *mailer.Message) { m.HTML = "" },
		},
		{
			name: "a long line of text survives quoted-printable wrapping",
			msg:  func(m *mailer.Message) { m.Text = strings.Repeat("lorem ipsum dolor sit amet ", 40) },
		},
		{
			name: "credentials in the URL authenticate with PLAIN",
			url: func(s *mailertest.Server) string {
				return strings.Replace(s.URL(), "smtp://", "smtp://panel:s3cret@", 1)
			},
			msg: func(*mailer.Message) {},
		},
		{
			name: "the configured From address is used",
			from: "surveys@acme.example",
			msg:  func(*mailer.Message) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailertest.Start(t)
			url := srv.URL()
			if tt.url != nil {
				url = tt.url(srv)
			}
			sender, err := mailer.New(mailer.Config{URL: url, From: tt.from}, nil)
			require.NoError(t, err)
			require.IsType(t, &mailer.SMTPSender{}, sender)

			m := validMessage()
			tt.msg(&m)
			require.NoError(t, sender.Send(t.Context(), m))

			got := srv.WaitFor(t, m.To, wait)
			wantFrom := tt.from
			if wantFrom == "" {
				wantFrom = mailer.DefaultFrom
			}
			assert.Equal(t, wantFrom, got.From, "envelope sender")
			assert.Equal(t, []string{m.To}, got.To, "envelope recipients")
			assert.Equal(t, m.Subject, got.Subject)
			assert.Equal(t, m.Text, normalize(got.Text))
			assert.Equal(t, m.HTML, normalize(got.HTML))
			assert.Equal(t, m.Lang, got.Header("Content-Language"))
			assert.NotEmpty(t, got.Header("Message-ID"))
			assert.True(t, strings.HasSuffix(got.Header("Message-ID"), "@"+strings.Split(wantFrom, "@")[1]+">"),
				"Message-ID %q uses the sender's domain", got.Header("Message-ID"))
			_, err = mail.ParseDate(got.Header("Date"))
			assert.NoError(t, err, "Date header")

			from, err := mail.ParseAddress(got.Header("From"))
			require.NoError(t, err)
			assert.Equal(t, m.FromName, from.Name, "From display name is the panel name")
			assert.Equal(t, wantFrom, from.Address)

			to, err := mail.ParseAddress(got.Header("To"))
			require.NoError(t, err)
			assert.Equal(t, m.ToName, to.Name)

			wantType := "multipart/alternative"
			if m.HTML == "" {
				wantType = "text/plain"
			}
			assert.Contains(t, got.Header("Content-Type"), wantType)
			assert.Contains(t, strings.ToLower(string(got.Raw)), "charset=utf-8")
		})
	}
}

func TestALinkInAReceivedMailCanBeFollowed(t *testing.T) {
	t.Parallel()
	srv := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: srv.URL()}, nil)
	require.NoError(t, err)

	m := validMessage()
	m.Text = "Reset your password: https://panel.example.com/reset?u=1&t=xyz."
	m.HTML = `<a href="https://panel.example.com/reset?u=1&amp;t=xyz">Reset</a>`
	require.NoError(t, sender.Send(t.Context(), m))

	got := srv.WaitFor(t, "ann@example.com", wait)
	const want = "https://panel.example.com/reset?u=1&t=xyz"
	assert.Equal(t, want, mailertest.FirstLink(got.Text, "https://panel.example.com/reset"))
	assert.Equal(t, want, mailertest.FirstLink(got.HTML, "https://panel.example.com/reset"))
}

func TestWaitForReturnsEachMailOnce(t *testing.T) {
	t.Parallel()
	srv := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: srv.URL()}, nil)
	require.NoError(t, err)

	for _, subject := range []string{"first", "second"} {
		m := validMessage()
		m.Subject = subject
		require.NoError(t, sender.Send(t.Context(), m))
	}
	assert.Equal(t, "first", srv.WaitFor(t, "ANN@example.com", wait).Subject)
	assert.Equal(t, "second", srv.WaitFor(t, "ann@example.com", wait).Subject)
	assert.Len(t, srv.Messages(), 2)
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		cfg     mailer.Config
		wantErr string
	}{
		{"an unknown scheme is refused", mailer.Config{URL: "http://mail.example.com"}, `scheme must be smtp or smtps, got "http"`},
		{"a URL without scheme is refused", mailer.Config{URL: "//mail.example.com:25"}, `scheme must be smtp or smtps, got ""`},
		{"a URL without host is refused", mailer.Config{URL: "smtp://:25"}, "no host"},
		{"a URL with only a scheme is refused", mailer.Config{URL: "smtps://"}, "no host"},
		{"a port out of range is refused", mailer.Config{URL: "smtp://mail.example.com:70000"}, "out of range"},
		{"an unparsable URL is refused without echoing the password", mailer.Config{URL: "smtp://u:hunter2@mail.example.com:x"}, "invalid port"},
		{"a bad From address is refused", mailer.Config{From: "not an address"}, "from address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := mailer.New(tt.cfg, nil)
			require.ErrorIs(t, err, mailer.ErrInvalidConfig)
			assert.ErrorContains(t, err, tt.wantErr)
			assert.NotContains(t, err.Error(), "hunter2")
			assert.Nil(t, s)
		})
	}
}

func TestNewPicksTheSender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		url  string
		want mailer.Sender
	}{
		{"an empty URL logs mail", "", &mailer.LogSender{}},
		{"an smtp URL sends over SMTP", "smtp://user:pass@mail.example.com:587", &mailer.SMTPSender{}},
		{"an smtps URL without port sends over SMTP", "smtps://mail.example.com", &mailer.SMTPSender{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := mailer.New(mailer.Config{URL: tt.url}, nil)
			require.NoError(t, err)
			assert.IsType(t, tt.want, s)
		})
	}
}

func TestSendRejectsInvalidMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		msg     func(*mailer.Message)
		wantErr string
	}{
		{"an empty To is refused", func(m *mailer.Message) { m.To = "" }, "To address"},
		{"a To without @ is refused", func(m *mailer.Message) { m.To = "ann.example.com" }, "To address"},
		{"two To addresses are refused", func(m *mailer.Message) { m.To = "a@example.com, b@example.com" }, "To address"},
		{"an empty Subject is refused", func(m *mailer.Message) { m.Subject = "" }, "Subject is required"},
		{"a blank Subject is refused", func(m *mailer.Message) { m.Subject = "  " }, "Subject is required"},
		{"an empty Text part is refused", func(m *mailer.Message) { m.Text = "" }, "Text part is required"},
		{"a CRLF in the Subject is refused", func(m *mailer.Message) { m.Subject = "Hi\r\nBcc: victim@example.com" }, "Subject contains a line break"},
		{"a bare LF in the Subject is refused", func(m *mailer.Message) { m.Subject = "Hi\nBcc: victim@example.com" }, "Subject contains a line break"},
		{"a CR in ToName is refused", func(m *mailer.Message) { m.ToName = "Ann\rBcc: x@example.com" }, "ToName contains a line break"},
		{"a CRLF in FromName is refused", func(m *mailer.Message) { m.FromName = "Panel\r\nReply-To: x@example.com" }, "FromName contains a line break"},
		{"a CRLF in Lang is refused", func(m *mailer.Message) { m.Lang = "en\r\nX-Evil: 1" }, "Lang contains a line break"},
	}
	srv := mailertest.Start(t)
	smtpSender, err := mailer.New(mailer.Config{URL: srv.URL()}, nil)
	require.NoError(t, err)
	var logs bytes.Buffer
	logSender, err := mailer.New(mailer.Config{}, slogTo(&logs))
	require.NoError(t, err)

	for _, tt := range tests {
		for _, s := range []struct {
			kind   string
			sender mailer.Sender
		}{{"smtp", smtpSender}, {"log", logSender}} {
			t.Run(tt.name+" by the "+s.kind+" sender", func(t *testing.T) {
				m := validMessage()
				tt.msg(&m)
				err := s.sender.Send(t.Context(), m)
				require.ErrorIs(t, err, mailer.ErrInvalidMessage)
				assert.ErrorContains(t, err, tt.wantErr)
			})
		}
	}
	assert.Empty(t, srv.Messages(), "nothing reached the server")
	assert.Empty(t, logs.String(), "nothing was logged")
}

func TestLogSenderWritesTheMessageToTheLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	sender, err := mailer.New(mailer.Config{From: "surveys@acme.example"}, slogTo(&buf))
	require.NoError(t, err)

	m := validMessage()
	require.NoError(t, sender.Send(t.Context(), m))

	out := buf.String()
	assert.Contains(t, out, "level=INFO")
	assert.Contains(t, out, `to="\"Ann\" <ann@example.com>"`)
	assert.Contains(t, out, `from="\"Acme Panel\" <surveys@acme.example>"`)
	assert.Contains(t, out, `subject="Confirm your e-mail"`)
	assert.Contains(t, out, "lang=en")
	assert.Contains(t, out, "https://panel.example.com/verify?t=abc", "the text part, with its link, is logged")
}

func TestSMTPSenderFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ctx  func(t *testing.T) context.Context
		// check inspects the error beyond the common wrapping.
		check func(t *testing.T, err error)
	}{
		{
			name: "a closed port gives a wrapped connection error",
			ctx:  func(t *testing.T) context.Context { return t.Context() },
			check: func(t *testing.T, err error) {
				var opErr *net.OpError
				assert.ErrorAs(t, err, &opErr)
			},
		},
		{
			name: "a canceled context stops the send",
			ctx: func(t *testing.T) context.Context {
				ctx, cancel := context.WithCancel(t.Context())
				cancel()
				return ctx
			},
			check: func(t *testing.T, err error) { assert.ErrorIs(t, err, context.Canceled) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sender, err := mailer.New(mailer.Config{URL: "smtp://" + closedAddr(t)}, nil)
			require.NoError(t, err)

			err = sender.Send(tt.ctx(t), validMessage())
			require.Error(t, err)
			assert.ErrorContains(t, err, "send mail to ann@example.com: ")
			assert.NotErrorIs(t, err, mailer.ErrInvalidMessage)
			tt.check(t, err)
		})
	}
}

// closedAddr returns a loopback address on which nothing listens. Port 1 (tcpmux) is never
// served here, and unlike a just-closed ephemeral port it cannot be taken by a parallel test.
func closedAddr(t *testing.T) string {
	const addr = "127.0.0.1:1"
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Skip("something listens on 127.0.0.1:1")
	}
	return addr
}
func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
