package mailer_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/mailer"
	"github.com/canvass/canvass/modules/mailer/mailertest"
)

// oneClick are the RFC 8058 headers of a bulk mail, with a URL longer than a folded line.
var oneClick = []mailer.Header{
	{Name: "List-Unsubscribe", Value: "<https://panel.example.com/ah/api/v1/public/unsubscribe/panel/7b0c2a52-6a53-4c2e-9d43-2f0d1c6a0001/ah/0f8e1d2c-3b4a-5968-7a6b-5c4d3e2f1a0b?hash=0123456789abcdef0123456789abcdef&kind=newsletters>, <mailto:unsubscribe@panel.example.com?subject=unsubscribe>"},
	{Name: "List-Unsubscribe-Post", Value: "List-Unsubscribe=One-Click"},
}

func TestExtraHeadersArriveExactlyAsGiven(t *testing.T) {
	t.Parallel()
	srv := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: srv.URL()}, nil)
	require.NoError(t, err)
	m := validMessage()
	m.Headers = oneClick

	require.NoError(t, sender.Send(t.Context(), m))

	got := srv.WaitFor(t, m.To, wait)
	for _, h := range oneClick {
		assert.Equal(t, h.Value, got.Header(h.Name), "%s is neither encoded nor cut", h.Name)
	}
	assert.Equal(t, m.Subject, got.Subject, "the usual headers stay")
}

func TestTheLogSenderWritesTheExtraHeaders(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	sender, err := mailer.New(mailer.Config{}, slogTo(&logs))
	require.NoError(t, err)
	m := validMessage()
	m.Headers = oneClick

	require.NoError(t, sender.Send(t.Context(), m))

	assert.Contains(t, logs.String(), `header.List-Unsubscribe-Post="List-Unsubscribe=One-Click"`)
	assert.Contains(t, logs.String(), "mailto:unsubscribe@panel.example.com")
}

func TestAHeaderThatCouldAddOrReplaceHeadersIsRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		header  mailer.Header
		wantErr string
	}{
		{"a line break in a value", mailer.Header{Name: "List-Unsubscribe", Value: "<https://x.example>\r\nBcc: victim@example.com"}, "not printable ASCII on one line"},
		{"a bare line feed in a value", mailer.Header{Name: "List-Unsubscribe", Value: "<https://x.example>\nBcc: victim@example.com"}, "not printable ASCII on one line"},
		{"a value beyond ASCII", mailer.Header{Name: "List-Unsubscribe", Value: "<https://例え.example>"}, "not printable ASCII on one line"},
		{"a colon in a name", mailer.Header{Name: "Bcc: victim@example.com\r\nX", Value: "1"}, "header name"},
		{"a space in a name", mailer.Header{Name: "List Unsubscribe", Value: "1"}, "header name"},
		{"an empty name", mailer.Header{Value: "1"}, "cannot be set"},
		{"the Subject, whatever its case", mailer.Header{Name: "sUbJeCt", Value: "Win"}, "cannot be set"},
		{"a second recipient", mailer.Header{Name: "Bcc", Value: "victim@example.com"}, "cannot be set"},
		{"another sender", mailer.Header{Name: "Reply-To", Value: "thief@example.com"}, "cannot be set"},
		{"the content type", mailer.Header{Name: "Content-Type", Value: "text/html"}, "cannot be set"},
	}
	srv := mailertest.Start(t)
	sender, err := mailer.New(mailer.Config{URL: srv.URL()}, nil)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validMessage()
			m.Headers = []mailer.Header{oneClick[1], tt.header}
			err := sender.Send(t.Context(), m)
			require.ErrorIs(t, err, mailer.ErrInvalidMessage)
			assert.ErrorContains(t, err, tt.wantErr)
			assert.False(t, strings.Contains(err.Error(), "\r\n"))
		})
	}
	assert.Empty(t, srv.Messages(), "nothing reached the server")
}
