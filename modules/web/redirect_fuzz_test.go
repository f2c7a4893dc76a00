package web_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

// redirectSites are the requests a target is judged on: the panel's own domain, a dev
// server on a port, and a request no panel resolved for (no allow-listed domains at all).
var redirectSites = []struct {
	url   string
	hosts []string // the panel's domains; nil: no panel on the request
}{
	{"http://panel.example.com/login", []string{"panel.example.com", "shop.example.com"}},
	{"http://localhost:3000/login", []string{"localhost", "shop.example.com"}},
	{"http://panel.example.com:8080/login", nil},
}

// redirectSeeds are targets members and attackers send in ?redirect= and ?to=, on each site;
// testdata/fuzz/FuzzSafeRedirectNeverLetsAMemberLeaveForAnotherSite holds the same.
var redirectSeeds = []struct {
	name, target string
	site         byte
}{
	{"path", "/feed?tab=offers", 0},
	{"root", "/", 0},
	{"empty", "", 0},
	{"padded-path", "  /feed \n", 0},
	{"protocol-relative", "//evil.example/feed", 0},
	{"padded-protocol-relative", "\u3000//evil.example/feed", 0},
	{"backslash-host", "/\\evil.example", 0},
	{"tab-browsers-strip", "/\t/evil.example", 0},
	{"javascript", "JaVaScRiPt:alert(1)", 0},
	{"data-script", "data:text/html,<script>alert(1)</script>", 0},
	{"other-site", "https://evil.example/", 0},
	{"lookalike-host", "https://shop.example.com.evil.example/", 0},
	{"credentials-hide-host", "https://shop.example.com@evil.example/", 0},
	{"http-on-panel-domain", "http://shop.example.com/offers", 0},
	{"https-on-panel-domain", "https://shop.example.com/offers", 0},
	{"panel-domain-in-capitals", "HTTPS://SHOP.example.com/offers", 0},
	{"panel-domain-with-port", "https://panel.example.com:443/x?y#z", 0},
	{"same-origin", "http://panel.example.com/feed", 0},
	{"same-origin-double-slash-path", "http://panel.example.com//evil.example", 0},
	{"same-origin-on-a-port", "http://localhost:3000/feed", 1},
	{"same-host-other-port", "http://localhost:4000/feed", 1},
	{"escaped-host", "https://shop%2eexample.com/", 0},
	{"escaped-slashes", "/%2F%2Fevil.example", 0},
	{"dot-segment-before-double-slash", "/.//evil.example", 0},
	{"no-slashes-after-scheme", "https:shop.example.com", 0},
	{"ipv6", "http://[::1]:8080/", 2},
	{"nul-byte", "/feed\x00https://evil.example", 0},
	{"invalid-utf8", "/\xff\xfe", 0},
	{"right-to-left-override", "/\u202egnp.exe", 0},
	{"zero-width-joiner", "https://shop\u200d.example.com/", 0},
	{"emoji", "/\U0001F600", 0},
	{"sql-and-like", "/search?q=%_' OR 1=1--", 0},
	{"no-panel", "https://shop.example.com/offers", 2},
}

// redirectCtx is a request on one of redirectSites, released when the test ends.
func redirectCtx(t *testing.T, app *fiber.App, site byte) (fiber.Ctx, []string) {
	s := redirectSites[int(site)%len(redirectSites)]
	fctx := &fasthttp.RequestCtx{}
	fctx.Request.SetRequestURI(s.url)
	c := app.AcquireCtx(fctx)
	t.Cleanup(func() { app.ReleaseCtx(c) })
	if s.hosts != nil {
		web.SetPanel(c, &web.Panel{Hosts: s.hosts})
	}
	return c, s.hosts
}

// safePath: a path on this site that no browser reads as another host.
func safePath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsAny(p, "\\\r\n\t")
}

// checkSafeTarget reads a non-empty redirect target as a browser would, without net/url:
// a path on this site, an http(s) address on the request's own origin, or an https address
// on one of the panel's domains.
func checkSafeTarget(target, scheme, host string, panelHosts []string) error {
	if len(target) > 2048 || strings.ContainsAny(target, "\\\r\n\t") {
		return fmt.Errorf("too long, or holds a character browsers strip or read as a slash")
	}
	if strings.HasPrefix(target, "/") {
		if !safePath(target) {
			return fmt.Errorf("a protocol-relative address")
		}
		return nil
	}
	i := strings.Index(target, "://")
	if i < 0 {
		return fmt.Errorf("neither a path nor an absolute address")
	}
	sch, rest := strings.ToLower(target[:i]), target[i+3:]
	authority := rest
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		authority = rest[:j]
	}
	if strings.Contains(authority, "@") {
		return fmt.Errorf("credentials before the host")
	}
	authority, err := url.PathUnescape(authority) // browsers decode a host's escapes too
	if err != nil {
		return fmt.Errorf("a host with a broken escape")
	}
	if (sch == "http" || sch == "https") && sch == scheme && strings.EqualFold(authority, host) {
		return nil
	}
	if sch != "https" {
		return fmt.Errorf("scheme %q on another origin", sch)
	}
	name := authority
	if j := strings.LastIndexByte(name, ':'); j >= 0 && strings.Trim(name[j+1:], "0123456789") == "" {
		name = name[:j]
	}
	if !slices.Contains(panelHosts, strings.ToLower(name)) {
		return fmt.Errorf("host %q is not one of the panel's %v", name, panelHosts)
	}
	return nil
}

func FuzzSafeRedirectNeverLetsAMemberLeaveForAnotherSite(f *testing.F) {
	for _, s := range redirectSeeds {
		f.Add(s.target, s.site)
	}
	app := fiber.New()
	f.Fuzz(func(t *testing.T, target string, site byte) {
		c, hosts := redirectCtx(t, app, site)
		trimmed := strings.TrimSpace(target)

		safe := web.SafeRedirect(c, target)
		if safe != "" && safe != trimmed {
			t.Fatalf("SafeRedirect(%q) rewrote the target to %q: it may only keep or drop it", target, safe)
		}
		if safe != "" {
			if err := checkSafeTarget(safe, c.Scheme(), c.Host(), hosts); err != nil {
				t.Fatalf("SafeRedirect(%q) on %s kept an unsafe target: %v", target, c.Host(), err)
			}
		}
		if safePath(trimmed) && len(trimmed) <= 2048 && safe != trimmed {
			t.Fatalf("SafeRedirect(%q) dropped a path on this site", target)
		}

		local := web.LocalPath(c, target)
		switch {
		case local == "" || local == safe:
		case !safePath(local):
			t.Fatalf("LocalPath(%q) = %q, neither SafeRedirect's %q nor a path on this site", target, local, safe)
		case safe == "" || strings.HasPrefix(safe, "/"):
			t.Fatalf("LocalPath(%q) = %q made a path of a target SafeRedirect gave as %q", target, local, safe)
		}
	})
}
