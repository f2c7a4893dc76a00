// Package localcaptcha is the offline development captcha provider and the test fake for package
// captcha: an http.Handler that speaks the providers' siteverify protocol, so the demo and the
// tests exercise the same HTTP path as production.
//
// # Protocol
//
// POST .../siteverify (any prefix: the handler matches on the last path element) with an
// application/x-www-form-urlencoded body of secret, response (the token) and optionally remoteip,
// sitekey (hCaptcha) and idempotency_key (Turnstile). It answers 200 with JSON:
// {"success":true,"challenge_ts":...,"hostname":...} plus the fields of the Kind it imitates
// (see Imitate), or {"success":false,"error-codes":[...]} with
//
//   - missing-input-secret, missing-input-response: the parameter is absent;
//   - invalid-input-secret: the secret is not the server's (the token is not used up);
//   - invalid-input-response: the token was never issued by this server, or was altered;
//   - timeout-or-duplicate: the token was already checked, or is older than the TTL
//     (imitating hCaptcha: invalid-or-already-seen-response, as hCaptcha says);
//   - sitekey-secret-mismatch: imitating hCaptcha with SetSiteKey, another sitekey was sent;
//   - bad-request: the body does not parse.
//
// While SetDown(true) every request gets 503, like an outage.
//
// # Tokens
//
// Issue, IssueScored and CheckboxToken mint what a solved widget would produce. Tokens are
// signed (HMAC-SHA256, with a key random to each Server) and carry their hostname, score, action
// and issue time, so minting one stores nothing: rendering a form a million times costs no
// memory. Only checked tokens are remembered, until they expire, to refuse replays. A restarted
// server refuses the tokens of the one before it.
//
// # The development checkbox
//
// Without JavaScript, the local provider's widget is a plain checkbox:
//
//	<label><input type="checkbox" name="captcha-local" value="{{ srv.CheckboxToken(host) }}" required>
//	I am not a robot (local development captcha — not a real captcha)</label>
//
// The form carries a fresh token in the checkbox's value; a browser only submits it when the box
// is ticked, so an unticked box reaches the server as an empty token and fails without a call.
// Render a new token every time the form is rendered (after a failed submit too): each is
// single-use. Anyone who can fetch the form can tick the box — this keeps the flow honest in
// development and tests; it stops no robot.
package localcaptcha

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/canvass/canvass/modules/captcha"
)

// CheckboxLabel is the text of the development checkbox.
const CheckboxLabel = "I am not a robot (local development captcha — not a real captcha)"

// Path is the endpoint's last path element: mount the server so that requests end in it.
const Path = "/siteverify"

const (
	// DefaultTTL is how long a token stays valid, as Turnstile's.
	DefaultTTL = 5 * time.Minute
	// DefaultScore is the reCAPTCHA score of a token from Issue or CheckboxToken.
	DefaultScore = 0.9

	maxBodyBytes  = 64 << 10
	maxRequestLog = 256
	tokenPrefix   = "lc1."
)

// Request is one request the server received, for tests to inspect. The secret is not kept.
type Request struct {
	Method, Path   string
	Response       string // the token
	RemoteIP       string
	SiteKey        string
	IdempotencyKey string
	SecretGiven    bool
}

// Server is a local siteverify endpoint. Its zero value is not usable; use New. It is safe for
// concurrent use.
type Server struct {
	secret string
	key    []byte
	down   atomic.Bool

	mu        sync.Mutex
	kind      captcha.Kind
	siteKey   string
	ttl       time.Duration
	now       func() time.Time
	used      map[string]usedToken // by nonce
	lastSweep time.Time
	requests  []Request
}

type usedToken struct {
	expires        time.Time
	idempotencyKey string
	answer         []byte
}

// New returns a server that accepts secret, imitating the local provider's answer shape.
func New(secret string) *Server {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic("localcaptcha: no randomness: " + err.Error()) // crypto/rand does not fail on supported platforms
	}
	return &Server{
		secret: secret,
		key:    key,
		kind:   captcha.Local,
		ttl:    DefaultTTL,
		now:    time.Now,
		used:   map[string]usedToken{},
	}
}

