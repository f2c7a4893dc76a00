package localprovider

import (
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/social"
)

// authRequest is an authorization request as the app's AuthURL sent it. The picker form
// carries it through in hidden fields, and the POST checks it all again.
type authRequest struct {
	provider     social.Provider
	clientID     string
	redirectURI  string
	responseType string
	scope        string
	state        string
	nonce        string
	challenge    string
	method       string
}

// authParams are the request parameters the sign-in page carries through its form.
var authParams = []string{"client_id", "redirect_uri", "response_type", "scope", "state", "nonce", "code_challenge", "code_challenge_method"}

func parseAuthRequest(p social.Provider, v url.Values) authRequest {
	return authRequest{
		provider:     p,
		clientID:     v.Get("client_id"),
		redirectURI:  v.Get("redirect_uri"),
		responseType: v.Get("response_type"),
		scope:        v.Get("scope"),
		state:        v.Get("state"),
		nonce:        v.Get("nonce"),
		challenge:    v.Get("code_challenge"),
		method:       v.Get("code_challenge_method"),
	}
}

// splitScopes reads a scope list, space-separated (OAuth 2.0) or comma-separated (Facebook).
func splitScopes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
}

// imitates is how the sign-in page names the provider it stands in for.
func imitates(p social.Provider) string {
	switch p {
	case social.Google:
		return "Google"
	case social.Facebook:
		return "Facebook"
	default:
		return "X"
	}
}

// clientProblem is why the request cannot even be sent back to the app: an unknown client
// or a redirect URI that is not an absolute http(s) URL. Real providers show an error page
// then rather than redirect, so as not to become an open redirector.
func (s *Server) clientProblem(a authRequest) string {
	if a.clientID == "" {
		return "The request names no client_id."
	}
	if _, ok := s.clients[a.clientID]; !ok {
		return "The app's client_id is not registered with this local provider."
	}
	u, err := url.Parse(a.redirectURI)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
		return "The redirect_uri is not an absolute http or https URL."
	}
	if s.redirectAllowed != nil && !s.redirectAllowed(u) {
		return "The redirect_uri is not registered for this app."
	}
	return ""
}

// requestProblem is an OAuth error to send back to the app: the request is malformed for
// the provider it addresses.
func (a authRequest) requestProblem() (code, description string) {
	if a.responseType != "code" {
		return "unsupported_response_type", "only response_type=code is supported"
	}
	switch {
	case a.challenge == "" && a.method != "":
		return "invalid_request", "code_challenge_method without code_challenge"
	case a.challenge != "" && a.method != "S256":
		return "invalid_request", "code_challenge_method must be S256"
	case a.challenge == "" && a.provider == social.Twitter:
		return "invalid_request", "code_challenge is required"
	}
	if a.provider == social.Google && !slices.Contains(splitScopes(a.scope), "openid") {
		return "invalid_scope", "scope must include openid"
	}
	return "", ""
}

// authorize is the sign-in page: GET shows the identity picker, POST is a choice on it.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, p social.Provider) {
	var v url.Values
	switch r.Method {
	case http.MethodGet:
		v = r.URL.Query()
	case http.MethodPost:
		if err := r.ParseForm(); err != nil {
			s.errorPage(w, p, http.StatusBadRequest, "The form could not be read.")
			return
		}
		v = r.PostForm
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	a := parseAuthRequest(p, v)
	if problem := s.clientProblem(a); problem != "" {
		s.errorPage(w, p, http.StatusBadRequest, problem)
		return
	}
	if code, desc := a.requestProblem(); code != "" {
		redirectBack(w, r, a, errorParams(a, code, desc))
		return
	}
	if r.Method == http.MethodGet {
		s.pickerPage(w, r, a)
		return
	}
	if v.Get("cancel") != "" {
		redirectBack(w, r, a, errorParams(a, "access_denied", ""))
		return
	}
	id, ok := s.identity(v.Get("subject"))
	if !ok {
		s.errorPage(w, p, http.StatusBadRequest, "No identity with that subject is offered here.")
		return
	}
	code := randomString(32)
	s.mu.Lock()
	s.pruneLocked(s.now())
	s.codes[code] = &grant{
		provider: p, clientID: a.clientID, redirectURI: a.redirectURI, nonce: a.nonce,
		challenge: a.challenge, scopes: splitScopes(a.scope), subject: id.Subject,
		expires: s.now().Add(codeLifetime),
	}
	s.mu.Unlock()
	redirectBack(w, r, a, url.Values{"code": {code}})
}

