// Package localoffers is the local development offers provider: a stand-in offerwall that speaks
// the protocol of package offers for real (the JSON API, checked for app id and API key, and
// signed server-to-server postbacks), so that `make run` shows offers and games and credits
// them without the internet. Every page it shows says that it is not a real offerwall.
//
// It is a net/http Handler that can be mounted under any path prefix (the demo mounts it at
// /_dev/offers). Besides the API it serves the pages start-offer sends a member to:
//
//	GET  /go/{offer}?app_id=&sub_id=&click_id=   the offer, with a "Simulate completion" button
//	POST /go/{offer}/complete                     sends the credited postback, shows the answer
//	POST /go/{offer}/reverse                      sends the reversed postback for the same transaction
//
// The pages are plain HTML forms: no script, no style, nothing loaded. The transaction id of a
// completion is derived from its click id, so pressing the button twice sends the same
// transaction twice (a provider's retry), and a reversal names the transaction it takes back.
// Click ids are random, so a restarted server never reuses an old transaction id.
package localoffers

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/offers"
)

// Title is the label every page carries as its heading.
const Title = "Local development offers provider — not a real offerwall"

// App is one panel's account at the local provider, keyed by app id in New's map.
type App struct {
	// APIKey is the bearer key its calls must carry ("" accepts calls without one).
	APIKey string
	// Currency is the panel's currency code: rewards are given in it.
	Currency string
	// PostbackURL is the panel's postback address (it may have a query of its own);
	// PostbackSecret signs the postbacks sent to it.
	PostbackURL, PostbackSecret string
	// ReturnURL is where the pages send the member back to, the panel's /offers.
	ReturnURL string
}

// demoOffer is one offer or game of the local provider, its reward in minor units.
type demoOffer struct {
	ID, Kind, Name, Description, Requirements string
	Reward                                    int64
	Minutes                                   int
	Platforms                                 []string
}

// demoOffers are what the local provider lists, in English, for every country.
var demoOffers = []demoOffer{
	{ID: "daily-digest", Kind: "offer", Name: "Subscribe to the Daily Digest newsletter",
		Description:  "Get a weekly round-up of local news by email.",
		Requirements: "New subscribers only. Confirm the subscription from the email you receive.",
		Reward:       50, Minutes: 3},
	{ID: "budget-buddy", Kind: "offer", Name: "Try Budget Buddy free for 7 days",
		Description:  "Set up your first monthly budget in a personal finance app.",
		Requirements: "New users only. Create an account and add one budget.",
		Reward:       300, Minutes: 10},
	{ID: "home-garden-survey", Kind: "offer", Name: "Home and garden shopping survey",
		Description:  "Answer questions about the tools and plants you buy.",
		Requirements: "Aged 18 or over.",
		Reward:       125, Minutes: 12},
	{ID: "streambox-trial", Kind: "offer", Name: "Start a StreamBox free trial",
		Description:  "Watch one film during a free 14-day trial.",
		Requirements: "New subscribers only. Cancel any time during the trial.",
		Reward:       450, Minutes: 20},
	{ID: "tile-tumble", Kind: "game", Name: "Reach level 10 in Tile Tumble",
		Description:  "A relaxing tile-matching puzzle.",
		Requirements: "Install the game for the first time and reach level 10 within 7 days.",
		Reward:       250, Minutes: 45, Platforms: []string{"android", "ios"}},
	{ID: "word-orchard", Kind: "game", Name: "Win 3 matches in Word Orchard",
		Description:  "A word game played against friends.",
		Requirements: "New players only. Win three matches within 5 days.",
		Reward:       175, Minutes: 30},
	{ID: "harbour-tycoon", Kind: "game", Name: "Build a 5-star harbour in Harbour Tycoon",
		Description:  "A city-building strategy game for the desktop.",
		Requirements: "New players only. Reach a 5-star harbour within 14 days.",
		Reward:       400, Minutes: 120, Platforms: []string{"desktop"}},
}

// Server is the local provider. Make one with New; it is safe for concurrent use and keeps no
// state between requests.
type Server struct {
	base     string // baseURL without a trailing slash
	basePath string // its path, "" at the root
	apps     map[string]App
	mux      *http.ServeMux
	client   *http.Client
}