// Imitate makes the answers carry the fields of kind's provider: reCAPTCHA's score and action,
// hCaptcha's credit, Turnstile's action, cdata and always-present error-codes. Local answers
// like Turnstile without cdata. An unknown kind is treated as Local.
func (s *Server) Imitate(kind captcha.Kind) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kind = kind
}

// SetSiteKey makes the server, when imitating hCaptcha, refuse requests whose sitekey parameter
// is present and different; "" (the default) checks nothing.
func (s *Server) SetSiteKey(siteKey string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.siteKey = siteKey
}

// SetTTL sets how long tokens stay valid; d <= 0 restores DefaultTTL.
func (s *Server) SetTTL(d time.Duration) {
	if d <= 0 {
		d = DefaultTTL
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ttl = d
}

// SetClock replaces time.Now, for tests of expiry; nil restores time.Now.
func (s *Server) SetClock(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// SetDown makes every request get 503 Service Unavailable while down is true.
func (s *Server) SetDown(down bool) { s.down.Store(down) }

// Requests returns the last requests received (at most 256), oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Issue returns a fresh, valid, single-use token, as a widget solved on hostname would produce
// (a port is dropped, as providers report bare hostnames). Imitating reCAPTCHA, its score is
// DefaultScore and its action empty.
func (s *Server) Issue(hostname string) string {
	return s.IssueScored(hostname, DefaultScore, "")
}

// IssueScored is Issue with a reCAPTCHA v3 score (clamped to 0.0–1.0) and action. The action is
// also reported when imitating Turnstile.
func (s *Server) IssueScored(hostname string, score float64, action string) string {
	if math.IsNaN(score) || score < 0 {
		score = 0
	}
	score = min(score, 1)
	s.mu.Lock()
	now := s.now()
	s.mu.Unlock()
	return s.sign(claims{
		Host:   bareHost(hostname),
		Score:  score,
		Action: action,
		Issued: now.UnixMilli(),
		Nonce:  rand.Text(),
	})
}

// CheckboxToken is the value to render in the development checkbox: a fresh single-use token
// for hostname, the same as Issue's.
func (s *Server) CheckboxToken(hostname string) string { return s.Issue(hostname) }

// ServeHTTP answers siteverify requests.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	}
	formErr := r.ParseForm()
	s.record(Request{
		Method:         r.Method,
		Path:           r.URL.Path,
		Response:       r.PostForm.Get("response"),
		RemoteIP:       r.PostForm.Get("remoteip"),
		SiteKey:        r.PostForm.Get("sitekey"),
		IdempotencyKey: r.PostForm.Get("idempotency_key"),
		SecretGiven:    r.PostForm.Get("secret") != "",
	})

	if s.down.Load() {
		http.Error(w, "service unavailable (localcaptcha is down)", http.StatusServiceUnavailable)
		return
	}
	if r.URL.Path != Path && !strings.HasSuffix(r.URL.Path, Path) {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if formErr != nil {
		_, _ = w.Write(failure("bad-request"))
		return
	}
	_, _ = w.Write(s.verify(r.PostForm.Get("secret"), r.PostForm.Get("response"),
		r.PostForm.Get("sitekey"), r.PostForm.Get("idempotency_key")))
}

func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == maxRequestLog {
		s.requests = append(s.requests[:0], s.requests[1:]...)
	}
	s.requests = append(s.requests, req)
}

// verify returns the JSON answer for one request.
func (s *Server) verify(secret, token, siteKey, idempotencyKey string) []byte {
	var codes []string
	switch {
	case secret == "":
		codes = append(codes, "missing-input-secret")
	case subtle.ConstantTimeCompare([]byte(secret), []byte(s.secret)) != 1:
		codes = append(codes, "invalid-input-secret")
	}
	if token == "" {
		codes = append(codes, "missing-input-response")
	}
	if len(codes) > 0 {
		return failure(codes...)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kind == captcha.HCaptcha && s.siteKey != "" && siteKey != "" && siteKey != s.siteKey {
		return failure("sitekey-secret-mismatch")
	}
	c, ok := s.open(token)
	if !ok {
		return failure("invalid-input-response")
	}
	now := s.now()
	s.sweepLocked(now)
	issued := time.UnixMilli(c.Issued)
	expires := issued.Add(s.ttl)
	if u, seen := s.used[c.Nonce]; seen {
		if idempotencyKey != "" && idempotencyKey == u.idempotencyKey {
			return u.answer // Turnstile: a retry with the same key gets the same answer
		}
		return failure(s.duplicateCode())
	}
	if !now.Before(expires) {
		return failure(s.duplicateCode())
	}
	answer := s.successLocked(c, issued)
	s.used[c.Nonce] = usedToken{expires: expires, idempotencyKey: idempotencyKey, answer: answer}
	return answer
}

// sweepLocked forgets, at most once per TTL/4, the used tokens that have expired: a replay of
// one is then refused for its age, with the same error code, so memory holds only the tokens
// checked within one TTL.
func (s *Server) sweepLocked(now time.Time) {
	if now.Sub(s.lastSweep) < s.ttl/4 {
		return
	}
	s.lastSweep = now
	for n, u := range s.used {
		if !now.Before(u.expires) {
			delete(s.used, n)
		}
	}
}

func (s *Server) duplicateCode() string {
	if s.kind == captcha.HCaptcha {
		return "invalid-or-already-seen-response"
	}
	return "timeout-or-duplicate"
}

func failure(codes ...string) []byte {
	return mustJSON(map[string]any{"success": false, "error-codes": codes})
}

func (s *Server) successLocked(c claims, issued time.Time) []byte {
	a := map[string]any{
		"success":      true,
		"challenge_ts": issued.UTC().Format("2006-01-02T15:04:05.000Z"),
		"hostname":     c.Host,
	}
	switch s.kind {
	case captcha.Recaptcha:
		a["challenge_ts"] = issued.UTC().Format("2006-01-02T15:04:05Z")
		a["score"] = c.Score
		a["action"] = c.Action
	case captcha.HCaptcha:
		a["credit"] = false
	case captcha.Turnstile:
		a["error-codes"] = []string{}
		a["action"] = c.Action
		a["cdata"] = ""
	default: // Local
		a["error-codes"] = []string{}
		if c.Action != "" {
			a["action"] = c.Action
		}
	}
	return mustJSON(a)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("localcaptcha: " + err.Error()) // only strings, bools and finite numbers go in
	}
	return b
}

// claims is what a token carries.
type claims struct {
	Host   string  `json:"h"`
	Score  float64 `json:"s"`
	Action string  `json:"a,omitempty"`
	Issued int64   `json:"t"` // Unix milliseconds
	Nonce  string  `json:"n"`
}

var b64 = base64.RawURLEncoding

func (s *Server) sign(c claims) string {
	payload := tokenPrefix + b64.EncodeToString(mustJSON(c))
	return payload + "." + b64.EncodeToString(s.mac(payload))
}

func (s *Server) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// open checks a token's signature and returns its claims.
func (s *Server) open(token string) (claims, bool) {
	i := strings.LastIndexByte(token, '.')
	if !strings.HasPrefix(token, tokenPrefix) || i <= len(tokenPrefix) {
		return claims{}, false
	}
	payload, sig := token[:i], token[i+1:]
	got, err := b64.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(payload)) {
		return claims{}, false
	}
	raw, err := b64.DecodeString(payload[len(tokenPrefix):])
	if err != nil {
		return claims{}, false
	}
	var c claims
	if err := json.Unmarshal(raw, &c); err != nil || c.Nonce == "" {
		return claims{}, false
	}
	return c, true
}

// bareHost drops a port and brackets, as providers report hostnames.
func bareHost(h string) string {
	h = strings.TrimSpace(h)
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimPrefix(strings.TrimSuffix(h, "]"), "[")
}
