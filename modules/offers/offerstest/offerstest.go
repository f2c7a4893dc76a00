// Package offerstest is a fake offers provider for tests: a real HTTP server on loopback that
// speaks the protocol described in package offers (lists, view-offer, start-offer,
// report-issue, each checked for the app id and the bearer API key), records every call, and
// sends real signed postbacks to Canvass.
package offerstest

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/offers"
)

// Endpoints of the protocol, as Call.Endpoint names them.
const (
	EndpointOffers      = "offers"
	EndpointGames       = "games"
	EndpointViewOffer   = "view-offer"
	EndpointStartOffer  = "start-offer"
	EndpointReportIssue = "report-issue"
)

// Call is one API request the fake received, authorised or not.
type Call struct {
	Endpoint   string
	Authorized bool   // the app id and bearer key were right
	APIKey     string // the bearer token sent ("" when none)
	AppID      string
	// Lists' query.
	Country, Lang, Device string
	// view-offer, start-offer and report-issue bodies.
	SubID, OfferID, IP, UserAgent, ClickID, TransactionID, Message string
	// Started is what start-offer answered (zero unless it succeeded).
	Started offers.Started
	// TicketID is what report-issue answered.
	TicketID string
}

// Server is the fake provider. Make one with New; it is closed when the test ends. It is safe
// for concurrent use.
type Server struct {
	// URL is the provider's base URL (ProviderConfig.BaseURL).
	URL    string
	AppID  string
	APIKey string

	srv *httptest.Server

	mu         sync.Mutex
	offers     map[string][]offers.Offer // by country; "" serves every other country
	games      map[string][]offers.Offer
	calls      []Call
	failStatus int
	failBody   string
	clicks     int
	tickets    int
}

// New starts a fake provider on loopback that accepts appID with apiKey ("" accepts calls
// without an Authorization header and refuses any other). Its lists start empty.
func New(t testing.TB, appID, apiKey string) *Server {
	t.Helper()
	s := &Server{
		AppID:  appID,
		APIKey: apiKey,
		offers: map[string][]offers.Offer{},
		games:  map[string][]offers.Offer{},
	}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Config is the ProviderConfig that points at this fake, with postbackSecret.
func (s *Server) Config(postbackSecret string) offers.ProviderConfig {
	return offers.ProviderConfig{BaseURL: s.URL, AppID: s.AppID, APIKey: s.APIKey, PostbackSecret: postbackSecret}
}

// Close stops the server before the test ends, so that calls fail as with a provider that is
// gone (connection refused).
func (s *Server) Close() { s.srv.Close() }

// SetOffers sets the offers served for country (ISO alpha-2, as asked); country "" is the list
// for every country without its own. Each offer's Kind is set to "offer" when empty.
func (s *Server) SetOffers(country string, list ...offers.Offer) {
	s.setList(s.offers, country, "offer", list)
}

// SetGames is SetOffers for games (Kind "game").
func (s *Server) SetGames(country string, list ...offers.Offer) {
	s.setList(s.games, country, "game", list)
}

func (s *Server) setList(m map[string][]offers.Offer, country, kind string, list []offers.Offer) {
	cp := make([]offers.Offer, len(list))
	for i, o := range list {
		if o.Kind == "" {
			o.Kind = kind
		}
		o.Platforms = slices.Clone(o.Platforms)
		cp[i] = o
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m[strings.ToUpper(country)] = cp
}

// Fail makes every API call answer status with body (a JSON error or any text) until Recover;
// Fail(503, "") imitates an outage. Calls are still recorded.
func (s *Server) Fail(status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failStatus, s.failBody = status, body
}

// SetDown makes every API call answer 503 while down is true.
func (s *Server) SetDown(down bool) {
	if down {
		s.Fail(http.StatusServiceUnavailable, `{"error":"the fake offers provider is down"}`)
	} else {
		s.Recover()
	}
}

// Recover ends Fail.
func (s *Server) Recover() { s.Fail(0, "") }

// Calls returns every API call received so far, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// CallsTo returns the calls received by one endpoint (EndpointOffers, ...), oldest first.
func (s *Server) CallsTo(endpoint string) []Call {
	var out []Call
	for _, c := range s.Calls() {
		if c.Endpoint == endpoint {
			out = append(out, c)
		}
	}
	return out
}

// ServeHTTP answers the protocol's endpoints at the root, and GET /go/{offer} with a small page
// standing for the offer (where start-offer's redirect_url leads).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if offer, ok := strings.CutPrefix(r.URL.Path, "/go/"); ok && r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html lang=\"en\"><title>Fake offer</title><h1>Fake offers provider: offer %s</h1></html>", html.EscapeString(offer))
		return
	}
	endpoint := strings.TrimPrefix(r.URL.Path, "/")
	method := map[string]string{
		EndpointOffers: http.MethodGet, EndpointGames: http.MethodGet,
		EndpointViewOffer: http.MethodPost, EndpointStartOffer: http.MethodPost, EndpointReportIssue: http.MethodPost,
	}[endpoint]
	if method == "" {
		writeError(w, http.StatusNotFound, "no such endpoint")
		return
	}
	if r.Method != method {
		w.Header().Set("Allow", method)
		writeError(w, http.StatusMethodNotAllowed, "use "+method)
		return
	}
	c := Call{Endpoint: endpoint}
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		c.APIKey = tok
	}
	var bodyErr error
	if method == http.MethodGet {
		q := r.URL.Query()
		c.AppID, c.Country, c.Lang, c.Device = q.Get("app_id"), q.Get("country"), q.Get("lang"), q.Get("device")
	} else {
		var b struct {
			AppID         string `json:"app_id"`
			SubID         string `json:"sub_id"`
			OfferID       string `json:"offer_id"`
			IP            string `json:"ip"`
			UserAgent     string `json:"user_agent"`
			ClickID       string `json:"click_id"`
			TransactionID string `json:"transaction_id"`
			Message       string `json:"message"`
		}
		bodyErr = json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&b)
		c.AppID, c.SubID, c.OfferID, c.IP, c.UserAgent = b.AppID, b.SubID, b.OfferID, b.IP, b.UserAgent
		c.ClickID, c.TransactionID, c.Message = b.ClickID, b.TransactionID, b.Message
	}
	keyOK := subtle.ConstantTimeCompare([]byte(c.APIKey), []byte(s.APIKey)) == 1 &&
		(s.APIKey != "" || r.Header.Get("Authorization") == "")
	c.Authorized = keyOK && c.AppID == s.AppID

	s.mu.Lock()
	status, body := s.answerLocked(&c, bodyErr)
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	writeJSON(w, status, body)
}

