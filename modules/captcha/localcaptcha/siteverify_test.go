package localcaptcha_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/canvass/canvass/modules/captcha/localcaptcha"
)

// TestSiteverifyAnswers checks the verdicts, one request (or a sequence) at a time.
func TestSiteverifyAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// requests returns the forms to post in order; the last one's answer is checked.
		requests  func(srv *localcaptcha.Server) []url.Values
		wantOK    bool
		wantCodes []string
	}{
		{
			name:     "a fresh token with the right secret passes",
			requests: func(s *localcaptcha.Server) []url.Values { return []url.Values{form(secret, s.Issue(host))} },
			wantOK:   true,
		},
		{
			name:     "a checkbox token passes like any other",
			requests: func(s *localcaptcha.Server) []url.Values { return []url.Values{form(secret, s.CheckboxToken(host))} },
			wantOK:   true,
		},
		{
			name:      "a missing secret is missing-input-secret",
			requests:  func(s *localcaptcha.Server) []url.Values { return []url.Values{form("", s.Issue(host))} },
			wantCodes: []string{"missing-input-secret"},
		},
		{
			name:      "a missing token is missing-input-response",
			requests:  func(*localcaptcha.Server) []url.Values { return []url.Values{form(secret, "")} },
			wantCodes: []string{"missing-input-response"},
		},
		{
			name:      "an empty request reports both missing parameters",
			requests:  func(*localcaptcha.Server) []url.Values { return []url.Values{{}} },
			wantCodes: []string{"missing-input-secret", "missing-input-response"},
		},
		{
			name:      "a wrong secret is invalid-input-secret",
			requests:  func(s *localcaptcha.Server) []url.Values { return []url.Values{form("guess", s.Issue(host))} },
			wantCodes: []string{"invalid-input-secret"},
		},
		{
			name: "a wrong secret does not use the token up",
			requests: func(s *localcaptcha.Server) []url.Values {
				tok := s.Issue(host)
				return []url.Values{form("guess", tok), form(secret, tok)}
			},
			wantOK: true,
		},
		{
			name: "a token never issued is invalid-input-response",
			requests: func(*localcaptcha.Server) []url.Values {
				return []url.Values{form(secret, "10000000-aaaa-bbbb-cccc-000000000001")}
			},
			wantCodes: []string{"invalid-input-response"},
		},
		{
			name: "an altered token is invalid-input-response",
			requests: func(s *localcaptcha.Server) []url.Values {
				tok := s.Issue(host)
				i := strings.Index(tok, ".") + 3
				b := []byte(tok)
				b[i] ^= 1
				return []url.Values{form(secret, string(b))}
			},
			wantCodes: []string{"invalid-input-response"},
		},
		{
			name: "a token from another server is invalid-input-response",
			requests: func(*localcaptcha.Server) []url.Values {
				return []url.Values{form(secret, localcaptcha.New(secret).Issue(host))}
			},
			wantCodes: []string{"invalid-input-response"},
		},
		{
			name: "a token checked twice is timeout-or-duplicate",
			requests: func(s *localcaptcha.Server) []url.Values {
				tok := s.Issue(host)
				return []url.Values{form(secret, tok), form(secret, tok)}
			},
			wantCodes: []string{"timeout-or-duplicate"},
		},
		{
			name: "a token older than the TTL is timeout-or-duplicate",
			requests: func(s *localcaptcha.Server) []url.Values {
				start := time.Now()
				s.SetTTL(time.Minute)
				s.SetClock(func() time.Time { return start })
				tok := s.Issue(host)
				s.SetClock(func() time.Time { return start.Add(time.Minute) })
				return []url.Values{form(secret, tok)}
			},
			wantCodes: []string{"timeout-or-duplicate"},
		},
		{
			name: "a token just inside the TTL passes",
			requests: func(s *localcaptcha.Server) []url.Values {
				start := time.Now()
				s.SetClock(func() time.Time { return start })
				tok := s.Issue(host)
				s.SetClock(func() time.Time { return start.Add(localcaptcha.DefaultTTL - time.Millisecond) })
				return []url.Values{form(secret, tok)}
			},
			wantOK: true,
		},
		{
			name: "a replay long after the first check is still refused, once forgotten",
			requests: func(s *localcaptcha.Server) []url.Values {
				start := time.Now()
				s.SetClock(func() time.Time { return start })
				tok := s.Issue(host)
				first := form(secret, tok)
				s.SetClock(func() time.Time { return start.Add(time.Hour) }) // the sweep forgets it
				return []url.Values{first, form(secret, s.Issue(host)), form(secret, tok)}
			},
			wantCodes: []string{"timeout-or-duplicate"},
		},
		{
			name: "a retry with the same idempotency key gets the same success",
			requests: func(s *localcaptcha.Server) []url.Values {
				f := form(secret, s.Issue(host))
				f.Set("idempotency_key", "4b1e9d0c-5d2e-4a8f-9c1b-2f7a6e3d8c10")
				return []url.Values{f, f}
			},
			wantOK: true,
		},
		{
			name: "a retry with another idempotency key is a duplicate",
			requests: func(s *localcaptcha.Server) []url.Values {
				tok := s.Issue(host)
				a, b := form(secret, tok), form(secret, tok)
				a.Set("idempotency_key", "key-a")
				b.Set("idempotency_key", "key-b")
				return []url.Values{a, b}
			},
			wantCodes: []string{"timeout-or-duplicate"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := localcaptcha.New(secret)
			u := serve(t, srv)
			var a answer
			for _, f := range tt.requests(srv) {
				a = siteverify(t, u, f)
			}
			assert.Equal(t, tt.wantOK, a.Success)
			if tt.wantOK {
				assert.Empty(t, a.ErrorCodes)
				assert.Equal(t, host, a.Hostname)
			} else {
				assert.Equal(t, tt.wantCodes, a.ErrorCodes)
			}
		})
	}
}

