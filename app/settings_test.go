package main

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingsSaveTheProfileAndLanguage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.login(DemoEmail, DemoPassword)
		page := c.get("/settings")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `value="Demo"`)
		assert.Contains(t, page.Body, `href="/settings/mobile"`, "settings lead to the mobile number")

		res := c.postForm("/settings", url.Values{"firstName": {"Dana"}, "lastName": {"Smith"}, "username": {""}, "languageCode": {"es"}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		after := c.get("/settings")
		assert.Contains(t, after.Body, `<html lang="es">`)
		assert.Contains(t, after.Body, `value="Dana"`)
		assert.Contains(t, after.Body, `data-toast="success"`)

		same := c.postForm("/settings", url.Values{"firstName": {"Dana"}, "lastName": {"Smith"}, "username": {""}, "languageCode": {"es"}})
		require.Equal(t, http.StatusSeeOther, same.StatusCode)
		assert.Contains(t, c.get("/settings").Body, `data-toast="info"`, "an unchanged form says nothing changed")

		bad := c.postForm("/settings", url.Values{"firstName": {"Dana"}, "languageCode": {"ru"}})
		assert.Equal(t, http.StatusBadRequest, bad.StatusCode, "Canvass Demo does not offer Russian")
	})
}

func TestChangingThePasswordNeedsTheCurrentOneAndEndsOtherSessions(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		phone := e.client("localhost")
		phone.login(DemoEmail, DemoPassword)
		laptop := e.client("localhost")
		laptop.login(DemoEmail, DemoPassword)
		laptop.get("/settings")

		wrong := laptop.postForm("/settings/password", url.Values{"oldPassword": {"not-it-at-all"}, "newPassword": {"changed-password-1"}})
		assert.Equal(t, http.StatusBadRequest, wrong.StatusCode)
		assert.Contains(t, wrong.Body, "Your current password is not right.")

		ok := laptop.postForm("/settings/password", url.Values{"oldPassword": {DemoPassword}, "newPassword": {"changed-password-1"}})
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		assert.Equal(t, http.StatusOK, laptop.get("/settings").StatusCode, "this session stays")
		assert.Equal(t, http.StatusSeeOther, phone.get("/settings").StatusCode, "the other session ended")

		api := laptop.postJSON("/ah/api/v1/change-password", `{"oldPassword":"changed-password-1","newPassword":"short"}`)
		assert.Equal(t, http.StatusBadRequest, api.StatusCode)
	})
}
