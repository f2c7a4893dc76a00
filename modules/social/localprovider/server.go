// Package localprovider is a stand-in for Google, Facebook and Twitter/X that speaks each
// one's sign-in protocol for real: OpenID Connect with signed ID tokens, the Graph OAuth
// dialog with debug_token and appsecret_proof, OAuth 2.0 with PKCE and OAuth 1.0a. Tests run
// the social package against it on loopback, and the offline demo points its provider
// configuration at it, so sign-in works without a network and without real accounts. Its
// sign-in page says plainly that it is not the provider it imitates.
//
// It is a net/http Handler that can be mounted under any path prefix. Everything lives in
// memory; codes and tokens come from crypto/rand.
package localprovider

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/canvass/canvass/modules/social"
	jose "github.com/go-jose/go-jose/v4"
)

// Identity is one person the sign-in page offers to sign in as.
type Identity struct {
	Subject, Email, Name string
	EmailVerified        bool
}

// codeLifetime is how long an authorization code may wait to be redeemed.
const codeLifetime = time.Minute

// tokenLifetime is how long an access token issued here is good for.
const tokenLifetime = time.Hour

// grant is what an authorization code stands for until it is redeemed, once.
type grant struct {
	provider    social.Provider
	clientID    string
	redirectURI string
	nonce       string
	challenge   string // PKCE S256 challenge; "" when the client sent none
	scopes      []string
	subject     string
	expires     time.Time
}

// accessToken is a bearer token issued here.
type accessToken struct {
	provider social.Provider
	clientID string
	subject  string
	scopes   []string
	issued   time.Time
	expires  time.Time
}

// oauth1Token is a Twitter OAuth 1.0a access token's secret and owner.
type oauth1Token struct{ secret, subject string }

// Server is the local provider. Make one with New.
type Server struct {
	base     string // baseURL without a trailing slash
	baseURL  *url.URL
	basePath string // baseURL's path without a trailing slash, "" at the root
	clients  map[string]string
	people   []Identity

	key *rsa.PrivateKey
	kid string

	foreignOnce sync.Once
	foreign     *rsa.PrivateKey

	now func() time.Time

	mu         sync.Mutex
	codes      map[string]*grant
	tokens     map[string]*accessToken
	oauth1     map[string]oauth1Token
	oauth1Seen map[string]time.Time // consumer key, token, timestamp and nonce already used
	tokenCalls map[social.Provider]int
	// redirectAllowed, when set, says which redirect URIs are registered (RestrictRedirects).
	redirectAllowed func(*url.URL) bool
}

// New makes a provider whose endpoints live under baseURL (e.g.
// "http://127.0.0.1:3000/_dev/sign-in" or an httptest URL). clients maps each client id
// (Facebook app id, Twitter consumer key) to its secret; identities are the people the
// sign-in page offers. It generates an RSA-2048 key to sign ID tokens with, and panics if
// baseURL is not an absolute http(s) URL, since nothing could reach it.
func New(baseURL string, clients map[string]string, identities []Identity) *Server {
	base := strings.TrimSuffix(baseURL, "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		panic(fmt.Sprintf("localprovider: base URL %q is not an absolute http(s) URL", baseURL))
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(fmt.Sprintf("localprovider: generating the signing key: %v", err))
	}
	s := &Server{
		base:       base,
		baseURL:    u,
		basePath:   strings.TrimSuffix(u.Path, "/"),
		clients:    make(map[string]string, len(clients)),
		people:     append([]Identity(nil), identities...),
		key:        key,
		now:        time.Now,
		codes:      map[string]*grant{},
		tokens:     map[string]*accessToken{},
		oauth1:     map[string]oauth1Token{},
		oauth1Seen: map[string]time.Time{},
		tokenCalls: map[social.Provider]int{},
	}
	for id, secret := range clients {
		s.clients[id] = secret
	}
	jwk := jose.JSONWebKey{Key: &key.PublicKey}
	thumb, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		panic(fmt.Sprintf("localprovider: key thumbprint: %v", err))
	}
	s.kid = base64.RawURLEncoding.EncodeToString(thumb)
	return s
}

