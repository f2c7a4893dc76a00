package web

import (
	"net"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// SafeRedirect returns target when it is safe to send a member to: a path on this site, an
// absolute address on this origin, or an https address on one of the panel's own domains.
// Anything else (another site, protocol-relative, javascript:) gives "".
func SafeRedirect(c fiber.Ctx, target string) string {
	target = strings.TrimSpace(target)
	if target == "" || len(target) > 2048 || strings.ContainsAny(target, "\r\n\t\\") {
		return ""
	}
	if strings.HasPrefix(target, "/") {
		if strings.HasPrefix(target, "//") {
			return ""
		}
		return target
	}
	u, err := url.Parse(target)
	if err != nil || u.Host == "" || u.User != nil {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if (u.Scheme == "http" || u.Scheme == "https") && u.Scheme == c.Scheme() && strings.EqualFold(u.Host, c.Host()) {
		return target
	}
	if u.Scheme != "https" {
		return ""
	}
	if p := PanelOf(c); p != nil {
		for _, h := range p.Hosts {
			if h == host {
				return target
			}
		}
	}
	return ""
}

// LocalPath reduces a safe same-origin target to its path and query, for redirects after login.
func LocalPath(c fiber.Ctx, target string) string {
	t := SafeRedirect(c, target)
	if t == "" || strings.HasPrefix(t, "/") {
		return t
	}
	u, _ := url.Parse(t)
	if strings.EqualFold(u.Host, c.Host()) {
		if p := u.RequestURI(); strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") {
			return p
		}
		return ""
	}
	return t
}

// LoopbackHost tells whether a host name (no port) is this machine: localhost, *.localhost or
// a loopback IP. Provider addresses may use plain http only there (test fakes, local providers).
func LoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// EndpointURL accepts a provider's address: https, or http on loopback (local providers and
// test fakes), so that a provider's secret never travels in the clear off this machine.
func EndpointURL(v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		return LoopbackHost(u.Hostname())
	}
	return false
}

// ValidPageURL tells whether s is an absolute http(s) address of a page on a named host, as a
// panel's links to its own site (its terms) must be: never javascript:, data: or a relative path.
func ValidPageURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && len(s) <= 2000 && (u.Scheme == "https" || u.Scheme == "http") && u.Hostname() != "" && u.User == nil
}
