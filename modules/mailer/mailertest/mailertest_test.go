package mailertest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/mailer/mailertest"
)

func TestFirstLink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, prefix, want string
	}{
		{"the first URL is found when no prefix is given", "see http://a.example/x and https://b.example/y", "", "http://a.example/x"},
		{"the prefix skips other URLs", "see http://a.example/x and https://b.example/y", "https://b.example", "https://b.example/y"},
		{"a trailing full stop is dropped", "Open https://a.example/v?t=1.", "", "https://a.example/v?t=1"},
		{"closing punctuation is dropped", "(https://a.example/v), then", "", "https://a.example/v"},
		{"an href's &amp; is decoded", `<a href="https://a.example/r?u=1&amp;t=2">go</a>`, "", "https://a.example/r?u=1&t=2"},
		{"a URL ends at a tag", `<p>https://a.example/p</p>`, "", "https://a.example/p"},
		{"no match gives an empty string", "nothing here", "", ""},
		{"no URL with the prefix gives an empty string", "https://a.example/x", "https://b.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, mailertest.FirstLink(tt.body, tt.prefix))
		})
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                string
		raw                 string
		subject, text, html string
		header, headerValue string
	}{
		{
			name: "base64 parts inside multipart/mixed decode",
			raw: `From: a@example.com
To: b@example.com
Subject: =?UTF-8?B?0J/RgNC40LLQtdGC?=
Content-Type: multipart/mixed; boundary=outer

--outer
Content-Type: multipart/alternative; boundary=inner

--inner
Content-Type: text/plain; charset=UTF-8
Content-Transfer-Encoding: base64

0J/RgNC40LLQtdGCLCDQvNC4
0YAh
--inner
Content-Type: text/html; charset=UTF-8
Content-Transfer-Encoding: base64

PGI+aGk8L2I+
--inner--
--outer--
`,
			subject: "Привет", text: "Привет, мир!", html: "<b>hi</b>",
		},
		{
			name: "a quoted-printable single part decodes",
			raw: `Subject: =?utf-8?q?=E4=BD=A0=E5=A5=BD?=
Content-Language: zh
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

caf=C3=A9 au lait, a long line that is soft=
 wrapped
`,
			subject: "你好", text: "café au lait, a long line that is soft wrapped",
			header: "content-language", headerValue: "zh",
		},
		{
			name:    "a message without Content-Type is plain text",
			raw:     "Subject: hi\n\nhello\n",
			subject: "hi", text: "hello",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := strings.ReplaceAll(tt.raw, "\n", "\r\n")
			got, err := mailertest.Parse([]byte(raw))
			require.NoError(t, err)
			assert.Equal(t, tt.subject, got.Subject)
			assert.Equal(t, tt.text, got.Text)
			assert.Equal(t, tt.html, got.HTML)
			if tt.header != "" {
				assert.Equal(t, tt.headerValue, got.Header(tt.header))
			}
		})
	}
}
