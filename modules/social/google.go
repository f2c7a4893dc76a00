package social

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/url"
	"strings"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// googleScopes ask for the ID token and the two claims an account needs.
var googleScopes = []string{oidc.ScopeOpenID, "email", "profile"}

// oidcProvider is what discovery taught about one issuer, kept for the life of the Client.
type oidcProvider struct {
	provider *oidc.Provider
	keys     remoteKeys
	// algs are the advertised signing algorithms go-oidc can check; nil means RS256.
	algs []string
}

// asymmetricAlgs are the algorithms accepted from discovery: never "none" nor an HMAC,
// whose key would be the (not so secret) client secret.
var asymmetricAlgs = map[string]bool{
	oidc.RS256: true, oidc.RS384: true, oidc.RS512: true,
	oidc.ES256: true, oidc.ES384: true, oidc.ES512: true,
	oidc.PS256: true, oidc.PS384: true, oidc.PS512: true, oidc.EdDSA: true,
}

// discover fetches the issuer's discovery document once and caches it with its key set.
// Concurrent first calls may each fetch it; the first stored wins. A failure is not cached,
// so a provider that was down is asked again next time.
func (c *Client) discover(ctx context.Context, issuer string) (*oidcProvider, error) {
	if v, ok := c.oidc.Load(issuer); ok {
		return v.(*oidcProvider), nil
	}
	hc := c.httpClient()
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, hc), issuer)
	if err != nil {
		var ue *url.Error
		var mismatch *oidc.IssuerMismatchError
		switch {
		case errors.As(err, &ue), errors.As(err, &mismatch):
			return nil, unavailable(Google, "discovery", err)
		default: // go-oidc's text would quote the whole answer
			return nil, unavailable(Google, "discovery document could not be fetched or read", nil)
		}
	}
	var meta struct {
		JWKSURL string   `json:"jwks_uri"`
		Algs    []string `json:"id_token_signing_alg_values_supported"`
	}
	if err := p.Claims(&meta); err != nil || meta.JWKSURL == "" {
		return nil, unavailable(Google, "discovery document has no jwks_uri", nil)
	}
	op := &oidcProvider{
		provider: p,
		// go-oidc's RemoteKeySet refetches the JWKS when it meets a key id it does not know.
		keys: remoteKeys{oidc.NewRemoteKeySet(oidc.ClientContext(context.Background(), hc), meta.JWKSURL)},
	}
	for _, a := range meta.Algs {
		if asymmetricAlgs[a] {
			op.algs = append(op.algs, a)
		}
	}
	v, _ := c.oidc.LoadOrStore(issuer, op)
	return v.(*oidcProvider), nil
}

// remoteKeys wraps go-oidc's RemoteKeySet to tell a key set that could not be fetched (the
// provider is unavailable) from a signature no key matches (a forgery): the verifier flattens
// the key set's error to text, so the difference is passed back through the context.
type remoteKeys struct{ remote *oidc.RemoteKeySet }

// keysUnreachableKey marks, in a verification's context, a *bool to set when fetching failed.
type keysUnreachableKey struct{}

func (k remoteKeys) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := k.remote.VerifySignature(ctx, jwt)
	// RemoteKeySet wraps a fetch failure ("fetching keys: ..."); a signature that no key
	// verifies is a plain error with nothing beneath it.
	if err != nil && errors.Unwrap(err) != nil {
		if flag, ok := ctx.Value(keysUnreachableKey{}).(*bool); ok {
			*flag = true
		}
	}
	return payload, err
}

func (c *Client) googleOAuth2(ctx context.Context, cfg Config, redirectURI string) (*oauth2.Config, error) {
	op, err := c.discover(ctx, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	ep := op.provider.Endpoint()
	// Google documents client_secret_post; saying so spares oauth2 probing with a second try.
	ep.AuthStyle = oauth2.AuthStyleInParams
	return &oauth2.Config{
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		Endpoint:     ep,
		RedirectURL:  redirectURI,
		Scopes:       googleScopes,
	}, nil
}

// googleExchange redeems the code with its PKCE verifier, then trusts nothing in the answer
// but the ID token, and the ID token only once its signature, issuer, audience, expiry and
// nonce all check out.
func (c *Client) googleExchange(ctx context.Context, cfg Config, redirectURI, code, nonce, verifier string) (*Identity, error) {
	oc, err := c.googleOAuth2(ctx, cfg, redirectURI)
	if err != nil {
		return nil, err
	}
	tok, err := oc.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, exchangeError(Google, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, unavailable(Google, "token endpoint answered without an id_token", nil)
	}
	idt, err := c.verifyIDToken(ctx, cfg, raw)
	if err != nil {
		return nil, err
	}
	// A nonce that differs means the token was minted for another sign-in: a replay.
	if nonce == "" || subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(nonce)) != 1 {
		return nil, refused(Google, "the ID token's nonce does not match this sign-in")
	}
	if idt.AccessTokenHash != "" {
		if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
			return nil, refused(Google, "the ID token's at_hash does not match the access token")
		}
	}
	return googleIdentity(idt)
}

// verifyIDToken has go-oidc check the signature against the issuer's JWKS, then iss, aud
// (the panel's client id) and exp. The nonce is the caller's business.
func (c *Client) verifyIDToken(ctx context.Context, cfg Config, raw string) (*oidc.IDToken, error) {
	op, err := c.discover(ctx, cfg.Issuer)
	if err != nil {
		return nil, err
	}
	unreachable := false
	v := oidc.NewVerifier(cfg.Issuer, op.keys, &oidc.Config{ClientID: cfg.ClientID, SupportedSigningAlgs: op.algs})
	idt, err := v.Verify(context.WithValue(ctx, keysUnreachableKey{}, &unreachable), raw)
	if err != nil {
		if unreachable {
			return nil, unavailable(Google, "signing keys could not be fetched", nil)
		}
		var expired *oidc.TokenExpiredError
		if errors.As(err, &expired) {
			return nil, refused(Google, "the ID token expired at %s", expired.Expiry.UTC().Format("2006-01-02T15:04:05Z"))
		}
		return nil, refused(Google, "ID token: %s", strings.TrimPrefix(err.Error(), "oidc: "))
	}
	return idt, nil
}

// flexBool reads a boolean claim sent as a JSON boolean or as "true"/"false", as some
// issuers do for email_verified.
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	switch strings.Trim(string(data), `"`) {
	case "true":
		*b = true
	case "false", "null", "":
		*b = false
	default:
		return errors.New("email_verified is neither true nor false")
	}
	return nil
}

func googleIdentity(idt *oidc.IDToken) (*Identity, error) {
	var claims struct {
		Email         string   `json:"email"`
		EmailVerified flexBool `json:"email_verified"`
		Name          string   `json:"name"`
	}
	if err := idt.Claims(&claims); err != nil {
		return nil, refused(Google, "the ID token's claims cannot be read")
	}
	if idt.Subject == "" {
		return nil, refused(Google, "the ID token has no subject")
	}
	return &Identity{
		Provider:      Google,
		Subject:       idt.Subject,
		Email:         claims.Email,
		EmailVerified: bool(claims.EmailVerified) && claims.Email != "",
		Name:          claims.Name,
	}, nil
}