// RestrictRedirects registers, as a real provider's app settings do, where the client may
// be sent back: a redirect_uri allowed refuses is shown an error page, never followed (the
// stand-in must not be an open redirector). Without it, any absolute http(s) URL is taken
// (tests on httptest addresses). Call it before serving.
func (s *Server) RestrictRedirects(allowed func(*url.URL) bool) { s.redirectAllowed = allowed }

// Configs is the Config of each provider pointing at this server, for a client registered
// here as clientID with clientSecret (also its Twitter consumer key and secret).
func (s *Server) Configs(clientID, clientSecret string) map[social.Provider]social.Config {
	return map[social.Provider]social.Config{
		social.Google: {
			Provider: social.Google, ClientID: clientID, ClientSecret: clientSecret,
			Issuer: s.base + "/google",
		},
		social.Facebook: {
			Provider: social.Facebook, ClientID: clientID, ClientSecret: clientSecret,
			AuthURL:  s.base + "/facebook/dialog/oauth",
			TokenURL: s.base + "/facebook/oauth/access_token",
			APIURL:   s.base + "/facebook",
		},
		social.Twitter: {
			Provider: social.Twitter, ClientID: clientID, ClientSecret: clientSecret,
			AuthURL:     s.base + "/twitter/i/oauth2/authorize",
			TokenURL:    s.base + "/twitter/2/oauth2/token",
			APIURL:      s.base + "/twitter",
			ConsumerKey: clientID, ConsumerSecret: clientSecret,
		},
	}
}

// ServeHTTP answers the three providers' endpoints. Paths are taken relative to baseURL's
// path, whether or not a router in front has already stripped it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch rel := s.relPath(r.URL.Path); rel {
	case "/google/.well-known/openid-configuration":
		s.googleDiscovery(w, r)
	case "/google/jwks":
		s.googleJWKS(w, r)
	case "/google/authorize":
		s.authorize(w, r, social.Google)
	case "/google/token":
		s.googleToken(w, r)
	case "/google/userinfo":
		s.googleUserinfo(w, r)
	case "/facebook/dialog/oauth":
		s.authorize(w, r, social.Facebook)
	case "/facebook/oauth/access_token":
		s.facebookToken(w, r)
	case "/facebook/me":
		s.facebookMe(w, r)
	case "/facebook/debug_token":
		s.facebookDebugToken(w, r)
	case "/twitter/i/oauth2/authorize":
		s.authorize(w, r, social.Twitter)
	case "/twitter/2/oauth2/token":
		s.twitterToken(w, r)
	case "/twitter/2/users/me":
		s.twitterMe(w, r)
	case "/twitter/1.1/account/verify_credentials.json":
		s.twitterVerifyCredentials(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) relPath(p string) string {
	if s.basePath != "" && strings.HasPrefix(p, s.basePath+"/") {
		return p[len(s.basePath):]
	}
	return p
}

// TokenCalls counts the requests each provider's token endpoint has received, so a test
// can tell that a flow stopped before redeeming its code.
func (s *Server) TokenCalls(p social.Provider) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenCalls[p]
}

func (s *Server) countTokenCall(p social.Provider) {
	s.mu.Lock()
	s.tokenCalls[p]++
	s.mu.Unlock()
}

// identity finds a configured person by subject.
func (s *Server) identity(subject string) (Identity, bool) {
	for _, id := range s.people {
		if id.Subject == subject {
			return id, true
		}
	}
	return Identity{}, false
}

// clientSecretOK reports whether id is a registered client whose secret is secret.
func (s *Server) clientSecretOK(id, secret string) bool {
	want, ok := s.clients[id]
	return ok && secret != "" && constantTimeEqual(want, secret)
}

// randomString is n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// IssueAccessToken issues a bearer token for subject to clientID as if they had signed in
// there, so a test can hand it to VerifyToken (Facebook user tokens, Twitter bearer tokens,
// Google access tokens for userinfo).
func (s *Server) IssueAccessToken(provider social.Provider, subject string, clientID string) string {
	return s.issueToken(provider, clientID, subject, defaultScopes(provider))
}

