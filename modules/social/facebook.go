package social

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

func facebookOAuth2(cfg Config, redirectURI string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		// Facebook takes the app id and secret as parameters, never as HTTP Basic.
		Endpoint:    oauth2.Endpoint{AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL, AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: redirectURI,
		Scopes:      []string{"email"},
	}
}

// appSecretProof is Graph's appsecret_proof: hex(HMAC-SHA256(key=app secret, msg=access
// token)). It proves a Graph call comes from the app's server, so a token stolen from a
// phone cannot be used elsewhere with this app's name.
func appSecretProof(appSecret, accessToken string) string {
	m := hmac.New(sha256.New, []byte(appSecret))
	m.Write([]byte(accessToken))
	return hex.EncodeToString(m.Sum(nil))
}

func (c *Client) graphURL(cfg Config, path string, q url.Values) string {
	return strings.TrimSuffix(cfg.APIURL, "/") + path + "?" + q.Encode()
}

// facebookMe asks Graph who owns the access token. wantID, when not "", is the user id
// debug_token reported, which /me must agree with.
func (c *Client) facebookMe(ctx context.Context, cfg Config, accessToken, wantID string) (*Identity, error) {
	q := url.Values{
		"fields":          {"id,name,email"},
		"access_token":    {accessToken},
		"appsecret_proof": {appSecretProof(cfg.ClientSecret, accessToken)},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.graphURL(cfg, "/me", q), nil)
	if err != nil {
		return nil, notConfigured(Facebook, "API URL is not a URL")
	}
	var me struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	if err := doJSON(c.httpClient(), Facebook, "Graph /me", req, &me); err != nil {
		return nil, err
	}
	if me.ID == "" {
		return nil, unavailable(Facebook, "Graph /me answered without an id", nil)
	}
	if wantID != "" && me.ID != wantID {
		return nil, refused(Facebook, "Graph /me names another user than debug_token")
	}
	return &Identity{
		Provider: Facebook,
		Subject:  me.ID,
		Email:    me.Email,
		// Graph only returns an email its owner has confirmed.
		EmailVerified: me.Email != "",
		Name:          me.Name,
	}, nil
}

// facebookVerify checks with debug_token, using the app's own access token, that a user
// token is valid and was issued to this app: a token another app obtained must not sign
// anyone in here.
func (c *Client) facebookVerify(ctx context.Context, cfg Config, token string) (*Identity, error) {
	q := url.Values{
		"input_token":  {token},
		"access_token": {cfg.ClientID + "|" + cfg.ClientSecret},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.graphURL(cfg, "/debug_token", q), nil)
	if err != nil {
		return nil, notConfigured(Facebook, "API URL is not a URL")
	}
	var debug struct {
		Data struct {
			IsValid bool   `json:"is_valid"`
			AppID   string `json:"app_id"`
			UserID  string `json:"user_id"`
		} `json:"data"`
	}
	if err := doJSON(c.httpClient(), Facebook, "Graph /debug_token", req, &debug); err != nil {
		return nil, err
	}
	switch {
	case !debug.Data.IsValid:
		return nil, refused(Facebook, "debug_token says the token is not valid")
	case debug.Data.AppID != cfg.ClientID:
		return nil, refused(Facebook, "the token was issued to another app")
	case debug.Data.UserID == "":
		return nil, refused(Facebook, "debug_token names no user")
	}
	return c.facebookMe(ctx, cfg, token, debug.Data.UserID)
}
