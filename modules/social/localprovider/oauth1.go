package localprovider

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// oauth1Skew is how far a request's oauth_timestamp may be from the server's clock.
const oauth1Skew = 5 * time.Minute

// Twitter's v1.1 error codes for authentication.
const (
	couldNotAuthenticate  = 32
	invalidToken          = 89
	timestampOutOfBounds  = 135
	badAuthenticationData = 215
)

// verifyOAuth1 checks an RFC 5849 HMAC-SHA1 signed request, as Twitter does: a registered
// consumer, a token issued here, a fresh timestamp and an unused nonce, and a signature made
// with the consumer secret and that token's secret. It returns the token's subject, or the
// Twitter error code to answer.
func (s *Server) verifyOAuth1(r *http.Request) (subject string, errCode int) {
	params, ok := parseOAuthHeader(r.Header.Get("Authorization"))
	if !ok {
		return "", badAuthenticationData
	}
	consumer, token, sig := params["oauth_consumer_key"], params["oauth_token"], params["oauth_signature"]
	consumerSecret, known := s.clients[consumer]
	switch {
	case !known, sig == "", params["oauth_signature_method"] != "HMAC-SHA1", params["oauth_nonce"] == "":
		return "", couldNotAuthenticate
	case params["oauth_version"] != "" && params["oauth_version"] != "1.0":
		return "", couldNotAuthenticate
	}
	ts, err := strconv.ParseInt(params["oauth_timestamp"], 10, 64)
	if err != nil {
		return "", couldNotAuthenticate
	}
	if d := s.now().Sub(time.Unix(ts, 0)); d > oauth1Skew || d < -oauth1Skew {
		return "", timestampOutOfBounds
	}
	s.mu.Lock()
	tok, known := s.oauth1[token]
	s.mu.Unlock()
	if !known {
		return "", invalidToken
	}
	base, err := s.signatureBase(r, params)
	if err != nil {
		return "", couldNotAuthenticate
	}
	mac := hmac.New(sha1.New, []byte(percentEncode(consumerSecret)+"&"+percentEncode(tok.secret)))
	mac.Write([]byte(base))
	got, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac.Sum(nil)) {
		return "", couldNotAuthenticate
	}
	// A nonce is good once per consumer, token and timestamp, so a captured request cannot
	// be replayed.
	seen := strings.Join([]string{consumer, token, params["oauth_timestamp"], params["oauth_nonce"]}, "\x00")
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.oauth1Seen[seen]; dup {
		return "", couldNotAuthenticate
	}
	for k, at := range s.oauth1Seen {
		if now.Sub(at) > 2*oauth1Skew {
			delete(s.oauth1Seen, k)
		}
	}
	s.oauth1Seen[seen] = now
	return tok.subject, 0
}

// parseOAuthHeader reads the parameters of an "Authorization: OAuth" header (RFC 5849 3.5.1).
func parseOAuthHeader(h string) (map[string]string, bool) {
	scheme, rest, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "OAuth") {
		return nil, false
	}
	params := map[string]string{}
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return nil, false
		}
		key, err1 := url.PathUnescape(k)
		val, err2 := url.PathUnescape(v[1 : len(v)-1])
		if err1 != nil || err2 != nil {
			return nil, false
		}
		if _, dup := params[key]; dup {
			return nil, false
		}
		params[key] = val
	}
	return params, true
}

// signatureBase is the RFC 5849 3.4.1 signature base string of r: the method, the base
// string URI as the client addressed it (this server's base URL, whatever a proxy or router
// in front did to the request) and the normalized query, form and oauth parameters.
func (s *Server) signatureBase(r *http.Request, oauth map[string]string) (string, error) {
	var pairs [][2]string
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return "", err
	}
	for k, vs := range query {
		for _, v := range vs {
			pairs = append(pairs, [2]string{k, v})
		}
	}
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err != nil {
			return "", err
		}
		for k, vs := range r.PostForm {
			for _, v := range vs {
				pairs = append(pairs, [2]string{k, v})
			}
		}
	}
	for k, v := range oauth {
		if k != "oauth_signature" && k != "realm" {
			pairs = append(pairs, [2]string{k, v})
		}
	}
	for i := range pairs {
		pairs[i] = [2]string{percentEncode(pairs[i][0]), percentEncode(pairs[i][1])}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	joined := make([]string, len(pairs))
	for i, p := range pairs {
		joined[i] = p[0] + "=" + p[1]
	}

	scheme, host := strings.ToLower(s.baseURL.Scheme), strings.ToLower(s.baseURL.Host)
	host = strings.TrimSuffix(host, map[string]string{"http": ":80", "https": ":443"}[scheme])
	path := r.URL.EscapedPath()
	if prefix := strings.TrimSuffix(s.baseURL.EscapedPath(), "/"); prefix != "" && !strings.HasPrefix(path, prefix+"/") {
		path = prefix + path
	}
	uri := fmt.Sprintf("%s://%s%s", scheme, host, path)
	return strings.ToUpper(r.Method) + "&" + percentEncode(uri) + "&" + percentEncode(strings.Join(joined, "&")), nil
}

// percentEncode is RFC 5849 3.6 encoding: everything but RFC 3986 unreserved characters.
func percentEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if unreserved(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
