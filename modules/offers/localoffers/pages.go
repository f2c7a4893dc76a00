package localoffers

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/canvass/canvass/modules/offers"
)

const (
	statusCredited = "credited"
	statusReversed = "reversed"
	// maxAnswerShown is how much of the panel's answer to a postback the result page quotes.
	maxAnswerShown = 500
)

// postbackClient sends postbacks as a provider does: no cookies, no redirects followed, a
// bounded wait. Names under .localhost are dialled on loopback, as browsers do (RFC 6761),
// so that a panel known by its *.localhost domain can be reached without a hosts file.
func postbackClient() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil // a proxy from the environment would not reach this machine's loopback
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, port, err := net.SplitHostPort(addr); err == nil && isLocalhost(host) {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func isLocalhost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// visit is what a page's address or form names: the app, the member and the click.
type visit struct {
	app                   App
	offer                 demoOffer
	appID, subID, clickID string
}

// readVisit checks an offer page's parameters; on failure it has shown the error page.
func (s *Server) readVisit(w http.ResponseWriter, r *http.Request, v url.Values) (visit, bool) {
	vi := visit{appID: v.Get("app_id"), subID: v.Get("sub_id"), clickID: v.Get("click_id")}
	var ok bool
	if vi.offer, ok = findOffer(r.PathValue("offer")); !ok {
		s.page(w, http.StatusNotFound, pageData{Problem: "This offer is not one of the local provider's."})
		return vi, false
	}
	if vi.app, ok = s.apps[vi.appID]; !ok {
		s.page(w, http.StatusBadRequest, pageData{Problem: "The address names no app known to the local provider."})
		return vi, false
	}
	if vi.subID == "" || vi.clickID == "" {
		s.page(w, http.StatusBadRequest, pageData{Problem: "The address has no sub_id or no click_id: open the offer from the panel again.", ReturnURL: vi.app.ReturnURL})
		return vi, false
	}
	return vi, true
}

func (v visit) data(s *Server) pageData {
	o := v.offer
	return pageData{
		Offer:        o.Name,
		Kind:         o.Kind,
		Description:  o.Description,
		Requirements: o.Requirements,
		Reward:       formatMinor(o.Reward) + " " + v.app.Currency,
		Minutes:      o.Minutes,
		Action:       s.basePath + "/go/" + url.PathEscape(o.ID),
		Hidden:       []hiddenField{{"app_id", v.appID}, {"sub_id", v.subID}, {"click_id", v.clickID}},
		ReturnURL:    v.app.ReturnURL,
	}
}

// transactionID is the provider's id of the completion of one click: the same for every
// press of the button and for the reversal that takes it back.
func (v visit) transactionID() string { return "ltx-" + v.clickID }

func (s *Server) offerPage(w http.ResponseWriter, r *http.Request) {
	v, ok := s.readVisit(w, r, r.URL.Query())
	if !ok {
		return
	}
	d := v.data(s)
	d.ShowComplete = true
	s.page(w, http.StatusOK, d)
}

// simulate sends the postback a real provider would send for the click, with status, and shows
// how the panel answered.
func (s *Server) simulate(status string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
		if err := r.ParseForm(); err != nil {
			s.page(w, http.StatusBadRequest, pageData{Problem: "The form could not be read."})
			return
		}
		v, ok := s.readVisit(w, r, r.PostForm)
		if !ok {
			return
		}
		d := v.data(s)
		d.Sent = &sentPostback{Status: status, TransactionID: v.transactionID()}
		if v.app.PostbackURL == "" || v.app.PostbackSecret == "" {
			d.Sent.Problem = "This app has no postback address or secret configured at the local provider."
			s.page(w, http.StatusOK, d)
			return
		}
		p := postbackParams{
			SubID: v.subID, TransactionID: v.transactionID(), OfferID: v.offer.ID, OfferName: v.offer.Name,
			Amount: formatMinor(v.offer.Reward), Currency: v.app.Currency, Status: status,
		}
		signed, err := offers.SignPostback(p.address(v.app.PostbackURL), v.app.PostbackSecret)
		if err != nil {
			d.Sent.Problem = "The postback address could not be signed: " + err.Error()
			s.page(w, http.StatusOK, d)
			return
		}
		if u, err := url.Parse(signed); err == nil {
			d.Sent.To = u.Scheme + "://" + u.Host + u.EscapedPath()
		}
		d.Sent.Code, d.Sent.Answer, err = s.send(r.Context(), signed)
		switch {
		case err != nil:
			d.Sent.Problem = "The panel could not be reached: " + err.Error()
		case d.Sent.Code/100 == 2:
			d.Sent.Accepted = true
			d.ShowReverse = status == statusCredited
		}
		d.Sent.CodeText = http.StatusText(d.Sent.Code)
		s.page(w, http.StatusOK, d)
	}
}

