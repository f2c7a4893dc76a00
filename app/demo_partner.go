package main

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"

	"github.com/canvass/canvass/modules/tenancy"
	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
)

// The demo's partner site: a third party's page on its own host (partner.localhost, no panel)
// that frames Canvass Demo's login widget and Northwind's join widget and lists the messages
// they send it, so `make run` shows the widgets as a tenant's visitors meet them. Served by a
// demo server outside production only, like the local development providers; every other
// unknown host is still an "Unrecognized domain".
const demoPartnerHost = "partner.localhost"

// demoPartnerOrigins are both demo panels' embed_origins (demoPanelsFor): the partner page as a
// server listening on addr (CANVASS_ADDR) serves it, on the same port; none when addr has no
// fixed port, where no partner page is served.
func demoPartnerOrigins(addr string) []string {
	port, ok := fixedPort(addr)
	if !ok {
		return nil
	}
	return []string{partnerOriginOn(port)}
}

func partnerOriginOn(port string) string { return "http://" + net.JoinHostPort(demoPartnerHost, port) }

// fixedPort is the port of a listen address, unless it is missing or 0 (any free port).
func fixedPort(addr string) (string, bool) {
	_, port, err := net.SplitHostPort(addr)
	return port, err == nil && port != "" && port != "0"
}

// demoPartner is the partner page of a demo server on one port.
type demoPartner struct {
	login, join string // the widgets' addresses on the demo panels' hosts
	origins     []string
}

func newDemoPartner(addr string) (*demoPartner, error) {
	port, ok := fixedPort(addr)
	if !ok {
		return nil, fmt.Errorf("the demo partner page needs CANVASS_ADDR with a fixed port, not %q", addr)
	}
	return demoPartnerOn(port), nil
}

// demoPartnerOn frames the widgets of the demo panels served on port, each at its first domain:
// Canvass Demo's login widget and Northwind's join widget.
func demoPartnerOn(port string) *demoPartner {
	panels := demoPanelsFor(":" + port)
	origin := func(spec tenancy.PanelSpec) string { return "http://" + net.JoinHostPort(spec.Hosts[0], port) }
	demo, northwind := origin(panels[0]), origin(panels[1])
	return &demoPartner{login: demo + "/widgets/login", join: northwind + "/widgets/join", origins: []string{demo, northwind}}
}

// mount serves the partner page on its host, before the panels' middleware: it is no panel
// and sets its own policy.
func (d *demoPartner) mount(f *fiber.App) {
	h := adaptor.HTTPHandler(d)
	f.Use(func(c fiber.Ctx) error {
		if tenancy.NormalizeHost(c.Host()) != demoPartnerHost {
			return c.Next()
		}
		return h(c)
	})
}

func (d *demoPartner) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		http.NotFound(w, r)
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	nonce := base64.RawStdEncoding.EncodeToString(b)
	// What a tenant's snippet does: it tells the widget which page frames it.
	self := url.Values{"parentFrameUrl": {"http://" + r.Host + "/"}}.Encode()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+
		"'; frame-src "+d.origins[0]+" "+d.origins[1]+"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	_ = demoPartnerPage.Execute(w, map[string]any{
		"Nonce": nonce, "Login": d.login + "?" + self, "Join": d.join + "?" + self, "Origins": d.origins,
	})
}

var demoPartnerPage = template.Must(template.New("partner").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbour &amp; Co. · members' corner (demo partner site)</title>
<style nonce="{{.Nonce}}">
body{margin:0;font:16px/1.5 Georgia,serif;color:#222;background:#f3efe6}
header{background:#5b3a29;color:#fff;padding:.75rem 1rem}
header p{margin:.25rem 0 0;font-size:.9em}
main{max-width:1200px;margin:0 auto;padding:1rem}
.widgets{display:flex;flex-wrap:wrap;gap:1rem}
section{background:#fff;border:1px solid #d8cfbf;border-radius:8px;padding:1rem;flex:1 1 340px;min-width:0}
iframe{width:100%;max-width:420px;border:1px solid #d8cfbf;border-radius:8px;background:#fff}
#messages li{font-family:monospace;overflow-wrap:anywhere}
</style>
</head>
<body>
<header>
<strong>Harbour &amp; Co.</strong>
<p>A demo partner's site on {{"partner.localhost"}}, served by the Canvass demo: it is not a panel, and not part of Canvass.</p>
</header>
<main>
<h1>Members' corner</h1>
<p>Our rewards panels' widgets, framed from their own sites. Log in or join in a frame: this page hears that you did, never who you are.</p>
<div class="widgets">
<section aria-labelledby="login-h">
<h2 id="login-h">Canvass Demo: log in</h2>
<iframe id="login" src="{{.Login}}" title="Log in to Canvass Demo" height="720"></iframe>
</section>
<section aria-labelledby="join-h">
<h2 id="join-h">Northwind Rewards: join</h2>
<iframe id="join" src="{{.Join}}" title="Join Northwind Rewards" height="800"></iframe>
</section>
<section aria-labelledby="messages-h">
<h2 id="messages-h">Messages this page received</h2>
<ol id="messages" aria-live="polite"></ol>
</section>
</div>
</main>
<script nonce="{{.Nonce}}">
const widgets = {{.Origins}}
addEventListener('message', (e) => {
  if (!widgets.includes(e.origin)) return
  const li = document.createElement('li')
  li.textContent = e.origin + ' ' + JSON.stringify(e.data)
  document.getElementById('messages').append(li)
})
</script>
</body>
</html>
`))
