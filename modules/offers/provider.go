package offers

import (
	"context"
	"errors"
	"time"
)

// The offerwall protocol Canvass speaks (docs/members.md, Offers and games): a JSON offer API and a
// signed-URL postback, the shape most offerwalls use (AdGem's verifier, BitLabs' hash):
//
//	GET  {base}/offers?app_id=&country=&lang=&device=   -> {"offers":[Offer...]}
//	GET  {base}/games?app_id=&country=&lang=&device=    -> {"games":[Offer...]}
//	POST {base}/view-offer   {"app_id","sub_id","offer_id"}              -> 204
//	POST {base}/start-offer  {"app_id","sub_id","offer_id","ip","user_agent"}
//	                                                                     -> {"click_id","redirect_url"}
//	POST {base}/report-issue {"app_id","sub_id","offer_id","click_id","transaction_id","message"}
//	                                                                     -> {"ticket_id"}
//
// Calls carry "Authorization: Bearer <api key>". Lists are not personalised (no sub_id), so one
// cached list serves every member of a panel, country and language; the member's own link comes
// from start-offer, which tags it with their sub-id.
//
// The provider confirms a completion by calling the panel's postback address (Postback) with
// sub_id, transaction_id, offer_id, offer_name, amount (major units of the panel's currency,
// "1.50"), currency, status (credited or reversed) and signature: hex HMAC-SHA256 of the
// address without its signature parameter (path and query, as sent), keyed with the postback
// secret.

// Offer is one offer or game of the provider's list.
type Offer struct {
	ID           string   `json:"id"`
	Kind         string   `json:"kind"` // offer or game
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Requirements string   `json:"requirements"`
	Reward       string   `json:"reward"`   // major units of the panel's currency, "1.50"
	Currency     string   `json:"currency"` // the panel's currency code
	Minutes      int      `json:"minutes"`  // the provider's time estimate
	ImageURL     string   `json:"image_url,omitempty"`
	Platforms    []string `json:"platforms,omitempty"` // desktop, android, ios; empty: every device
}

// Query says whose list is asked for: the panel's app at the provider, the member's country,
// language and device. It never names the member (lists are shared between members).
type Query struct {
	Country string // ISO 3166 alpha-2, upper case ("" when unknown)
	Lang    string // the member's language code
	Device  string // desktop, android or ios
}

// Click identifies the member and offer of a view, start or issue report.
type Click struct {
	SubID     string
	OfferID   string
	IP        string
	UserAgent string
}

// Started is the provider's answer to start-offer: its click id and where to send the member.
type Started struct {
	ClickID     string `json:"click_id"`
	RedirectURL string `json:"redirect_url"`
}

// Issue is a member's "I completed it but wasn't credited" report, forwarded to the provider.
type Issue struct {
	SubID         string
	OfferID       string
	ClickID       string
	TransactionID string
	Message       string
}

// Provider is one panel's offers provider. Every call has a deadline from ctx.
type Provider interface {
	Offers(ctx context.Context, q Query) ([]Offer, error)
	Games(ctx context.Context, q Query) ([]Offer, error)
	ViewOffer(ctx context.Context, c Click) error
	StartOffer(ctx context.Context, c Click) (Started, error)
	ReportIssue(ctx context.Context, i Issue) (ticketID string, err error)
}

// ProviderConfig is a panel's provider with its secrets opened.
type ProviderConfig struct {
	BaseURL        string
	AppID          string
	APIKey         string
	PostbackSecret string
}

// ErrUnavailable is a provider that did not answer well (network, 5xx, malformed body).
var ErrUnavailable = errors.New("the offers provider is unavailable")

// CacheTTL is how long a panel's offers and games lists are kept (spec section 9: 5000 ms).
const CacheTTL = 5000 * time.Millisecond
