package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheLangParameterSwitchesRemembersAndIsRemoved(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		res := c.get("/login?lang=es&redirect=%2Ffeed")
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/login?redirect=%2Ffeed", res.Header.Get("Location"))
		assert.Equal(t, "es", c.cookie("lang"))

		page := c.get("/login?redirect=%2Ffeed")
		assert.Contains(t, page.Body, `<html lang="es">`)
		assert.Equal(t, "Iniciar sesión · Canvass Demo - development", title(page.Body))
	})
}

func TestLanguageDetectionFollowsTheSpecsOrder(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		cases := []struct {
			name, host, path, cookie, accept, want string
		}{
			{"the lng query wins over the cookie", "localhost", "/login?lng=es", "en", "en", "es"},
			{"the cookie wins over Accept-Language", "localhost", "/login", "es", "en", "es"},
			{"Accept-Language is used last", "localhost", "/login", "", "es-MX,es;q=0.9", "es"},
			{"a language the panel does not offer falls back to its default", "localhost", "/login?lng=ru", "", "", "en"},
			{"Accept-Language picks the first offered language", "northwind.localhost", "/login", "", "fr, zh-CN;q=0.8, ru;q=0.5", "zh"},
			{"nothing at all is the panel default", "northwind.localhost", "/login", "", "", "en"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				c := e.client(tc.host)
				if tc.accept != "" {
					c.header.Set("Accept-Language", tc.accept)
				}
				h := http.Header{}
				if tc.cookie != "" {
					h.Set("Cookie", "lang="+tc.cookie)
				}
				res := c.do(http.MethodGet, tc.path, nil, h)
				require.Equal(t, http.StatusOK, res.StatusCode)
				assert.Contains(t, res.Body, `<html lang="`+tc.want+`">`)
			})
		}
	})
}

func TestAMembersLanguageOverridesAndFollowsTheirSwitch(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.login(DemoEmail, DemoPassword)
		c.header.Set("Accept-Language", "es")
		assert.Contains(t, c.get("/feed").Body, `<html lang="en">`, "the member's languageCode overrides the browser")

		res := c.get("/feed?lang=es")
		require.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/feed", res.Header.Get("Location"))
		c.header.Del("Accept-Language")
		assert.Contains(t, c.get("/feed").Body, `<html lang="es">`)
		assert.Contains(t, c.get("/api/v3/user/profile").Body, `"languageCode":"es"`, "the switch is saved on the profile")
	})
}

func TestPagesAreTranslatedOnEveryTenant(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		cases := []struct{ host, lang, want string }{
			{"localhost", "es", "Crear tu cuenta"},
			{"northwind.localhost", "ru", "Создайте аккаунт"},
			{"northwind.localhost", "zh", "创建您的账户"},
		}
		for _, tc := range cases {
			res := e.client(tc.host).do(http.MethodGet, "/join?lng="+tc.lang, nil, nil)
			assert.Contains(t, res.Body, tc.want, "%s in %s", tc.host, tc.lang)
		}
	})
}

func TestTheTranslationsAPIServesTheOfferedLanguages(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		res := e.client("northwind.localhost").get("/api/v1/translations/load/translation/ru")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Body, `"join.title":"Создайте аккаунт"`)
		assert.Equal(t, http.StatusNotFound, e.client("localhost").get("/api/v1/translations/load/translation/ru").StatusCode, "Canvass Demo offers no Russian")
		add := e.client("localhost").postJSON("/api/v1/translations/add/translation/es", `{"feed.some_key":"Some text"}`)
		assert.Equal(t, http.StatusNoContent, add.StatusCode)
	})
}

func TestTheTranslationsAPIGivesEveryPlaceholderInTheIslandsSyntaxInEveryLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, migrations.SQLite)
	for _, p := range []struct{ host, langs string }{{"localhost", "en es"}, {"northwind.localhost", "en ru zh"}} {
		for _, lang := range strings.Fields(p.langs) {
			t.Run(p.host+"/"+lang, func(t *testing.T) {
				var messages map[string]string
				res := e.client(p.host).get("/api/v1/translations/load/translation/" + lang)
				require.Equal(t, http.StatusOK, res.StatusCode)
				require.NoError(t, json.Unmarshal([]byte(res.Body), &messages))
				for id, text := range messages {
					assert.NotContains(t, text, "<no value>", id)
					assert.NotContains(t, text, "{{", id)
				}
				if lang == "en" {
					assert.Equal(t, "{Month} {Day}, {Year}", messages["common.date"])
				}
			})
		}
	}
}
