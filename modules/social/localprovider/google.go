package localprovider

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/canvass/canvass/modules/social"
	jose "github.com/go-jose/go-jose/v4"
)

func (s *Server) googleIssuer() string { return s.base + "/google" }

// googleDiscovery is the OpenID Provider Metadata that go-oidc discovers.
func (s *Server) googleDiscovery(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	iss := s.googleIssuer()
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                iss,
		"authorization_endpoint":                iss + "/authorize",
		"token_endpoint":                        iss + "/token",
		"userinfo_endpoint":                     iss + "/userinfo",
		"jwks_uri":                              iss + "/jwks",
		"response_types_supported":              []string{"code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"scopes_supported":                      []string{"openid", "email", "profile"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_post", "client_secret_basic"},
		"claims_supported":                      []string{"aud", "email", "email_verified", "exp", "iat", "iss", "name", "sub", "nonce", "at_hash"},
		"code_challenge_methods_supported":      []string{"S256"},
		"grant_types_supported":                 []string{"authorization_code"},
	})
}

func (s *Server) googleJWKS(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{
		Key: &s.key.PublicKey, KeyID: s.kid, Algorithm: string(jose.RS256), Use: "sig",
	}}})
}

// oauthError is the RFC 6749 token endpoint error Google and Twitter answer.
func oauthError(w http.ResponseWriter, status int, code, description string) {
	body := map[string]string{"error": code}
	if description != "" {
		body["error_description"] = description
	}
	writeJSON(w, status, body)
}

// googleToken redeems a code for an access token and a signed ID token.
func (s *Server) googleToken(w http.ResponseWriter, r *http.Request) {
	s.countTokenCall(social.Google)
	if r.Method != http.MethodPost {
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the form could not be read")
		return
	}
	clientID, secret, basic, ok := clientCredentials(r)
	if !ok {
		oauthError(w, http.StatusBadRequest, "invalid_request", "client authentication must use one method")
		return
	}
	if !s.clientSecretOK(clientID, secret) {
		if basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="local"`)
		}
		oauthError(w, http.StatusUnauthorized, "invalid_client", "Unauthorized")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type: "+r.PostForm.Get("grant_type"))
		return
	}
	g, why := s.redeem(social.Google, r.PostForm.Get("code"), clientID, r.PostForm.Get("redirect_uri"), r.PostForm.Get("code_verifier"))
	switch why {
	case redeemed:
	case otherRedirect:
		oauthError(w, http.StatusBadRequest, "redirect_uri_mismatch", "Bad Request")
		return
	case noVerifier:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "Missing code verifier.")
		return
	case badVerifier:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "Invalid code verifier.")
		return
	default:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "Bad Request")
		return
	}
	id, _ := s.identity(g.subject)
	access := s.issueToken(social.Google, clientID, g.subject, g.scopes)
	claims := s.idTokenClaims(id, g.subject, clientID)
	if g.nonce != "" {
		claims["nonce"] = g.nonce
	}
	claims["at_hash"] = atHash(access)
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access,
		"token_type":   "Bearer",
		"expires_in":   int(tokenLifetime.Seconds()) - 1,
		"scope":        strings.Join(g.scopes, " "),
		"id_token":     s.sign(s.key, claims),
	})
}

// googleUserinfo answers the OIDC UserInfo endpoint for a Google access token.
func (s *Server) googleUserinfo(w http.ResponseWriter, r *http.Request) {
	tok, ok := s.lookupToken(social.Google, bearer(r))
	id, known := s.identity(tokSubject(tok))
	if !ok || !known {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		oauthError(w, http.StatusUnauthorized, "invalid_token", "Invalid Credentials")
		return
	}
	body := map[string]any{"sub": id.Subject, "name": id.Name}
	if id.Email != "" {
		body["email"] = id.Email
		body["email_verified"] = id.EmailVerified
	}
	writeJSON(w, http.StatusOK, body)
}

func tokSubject(t *accessToken) string {
	if t == nil {
		return ""
	}
	return t.subject
}

// atHash is the OIDC at_hash of an access token for RS256: the left half of its SHA-256.
func atHash(accessToken string) string {
	sum := sha256.Sum256([]byte(accessToken))
	return base64.RawURLEncoding.EncodeToString(sum[:len(sum)/2])
}

// idTokenClaims are the claims of a fresh ID token for id issued to clientID.
func (s *Server) idTokenClaims(id Identity, subject, clientID string) map[string]any {
	now := s.now()
	claims := map[string]any{
		"iss": s.googleIssuer(),
		"azp": clientID,
		"aud": clientID,
		"sub": subject,
		"iat": now.Unix(),
		"exp": now.Add(tokenLifetime).Unix(),
	}
	if id.Name != "" {
		claims["name"] = id.Name
	}
	if id.Email != "" {
		claims["email"] = id.Email
		claims["email_verified"] = id.EmailVerified
	}
	return claims
}

// IDTokenClaims are the claims of a valid ID token for subject issued to clientID (iss,
// azp, aud, sub, iat, exp, and the identity's email, email_verified and name), for a test
// to change one of and pass to MintIDToken.
func (s *Server) IDTokenClaims(subject, clientID string) map[string]any {
	id, _ := s.identity(subject)
	return s.idTokenClaims(id, subject, clientID)
}

// MintIDToken signs claims, as given, with the server's key: a token its JWKS vouches for.
// Dates (iat, exp) are Unix seconds, as in any JWT.
func (s *Server) MintIDToken(claims map[string]any) string { return s.sign(s.key, claims) }

// MintForeignIDToken signs claims with a key that is not in the JWKS, under the server's
// key id: a forgery.
func (s *Server) MintForeignIDToken(claims map[string]any) string {
	s.foreignOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(fmt.Sprintf("localprovider: generating the foreign key: %v", err))
		}
		s.foreign = k
	})
	return s.sign(s.foreign, claims)
}

// sign makes an RS256 JWT of claims with key, under the server's key id.
func (s *Server) sign(key *rsa.PrivateKey, claims map[string]any) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: s.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		panic(fmt.Sprintf("localprovider: signer: %v", err))
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		panic(fmt.Sprintf("localprovider: claims: %v", err))
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		panic(fmt.Sprintf("localprovider: signing: %v", err))
	}
	raw, err := obj.CompactSerialize()
	if err != nil {
		panic(fmt.Sprintf("localprovider: serializing: %v", err))
	}
	return raw
}