// errorParams is the provider's shape of an error sent back to the app.
func errorParams(a authRequest, code, description string) url.Values {
	q := url.Values{"error": {code}}
	if a.provider == social.Facebook {
		if code == "access_denied" {
			q.Set("error_code", "200")
			q.Set("error_reason", "user_denied")
			description = "Permissions error"
		} else {
			q.Set("error_code", "100")
		}
	}
	if description != "" {
		q.Set("error_description", description)
	}
	return q
}

// redirectBack sends the browser to the app's redirect_uri with params and the state.
func redirectBack(w http.ResponseWriter, r *http.Request, a authRequest, params url.Values) {
	u, _ := url.Parse(a.redirectURI) // clientProblem has parsed it already
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	if a.state != "" {
		q.Set("state", a.state)
	}
	u.RawQuery = q.Encode()
	status := http.StatusFound
	if r.Method == http.MethodPost {
		status = http.StatusSeeOther
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", u.String())
	w.WriteHeader(status)
}

type hiddenField struct{ Name, Value string }

type personChoice struct{ Subject, Label string }

type pageData struct {
	Imitates   string
	ClientID   string
	ReturnTo   string
	Action     string
	Hidden     []hiddenField
	People     []personChoice
	Problem    string
	NoIdentity bool
}

// pageTemplate is the sign-in and error page: plain semantic HTML with no script, style or
// external resource, so it works without JavaScript and under the strictest CSP. Each
// button sits in its own paragraph so that the paragraphs' default margins space the
// unstyled buttons apart enough for WCAG 2.2's minimum target size.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{if .Problem}}Sign-in error{{else}}Choose an identity{{end}} – local development sign-in imitating {{.Imitates}}</title>
</head>
<body>
<header>
<h1>Local development sign-in — this is not {{.Imitates}}; no real account is used</h1>
</header>
<main>
{{- if .Problem}}
<h2>This sign-in request cannot be completed</h2>
<p id="problem">{{.Problem}}</p>
{{- else}}
<p>This page stands in for {{.Imitates}} so that sign-in can be tried offline. The app <strong>{{.ClientID}}</strong> asks who you are; you will be sent back to <strong>{{.ReturnTo}}</strong>.</p>
<form method="post" action="{{.Action}}">
{{- range .Hidden}}
<input type="hidden" name="{{.Name}}" value="{{.Value}}">
{{- end}}
<h2>Sign in as</h2>
{{- if .NoIdentity}}
<p>No test identities are configured.</p>
{{- else}}
{{- range .People}}
<p><button type="submit" name="subject" value="{{.Subject}}">{{.Label}}</button></p>
{{- end}}
{{- end}}
<p><button type="submit" name="cancel" value="1">Cancel</button></p>
</form>
{{- end}}
</main>
</body>
</html>
`))

func (s *Server) pickerPage(w http.ResponseWriter, r *http.Request, a authRequest) {
	v := r.URL.Query()
	d := pageData{
		Imitates: imitates(a.provider),
		ClientID: a.clientID,
		Action:   s.base + s.relPath(r.URL.Path),
	}
	if u, err := url.Parse(a.redirectURI); err == nil {
		d.ReturnTo = u.Scheme + "://" + u.Host
	}
	for _, name := range authParams {
		if val := v.Get(name); val != "" {
			d.Hidden = append(d.Hidden, hiddenField{name, val})
		}
	}
	for _, id := range s.people {
		label := id.Name
		switch {
		case id.Email == "":
			label += " (no email)"
		case id.EmailVerified:
			label += " — " + id.Email
		default:
			label += " — " + id.Email + " (unverified)"
		}
		d.People = append(d.People, personChoice{id.Subject, label})
	}
	d.NoIdentity = len(d.People) == 0
	writePage(w, http.StatusOK, d)
}

func (s *Server) errorPage(w http.ResponseWriter, p social.Provider, status int, problem string) {
	writePage(w, status, pageData{Imitates: imitates(p), Problem: problem})
}

func writePage(w http.ResponseWriter, status int, d pageData) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Nothing to load, nothing to run, nowhere to be framed (no clickjacking the picker).
	h.Set("Content-Security-Policy", "default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = pageTemplate.Execute(w, d)
}
