package mobile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// sendTimeout bounds one Send, retries included: the member is waiting on the page.
const sendTimeout = 10 * time.Second

// sendAttempts is how many times a message is tried when the provider could not have
// taken it (connection refused, 429, 503); a timeout or another error is not retried,
// because the message may have gone and a second one would reach the member twice.
const sendAttempts = 3

// undeliverable are Twilio's error codes about the number itself: invalid (21211), not
// reachable (21214, 21612), a region the account may not send to (21408), opted out (21610)
// and not a mobile number (21614).
var undeliverable = map[int]bool{21211: true, 21214: true, 21408: true, 21610: true, 21612: true, 21614: true}

// TwilioSender sends through Twilio's Messages API (or anything that speaks it).
type TwilioSender struct {
	BaseURL    string // https://api.twilio.com
	AccountSID string
	AuthToken  string
	From       string
	Client     *http.Client // nil: a client with sendTimeout
}

// TwilioError is the error body Twilio answers a refused request with.
type TwilioError struct {
	Code     int    `json:"code"`
	Message  string `json:"message"`
	MoreInfo string `json:"more_info"`
	Status   int    `json:"status"`
}

func (e *TwilioError) Error() string {
	return fmt.Sprintf("twilio %d: %s (code %d)", e.Status, e.Message, e.Code)
}

func (e *TwilioError) Unwrap() error {
	if undeliverable[e.Code] {
		return ErrUndeliverable
	}
	return nil
}

// Send posts the message and returns its sid.
func (s *TwilioSender) Send(ctx context.Context, to, body string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: sendTimeout}
	}
	endpoint := strings.TrimRight(s.BaseURL, "/") + "/2010-04-01/Accounts/" + url.PathEscape(s.AccountSID) + "/Messages.json"
	form := url.Values{"To": {to}, "From": {s.From}, "Body": {body}}.Encode()
	var lastErr error
	for attempt := range sendAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return "", fmt.Errorf("send sms to %s: %w (after %v)", to, ctx.Err(), lastErr)
			case <-time.After(time.Duration(attempt) * 250 * time.Millisecond):
			}
		}
		sid, retry, err := s.post(ctx, client, endpoint, form)
		if err == nil {
			return sid, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	return "", fmt.Errorf("send sms to %s: %w", to, lastErr)
}

// post makes one request; retry tells whether the provider cannot have taken the message.
func (s *TwilioSender) post(ctx context.Context, client *http.Client, endpoint, form string) (sid string, retry bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form))
	if err != nil {
		return "", false, err
	}
	req.SetBasicAuth(s.AccountSID, s.AuthToken)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		var op *net.OpError
		return "", errors.As(err, &op) && op.Op == "dial", err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return "", false, fmt.Errorf("read twilio answer: %w", err)
	}
	if res.StatusCode >= 400 {
		terr := &TwilioError{Status: res.StatusCode}
		if json.Unmarshal(data, terr) != nil || terr.Message == "" {
			terr.Message = http.StatusText(res.StatusCode)
		}
		terr.Status = res.StatusCode
		return "", res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable, terr
	}
	var ok struct {
		SID    string `json:"sid"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(data, &ok); err != nil || ok.SID == "" {
		return "", false, fmt.Errorf("twilio answered %d without a message sid: %.200s", res.StatusCode, data)
	}
	if ok.Status == "failed" || ok.Status == "undelivered" {
		return "", false, fmt.Errorf("twilio message %s is %s", ok.SID, ok.Status)
	}
	return ok.SID, false, nil
}
