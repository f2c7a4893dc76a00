package localprovider

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"

	"github.com/canvass/canvass/modules/social"
)

// graphError answers in the Graph API's error shape.
func graphError(w http.ResponseWriter, status, code int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{
		"message":    message,
		"type":       "OAuthException",
		"code":       code,
		"fbtrace_id": randomString(8),
	}})
}

// facebookToken is Graph's oauth/access_token: it redeems a dialog code for a user token.
// Graph takes the app id and secret as parameters, by GET or POST.
func (s *Server) facebookToken(w http.ResponseWriter, r *http.Request) {
	s.countTokenCall(social.Facebook)
	if err := r.ParseForm(); err != nil {
		graphError(w, http.StatusBadRequest, 100, "The request could not be read.")
		return
	}
	clientID, secret := r.Form.Get("client_id"), r.Form.Get("client_secret")
	switch {
	case clientID == "":
		graphError(w, http.StatusBadRequest, 101, "Missing client_id parameter.")
		return
	case s.clients[clientID] == "":
		graphError(w, http.StatusBadRequest, 101, "Error validating application. Invalid application ID.")
		return
	case !s.clientSecretOK(clientID, secret):
		graphError(w, http.StatusBadRequest, 1, "Error validating client secret.")
		return
	case r.Form.Get("redirect_uri") == "":
		graphError(w, http.StatusBadRequest, 100, "Missing redirect_uri parameter.")
		return
	}
	g, why := s.redeem(social.Facebook, r.Form.Get("code"), clientID, r.Form.Get("redirect_uri"), r.Form.Get("code_verifier"))
	switch why {
	case redeemed:
	case expiredCode:
		graphError(w, http.StatusBadRequest, 100, "This authorization code has expired.")
		return
	case otherRedirect:
		graphError(w, http.StatusBadRequest, 100, "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request")
		return
	case noVerifier, badVerifier:
		graphError(w, http.StatusBadRequest, 100, "Invalid code verifier.")
		return
	default:
		graphError(w, http.StatusBadRequest, 100, "This authorization code is invalid or has been used.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": s.issueToken(social.Facebook, clientID, g.subject, g.scopes),
		"token_type":   "bearer",
		"expires_in":   int(tokenLifetime.Seconds()),
	})
}

// graphToken is the access token of a Graph call: the access_token parameter or an
// "Authorization: Bearer" (or "OAuth") header.
func graphToken(r *http.Request) string {
	if t := r.Form.Get("access_token"); t != "" {
		return t
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "OAuth")) {
		return strings.TrimSpace(tok)
	}
	return ""
}

// facebookMe is Graph's /me. Like an app with "Require App Secret" on, it insists on an
// appsecret_proof made with the secret of the app the token was issued to.
func (s *Server) facebookMe(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		graphError(w, http.StatusBadRequest, 100, "The request could not be read.")
		return
	}
	raw := graphToken(r)
	if raw == "" {
		graphError(w, http.StatusBadRequest, 2500, "An active access token must be used to query information about the current user.")
		return
	}
	tok, ok := s.lookupToken(social.Facebook, raw)
	id, known := s.identity(tokSubject(tok))
	if !ok || !known {
		graphError(w, http.StatusBadRequest, 190, "Invalid OAuth access token data.")
		return
	}
	proof := r.Form.Get("appsecret_proof")
	if proof == "" {
		graphError(w, http.StatusBadRequest, 100, "API calls from the server require an appsecret_proof argument")
		return
	}
	m := hmac.New(sha256.New, []byte(s.clients[tok.clientID]))
	m.Write([]byte(raw))
	if !constantTimeEqual(strings.ToLower(proof), hex.EncodeToString(m.Sum(nil))) {
		graphError(w, http.StatusBadRequest, 100, "Invalid appsecret_proof provided in the API argument")
		return
	}
	fields := r.Form.Get("fields")
	if fields == "" {
		fields = "id,name"
	}
	me := map[string]any{"id": id.Subject}
	for _, f := range strings.Split(fields, ",") {
		switch strings.TrimSpace(f) {
		case "name":
			me["name"] = id.Name
		case "email":
			// Graph returns only a confirmed email, and only with the email permission.
			if id.Email != "" && id.EmailVerified && slices.Contains(tok.scopes, "email") {
				me["email"] = id.Email
			}
		}
	}
	writeJSON(w, http.StatusOK, me)
}

// facebookDebugToken is Graph's debug_token: with the app's own token (app id|app secret)
// it tells whether a user token is valid, and for which app and user.
func (s *Server) facebookDebugToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		graphError(w, http.StatusBadRequest, 100, "The request could not be read.")
		return
	}
	appID, appSecret, _ := strings.Cut(graphToken(r), "|")
	if !s.clientSecretOK(appID, appSecret) {
		graphError(w, http.StatusBadRequest, 190, "Invalid OAuth access token signature.")
		return
	}
	input := r.Form.Get("input_token")
	if input == "" {
		graphError(w, http.StatusBadRequest, 100, "(#100) The parameter input_token is required")
		return
	}
	s.mu.Lock()
	tok, ok := s.tokens[input]
	var t accessToken
	if ok {
		t = *tok
	}
	s.mu.Unlock()
	if !ok || t.provider != social.Facebook {
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{
			"error":    map[string]any{"code": 190, "message": "Invalid OAuth access token."},
			"is_valid": false,
			"scopes":   []string{},
		}})
		return
	}
	data := map[string]any{
		"app_id":                 t.clientID,
		"type":                   "USER",
		"application":            "Local development",
		"data_access_expires_at": t.expires.Unix(),
		"expires_at":             t.expires.Unix(),
		"issued_at":              t.issued.Unix(),
		"is_valid":               true,
		"scopes":                 t.scopes,
		"user_id":                t.subject,
	}
	if !s.now().Before(t.expires) {
		data["is_valid"] = false
		data["error"] = map[string]any{"code": 190, "subcode": 463, "message": "Session has expired."}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}
