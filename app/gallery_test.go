package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheGalleryIsServedOnAnyHostOutsideProductionAndNotAtAllInProduction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	for _, host := range []string{"localhost", "northwind.localhost", "console.localhost"} {
		res := e.client(host).get("/_dev/gallery?panel=northwind&lang=zh")
		require.Equal(t, http.StatusOK, res.StatusCode, host)
		assert.Contains(t, res.Body, `<html lang="zh"`, host)
	}
	page := e.client("localhost").get("/_dev/gallery/feed/with-notices?panel=northwind&lang=ru")
	require.Equal(t, http.StatusOK, page.StatusCode)
	assert.Contains(t, page.Body, "Ещё 2 уведомления", "the fixtures in the panel's language")
	assert.Contains(t, page.Body, "£", "and its currency")

	// A mail keeps its inline styles (its own policy lets them apply) and runs nothing.
	mail := e.client("localhost").get("/_dev/gallery/mail/password-reset?panel=demo&lang=en")
	require.Equal(t, http.StatusOK, mail.StatusCode)
	assert.Contains(t, mail.Header.Get("Content-Security-Policy"), "style-src 'unsafe-inline'")
	assert.Contains(t, mail.Header.Get("Content-Security-Policy"), "default-src 'none'")

	prod := newEnvWith(t, "sqlite", testConfig("production"))
	for _, target := range []string{"/_dev/gallery", "/_dev/gallery/states.json", "/_dev/gallery/feed/many-cards"} {
		assert.Equal(t, http.StatusNotFound, prod.client("localhost").get(target).StatusCode, target)
	}
}
