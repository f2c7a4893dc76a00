package localprovider

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"

	"github.com/canvass/canvass/modules/social"
)

// redeemResult is why a code could or could not be redeemed; each provider words it its own way.
type redeemResult int

const (
	redeemed redeemResult = iota
	unknownCode
	expiredCode
	otherClient
	otherRedirect
	noVerifier
	badVerifier
)

// redeem spends a code: a code is good once, whatever the outcome, so one that leaked is
// dead after its first use. It checks the code was issued by provider p to clientID for
// redirectURI, has not expired, and that verifier answers its PKCE challenge.
func (s *Server) redeem(p social.Provider, code, clientID, redirectURI, verifier string) (*grant, redeemResult) {
	s.mu.Lock()
	g, ok := s.codes[code]
	if ok && g.provider == p {
		delete(s.codes, code)
	}
	s.mu.Unlock()
	switch {
	case !ok || g.provider != p:
		return nil, unknownCode
	case g.clientID != clientID:
		return nil, otherClient
	case !s.now().Before(g.expires):
		return nil, expiredCode
	case g.redirectURI != redirectURI:
		return nil, otherRedirect
	case g.challenge == "" && verifier != "":
		return nil, badVerifier
	case g.challenge != "" && verifier == "":
		return nil, noVerifier
	case g.challenge != "" && !pkceOK(verifier, g.challenge):
		return nil, badVerifier
	}
	return g, redeemed
}

// pkceOK checks an RFC 7636 verifier (43 to 128 unreserved characters) against its S256 challenge.
func pkceOK(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	for _, c := range []byte(verifier) {
		if !unreserved(c) {
			return false
		}
	}
	sum := sha256.Sum256([]byte(verifier))
	return constantTimeEqual(base64.RawURLEncoding.EncodeToString(sum[:]), challenge)
}

func unreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

func constantTimeEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// clientCredentials reads a token request's client authentication, HTTP Basic (whose parts
// are form-encoded, RFC 6749 2.3.1) or client_id and client_secret in the body; ok is false
// when the request mixes the two.
func clientCredentials(r *http.Request) (id, secret string, basic, ok bool) {
	if u, p, has := r.BasicAuth(); has {
		if r.PostForm.Get("client_secret") != "" {
			return "", "", true, false
		}
		if uu, err := url.QueryUnescape(u); err == nil {
			u = uu
		}
		if pp, err := url.QueryUnescape(p); err == nil {
			p = pp
		}
		if formID := r.PostForm.Get("client_id"); formID != "" && formID != u {
			return "", "", true, false
		}
		return u, p, true, true
	}
	return r.PostForm.Get("client_id"), r.PostForm.Get("client_secret"), false, true
}

// bearer is the token of an "Authorization: Bearer" header, or "".
func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}
