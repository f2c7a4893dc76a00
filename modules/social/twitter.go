package social

import (
	"context"
	"net/http"
	"strings"

	"github.com/dghubble/oauth1"
	"golang.org/x/oauth2"
)

func twitterOAuth2(cfg Config, redirectURI string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     cfg.ClientID,
		ClientSecret: cfg.ClientSecret,
		// A confidential Twitter client authenticates with HTTP Basic only.
		Endpoint:    oauth2.Endpoint{AuthURL: cfg.AuthURL, TokenURL: cfg.TokenURL, AuthStyle: oauth2.AuthStyleInHeader},
		RedirectURL: redirectURI,
		Scopes:      []string{"users.read", "tweet.read"},
	}
}

// twitterMe asks who owns an OAuth 2.0 bearer token. Twitter offers no way to learn which
// app a bearer token was issued to, so a client app's token is only as good as the app
// that sent it; prefer OAuth 1.0a tokens (bound to the consumer key) from client apps.
func (c *Client) twitterMe(ctx context.Context, cfg Config, bearer string) (*Identity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.APIURL, "/")+"/2/users/me", nil)
	if err != nil {
		return nil, notConfigured(Twitter, "API URL is not a URL")
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	var me struct {
		Data struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Username string `json:"username"`
		} `json:"data"`
	}
	if err := doJSON(c.httpClient(), Twitter, "/2/users/me", req, &me); err != nil {
		return nil, err
	}
	if me.Data.ID == "" {
		return nil, unavailable(Twitter, "/2/users/me answered without an id", nil)
	}
	return &Identity{Provider: Twitter, Subject: me.Data.ID, Name: nameOr(me.Data.Name, me.Data.Username)}, nil
}

// twitterVerifyOAuth1 signs verify_credentials with the app's consumer key and the client's
// token: Twitter answers only when the token belongs to this consumer and the token secret
// is right. The email it may give is not vouched for.
func (c *Client) twitterVerifyOAuth1(ctx context.Context, cfg Config, token, secret string) (*Identity, error) {
	if cfg.ConsumerKey == "" || cfg.ConsumerSecret == "" {
		return nil, notConfigured(Twitter, "OAuth 1.0a consumer key and secret are empty")
	}
	base := c.httpClient()
	hc := oauth1.NewConfig(cfg.ConsumerKey, cfg.ConsumerSecret).
		Client(context.WithValue(ctx, oauth1.HTTPClient, base), oauth1.NewToken(token, secret))
	// oauth1 keeps only the base client's transport; keep its timeout and policies too.
	hc.Timeout, hc.CheckRedirect, hc.Jar = base.Timeout, base.CheckRedirect, base.Jar
	u := strings.TrimSuffix(cfg.APIURL, "/") + "/1.1/account/verify_credentials.json?include_email=true&skip_status=true"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, notConfigured(Twitter, "API URL is not a URL")
	}
	var user struct {
		IDStr      string `json:"id_str"`
		Name       string `json:"name"`
		ScreenName string `json:"screen_name"`
		Email      string `json:"email"`
	}
	if err := doJSON(hc, Twitter, "/1.1/account/verify_credentials.json", req, &user); err != nil {
		return nil, err
	}
	if user.IDStr == "" {
		return nil, unavailable(Twitter, "verify_credentials answered without an id_str", nil)
	}
	return &Identity{Provider: Twitter, Subject: user.IDStr, Email: user.Email, Name: nameOr(user.Name, user.ScreenName)}, nil
}

func nameOr(name, handle string) string {
	if name != "" {
		return name
	}
	return handle
}
