package offers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
)

const (
	// maxProviderBody caps what is read of any provider answer, so a broken or hostile endpoint
	// cannot make the server buffer without limit.
	maxProviderBody = 1 << 20
	// defaultProviderTimeout bounds a call made with NewHTTPProvider(cfg, nil)'s client when the
	// caller's context has no earlier deadline.
	defaultProviderTimeout = 10 * time.Second
	// maxProviderMessage is the most of a provider's refusal message kept in an error.
	maxProviderMessage = 200
)

// ProviderError is a provider's refusal of a request it understood (a 4xx other than 408 and
// 429): a wrong app id or API key, an unknown offer, a malformed report. Unlike ErrUnavailable,
// trying again will not help.
type ProviderError struct {
	Call    string // the endpoint: offers, games, view-offer, start-offer or report-issue
	Status  int
	Message string // the provider's own words, clipped; may be ""
}

func (e *ProviderError) Error() string {
	msg := fmt.Sprintf("the offers provider refused %s with %d %s", e.Call, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// httpProvider speaks the protocol described in provider.go over HTTP.
type httpProvider struct {
	cfg  ProviderConfig
	base string // cfg.BaseURL without a trailing slash
	hc   *http.Client
}

// NewHTTPProvider returns the Provider that calls cfg's offerwall over HTTP with client (nil:
// a client with a 10-second timeout). Each call's deadline comes from its ctx. Redirects are
// never followed, whatever client's CheckRedirect says: a 307 would re-send the API key to
// wherever it points. Errors wrap ErrUnavailable (network, timeout, 3xx, 408, 429, 5xx, a body
// over 1 MiB or not the expected JSON) or are a *ProviderError (other 4xx).
func NewHTTPProvider(cfg ProviderConfig, client *http.Client) Provider {
	hc := http.Client{Timeout: defaultProviderTimeout}
	if client != nil {
		hc = *client
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &httpProvider{cfg: cfg, base: strings.TrimSuffix(cfg.BaseURL, "/"), hc: &hc}
}

func (p *httpProvider) Offers(ctx context.Context, q Query) ([]Offer, error) {
	var body struct {
		Offers []Offer `json:"offers"`
	}
	if err := p.call(ctx, http.MethodGet, "offers", p.listQuery(q), nil, &body); err != nil {
		return nil, err
	}
	return withKind(body.Offers, "offer"), nil
}

func (p *httpProvider) Games(ctx context.Context, q Query) ([]Offer, error) {
	var body struct {
		Games []Offer `json:"games"`
	}
	if err := p.call(ctx, http.MethodGet, "games", p.listQuery(q), nil, &body); err != nil {
		return nil, err
	}
	return withKind(body.Games, "game"), nil
}

func (p *httpProvider) ViewOffer(ctx context.Context, c Click) error {
	req := map[string]string{"app_id": p.cfg.AppID, "sub_id": c.SubID, "offer_id": c.OfferID}
	return p.call(ctx, http.MethodPost, "view-offer", nil, req, nil)
}

func (p *httpProvider) StartOffer(ctx context.Context, c Click) (Started, error) {
	req := map[string]string{
		"app_id": p.cfg.AppID, "sub_id": c.SubID, "offer_id": c.OfferID,
		"ip": c.IP, "user_agent": c.UserAgent,
	}
	var s Started
	if err := p.call(ctx, http.MethodPost, "start-offer", nil, req, &s); err != nil {
		return Started{}, err
	}
	// The member is sent there: only an absolute http(s) address will do, never javascript:
	// or a relative path that would land on the panel itself.
	u, err := url.Parse(s.RedirectURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Started{}, fmt.Errorf("%w: start-offer answered without an absolute http(s) redirect_url", ErrUnavailable)
	}
	return s, nil
}

func (p *httpProvider) ReportIssue(ctx context.Context, i Issue) (string, error) {
	req := map[string]string{
		"app_id": p.cfg.AppID, "sub_id": i.SubID, "offer_id": i.OfferID, "click_id": i.ClickID,
		"transaction_id": i.TransactionID, "message": i.Message,
	}
	var body struct {
		TicketID string `json:"ticket_id"`
	}
	if err := p.call(ctx, http.MethodPost, "report-issue", nil, req, &body); err != nil {
		return "", err
	}
	return body.TicketID, nil
}

// listQuery is the offers and games lists' query. It never names the member: one answer serves
// every member of the panel, country, language and device.
func (p *httpProvider) listQuery(q Query) url.Values {
	return url.Values{"app_id": {p.cfg.AppID}, "country": {q.Country}, "lang": {q.Lang}, "device": {q.Device}}
}

// withKind fills in the kind a provider left out, from the list it came in.
func withKind(list []Offer, kind string) []Offer {
	for i := range list {
		if list[i].Kind == "" {
			list[i].Kind = kind
		}
	}
	if list == nil {
		list = []Offer{}
	}
	return list
}

// call sends one request to endpoint and decodes a JSON answer into out (nil: the body is not
// read beyond the cap). query goes on GETs, in as a JSON body on POSTs. Errors name the
// endpoint but never print the API key, which only travels in the Authorization header.
func (p *httpProvider) call(ctx context.Context, method, endpoint string, query url.Values, in, out any) error {
	u := p.base + "/" + endpoint
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("offers provider %s: encoding the request: %w", endpoint, err)
		}
		body = bytes.NewReader(b)
	}
	// A panel whose provider is misconfigured has no offers to show, as if the provider were down.
	if !strings.HasPrefix(p.base, "http://") && !strings.HasPrefix(p.base, "https://") {
		return fmt.Errorf("%w: %s: the base URL is not an http(s) URL", ErrUnavailable, endpoint)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return fmt.Errorf("%w: %s: the base URL is unusable: %w", ErrUnavailable, endpoint, err)
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if p.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		// *url.Error names the URL, whose query holds only the app id and the list's filters.
		return fmt.Errorf("%w: %s: %w", ErrUnavailable, endpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxProviderBody+1))
	if err != nil {
		return fmt.Errorf("%w: %s: reading the answer: %w", ErrUnavailable, endpoint, err)
	}
	if len(raw) > maxProviderBody {
		return fmt.Errorf("%w: %s answered more than %d bytes", ErrUnavailable, endpoint, maxProviderBody)
	}
	switch st := resp.StatusCode; {
	case st/100 == 2:
	case st/100 == 4 && st != http.StatusRequestTimeout && st != http.StatusTooManyRequests:
		return &ProviderError{Call: endpoint, Status: st, Message: providerMessage(raw)}
	default:
		return fmt.Errorf("%w: %s answered %d %s", ErrUnavailable, endpoint, st, http.StatusText(st))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: %s answered something other than the expected JSON: %w", ErrUnavailable, endpoint, err)
	}
	return nil
}

// providerMessage is the provider's explanation of a refusal: the "error" or "message" of a JSON
// answer ({"error":"..."}, {"error":{"message":"..."}}, {"message":"..."}), else the body's
// text. It is clipped and stripped of control characters, since it ends up in logs.
func providerMessage(body []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	msg := ""
	if json.Unmarshal(body, &e) == nil {
		var s string
		var nested struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(e.Error, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(e.Error, &nested) == nil && nested.Message != "":
			msg = nested.Message
		default:
			msg = e.Message
		}
	} else {
		msg = string(body)
	}
	msg = strings.Join(strings.FieldsFunc(msg, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar
	}), " ")
	if r := []rune(msg); len(r) > maxProviderMessage {
		msg = string(r[:maxProviderMessage]) + "…"
	}
	return msg
}
