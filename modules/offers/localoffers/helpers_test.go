package localoffers_test

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/localoffers"
	"github.com/stretchr/testify/require"
)

const (
	mountPath = "/_dev/offers"
	appID     = "canvass-demo"
	apiKey    = "demo-api-key"
	secret    = "demo-postback-secret"
	returnURL = "http://demo.localhost:3000/offers"
)

// received is one postback the panel's stand-in got.
type received struct {
	target string // the request target as received
	query  url.Values
	verify error // VerifyPostback with the panel's secret
}

// panel stands for Canvass's postback endpoint: it verifies and records every postback, and
// answers with status.
type panel struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []received
	status int
	answer string
}

func newPanel(t *testing.T) *panel {
	t.Helper()
	p := &panel{status: http.StatusOK, answer: `{"status":"credited"}`}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.got = append(p.got, received{target: r.RequestURI, query: r.URL.Query(), verify: offers.VerifyPostback(r.RequestURI, secret)})
		w.WriteHeader(p.status)
		_, _ = io.WriteString(w, p.answer)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *panel) answerWith(status int, body string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.answer = status, body
}

func (p *panel) postbacks() []received {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]received(nil), p.got...)
}

type env struct {
	srv      *httptest.Server
	base     string // the provider's base URL, under mountPath
	panel    *panel
	provider offers.Provider
	// browser follows no redirect, so a test sees where each step leads.
	browser *http.Client
}

// newEnv serves the local provider under mountPath with http.StripPrefix, as the demo server
// does, for one app whose postbacks go to postbackURL(panel) ("" : the panel's address).
func newEnv(t *testing.T, postbackURL func(p *panel) string) *env {
	t.Helper()
	p := newPanel(t)
	target := p.srv.URL + "/offers/postback?panel=demo"
	if postbackURL != nil {
		target = postbackURL(p)
	}
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String() + mountPath
	lo := localoffers.New(base, map[string]localoffers.App{
		appID: {APIKey: apiKey, Currency: "GBP", PostbackURL: target, PostbackSecret: secret, ReturnURL: returnURL},
	})
	mux := http.NewServeMux()
	mux.Handle(mountPath+"/", http.StripPrefix(mountPath, lo))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	browser := srv.Client()
	browser.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &env{
		srv: srv, base: base, panel: p, browser: browser,
		provider: offers.NewHTTPProvider(offers.ProviderConfig{BaseURL: base, AppID: appID, APIKey: apiKey, PostbackSecret: secret}, nil),
	}
}

// start asks start-offer for offerID as the panel does for member sub.
func (e *env) start(t *testing.T, offerID, sub string) offers.Started {
	t.Helper()
	s, err := e.provider.StartOffer(context.Background(), offers.Click{SubID: sub, OfferID: offerID, IP: "127.0.0.1", UserAgent: "test"})
	require.NoError(t, err)
	return s
}

// get fetches a page as a browser would, returning the answer and its body.
func (e *env) get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := e.browser.Get(u)
	require.NoError(t, err)
	return resp, readAll(t, resp)
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(body)
}

var (
	formAction  = regexp.MustCompile(`<form method="post" action="([^"]*)">`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
)

// submit presses the page's one button, as a browser without JavaScript would, and returns
// the answer and the page it shows.
func (e *env) submit(t *testing.T, page string) (*http.Response, string) {
	t.Helper()
	m := formAction.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has a form")
	form := url.Values{}
	for _, h := range hiddenInput.FindAllStringSubmatch(page, -1) {
		form.Add(html.UnescapeString(h[1]), html.UnescapeString(h[2]))
	}
	action, err := url.Parse(e.srv.URL)
	require.NoError(t, err)
	action, err = action.Parse(html.UnescapeString(m[1]))
	require.NoError(t, err)
	resp, err := e.browser.Post(action.String(), "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	require.NoError(t, err)
	return resp, readAll(t, resp)
}
