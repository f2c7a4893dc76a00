package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEverySettingsCallAnswersNothingAcrossPanels sends each new call of the member's settings
// across panels: a Northwind member's pp-token on Canvass Demo's host (it names no member
// there: 401, the API's answer to a token it does not know), and Northwind's own things named on
// Canvass Demo (its pictures, its instance code, its unsubscribe links: 404, as if they did not
// exist). Nothing of the Northwind member changes.
func TestEverySettingsCallAnswersNothingAcrossPanels(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		nw := e.apiMember("northwind.localhost", "abroad@northwind.test")
		pic := decodeJSON[profileJSON](t, nw.postFile("/ah/api/v1/user/profile/pic", "me.jpg", "image/jpeg", imagetest.JPEG(imagetest.Quadrants(20, 20)), nil), http.StatusCreated).ProfilePics[0]
		nwPanel, err := e.app.Tenancy.PanelByKey(context.Background(), "northwind")
		require.NoError(t, err)
		holder := e.holderID(t, nw.participantID(t))
		hash := e.app.Profile.Service().UnsubscribeHash(nwPanel.ID, holder)
		before := rowsHolding(t, e.db, []string{"abroad@northwind.test"})

		token := e.client("localhost")
		token.header.Set("pp-token", nw.header.Get("pp-token"))
		for _, call := range []struct{ method, path, body string }{
			{http.MethodPost, "/ah/api/v1/change-username", `{"username":"abroad"}`},
			{http.MethodGet, "/ah/api/v1/profile/postal-address", ``},
			{http.MethodPost, "/ah/api/v1/profile/postal-address", `{"addressLine1":"1 Main St","postcode":"02108"}`},
			{http.MethodPost, "/ah/api/v1/user/profile/location", `{"postcode":"02108"}`},
			{http.MethodPost, "/ah/api/v1/user/profile/metadata", `{"gender":"other"}`},
			{http.MethodPost, "/ah/api/v1/user/profile/pic/" + pic.Key, ``},
			{http.MethodDelete, "/ah/api/v1/user/profile/pic/" + pic.Key, ``},
			{http.MethodGet, "/ah/api/v1/subscriptions", ``},
			{http.MethodPost, "/ah/api/v1/subscriptions", `{"newsletters":false}`},
			{http.MethodGet, "/api/v1/demo/subscriptions", ``},
			{http.MethodGet, "/ah/api/v1/can-change-instance", ``},
			{http.MethodPost, "/ah/api/v1/change-instance", `{"panelKey":"demo","password":"mobile-pass-1"}`},
			{http.MethodPost, "/ah/api/v1/close-account", `{"reasonForClosing":"closed-by-user","password":"mobile-pass-1"}`},
		} {
			var res *response
			if call.body == "" {
				res = token.do(call.method, call.path, nil, nil)
			} else {
				res = token.do(call.method, call.path, strings.NewReader(call.body), http.Header{"Content-Type": {"application/json"}})
			}
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "%s %s with another panel's token: %s", call.method, call.path, res.Body)
		}

		demo := e.member()
		demo.header.Set("pp-token", demo.cookie("pp-token"))
		visitor := e.client("localhost")
		for name, res := range map[string]*response{
			"another panel's picture":                    demo.get(pic.URL),
			"another instance's code":                    demo.get("/api/v1/northwind/subscriptions"),
			"another panel's unsubscribe page":           visitor.get("/unsubscribe/" + nwPanel.ID + "/" + holder + "/" + hash),
			"another panel's unsubscribe API":            visitor.get("/ah/api/v1/public/unsubscribe/panel/" + nwPanel.ID + "/ah/" + holder + "?hash=" + hash),
			"another panel's one-click unsubscribe":      visitor.do(http.MethodPost, "/ah/api/v1/public/unsubscribe/panel/"+nwPanel.ID+"/ah/"+holder+"?hash="+hash, nil, nil),
			"another panel's picture chosen by a member": demo.postJSON("/ah/api/v1/user/profile/pic/"+pic.Key, ``),
		} {
			assert.Equal(t, http.StatusNotFound, res.StatusCode, "%s: %s", name, res.Body)
		}

		after := decodeJSON[profileJSON](t, nw.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.Empty(t, after.Username)
		assert.Len(t, after.ProfilePics, 1, "the picture is still theirs")
		assert.Equal(t, allOn, decodeJSON[subscriptionsJSON](t, nw.get("/ah/api/v1/subscriptions"), http.StatusOK))
		assert.Equal(t, before, rowsHolding(t, e.db, []string{"abroad@northwind.test"}), "the member's rows are as they were")
	})
}