// answerLocked decides the answer to c, filling in what it started or opened.
func (s *Server) answerLocked(c *Call, bodyErr error) (int, any) {
	switch {
	case s.failStatus != 0:
		if json.Valid([]byte(s.failBody)) {
			return s.failStatus, json.RawMessage(s.failBody)
		}
		return s.failStatus, errorBody(s.failBody)
	case !c.Authorized:
		return http.StatusUnauthorized, errorBody("unknown app_id or API key")
	case bodyErr != nil:
		return http.StatusBadRequest, errorBody("the body is not the expected JSON")
	}
	switch c.Endpoint {
	case EndpointOffers:
		return http.StatusOK, map[string][]offers.Offer{"offers": listFor(s.offers, c.Country)}
	case EndpointGames:
		return http.StatusOK, map[string][]offers.Offer{"games": listFor(s.games, c.Country)}
	}
	if c.SubID == "" || c.OfferID == "" {
		return http.StatusBadRequest, errorBody("sub_id and offer_id are required")
	}
	switch c.Endpoint {
	case EndpointViewOffer:
		if !s.knownLocked(c.OfferID) {
			return http.StatusNotFound, errorBody("unknown offer_id " + c.OfferID)
		}
		return http.StatusNoContent, nil
	case EndpointStartOffer:
		if !s.knownLocked(c.OfferID) {
			return http.StatusNotFound, errorBody("unknown offer_id " + c.OfferID)
		}
		s.clicks++
		id := fmt.Sprintf("click-%d", s.clicks)
		c.Started = offers.Started{
			ClickID: id,
			RedirectURL: s.URL + "/go/" + url.PathEscape(c.OfferID) +
				"?sub_id=" + url.QueryEscape(c.SubID) + "&click_id=" + url.QueryEscape(id),
		}
		return http.StatusOK, c.Started
	default: // report-issue
		if strings.TrimSpace(c.Message) == "" {
			return http.StatusBadRequest, errorBody("message is required")
		}
		s.tickets++
		c.TicketID = fmt.Sprintf("ticket-%d", s.tickets)
		return http.StatusOK, map[string]string{"ticket_id": c.TicketID}
	}
}

func listFor(m map[string][]offers.Offer, country string) []offers.Offer {
	list, ok := m[strings.ToUpper(country)]
	if !ok {
		list = m[""]
	}
	if list == nil {
		return []offers.Offer{}
	}
	return list
}

func (s *Server) knownLocked(id string) bool {
	for _, m := range []map[string][]offers.Offer{s.offers, s.games} {
		for _, list := range m {
			for _, o := range list {
				if o.ID == id {
					return true
				}
			}
		}
	}
	return false
}

func errorBody(msg string) map[string]string { return map[string]string{"error": msg} }

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody(msg))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// PostbackParams are the parameters of a postback. Empty ones are left out of the address, so
// a test can send one without, say, a sub_id.
type PostbackParams struct {
	SubID, TransactionID, OfferID, OfferName string
	Amount                                   string // major units, "1.50"
	Currency                                 string
	Status                                   string // credited or reversed
}

// PostbackURL is the signed address a provider calls: target (the panel's postback address,
// which may have a query of its own) with p's parameters in the protocol's order, then the
// signature made with secret. Tests that tamper with a postback start from it.
func PostbackURL(target, secret string, p PostbackParams) (string, error) {
	var q []string
	for _, kv := range [][2]string{
		{"sub_id", p.SubID}, {"transaction_id", p.TransactionID}, {"offer_id", p.OfferID},
		{"offer_name", p.OfferName}, {"amount", p.Amount}, {"currency", p.Currency}, {"status", p.Status},
	} {
		if kv[1] != "" {
			q = append(q, kv[0]+"="+url.QueryEscape(kv[1]))
		}
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	raw := target
	if len(q) > 0 {
		raw += sep + strings.Join(q, "&")
	}
	signed, err := offers.SignPostback(raw, secret)
	if err != nil {
		return "", fmt.Errorf("offerstest: %w", err)
	}
	return signed, nil
}

// postbackClient sends postbacks as a provider does: no cookies, no redirects followed.
var postbackClient = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Postback sends a real signed GET postback to target (the panel's full postback address) with
// p, as the provider confirms a completion or a reversal. The answer's body is read in full and
// can be read again from resp.Body; closing it is optional.
func (s *Server) Postback(target, secret string, p PostbackParams) (*http.Response, error) {
	signed, err := PostbackURL(target, secret, p)
	if err != nil {
		return nil, err
	}
	return Get(signed)
}

// Get sends one GET to an already built postback address (signed by PostbackURL and perhaps
// tampered with), reading the answer's body in full as Postback does.
func Get(address string) (*http.Response, error) {
	resp, err := postbackClient.Get(address)
	if err != nil {
		return nil, fmt.Errorf("offerstest: postback: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("offerstest: reading the postback's answer: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}
