package main

import (
	"fmt"
	"net"
	"net/http"

	"github.com/canvass/canvass/modules/captcha/localcaptcha"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/localoffers"
	"github.com/canvass/canvass/modules/social/localprovider"
	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
)

// The local development providers: `make run` signs in with "Google", "Facebook" and "X",
// shows a captcha, and lists offers and games (with a "Simulate completion" button that sends a
// real signed postback), without the internet. They are mounted only for the demo outside production,
// under /_dev/ on every host, and every page they show says it is not the real provider.
const (
	devSignInPath  = "/_dev/sign-in"
	devCaptchaPath = "/_dev/captcha"
	devOffersPath  = "/_dev/offers"
	// The demo panels' client id and secrets at the local providers (not secrets: local only).
	devClientID      = "canvass-demo"
	devClientSecret  = "canvass-demo-local-secret"
	devCaptchaSecret = "canvass-demo-local-captcha-secret"
	devOffersKey     = "canvass-demo-local-offers-key"
	devOffersSecret  = "canvass-demo-local-postback-secret"
)

// devProviders are the local sign-in and captcha providers of a demo server.
type devProviders struct {
	signIn  *localprovider.Server
	captcha *localcaptcha.Server
	offers  *localoffers.Server
	// origin is where the server can reach itself (and browsers reach it): http://localhost:PORT.
	origin string
}

// devIdentities are the people the local sign-in lets you pick: the demo member (whose email
// matches an account, so linking asks for its password), a newcomer the provider vouches for
// (joins at once) and one without an email (as X gives none: asked for one).
func devIdentities() []localprovider.Identity {
	return []localprovider.Identity{
		{Subject: "local-demo-member", Email: DemoEmail, EmailVerified: true, Name: "Demo Member"},
		{Subject: "local-dana", Email: "dana.newcomer@example.test", EmailVerified: true, Name: "Dana Newcomer"},
		{Subject: "local-sam", Name: "Sam Noemail"},
	}
}

func newDevProviders(addr string) (*devProviders, error) {
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" || port == "0" {
		return nil, fmt.Errorf("local development providers need CANVASS_ADDR with a fixed port, not %q", addr)
	}
	origin := "http://localhost:" + port
	apps := map[string]localoffers.App{}
	for _, p := range demoOffersPanels {
		host := "http://" + p.host + ":" + port
		apps[devOffersApp(p.key)] = localoffers.App{
			APIKey: devOffersKey, Currency: p.currency, PostbackSecret: devOffersSecret,
			PostbackURL: host + "/api/v1/" + p.key + "/offers/postback", ReturnURL: host + "/offers",
		}
	}
	return &devProviders{
		signIn:  localprovider.New(origin+devSignInPath, map[string]string{devClientID: devClientSecret}, devIdentities()),
		captcha: localcaptcha.New(devCaptchaSecret),
		offers:  localoffers.New(origin+devOffersPath, apps),
		origin:  origin,
	}, nil
}

// demoOffersPanels are the demo panels the local offers provider serves: instance code (also
// the panel key), host and currency.
var demoOffersPanels = []struct{ key, host, currency string }{
	{"demo", "localhost", "USD"},
	{"northwind", "northwind.localhost", "GBP"},
}

// devOffersApp is a demo panel's app id at the local offers provider.
func devOffersApp(panelKey string) string { return "canvass-demo-" + panelKey }

// offersSpec is a demo panel's offers provider: the local one.
func (d *devProviders) offersSpec(panelKey string) *offers.Spec {
	return &offers.Spec{BaseURL: d.origin + devOffersPath, AppID: devOffersApp(panelKey), APIKey: devOffersKey, PostbackSecret: devOffersSecret}
}

// mount serves both providers before the panel's own middleware: they are another party's
// pages (no panel, no CSRF token of ours). The sign-in pages set their own strict policy, with
// no form-action, since their form sends the browser back to whichever panel host asked.
func (d *devProviders) mount(f *fiber.App) {
	f.All(devSignInPath+"/*", adaptor.HTTPHandler(http.StripPrefix(devSignInPath, d.signIn)))
	f.Post(devCaptchaPath+localcaptcha.Path, adaptor.HTTPHandler(http.StripPrefix(devCaptchaPath, d.captcha)))
	f.All(devOffersPath+"/*", adaptor.HTTPHandler(http.StripPrefix(devOffersPath, d.offers)))
}

// captchaURL is the siteverify address the demo panels are configured with.
func (d *devProviders) captchaURL() string { return d.origin + devCaptchaPath + localcaptcha.Path }
