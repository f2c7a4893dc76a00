package smstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder stands in for a test so the server's own failures can be read.
type recorder struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (r *recorder) Helper()          {}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Errorf(format string, a ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) { r.Errorf(format, a...) }
func (r *recorder) finish() {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
}

func post(t *testing.T, s *Server, user, pass string, form url.Values) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.BaseURL()+"/2010-04-01/Accounts/"+AccountSID+"/Messages.json", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var body map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
	return res.StatusCode, body
}

func TestTheFakeAnswersLikeTwilio(t *testing.T) {
	t.Parallel()
	s := Start(t)
	form := url.Values{"To": {"+447700900123"}, "From": {From}, "Body": {"123456 is your code"}}

	status, body := post(t, s, AccountSID, AuthToken, form)
	assert.Equal(t, http.StatusCreated, status)
	assert.Equal(t, "queued", body["status"])
	assert.Equal(t, "+447700900123", body["to"])
	assert.Regexp(t, `^SM\d{32}$`, body["sid"])

	status, body = post(t, s, AccountSID, "not-the-token", form)
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, map[string]any{"code": 20003.0, "message": "Authenticate", "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401.0}, body)

	s.Refuse("+12025550100", 21614)
	form.Set("To", "+12025550100")
	status, body = post(t, s, AccountSID, AuthToken, form)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 21614.0, body["code"])

	assert.Len(t, s.Messages(), 1)
	assert.Equal(t, 3, s.Requests())
	assert.Equal(t, "123456", s.Code(t, "+447700900123"))
}

func TestTheFakeFailsATestWhoseClientBreaksTheProtocol(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	s := Start(rec)
	status, body := post(t, s, AccountSID, AuthToken, url.Values{"To": {"+447700900123"}, "From": {From}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 21602.0, body["code"])
	rec.finish()
	require.Len(t, rec.errors, 1)
	assert.Contains(t, rec.errors[0], "no Body")
}

func TestWaitForReturnsEachNumbersMessagesInOrderOnce(t *testing.T) {
	t.Parallel()
	s := Start(t)
	for _, m := range []struct{ to, body string }{{"+1", "a 111111"}, {"+2", "b 222222"}, {"+1", "c 333333"}} {
		status, _ := post(t, s, AccountSID, AuthToken, url.Values{"To": {m.to}, "From": {From}, "Body": {m.body}})
		require.Equal(t, http.StatusCreated, status)
	}
	assert.Equal(t, "a 111111", s.WaitFor(t, "+1", time.Second).Body)
	assert.Equal(t, "c 333333", s.WaitFor(t, "+1", time.Second).Body)
	assert.Equal(t, "222222", s.Code(t, "+2"))

	rec := &recorder{TB: t}
	s.WaitFor(rec, "+1", 50*time.Millisecond)
	require.Len(t, rec.errors, 1, "no third message to +1")
}