func defaultScopes(p social.Provider) []string {
	switch p {
	case social.Google:
		return []string{"openid", "email", "profile"}
	case social.Facebook:
		return []string{"email", "public_profile"}
	default:
		return []string{"users.read", "tweet.read"}
	}
}

func (s *Server) issueToken(p social.Provider, clientID, subject string, scopes []string) string {
	prefix := map[social.Provider]string{social.Google: "ya29.local-", social.Facebook: "EAAlocal"}[p]
	tok := prefix + randomString(32)
	now := s.now()
	s.mu.Lock()
	s.pruneLocked(now)
	s.tokens[tok] = &accessToken{provider: p, clientID: clientID, subject: subject, scopes: scopes, issued: now, expires: now.Add(tokenLifetime)}
	s.mu.Unlock()
	return tok
}

// pruneLocked forgets codes that expired and tokens a day past expiry (kept that long so
// debug_token can still say "expired"), so a demo server left running does not grow.
func (s *Server) pruneLocked(now time.Time) {
	for k, g := range s.codes {
		if now.After(g.expires) {
			delete(s.codes, k)
		}
	}
	for k, t := range s.tokens {
		if now.Sub(t.expires) > 24*time.Hour {
			delete(s.tokens, k)
		}
	}
}

// lookupToken finds an unexpired bearer token of provider p.
func (s *Server) lookupToken(p social.Provider, tok string) (*accessToken, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens[tok]
	if !ok || t.provider != p || !s.now().Before(t.expires) {
		return nil, false
	}
	return t, true
}

// IssueOAuth1Token issues a Twitter OAuth 1.0a access token and token secret for subject,
// as Twitter hands a client app after it signs someone in.
func (s *Server) IssueOAuth1Token(subject string) (token, secret string) {
	token = "local-" + randomString(24)
	secret = randomString(32)
	s.mu.Lock()
	s.oauth1[token] = oauth1Token{secret: secret, subject: subject}
	s.mu.Unlock()
	return token, secret
}

// AuthorizeAs does what a person does on the sign-in page authURL leads to (one AuthURL
// made for a config from Configs) when they pick subject: it returns the redirect back to
// the app, redirect_uri?code=...&state=..., for Go tests that have no browser.
func (s *Server) AuthorizeAs(authURL string, subject string) (redirect string, err error) {
	u, err := url.Parse(authURL)
	if err != nil {
		return "", fmt.Errorf("localprovider: auth URL: %w", err)
	}
	if u.Scheme != s.baseURL.Scheme || u.Host != s.baseURL.Host {
		return "", fmt.Errorf("localprovider: auth URL %s://%s is not this server", u.Scheme, u.Host)
	}
	form := u.Query()
	form.Set("subject", subject)
	req, err := http.NewRequest(http.MethodPost, s.base+s.relPath(u.Path), strings.NewReader(form.Encode()))
	if err != nil {
		return "", fmt.Errorf("localprovider: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := &recorder{header: http.Header{}}
	s.ServeHTTP(rec, req)
	if loc := rec.header.Get("Location"); rec.status/100 == 3 && loc != "" {
		return loc, nil
	}
	return "", fmt.Errorf("localprovider: sign-in page answered %d, not a redirect: %s", rec.status, pageText(rec.body.String()))
}

// recorder is the least ResponseWriter AuthorizeAs needs to run a request in process.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// pageText pulls the explanation out of an error page for AuthorizeAs's error.
func pageText(page string) string {
	if i := strings.Index(page, `<p id="problem">`); i >= 0 {
		rest := page[i+len(`<p id="problem">`):]
		if j := strings.Index(rest, "</p>"); j >= 0 {
			return rest[:j]
		}
	}
	return strings.TrimSpace(page)
}

// writeJSON answers v as JSON, never to be cached since it may hold tokens.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
