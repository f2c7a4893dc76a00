// Package social signs people in with Google, Facebook and Twitter/X by speaking each
// provider's own protocol: OpenID Connect for Google, the Graph OAuth dialog for Facebook,
// OAuth 2.0 with PKCE (and OAuth 1.0a for client apps) for Twitter. It knows nothing of
// panels, sessions or accounts: a caller hands it one panel's Config and gets back who the
// provider says signed in, or an error saying whether the provider refused (ErrRefused) or
// could not be asked (ErrUnavailable), because the two call for different answers to the user.
package social

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/net/publicsuffix"
)

// Provider names a sign-in provider as it appears in URLs and configuration.
type Provider string

const (
	Google   Provider = "google"
	Facebook Provider = "facebook"
	Twitter  Provider = "twitter"
)

// Providers lists every provider in the order sign-in buttons show them.
func Providers() []Provider { return []Provider{Google, Facebook, Twitter} }

// ParseProvider reads a provider name from a URL or a configuration file.
func ParseProvider(s string) (Provider, bool) {
	for _, p := range Providers() {
		if string(p) == s {
			return p, true
		}
	}
	return "", false
}

// The providers' real, documented production endpoints, used where a Config leaves one empty.
const (
	DefaultGoogleIssuer     = "https://accounts.google.com"
	DefaultFacebookAuthURL  = "https://www.facebook.com/v19.0/dialog/oauth"
	DefaultFacebookTokenURL = "https://graph.facebook.com/v19.0/oauth/access_token"
	DefaultFacebookAPIURL   = "https://graph.facebook.com/v19.0"
	DefaultTwitterAuthURL   = "https://twitter.com/i/oauth2/authorize"
	DefaultTwitterTokenURL  = "https://api.twitter.com/2/oauth2/token"
	DefaultTwitterAPIURL    = "https://api.twitter.com"
)

// Config is one panel's configuration of one provider. Empty endpoint fields mean the
// provider's real production endpoints (WithDefaults); tests and the offline demo point them
// at a local provider instead.
type Config struct {
	Provider     Provider
	ClientID     string
	ClientSecret string
	// Issuer is Google's OpenID Connect issuer; discovery is at Issuer + "/.well-known/openid-configuration".
	Issuer string
	// AuthURL is where the browser goes to sign in (Facebook, Twitter).
	AuthURL string
	// TokenURL is where a code is traded for an access token (Facebook, Twitter).
	TokenURL string
	// APIURL is the API root: Facebook's Graph (me, debug_token), Twitter's API (/2/users/me,
	// /1.1/account/verify_credentials.json).
	APIURL string
	// ConsumerKey and ConsumerSecret are Twitter's OAuth 1.0a app credentials, used only to
	// check a client app's token and token secret in VerifyToken.
	ConsumerKey, ConsumerSecret string
}

// WithDefaults fills the empty endpoints of the config's provider with the production ones.
func (c Config) WithDefaults() Config {
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	switch c.Provider {
	case Google:
		def(&c.Issuer, DefaultGoogleIssuer)
	case Facebook:
		def(&c.AuthURL, DefaultFacebookAuthURL)
		def(&c.TokenURL, DefaultFacebookTokenURL)
		def(&c.APIURL, DefaultFacebookAPIURL)
	case Twitter:
		def(&c.AuthURL, DefaultTwitterAuthURL)
		def(&c.TokenURL, DefaultTwitterTokenURL)
		def(&c.APIURL, DefaultTwitterAPIURL)
	}
	return c
}

// Identity is who the provider says signed in.
type Identity struct {
	Provider Provider
	// Subject is the provider's stable user id (OIDC sub, Graph id, Twitter id): the key to
	// link an account by, since emails change hands.
	Subject string
	// Email is "" when the provider gave none.
	Email string
	// EmailVerified says the provider vouches for Email: Google's email_verified claim;
	// Facebook only ever returns confirmed emails; Twitter never vouches.
	EmailVerified bool
	Name          string
}

var (
	// ErrRefused wraps every "no" from a provider or a token: a bad or forged signature, the
	// wrong audience or app, an expired token, a nonce or state mismatch, an invalid or reused
	// code, a wrong PKCE verifier or client secret. Asking again will not help.
	ErrRefused = errors.New("refused")
	// ErrUnavailable wraps failures to get an answer at all: the network, a 5xx, an answer
	// that cannot be read. Asking again later may help.
	ErrUnavailable = errors.New("provider unavailable")
	// ErrNotConfigured wraps a call with a config that lacks what the protocol needs.
	ErrNotConfigured = errors.New("not configured")
)

// Client talks to the providers. It is safe for concurrent use; make one per process so
// its caches (Google's discovery document and keys) are shared.
type Client struct {
	// HTTP makes every request; nil means a client with a 10 s timeout.
	HTTP *http.Client

	// oidc caches one discovered Google provider per issuer.
	oidc sync.Map // issuer -> *oidcProvider
}

// defaultHTTP is used by a Client whose HTTP is nil, so a provider that hangs cannot hold a
// sign-in request forever.
var defaultHTTP = &http.Client{Timeout: 10 * time.Second}

// New makes a Client; a nil httpClient means one with a 10 s timeout.
func New(httpClient *http.Client) *Client {
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 10 * time.Second}
	}
	return &Client{HTTP: httpClient}
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return defaultHTTP
}

// refused builds an error wrapping ErrRefused; what must never hold a secret or a token.
func refused(p Provider, format string, args ...any) error {
	return fmt.Errorf("social: %s: %w: %s", p, ErrRefused, fmt.Sprintf(format, args...))
}

// unavailable builds an error wrapping ErrUnavailable and, when there is one, the cause
// (stripped of any URL, which may carry a token or an app secret).
func unavailable(p Provider, what string, cause error) error {
	if cause == nil {
		return fmt.Errorf("social: %s: %w: %s", p, ErrUnavailable, what)
	}
	return fmt.Errorf("social: %s: %w: %s: %w", p, ErrUnavailable, what, withoutURL(cause))
}

func notConfigured(p Provider, what string) error {
	return fmt.Errorf("social: %s: %w: %s", p, ErrNotConfigured, what)
}

// withoutURL drops the request URL a *url.Error prints: Graph URLs carry access tokens and
// app secrets in their query.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// check makes sure cfg names a known provider and has what every flow of it needs.
func check(cfg Config, needSecret bool) error {
	if _, ok := ParseProvider(string(cfg.Provider)); !ok {
		return fmt.Errorf("social: %w: unknown provider %q", ErrNotConfigured, cfg.Provider)
	}
	if cfg.ClientID == "" {
		return notConfigured(cfg.Provider, "client id is empty")
	}
	if needSecret && cfg.ClientSecret == "" {
		return notConfigured(cfg.Provider, "client secret is empty")
	}
	return nil
}

// Domain is the provider's own registrable domain (google.com, facebook.com, twitter.com, or the
// host of a local provider): the domain of the address the browser signs in at. An onboarding
// that began with this provider may return the visitor to an https address on it.
func (c Config) Domain() string {
	c = c.WithDefaults()
	raw := c.AuthURL
	if c.Provider == Google {
		raw = c.Issuer
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host // localhost, an IP address: the host itself
}
