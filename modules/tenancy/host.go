package tenancy

import (
	"net"
	"regexp"
	"strings"
)

var (
	keyRE      = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,39}$`)
	currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)
	hostRE     = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$`)
)

// NormalizeHost lower-cases a Host header value and strips its port; "" when it is not a host.
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.Trim(h, "[]"), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String()
	}
	if len(h) > 253 || !hostRE.MatchString(h) {
		return ""
	}
	return h
}
