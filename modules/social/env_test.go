package social_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
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
	otherID      = "other-app"
	otherSecret  = "other-secret"
	redirectURI  = "https://panel.example/oauth/callback"
)

// people are the identities every test provider offers: one with a verified email, one
// with an email nobody confirmed, one with none.
var people = []localprovider.Identity{
	{Subject: "1001", Email: "ann@example.com", Name: "Ann Example", EmailVerified: true},
	{Subject: "1002", Email: "bob@example.com", Name: "Bob Example"},
	{Subject: "1003", Name: "Cy Example"},
}

// env is a local provider on loopback and a Client configured for it.
type env struct {
	lp     *localprovider.Server
	srv    *httptest.Server
	client *social.Client
	cfg    map[social.Provider]social.Config
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	lp := localprovider.New("http://"+srv.Listener.Addr().String(), map[string]string{clientID: clientSecret, otherID: otherSecret}, people)
	srv.Config.Handler = lp
	srv.Start()
	t.Cleanup(srv.Close)
	return &env{lp: lp, srv: srv, client: social.New(srv.Client()), cfg: lp.Configs(clientID, clientSecret)}
}

// signIn is one browser's sign-in in progress: what AuthURL was given, and the code the
// provider sent back.
type signIn struct {
	state, nonce, verifier string
	authURL, code          string
}

// startSignIn sends the browser to the provider and has subject pick themself there.
func (e *env) startSignIn(t *testing.T, p social.Provider, subject string) signIn {
	t.Helper()
	s := signIn{state: "state-" + subject, nonce: "nonce-" + subject, verifier: oauth2.GenerateVerifier()}
	var err error
	s.authURL, err = e.client.AuthURL(context.Background(), e.cfg[p], redirectURI, s.state, s.nonce, s.verifier)
	require.NoError(t, err)
	back, err := e.lp.AuthorizeAs(s.authURL, subject)
	require.NoError(t, err)
	u, err := url.Parse(back)
	require.NoError(t, err)
	require.Equal(t, s.state, u.Query().Get("state"), "the provider sends the state back")
	s.code = u.Query().Get("code")
	require.NotEmpty(t, s.code)
	return s
}

// exchange finishes a sign-in as the callback would.
func (e *env) exchange(s signIn, p social.Provider) (*social.Identity, error) {
	return e.client.Exchange(context.Background(), e.cfg[p], redirectURI, s.code, s.nonce, s.verifier)
}

// with returns p's config changed by f.
func (e *env) with(p social.Provider, f func(*social.Config)) social.Config {
	c := e.cfg[p]
	f(&c)
	return c
}

// down serves every path with status and body, a provider that is up but broken.
func down(t *testing.T, status int, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newPrefixedEnv mounts the local provider under prefix on a mux, as the demo server does,
// with the prefix left on the path or stripped before the provider sees it.
func newPrefixedEnv(t *testing.T, prefix string, strip bool) *env {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	lp := localprovider.New("http://"+srv.Listener.Addr().String()+prefix, map[string]string{clientID: clientSecret}, people)
	mux := http.NewServeMux()
	if strip {
		mux.Handle(prefix+"/", http.StripPrefix(prefix, lp))
	} else {
		mux.Handle(prefix+"/", lp)
	}
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return &env{lp: lp, srv: srv, client: social.New(srv.Client()), cfg: lp.Configs(clientID, clientSecret)}
}

// The three parts of a compact JWS.
func headerOf(jwt string) string    { return strings.Split(jwt, ".")[0] }
func payloadOf(jwt string) string   { return strings.Split(jwt, ".")[1] }
func signatureOf(jwt string) string { return strings.Split(jwt, ".")[2] }
