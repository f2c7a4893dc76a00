package webhooks

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// A webhook's URL: https only, to a public address. Outside development (and tests that allow
// it), an address on this machine or the operator's networks (loopback, private, link-local,
// shared and reserved ranges) is refused twice: when the URL is saved, by resolving its host,
// and when a delivery connects, by checking the address dialled (a name that resolved to a
// public address then and to 127.0.0.1 now is still refused). Redirects are not followed.

// MaxURL bounds a webhook's URL.
const MaxURL = 1000

// Why a URL is refused.
var (
	ErrURLInvalid = errors.New("webhooks: not an absolute URL with a host")
	ErrURLScheme  = errors.New("webhooks: the URL must be https")
	ErrURLPrivate = errors.New("webhooks: the URL's host is a loopback, private or reserved address")
	ErrURLResolve = errors.New("webhooks: the URL's host does not resolve")
)

// Resolver looks a host's addresses up (net.DefaultResolver; tests give their own).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// lookupTimeout bounds the look-up of a URL's host when it is saved.
const lookupTimeout = 3 * time.Second

// CheckURL checks a webhook's URL: absolute https with a host, no user info, at most MaxURL
// characters; unless allowPrivate, a host that is or resolves to an address Public refuses.
func CheckURL(ctx context.Context, raw string, allowPrivate bool, r Resolver) (*url.URL, error) {
	if raw == "" || len(raw) > MaxURL || !utf8.ValidString(raw) || strings.ContainsAny(raw, " \t\r\n") {
		return nil, ErrURLInvalid
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Hostname() == "" || u.User != nil || u.Opaque != "" {
		return nil, ErrURLInvalid
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return nil, ErrURLScheme
	}
	if port := u.Port(); port != "" {
		if n, err := net.LookupPort("tcp", port); err != nil || n == 0 {
			return nil, ErrURLInvalid
		}
	}
	if allowPrivate {
		return u, nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil, ErrURLPrivate
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if !Public(a) {
			return nil, ErrURLPrivate
		}
		return u, nil
	}
	if r == nil {
		r = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return nil, ErrURLResolve
	}
	for _, a := range addrs {
		if !Public(a) {
			return nil, ErrURLPrivate
		}
	}
	return u, nil
}

// reserved are the ranges Public refuses beyond the standard library's classes: this network,
// shared address space (CGNAT), IETF protocol assignments, benchmarking, documentation,
// reserved, and IPv6's NAT64, discard, documentation and unique-local prefixes.
var reserved = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
		"64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001:db8::/32", "fc00::/7", "fec0::/10",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// Public tells whether a is an address a webhook may be sent to: not loopback, private,
// link-local, multicast, unspecified or reserved (an IPv4-mapped IPv6 address is judged as
// its IPv4 address).
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// DeliveryTimeout bounds one attempt: connecting, sending and the receiver's answer.
const DeliveryTimeout = 10 * time.Second

// NewClient is the HTTP client deliveries are sent with: a 10 s timeout, no redirects followed,
// no proxy from the environment (it would dial for us), TLS 1.2 at least, and unless
// allowPrivate every address dialled checked with Public.
func NewClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	if !allowPrivate {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("webhooks: dial %s: %w", address, err)
			}
			if !Public(ap.Addr()) {
				return fmt.Errorf("webhooks: dial %s: %w", address, ErrURLPrivate)
			}
			return nil
		}
	}
	return &http.Client{
		Timeout: DeliveryTimeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:   5 * time.Second,
			ResponseHeaderTimeout: DeliveryTimeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       90 * time.Second,
			ForceAttemptHTTP2:     true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
