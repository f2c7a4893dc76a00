package social

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"

	"golang.org/x/oauth2"
)

// AuthURL is where to send the browser to sign in. state ties the callback to this browser
// (the caller checks it on return), nonce ties Google's ID token to this sign-in, and
// verifier is the PKCE secret whose S256 challenge goes in the URL so a stolen code is
// useless without it. Google's authorization endpoint is discovered (and cached).
func (c *Client) AuthURL(ctx context.Context, cfg Config, redirectURI, state, nonce, verifier string) (string, error) {
	cfg = cfg.WithDefaults()
	if err := check(cfg, true); err != nil {
		return "", err
	}
	if redirectURI == "" || state == "" || verifier == "" {
		return "", fmt.Errorf("social: %s: redirect URI, state and PKCE verifier are all required", cfg.Provider)
	}
	switch cfg.Provider {
	case Google:
		if nonce == "" {
			return "", fmt.Errorf("social: google: a nonce is required")
		}
		oc, err := c.googleOAuth2(ctx, cfg, redirectURI)
		if err != nil {
			return "", err
		}
		return oc.AuthCodeURL(state, oauth2.SetAuthURLParam("nonce", nonce), oauth2.S256ChallengeOption(verifier)), nil
	case Facebook:
		return facebookOAuth2(cfg, redirectURI).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), nil
	default: // Twitter
		return twitterOAuth2(cfg, redirectURI).AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), nil
	}
}

// Callback reads the query of the provider's redirect back to redirectURI and returns the
// code to pass to Exchange. It refuses a state other than wantState (the one this browser
// was given with AuthURL: anything else is a forged or crossed callback) and an error the
// provider sent instead of a code, such as error=access_denied when the person cancelled.
func Callback(p Provider, query url.Values, wantState string) (code string, err error) {
	if wantState == "" || subtle.ConstantTimeCompare([]byte(query.Get("state")), []byte(wantState)) != 1 {
		return "", refused(p, "the callback's state does not match this browser's sign-in")
	}
	if e := query.Get("error"); e != "" {
		if len(e) > 40 {
			e = e[:40]
		}
		return "", refused(p, "the provider sent back error %q", e)
	}
	if code = query.Get("code"); code == "" {
		return "", refused(p, "the callback has no code")
	}
	return code, nil
}

// Exchange trades the code the provider sent back to redirectURI for the identity that
// signed in. nonce and verifier are the ones given to AuthURL for this sign-in; the code is
// one Callback has vouched for (the state matched).
func (c *Client) Exchange(ctx context.Context, cfg Config, redirectURI, code, nonce, verifier string) (*Identity, error) {
	cfg = cfg.WithDefaults()
	if err := check(cfg, true); err != nil {
		return nil, err
	}
	if code == "" {
		return nil, refused(cfg.Provider, "no authorization code")
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, c.httpClient())
	switch cfg.Provider {
	case Google:
		return c.googleExchange(ctx, cfg, redirectURI, code, nonce, verifier)
	case Facebook:
		tok, err := facebookOAuth2(cfg, redirectURI).Exchange(ctx, code, oauth2.VerifierOption(verifier))
		if err != nil {
			return nil, exchangeError(cfg.Provider, err)
		}
		return c.facebookMe(ctx, cfg, tok.AccessToken, "")
	default: // Twitter
		tok, err := twitterOAuth2(cfg, redirectURI).Exchange(ctx, code, oauth2.VerifierOption(verifier))
		if err != nil {
			return nil, exchangeError(cfg.Provider, err)
		}
		return c.twitterMe(ctx, cfg, tok.AccessToken)
	}
}

// VerifyToken checks a token the provider issued to one of the panel's client apps (a phone
// app that signed in natively) and returns whose it is. For Google token is an ID token; for
// Facebook a user access token; for Twitter an OAuth 2.0 bearer token when secret is "", or
// an OAuth 1.0a access token whose token secret is secret.
func (c *Client) VerifyToken(ctx context.Context, cfg Config, token, secret string) (*Identity, error) {
	cfg = cfg.WithDefaults()
	if _, ok := ParseProvider(string(cfg.Provider)); !ok {
		return nil, fmt.Errorf("social: %w: unknown provider %q", ErrNotConfigured, cfg.Provider)
	}
	if token == "" {
		return nil, refused(cfg.Provider, "no token")
	}
	switch cfg.Provider {
	case Google:
		if err := check(cfg, false); err != nil {
			return nil, err
		}
		idt, err := c.verifyIDToken(ctx, cfg, token)
		if err != nil {
			return nil, err
		}
		return googleIdentity(idt)
	case Facebook:
		if err := check(cfg, true); err != nil {
			return nil, err
		}
		return c.facebookVerify(ctx, cfg, token)
	default: // Twitter
		if secret != "" {
			return c.twitterVerifyOAuth1(ctx, cfg, token, secret)
		}
		if err := check(cfg, false); err != nil {
			return nil, err
		}
		return c.twitterMe(ctx, cfg, token)
	}
}

// exchangeError sorts a token endpoint failure: the endpoint saying no (400/401/403, or an
// error code in a 2xx) is a refusal; anything else means it could not be asked.
func exchangeError(p Provider, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		switch {
		case refusalStatus(status), status/100 == 2 && re.ErrorCode != "":
			return refused(p, "token endpoint answered %d%s", status, errorCode(re.Body))
		default:
			return unavailable(p, fmt.Sprintf("token endpoint answered %d", status), nil)
		}
	}
	return unavailable(p, "token endpoint", err)
}