// send makes the GET and returns the panel's status and the start of its answer as text.
func (s *Server) send(ctx context.Context, signed string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, signed, nil)
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("User-Agent", "canvass-localoffers")
	resp, err := s.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is shown apart, without its query
		}
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4*maxAnswerShown))
	text := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\n' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(string(b), "�"))
	if rs := []rune(strings.TrimSpace(text)); len(rs) > maxAnswerShown {
		text = string(rs[:maxAnswerShown]) + "…"
	} else {
		text = string(rs)
	}
	return resp.StatusCode, text, nil
}

// postbackParams are a postback's parameters, written in the protocol's order.
type postbackParams struct {
	SubID, TransactionID, OfferID, OfferName, Amount, Currency, Status string
}

// address is target with p's parameters appended (after target's own query, if any).
func (p postbackParams) address(target string) string {
	q := []string{
		"sub_id=" + url.QueryEscape(p.SubID),
		"transaction_id=" + url.QueryEscape(p.TransactionID),
		"offer_id=" + url.QueryEscape(p.OfferID),
		"offer_name=" + url.QueryEscape(p.OfferName),
		"amount=" + url.QueryEscape(p.Amount),
		"currency=" + url.QueryEscape(p.Currency),
		"status=" + url.QueryEscape(p.Status),
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + strings.Join(q, "&")
}

type hiddenField struct{ Name, Value string }

// sentPostback is what a simulation sent and how the panel answered.
type sentPostback struct {
	Status, TransactionID string
	To                    string // the postback address without its query
	Code                  int
	CodeText              string
	Answer                string
	Accepted              bool
	Problem               string
}

type pageData struct {
	Problem                                        string
	Offer, Kind, Description, Requirements, Reward string
	Minutes                                        int
	Action                                         string
	Hidden                                         []hiddenField
	ShowComplete, ShowReverse                      bool
	Sent                                           *sentPostback
	ReturnURL                                      string
}

// pageTemplate is every page: plain semantic HTML with no script, style or external resource,
// so it works without JavaScript, under the strictest CSP, and with the browser's own
// (accessible) colours. Each button sits in its own paragraph so that the paragraphs' margins
// space them apart enough for WCAG 2.2's minimum target size.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{if .Problem}}Error{{else if .Sent}}Postback sent{{else}}{{.Offer}}{{end}} – ` + Title + `</title>
</head>
<body>
<header>
<h1>` + Title + `</h1>
<p>This page stands in for an offers provider so that offers can be tried offline. No real offer, game or payment is involved.</p>
</header>
<main>
{{- if .Problem}}
<h2>This offer cannot be shown</h2>
<p id="problem">{{.Problem}}</p>
{{- else}}
<h2>{{.Offer}}</h2>
<p>{{.Description}}</p>
<dl>
<dt>Type</dt><dd>{{if eq .Kind "game"}}Game{{else}}Offer{{end}}</dd>
<dt>Reward</dt><dd>{{.Reward}}</dd>
<dt>Time needed</dt><dd>About {{.Minutes}} minutes</dd>
<dt>Requirements</dt><dd>{{.Requirements}}</dd>
</dl>
{{- with .Sent}}
<section aria-labelledby="result">
<h2 id="result">{{if eq .Status "reversed"}}Reversal{{else}}Completion{{end}} postback</h2>
<p>Transaction <code>{{.TransactionID}}</code>, status <strong>{{.Status}}</strong>{{if .To}}, sent to <code>{{.To}}</code>{{end}}.</p>
{{- if .Problem}}
<p id="outcome"><strong>Not delivered.</strong> {{.Problem}}</p>
{{- else if .Accepted}}
<p id="outcome"><strong>Accepted:</strong> the panel answered {{.Code}} {{.CodeText}}.</p>
{{- else}}
<p id="outcome"><strong>Refused:</strong> the panel answered {{.Code}} {{.CodeText}}.</p>
{{- end}}
{{- if .Answer}}
<p>Its answer:</p>
<pre>{{.Answer}}</pre>
{{- end}}
</section>
{{- end}}
{{- if or .ShowComplete .ShowReverse}}
<h2>{{if .ShowReverse}}Take it back{{else}}Finish the offer{{end}}</h2>
<p>{{if .ShowReverse}}A provider sends a reversal when a completion is charged back: the panel takes the reward back.{{else}}Pressing the button sends the panel the signed postback a real provider sends when you finish the offer. Pressing it again sends the same transaction again, as a provider's retry does.{{end}}</p>
<form method="post" action="{{.Action}}/{{if .ShowReverse}}reverse{{else}}complete{{end}}">
{{- range .Hidden}}
<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{- end}}
<p><button type="submit">{{if .ShowReverse}}Simulate reversal{{else}}Simulate completion{{end}}</button></p>
</form>
{{- end}}
{{- end}}
{{- if .ReturnURL}}
<p><a href="{{.ReturnURL}}">Back to the panel's offers</a></p>
{{- end}}
</main>
</body>
</html>
`))

func (s *Server) page(w http.ResponseWriter, status int, d pageData) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Nothing to load or run; forms post only here; never framed (no clickjacking the buttons).
	h.Set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, d); err != nil {
		fmt.Fprintf(w, "<p>The page could not be drawn.</p>")
	}
}
