package localprovider

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/canvass/canvass/modules/social"
)

// twitterToken is Twitter's OAuth 2.0 token endpoint. A confidential client must
// authenticate with HTTP Basic, and PKCE is mandatory.
func (s *Server) twitterToken(w http.ResponseWriter, r *http.Request) {
	s.countTokenCall(social.Twitter)
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return
	}
	clientID, secret, basic, ok := clientCredentials(r)
	if !ok || !basic || !s.clientSecretOK(clientID, secret) {
		oauthError(w, http.StatusUnauthorized, "unauthorized_client", "Missing valid authorization header")
		return
	}
	switch {
	case r.PostForm.Get("grant_type") != "authorization_code":
		oauthError(w, http.StatusBadRequest, "invalid_request", "Missing required parameter [grant_type].")
		return
	case r.PostForm.Get("code_verifier") == "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "Missing required parameter [code_verifier].")
		return
	}
	g, why := s.redeem(social.Twitter, r.PostForm.Get("code"), clientID, r.PostForm.Get("redirect_uri"), r.PostForm.Get("code_verifier"))
	if why != redeemed {
		oauthError(w, http.StatusBadRequest, "invalid_request", "Value passed for the authorization code was invalid.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"token_type":   "bearer",
		"expires_in":   7200,
		"access_token": s.issueToken(social.Twitter, clientID, g.subject, g.scopes),
		"scope":        strings.Join(g.scopes, " "),
	})
}

// twitterUnauthorized is the v2 API's problem-details answer to a bad bearer token.
func twitterUnauthorized(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte(`{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}` + "\n"))
}

// twitterMe is the v2 API's /2/users/me for an OAuth 2.0 user token.
func (s *Server) twitterMe(w http.ResponseWriter, r *http.Request) {
	tok, ok := s.lookupToken(social.Twitter, bearer(r))
	id, known := s.identity(tokSubject(tok))
	if !ok || !known {
		twitterUnauthorized(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{
		"id": id.Subject, "name": id.Name, "username": handle(id),
	}})
}

// twitterV1Error is the v1.1 API's error shape.
func twitterV1Error(w http.ResponseWriter, code int, message string) {
	writeJSON(w, http.StatusUnauthorized, map[string]any{"errors": []map[string]any{{"code": code, "message": message}}})
}

// twitterVerifyCredentials is the v1.1 API's account/verify_credentials for an OAuth 1.0a
// signed request: the signature must be made with the consumer's secret and the token's.
func (s *Server) twitterVerifyCredentials(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	subject, code := s.verifyOAuth1(r)
	if code != 0 {
		msg := "Could not authenticate you."
		switch code {
		case 89:
			msg = "Invalid or expired token."
		case 135:
			msg = "Timestamp out of bounds."
		}
		twitterV1Error(w, code, msg)
		return
	}
	id, ok := s.identity(subject)
	if !ok {
		twitterV1Error(w, 89, "Invalid or expired token.")
		return
	}
	user := map[string]any{"id_str": id.Subject, "name": id.Name, "screen_name": handle(id)}
	if n, err := strconv.ParseInt(id.Subject, 10, 64); err == nil {
		user["id"] = n
	}
	if r.URL.Query().Get("include_email") == "true" && id.Email != "" {
		user["email"] = id.Email
	}
	writeJSON(w, http.StatusOK, user)
}

// handle is a Twitter username for an identity: its email's local part or its name,
// letters and digits only.
func handle(id Identity) string {
	src := id.Name
	if local, _, ok := strings.Cut(id.Email, "@"); ok && local != "" {
		src = local
	}
	var b strings.Builder
	for _, c := range strings.ToLower(src) {
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || c == '_' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "user" + id.Subject
	}
	return b.String()
}
