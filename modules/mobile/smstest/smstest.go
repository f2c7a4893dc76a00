// Package smstest runs a fake of Twilio's Messages API on the loopback interface that
// checks what a client sends (basic auth, the form fields) and answers as Twilio does, so
// tests drive the real HTTP adapter and read the codes the app texts.
package smstest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Credentials and sender of every fake server.
const (
	AccountSID = "AC00000000000000000000000000000001"
	AuthToken  = "fake-auth-token"
	From       = "+15005550006"
)

// Message is one message the server accepted.
type Message struct {
	SID  string
	To   string
	From string
	Body string
}

// Failure is an error answer the server gives instead of accepting a message.
type Failure struct {
	Status  int
	Code    int
	Message string
}

// Server is the fake. Its zero value is not usable: call Start.
type Server struct {
	addr string

	mu       sync.Mutex
	messages []Message
	taken    []bool         // taken[i]: messages[i] was returned by WaitFor
	refuse   map[string]int // To number -> Twilio error code (21614: not a mobile number)
	failures []Failure      // answered to the next requests, in order
	requests int
	errs     []error
}

// Start serves on a free 127.0.0.1 port until the test ends; protocol errors a client made
// fail the test then.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smstest: listen: %v", err)
	}
	s := &Server{addr: ln.Addr().String(), refuse: map[string]int{}}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-done
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, err := range s.errs {
			t.Errorf("smstest: %v", err)
		}
	})
	return s
}

// URL is the CANVASS_SMS_URL that points the app at this server.
func (s *Server) URL() string {
	return "twilio+http://" + AccountSID + ":" + AuthToken + "@" + s.addr + "?from=" + url.QueryEscape(From)
}

// BaseURL is the server's origin, for a TwilioSender built by hand.
func (s *Server) BaseURL() string { return "http://" + s.addr }

// Refuse makes messages to a number fail with a Twilio error code (400), as Twilio refuses
// a landline (21614) or an invalid number (21211).
func (s *Server) Refuse(to string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse[to] = code
}

// FailNext answers the next requests with these errors, one each, before accepting again.
func (s *Server) FailNext(fs ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, fs...)
}

// Requests is how many requests reached the server, accepted or not.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Messages returns every accepted message, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// WaitFor returns the oldest message to a number that no earlier WaitFor returned,
// polling until timeout, and fails the test when none comes.
func (s *Server) WaitFor(t testing.TB, to string, timeout time.Duration) Message {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if m, ok := s.take(to); ok {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("smstest: no new message to %s within %v", to, timeout)
			return Message{}
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *Server) take(to string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.messages {
		if !s.taken[i] && m.To == to {
			s.taken[i] = true
			return m, true
		}
	}
	return Message{}, false
}

var codeRE = regexp.MustCompile(`\b(\d{6})\b`)

// Code is the 6-digit code in the next message to a number (see WaitFor).
func (s *Server) Code(t testing.TB, to string) string {
	t.Helper()
	m := s.WaitFor(t, to, 30*time.Second) // a text on its way: generous on a loaded machine, returns on arrival
	c := codeRE.FindStringSubmatch(m.Body)
	if c == nil {
		t.Fatalf("smstest: no 6-digit code in %q", m.Body)
	}
	return c[1]
}

func (s *Server) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
}

// ServeHTTP answers like Twilio: 201 with the message, or an error JSON.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	want := "/2010-04-01/Accounts/" + AccountSID + "/Messages.json"
	if r.Method != http.MethodPost || r.URL.Path != want {
		s.fail(fmt.Errorf("%s %s, want POST %s", r.Method, r.URL.Path, want))
		writeError(w, Failure{Status: http.StatusNotFound, Code: 20404, Message: "The requested resource was not found"})
		return
	}
	sid, token, ok := r.BasicAuth()
	if !ok || sid != AccountSID || token != AuthToken {
		// Twilio's answer to wrong credentials; tests of that case expect it, so it is no protocol error.
		writeError(w, Failure{Status: http.StatusUnauthorized, Code: 20003, Message: "Authenticate"})
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		s.fail(fmt.Errorf("Content-Type %q, want a form", ct))
	}
	if err := r.ParseForm(); err != nil {
		s.fail(fmt.Errorf("parse form: %w", err))
		writeError(w, Failure{Status: http.StatusBadRequest, Code: 21601, Message: "Malformed request"})
		return
	}
	m := Message{To: r.PostForm.Get("To"), From: r.PostForm.Get("From"), Body: r.PostForm.Get("Body")}
	switch {
	case m.To == "":
		s.fail(fmt.Errorf("no To"))
		writeError(w, Failure{Status: http.StatusBadRequest, Code: 21604, Message: "A 'To' phone number is required."})
		return
	case m.From != From:
		s.fail(fmt.Errorf("From %q, want %q", m.From, From))
		writeError(w, Failure{Status: http.StatusBadRequest, Code: 21212, Message: "The 'From' number is not a valid phone number."})
		return
	case m.Body == "":
		s.fail(fmt.Errorf("no Body"))
		writeError(w, Failure{Status: http.StatusBadRequest, Code: 21602, Message: "Message body is required."})
		return
	}
	s.mu.Lock()
	if len(s.failures) > 0 {
		f := s.failures[0]
		s.failures = s.failures[1:]
		s.mu.Unlock()
		writeError(w, f)
		return
	}
	if code, ok := s.refuse[m.To]; ok {
		s.mu.Unlock()
		writeError(w, Failure{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf("The 'To' number %s is not a valid mobile number.", m.To)})
		return
	}
	m.SID = fmt.Sprintf("SM%032d", len(s.messages)+1)
	s.messages = append(s.messages, m)
	s.taken = append(s.taken, false)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"sid": m.SID, "account_sid": AccountSID, "to": m.To, "from": m.From, "body": m.Body,
		"status": "queued", "num_segments": "1", "direction": "outbound-api", "api_version": "2010-04-01",
		"date_created": time.Now().UTC().Format(time.RFC1123Z), "error_code": nil, "error_message": nil,
	})
}

func writeError(w http.ResponseWriter, f Failure) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"code": f.Code, "message": f.Message, "more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", f.Code), "status": f.Status,
	})
}