// TestSiteverifyHTTP checks the endpoint's HTTP behaviour around the verdicts.
func TestSiteverifyHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		setup      func(*localcaptcha.Server)
		do         func(base string, srv *localcaptcha.Server) (*http.Response, error)
		wantStatus int
		wantBody   string
	}{
		{
			name: "a GET is 405 with Allow: POST",
			do: func(base string, _ *localcaptcha.Server) (*http.Response, error) {
				return http.Get(base + "/siteverify")
			},
			wantStatus: http.StatusMethodNotAllowed,
		},
		{
			name: "another path is 404",
			do: func(base string, s *localcaptcha.Server) (*http.Response, error) {
				return http.PostForm(base+"/verify", form(secret, s.Issue(host)))
			},
			wantStatus: http.StatusNotFound,
		},
		{
			name: "the endpoint works under any prefix",
			do: func(base string, s *localcaptcha.Server) (*http.Response, error) {
				return http.PostForm(base+"/dev/captcha/siteverify", form(secret, s.Issue(host)))
			},
			wantStatus: http.StatusOK,
			wantBody:   `"success":true`,
		},
		{
			name:  "while down every request is 503",
			setup: func(s *localcaptcha.Server) { s.SetDown(true) },
			do: func(base string, s *localcaptcha.Server) (*http.Response, error) {
				return http.PostForm(base+"/siteverify", form(secret, s.Issue(host)))
			},
			wantStatus: http.StatusServiceUnavailable,
		},
		{
			name:  "back up after an outage it answers again",
			setup: func(s *localcaptcha.Server) { s.SetDown(true); s.SetDown(false) },
			do: func(base string, s *localcaptcha.Server) (*http.Response, error) {
				return http.PostForm(base+"/siteverify", form(secret, s.Issue(host)))
			},
			wantStatus: http.StatusOK,
			wantBody:   `"success":true`,
		},
		{
			name: "parameters in the query string are not read, only the form body",
			do: func(base string, s *localcaptcha.Server) (*http.Response, error) {
				return http.Post(base+"/siteverify?"+form(secret, s.Issue(host)).Encode(), "application/x-www-form-urlencoded", nil)
			},
			wantStatus: http.StatusOK,
			wantBody:   `"error-codes":["missing-input-secret","missing-input-response"]`,
		},
		{
			name: "a body over 64 KiB is bad-request",
			do: func(base string, _ *localcaptcha.Server) (*http.Response, error) {
				return http.Post(base+"/siteverify", "application/x-www-form-urlencoded",
					strings.NewReader("secret="+secret+"&response="+strings.Repeat("x", 70<<10)))
			},
			wantStatus: http.StatusOK,
			wantBody:   `"error-codes":["bad-request"]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := localcaptcha.New(secret)
			if tt.setup != nil {
				tt.setup(srv)
			}
			base := strings.TrimSuffix(serve(t, srv), "/siteverify")
			resp, err := tt.do(base, srv)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tt.wantStatus, resp.StatusCode)
			if resp.StatusCode == http.StatusMethodNotAllowed {
				assert.Equal(t, http.MethodPost, resp.Header.Get("Allow"))
			}
			if tt.wantBody != "" {
				body, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				assert.Contains(t, string(body), tt.wantBody)
			}
		})
	}
}
