package offers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// SignatureParam is the postback query parameter that carries the signature.
const SignatureParam = "signature"

var (
	// ErrNoSignature is a postback without a signature parameter, or with an empty one.
	ErrNoSignature = errors.New("the postback has no signature")
	// ErrBadSignature is a postback whose signature does not match the address as received
	// (tampered, reordered, signed with another secret, not hex, or given twice).
	ErrBadSignature = errors.New("the postback's signature does not match")
)

// The signed text is the address as it goes on the wire, minus the signature parameter: the
// path (percent-encoded as sent), then "?" and the remaining parameters in their order and
// bytes as sent, or the path alone when no other parameter is left. Nothing is decoded,
// sorted or re-encoded, so the receiver need not agree with the sender on a canonical form;
// the price is that a proxy which reorders or re-encodes the query breaks every signature.

// SignPostback returns rawURL with its signature parameter set: hex HMAC-SHA256 over the address
// without the signature parameter (path + "?" + query as it will be sent), keyed with secret.
// Any signature parameter already in rawURL is replaced; the new one goes last.
func SignPostback(rawURL, secret string) (string, error) {
	if secret == "" {
		return "", errors.New("signing a postback: the secret is empty")
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("signing a postback: %w", err)
	}
	if u.Opaque != "" {
		return "", fmt.Errorf("signing a postback: %q is not a hierarchical URL", rawURL)
	}
	rest, _, _, err := splitSignature(u.RawQuery)
	if err != nil {
		return "", fmt.Errorf("signing a postback: %w", err)
	}
	u.RawQuery = rest
	u.ForceQuery = false
	// RequestURI is exactly what net/http puts on the request line for u.
	sig := SignatureParam + "=" + mac(u.RequestURI(), secret)
	if rest == "" {
		u.RawQuery = sig
	} else {
		u.RawQuery = rest + "&" + sig
	}
	return u.String(), nil
}

// VerifyPostback checks the signature of a received postback in constant time (hmac.Equal).
// pathAndQuery is the request's path with its raw query exactly as received (fiber:
// c.OriginalURL(); net/http: r.RequestURI). It returns ErrNoSignature or ErrBadSignature
// (wrapped with the detail), or nil when the signature matches.
func VerifyPostback(pathAndQuery, secret string) error {
	path, query, _ := strings.Cut(pathAndQuery, "?")
	rest, sig, found, err := splitSignature(query)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrBadSignature, err)
	case !found || sig == "":
		return ErrNoSignature
	case secret == "":
		// A panel without a secret must accept nothing, not everything signed with "".
		return fmt.Errorf("%w: no postback secret is configured", ErrBadSignature)
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("%w: the signature is not hex", ErrBadSignature)
	}
	signed := path
	if rest != "" {
		signed += "?" + rest
	}
	want := hmacSum(signed, secret)
	if !hmac.Equal(got, want) {
		return ErrBadSignature
	}
	return nil
}

// splitSignature takes the signature parameter out of a raw query, keeping every other
// parameter's bytes and order (url.Values.Encode would sort and re-encode them). A parameter
// counts as the signature when its name, percent-decoded, is SignatureParam. More than one is
// an error: which of them would the signature be?
func splitSignature(rawQuery string) (rest, sig string, found bool, err error) {
	if rawQuery == "" {
		return "", "", false, nil
	}
	kept := make([]string, 0, 8)
	for part := range strings.SplitSeq(rawQuery, "&") {
		name, value, _ := strings.Cut(part, "=")
		if n, uerr := url.QueryUnescape(name); uerr != nil || n != SignatureParam {
			kept = append(kept, part)
			continue
		}
		if found {
			return "", "", false, errors.New("the signature parameter is given more than once")
		}
		found = true
		if sig, err = url.QueryUnescape(value); err != nil {
			return "", "", false, errors.New("the signature parameter is not a valid query value")
		}
	}
	return strings.Join(kept, "&"), sig, found, nil
}

func hmacSum(text, secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(text))
	return m.Sum(nil)
}

func mac(text, secret string) string { return hex.EncodeToString(hmacSum(text, secret)) }
