package mobile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/web"
)

// Sender delivers one text message and returns the provider's id for it.
type Sender interface {
	Send(ctx context.Context, to, body string) (id string, err error)
}

var (
	// ErrInvalidConfig is wrapped by every error NewSender returns for a bad URL.
	ErrInvalidConfig = errors.New("sms: invalid config")
	// ErrUndeliverable is wrapped when the provider refuses the number itself (not a
	// mobile, unknown, opted out): another try will not help, another number may.
	ErrUndeliverable = errors.New("sms: the number cannot receive text messages")
)

// NewSender returns the Sender a CANVASS_SMS_URL names:
//
//	twilio://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com?from=%2B15005550006  (HTTPS)
//	twilio+http://ACCOUNT_SID:AUTH_TOKEN@127.0.0.1:8080?from=...         (loopback only: test fakes)
//
// and a LogSender when the URL is empty. The URL's password is never repeated in errors.
func NewSender(rawURL string, log *slog.Logger) (Sender, error) {
	if log == nil {
		log = slog.Default()
	}
	if strings.TrimSpace(rawURL) == "" {
		return &LogSender{Log: log}, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // url.Error repeats the URL and its token
		}
		return nil, fmt.Errorf("%w: SMS URL: %v", ErrInvalidConfig, err)
	}
	var scheme string
	switch u.Scheme {
	case "twilio":
		scheme = "https"
	case "twilio+http":
		// Plain HTTP would send the auth token in the clear: only to this machine.
		if !web.LoopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("%w: twilio+http:// is for loopback hosts only, not %q", ErrInvalidConfig, u.Hostname())
		}
		scheme = "http"
	default:
		return nil, fmt.Errorf("%w: SMS URL scheme must be twilio or twilio+http, got %q", ErrInvalidConfig, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%w: SMS URL has no host", ErrInvalidConfig)
	}
	sid := u.User.Username()
	token, _ := u.User.Password()
	if sid == "" || token == "" {
		return nil, fmt.Errorf("%w: SMS URL needs ACCOUNT_SID:AUTH_TOKEN@", ErrInvalidConfig)
	}
	from := u.Query().Get("from")
	if from == "" {
		return nil, fmt.Errorf("%w: SMS URL needs ?from= (the sending number, URL-encoded: %%2B for +)", ErrInvalidConfig)
	}
	return &TwilioSender{BaseURL: scheme + "://" + u.Host, AccountSID: sid, AuthToken: token, From: from}, nil
}

// LogSender writes messages to the log instead of sending them: in development the code
// is read from there.
type LogSender struct {
	Log *slog.Logger
}

func (s *LogSender) Send(ctx context.Context, to, body string) (string, error) {
	s.Log.InfoContext(ctx, "sms not sent (no CANVASS_SMS_URL configured)", "to", to, "body", body)
	return "", nil
}