// New makes a provider whose endpoints live under baseURL (e.g.
// "http://localhost:3000/_dev/offers" or an httptest URL) for the apps given by app id. It
// panics if baseURL is not an absolute http(s) URL, since start-offer could lead nowhere.
func New(baseURL string, apps map[string]App) *Server {
	base := strings.TrimSuffix(baseURL, "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		panic(fmt.Sprintf("localoffers: base URL %q is not an absolute http(s) URL", baseURL))
	}
	s := &Server{
		base:     base,
		basePath: strings.TrimSuffix(u.Path, "/"),
		apps:     make(map[string]App, len(apps)),
		client:   postbackClient(),
	}
	for id, a := range apps {
		s.apps[id] = a
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /offers", s.list("offer", "offers"))
	mux.HandleFunc("GET /games", s.list("game", "games"))
	mux.HandleFunc("POST /view-offer", s.viewOffer)
	mux.HandleFunc("POST /start-offer", s.startOffer)
	mux.HandleFunc("POST /report-issue", s.reportIssue)
	mux.HandleFunc("GET /go/{offer}", s.offerPage)
	mux.HandleFunc("POST /go/{offer}/complete", s.simulate(statusCredited))
	mux.HandleFunc("POST /go/{offer}/reverse", s.simulate(statusReversed))
	s.mux = mux
	return s
}

// ServeHTTP answers the API and the pages. Paths are taken relative to baseURL's path, whether
// or not a router in front has already stripped it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.basePath != "" && strings.HasPrefix(r.URL.Path, s.basePath+"/") {
		r2 := new(http.Request)
		*r2 = *r
		u := *r.URL
		u.Path = r.URL.Path[len(s.basePath):]
		u.RawPath = ""
		r2.URL = &u
		r = r2
	}
	s.mux.ServeHTTP(w, r)
}

// formatMinor writes minor units as major units with two decimals: 150 -> "1.50".
func formatMinor(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

func findOffer(id string) (demoOffer, bool) {
	for _, o := range demoOffers {
		if o.ID == id {
			return o, true
		}
	}
	return demoOffer{}, false
}

// forDevice reports whether o is shown on device ("" or an offer without platforms: every one).
func (o demoOffer) forDevice(device string) bool {
	return device == "" || len(o.Platforms) == 0 || slices.Contains(o.Platforms, device)
}

func (o demoOffer) wire(currency string) offers.Offer {
	return offers.Offer{
		ID: o.ID, Kind: o.Kind, Name: o.Name, Description: o.Description, Requirements: o.Requirements,
		Reward: formatMinor(o.Reward), Currency: currency, Minutes: o.Minutes, Platforms: slices.Clone(o.Platforms),
	}
}

// authorize finds the app a call names and checks its bearer key; on failure it has answered.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, appID string) (App, bool) {
	a, ok := s.apps[appID]
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok && a.APIKey == "" {
		ok = r.Header.Get("Authorization") == ""
	} else if ok {
		ok = subtle.ConstantTimeCompare([]byte(key), []byte(a.APIKey)) == 1
	}
	if !ok {
		writeJSON(w, http.StatusUnauthorized, errorBody("unknown app_id or API key"))
		return App{}, false
	}
	return a, true
}

func (s *Server) list(kind, field string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		a, ok := s.authorize(w, r, q.Get("app_id"))
		if !ok {
			return
		}
		list := []offers.Offer{}
		for _, o := range demoOffers {
			if o.Kind == kind && o.forDevice(q.Get("device")) {
				list = append(list, o.wire(a.Currency))
			}
		}
		writeJSON(w, http.StatusOK, map[string][]offers.Offer{field: list})
	}
}

// apiRequest is the union of the POST endpoints' bodies.
type apiRequest struct {
	AppID         string `json:"app_id"`
	SubID         string `json:"sub_id"`
	OfferID       string `json:"offer_id"`
	IP            string `json:"ip"`
	UserAgent     string `json:"user_agent"`
	ClickID       string `json:"click_id"`
	TransactionID string `json:"transaction_id"`
	Message       string `json:"message"`
}

// readRequest decodes a POST body and checks the caller and the member; on failure it has answered.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request) (apiRequest, bool) {
	var req apiRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&req); err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("the body is not the expected JSON"))
		return req, false
	}
	if _, ok := s.authorize(w, r, req.AppID); !ok {
		return req, false
	}
	if req.SubID == "" || req.OfferID == "" {
		writeJSON(w, http.StatusBadRequest, errorBody("sub_id and offer_id are required"))
		return req, false
	}
	return req, true
}

func (s *Server) viewOffer(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readRequest(w, r)
	if !ok {
		return
	}
	if _, ok := findOffer(req.OfferID); !ok {
		writeJSON(w, http.StatusNotFound, errorBody("unknown offer_id"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) startOffer(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readRequest(w, r)
	if !ok {
		return
	}
	if _, ok := findOffer(req.OfferID); !ok {
		writeJSON(w, http.StatusNotFound, errorBody("unknown offer_id"))
		return
	}
	click := "lc-" + rand.Text()
	// The page needs the app to know where to send the postback; it keeps nothing itself.
	q := "app_id=" + url.QueryEscape(req.AppID) + "&sub_id=" + url.QueryEscape(req.SubID) + "&click_id=" + url.QueryEscape(click)
	writeJSON(w, http.StatusOK, offers.Started{ClickID: click, RedirectURL: s.base + "/go/" + url.PathEscape(req.OfferID) + "?" + q})
}

func (s *Server) reportIssue(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readRequest(w, r)
	if !ok {
		return
	}
	if strings.TrimSpace(req.Message) == "" {
		writeJSON(w, http.StatusBadRequest, errorBody("message is required"))
		return
	}
	// A real provider would open a support case; here the ticket is all there is.
	writeJSON(w, http.StatusOK, map[string]string{"ticket_id": "LOCAL-" + rand.Text()[:10]})
}

func errorBody(msg string) map[string]string { return map[string]string{"error": msg} }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
