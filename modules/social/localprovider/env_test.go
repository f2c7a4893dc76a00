package localprovider_test

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/social"
	"github.com/canvass/canvass/modules/social/localprovider"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

const (
	clientID     = "panel-app"
	clientSecret = "panel-secret"
	redirectURI  = "https://panel.example/oauth/callback"
)

var people = []localprovider.Identity{
	{Subject: "1001", Email: "ann@example.com", Name: "Ann Example", EmailVerified: true},
	{Subject: "1002", Email: "bob@example.com", Name: "Bob <Example>"},
	{Subject: "1003", Name: "Cy Example"},
}

type env struct {
	lp     *localprovider.Server
	srv    *httptest.Server
	client *social.Client
	cfg    map[social.Provider]social.Config
	// browser follows no redirect, so a test sees where the provider sends it.
	browser *http.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	lp := localprovider.New("http://"+srv.Listener.Addr().String(), map[string]string{clientID: clientSecret}, people)
	srv.Config.Handler = lp
	srv.Start()
	t.Cleanup(srv.Close)
	browser := srv.Client()
	browser.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &env{lp: lp, srv: srv, client: social.New(srv.Client()), cfg: lp.Configs(clientID, clientSecret), browser: browser}
}

// authURL is the sign-in URL the social package makes for p, with state "s-1".
func (e *env) authURL(t *testing.T, p social.Provider) string {
	t.Helper()
	u, err := e.client.AuthURL(context.Background(), e.cfg[p], redirectURI, "s-1", "n-1", oauth2.GenerateVerifier())
	require.NoError(t, err)
	return u
}

// get fetches a page as a browser would, returning the answer and its body.
func (e *env) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := e.browser.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

var (
	formAction  = regexp.MustCompile(`<form method="post" action="([^"]*)">`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
)

// submit posts the picker page's form as a browser without JavaScript would when the
// button name=value is pressed.
func (e *env) submit(t *testing.T, page, name, value string) *http.Response {
	t.Helper()
	m := formAction.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has a form")
	form := url.Values{name: {value}}
	for _, h := range hiddenInput.FindAllStringSubmatch(page, -1) {
		form.Add(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
	}
	resp, err := e.browser.Post(html.UnescapeString(m[1]), "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	resp.Body.Close()
	return resp
}
