package mobile

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/mobile/smstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheTwilioSenderPostsTheMessageWithBasicAuthAndReturnsItsSid(t *testing.T) {
	t.Parallel()
	fake := smstest.Start(t)
	sender, err := NewSender(fake.URL(), nil)
	require.NoError(t, err)
	require.IsType(t, &TwilioSender{}, sender)

	sid, err := sender.Send(context.Background(), "+447700900123", "123456 is your code. Ünïcode survives.")
	require.NoError(t, err)
	msgs := fake.Messages()
	require.Len(t, msgs, 1)
	assert.Equal(t, msgs[0].SID, sid)
	assert.True(t, strings.HasPrefix(sid, "SM"))
	assert.Equal(t, smstest.Message{SID: sid, To: "+447700900123", From: smstest.From, Body: "123456 is your code. Ünïcode survives."}, msgs[0])
}

func TestTheTwilioSenderReportsWhatTheProviderRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		setup         func(*smstest.Server)
		token         string
		undeliverable bool
		requests      int
		contains      string
	}{
		{
			name:          "a landline is undeliverable and not retried",
			setup:         func(s *smstest.Server) { s.Refuse("+12025550100", 21614) },
			undeliverable: true, requests: 1, contains: "code 21614",
		},
		{
			name:     "wrong credentials are an error, not retried",
			token:    "wrong-token",
			requests: 1, contains: "twilio 401: Authenticate (code 20003)",
		},
		{
			name: "a server error is not retried, since the message may have gone",
			setup: func(s *smstest.Server) {
				s.FailNext(smstest.Failure{Status: 500, Code: 20500, Message: "Internal Server Error"})
			},
			requests: 1, contains: "twilio 500",
		},
		{
			name: "rate limiting three times in a row gives up after three tries",
			setup: func(s *smstest.Server) {
				for range 3 {
					s.FailNext(smstest.Failure{Status: 429, Code: 20429, Message: "Too Many Requests"})
				}
			},
			requests: 3, contains: "twilio 429",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := smstest.Start(t)
			if tt.setup != nil {
				tt.setup(fake)
			}
			sender := &TwilioSender{BaseURL: fake.BaseURL(), AccountSID: smstest.AccountSID, AuthToken: smstest.AuthToken, From: smstest.From}
			if tt.token != "" {
				sender.AuthToken = tt.token
			}
			_, err := sender.Send(context.Background(), "+12025550100", "123456")
			require.Error(t, err)
			assert.Equal(t, tt.undeliverable, errors.Is(err, ErrUndeliverable), "%v", err)
			assert.Contains(t, err.Error(), tt.contains)
			assert.Contains(t, err.Error(), "send sms to +12025550100", "the error says what failed")
			assert.NotContains(t, err.Error(), smstest.AuthToken)
			assert.Equal(t, tt.requests, fake.Requests())
			assert.Empty(t, fake.Messages())
		})
	}
}

func TestTheTwilioSenderRetriesWhenTheProviderCannotHaveTakenTheMessage(t *testing.T) {
	t.Parallel()
	fake := smstest.Start(t)
	fake.FailNext(smstest.Failure{Status: 503, Code: 20503, Message: "Service Unavailable"}, smstest.Failure{Status: 429, Code: 20429, Message: "Too Many Requests"})
	sender := &TwilioSender{BaseURL: fake.BaseURL(), AccountSID: smstest.AccountSID, AuthToken: smstest.AuthToken, From: smstest.From}
	sid, err := sender.Send(context.Background(), "+447700900123", "123456")
	require.NoError(t, err)
	assert.NotEmpty(t, sid)
	assert.Equal(t, 3, fake.Requests())
	assert.Len(t, fake.Messages(), 1, "sent once")
}

func TestTheTwilioSenderRetriesARefusedConnectionAndStopsAtTheContextsEnd(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now

	sender := &TwilioSender{BaseURL: "http://" + addr, AccountSID: smstest.AccountSID, AuthToken: smstest.AuthToken, From: smstest.From}
	start := time.Now()
	_, err = sender.Send(context.Background(), "+447700900123", "123456")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "connection refused")
	assert.GreaterOrEqual(t, time.Since(start), 700*time.Millisecond, "two back-offs (250ms, 500ms) between three tries")

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = sender.Send(ctx, "+447700900123", "123456")
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestTheTwilioSenderGivesUpOnAProviderThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	stalled := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-stalled })}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { close(stalled); _ = srv.Close() })

	sender := &TwilioSender{BaseURL: "http://" + ln.Addr().String(), AccountSID: smstest.AccountSID, AuthToken: smstest.AuthToken, From: smstest.From,
		Client: &http.Client{Timeout: 200 * time.Millisecond}}
	start := time.Now()
	_, err = sender.Send(context.Background(), "+447700900123", "123456")
	require.Error(t, err)
	assert.Less(t, time.Since(start), 2*time.Second, "a timeout is not retried: the message may have gone")
}

func TestSMSURLsAreCheckedAtStart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url string
		want      string // the base URL, or a part of the error
		ok        bool
	}{
		{"Twilio over HTTPS", "twilio://AC1:tok@api.twilio.com?from=%2B15005550006", "https://api.twilio.com", true},
		{"plain HTTP to loopback", "twilio+http://AC1:tok@127.0.0.1:8080?from=%2B15005550006", "http://127.0.0.1:8080", true},
		{"plain HTTP to localhost", "twilio+http://AC1:tok@localhost:8080?from=%2B15005550006", "http://localhost:8080", true},
		{"plain HTTP to IPv6 loopback", "twilio+http://AC1:tok@[::1]:8080?from=%2B15005550006", "http://[::1]:8080", true},
		{"plain HTTP to another host is refused", "twilio+http://AC1:tok@api.twilio.com?from=%2B15005550006", "loopback hosts only", false},
		{"another scheme is refused", "https://AC1:tok@api.twilio.com?from=%2B15005550006", "scheme must be twilio", false},
		{"no credentials", "twilio://api.twilio.com?from=%2B15005550006", "ACCOUNT_SID:AUTH_TOKEN", false},
		{"no auth token", "twilio://AC1@api.twilio.com?from=%2B15005550006", "ACCOUNT_SID:AUTH_TOKEN", false},
		{"no sender", "twilio://AC1:tok@api.twilio.com", "?from=", false},
		{"a malformed URL does not repeat the token", "twilio://AC1:s3cret@api.twilio.com:port?from=x", "invalid port", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSender(tt.url, nil)
			if !tt.ok {
				require.ErrorIs(t, err, ErrInvalidConfig)
				assert.Contains(t, err.Error(), tt.want)
				assert.NotContains(t, err.Error(), "s3cret")
				return
			}
			require.NoError(t, err)
			tw, ok := s.(*TwilioSender)
			require.True(t, ok)
			assert.Equal(t, tt.want, tw.BaseURL)
			assert.Equal(t, "AC1", tw.AccountSID)
			assert.Equal(t, "tok", tw.AuthToken)
			assert.Equal(t, "+15005550006", tw.From)
		})
	}
}

func TestWithoutAnSMSURLTheCodeIsWrittenToTheLog(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	s, err := SenderFromURL("", true, log)
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "CANVASS_SMS_URL is empty", "production warns at start")
	_, err = s.Send(context.Background(), "+447700900123", "654321 is your code")
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "654321 is your code")
	assert.Contains(t, buf.String(), "+447700900123")

	buf.Reset()
	_, err = SenderFromURL("", false, log)
	require.NoError(t, err)
	assert.Empty(t, buf.String(), "development does not warn")
}
