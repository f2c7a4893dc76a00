package main

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheHostHeaderPicksThePanel(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		cases := []struct {
			name, host, wantTitle string
		}{
			{"localhost serves Canvass Demo", "localhost", "Log in · Canvass Demo - development"},
			{"the port is stripped", "localhost:3000", "Log in · Canvass Demo - development"},
			{"the host is case-insensitive", "LOCALHOST", "Log in · Canvass Demo - development"},
			{"127.0.0.1 serves Canvass Demo", "127.0.0.1:3000", "Log in · Canvass Demo - development"},
			{"northwind.localhost serves Northwind Rewards", "Northwind.Localhost:3000", "Log in · Northwind Rewards - development"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := e.client(tc.host).get("/login")
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.Equal(t, tc.wantTitle, title(res.Body))
			})
		}
	})
}

func TestAnUnknownHostGetsUnrecognizedDomain(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		page := e.client("nowhere.example:3000").get("/login")
		assert.Equal(t, http.StatusNotFound, page.StatusCode)
		assert.Contains(t, page.Body, "Unrecognized domain: nowhere.example")

		api := e.client("nowhere.example").get("/ah/api/v1/ping")
		assert.Equal(t, http.StatusNotFound, api.StatusCode)
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(api.Body), &body))
		assert.Equal(t, "ClientError", body["name"])
		assert.Equal(t, "Unrecognized domain: nowhere.example", body["message"])
		assert.EqualValues(t, 404, body["statusCode"])
	})
}

func TestThePanelThemeIsEmittedAsCSSVariables(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		nw := e.client("northwind.localhost").get("/login").Body
		assert.Contains(t, nw, "--color-primary:#1F3A5F;")
		assert.Contains(t, nw, "--color-cta:#E07A1F;")
		assert.Contains(t, nw, "--color-error-graphic:#E07A1F;")
		assert.Contains(t, nw, "--font-family:'Georgia', sans-serif")
		assert.Contains(t, nw, `href="/static/img/northwind-favicon.svg"`)
		assert.Contains(t, nw, `src="/static/img/northwind-logo.svg"`)

		demo := e.client("localhost").get("/login").Body
		assert.Contains(t, demo, "--color-primary:#475369;")
		assert.Contains(t, demo, "--color-link:#909090;", "unset fields fall back to the default theme")
		assert.NotContains(t, demo, "#1F3A5F")
	})
}

func TestTheTitleHasNoEnvironmentSuffixInProduction(t *testing.T) {
	t.Parallel()
	cfg := testConfig("production")
	e := newEnvWith(t, "sqlite", cfg)
	res := e.client("localhost").get("/login")
	assert.Equal(t, "Log in · Canvass Demo", title(res.Body))
	assert.Contains(t, res.Header.Get("Strict-Transport-Security"), "max-age=")
}

func TestDomainInfoListsThePanelAndItsLanguages(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		res := e.client("localhost").get("/ah/api/v1/domain-info?domain=northwind.localhost")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var info struct {
			Panels []struct {
				UUID      string `json:"uuid"`
				Languages []struct {
					LanguageCode string `json:"language_code"`
					IsDefault    bool   `json:"is_default"`
				} `json:"languages"`
			} `json:"panels"`
			LoginPageURL  *string `json:"login_page_url"`
			LogoutPageURL *string `json:"logout_page_url"`
			WebAppLogin   *bool   `json:"web_app_login"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &info))
		require.Len(t, info.Panels, 1)
		assert.Equal(t, "7b0c2a52-6a53-4c2e-9d43-2f0d1c6a0002", info.Panels[0].UUID)
		require.Len(t, info.Panels[0].Languages, 3)
		assert.Equal(t, "en", info.Panels[0].Languages[0].LanguageCode)
		assert.True(t, info.Panels[0].Languages[0].IsDefault)
		assert.Equal(t, "zh", info.Panels[0].Languages[2].LanguageCode)
		assert.NotNil(t, info.LoginPageURL)
		assert.NotNil(t, info.LogoutPageURL)
		assert.NotNil(t, info.WebAppLogin)

		unknown := e.client("localhost").get("/ah/api/v1/domain-info?domain=else.example")
		assert.Equal(t, http.StatusNotFound, unknown.StatusCode)
		assert.Contains(t, unknown.Body, "Unrecognized domain: else.example")
	})
}

func TestInstanceInfoAnswersOnlyForThePanelOfTheHost(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		res := e.client("northwind.localhost").get("/ah/api/v1/instance-info?panelKey=northwind")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var info struct {
			Key    string `json:"key"`
			Panels map[string]struct {
				GUID         string            `json:"guid"`
				CurrencyCode string            `json:"currency_code"`
				AppSettings  map[string]any    `json:"app_settings"`
				AppTheme     map[string]string `json:"app_theme"`
			} `json:"panels"`
		}
		require.NoError(t, json.Unmarshal([]byte(res.Body), &info))
		assert.Equal(t, "northwind", info.Key)
		p := info.Panels["northwind"]
		assert.Equal(t, "GBP", p.CurrencyCode)
		assert.Equal(t, true, p.AppSettings["terms_required"])
		assert.Equal(t, "Northwind Rewards", p.AppSettings["web_app_name"])
		assert.Equal(t, "#E07A1F", p.AppTheme["color_cta"])

		other := e.client("localhost").get("/ah/api/v1/instance-info?panelKey=northwind")
		assert.Equal(t, http.StatusNotFound, other.StatusCode, "one tenant cannot read another's settings")
	})
}

func TestTheInstanceCodeInThePathMustBeThePanels(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		assert.Equal(t, http.StatusOK, e.client("localhost").get("/api/v1/demo/ping").StatusCode)
		assert.Equal(t, http.StatusNotFound, e.client("localhost").get("/api/v1/northwind/ping").StatusCode)
		assert.Equal(t, http.StatusOK, e.client("northwind.localhost").get("/api/v2/northwind/ping").StatusCode)
	})
}

func TestSupportedLanguagesFollowTheDomain(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		res := e.client("localhost").get("/api/v1/translations/languages/supported?domain=northwind.localhost")
		require.Equal(t, http.StatusOK, res.StatusCode)
		var langs []map[string]string
		require.NoError(t, json.Unmarshal([]byte(res.Body), &langs))
		require.Len(t, langs, 3)
		assert.Equal(t, map[string]string{"code": "ru", "name": "Русский", "fallback_code": "en"}, langs[1])
	})
}
