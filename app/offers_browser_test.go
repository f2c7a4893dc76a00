package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/offers/localoffers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withLocalOffers serves the local development offers provider on its own loopback origin and
// makes it both demo panels' provider, with postbacks to this server.
func (b *browserEnv) withLocalOffers(t *testing.T) {
	t.Helper()
	var lo *localoffers.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { lo.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	apps := map[string]localoffers.App{}
	for _, p := range demoOffersPanels {
		apps[p.key+"-app"] = localoffers.App{APIKey: p.key + "-key", Currency: p.currency, PostbackSecret: demoOffersSecret,
			PostbackURL: b.url(p.host, "/api/v1/"+p.key+"/offers/postback"), ReturnURL: b.url(p.host, "/offers")}
	}
	lo = localoffers.New(ts.URL, apps)
	for _, p := range demoOffersPanels {
		panel := mustPanel(t, b.env, p.key)
		require.NoError(t, b.app.Offers.Apply(context.Background(), panel.ID, &offers.Spec{
			BaseURL: ts.URL, AppID: p.key + "-app", APIKey: p.key + "-key", PostbackSecret: demoOffersSecret}))
	}
}

func TestInChromiumAMemberStartsAnOfferSimulatesItsCompletionAndSeesTheCredit(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	b.withLocalOffers(t)
	for _, noScript := range []bool{false, true} {
		name := "with JavaScript"
		if noScript {
			name = "without JavaScript"
		}
		t.Run(name, func(t *testing.T) {
			p := b.signedInFeed(t, noScript)
			before := p.MustElement("[data-balance]").MustText()
			follow(p, p.MustElement("nav.nav a[href='/offers']"))
			require.Equal(t, "/offers", path(p))
			card := p.MustElement(".offer-card")
			name := card.MustElement(".offer-name").MustText()
			follow(p, card.MustElement("a.button"))
			assert.Equal(t, name, p.MustElement("h1").MustText())

			crossSubmit(t, p, "#offer-start")
			assert.Equal(t, localoffers.Title, p.MustElement("h1").MustText(), "the stand-in says what it is")
			crossSubmit(t, p, "button[type=submit]")
			assert.Contains(t, p.MustElement("body").MustText(), "200", "the panel accepted the postback")
			crossSubmit(t, p, "a[href$='/offers']")
			require.Equal(t, "/offers", path(p))

			row := p.MustElement(".offer-row")
			assert.Equal(t, "credited", *row.MustAttribute("data-status"))
			assert.Equal(t, name, row.MustElement(".tx-title").MustText())
			assert.NotEqual(t, before, p.MustElement("[data-balance]").MustText(), "the balance rose")

			follow(p, p.MustElement("nav.nav a[href='/transactions']"))
			assert.Contains(t, p.MustElement("main").MustText(), name, "the credit is in the transactions")
		})
	}
}
