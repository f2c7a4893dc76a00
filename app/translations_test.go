package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

func missingRows(t *testing.T, e *env, f tenancy.MissingFilter) []tenancy.MissingRow {
	t.Helper()
	rows, err := e.app.Tenancy.MissingTranslations(context.Background(), f)
	require.NoError(t, err)
	return rows
}

func TestAnIslandsReportOfMissingKeysIsCountedPerPanelLanguageAndKey(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		demo, northwind := e.client("localhost"), e.client("northwind.localhost")
		report := `{"survey.brand_new_label":"Brand new label","nav.feed":"Home"}`

		res := demo.postJSON("/api/v1/translations/add/translation/es", report)
		require.Equal(t, http.StatusNoContent, res.StatusCode, res.Body)
		require.Equal(t, http.StatusNoContent, demo.postJSON("/api/v1/translations/add/translation/es", report).StatusCode)
		require.Equal(t, http.StatusNoContent, northwind.postJSON("/api/v1/translations/add/translation/ru", report).StatusCode)

		rows := missingRows(t, e, tenancy.MissingFilter{PanelKey: "demo"})
		require.Len(t, rows, 1, "nav.feed is translated in Spanish: not missing, not stored")
		assert.Equal(t, "es", rows[0].LanguageCode)
		assert.Equal(t, "survey.brand_new_label", rows[0].MessageKey)
		assert.Equal(t, "Brand new label", rows[0].Fallback)
		assert.Equal(t, tenancy.SourceClient, rows[0].Source)
		assert.Equal(t, int64(2), rows[0].SeenCount)

		rows = missingRows(t, e, tenancy.MissingFilter{PanelKey: "northwind"})
		require.Len(t, rows, 1)
		assert.Equal(t, "ru", rows[0].LanguageCode)
		assert.Equal(t, int64(1), rows[0].SeenCount, "each panel has its own count")
	})
}

func TestABadMissingTranslationsReportIsRefusedWithAClearError(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		many := map[string]string{}
		for i := range 51 {
			many[fmt.Sprintf("feed.key_%d", i)] = "x"
		}
		var manyJSON bytes.Buffer
		manyJSON.WriteString("{")
		i := 0
		for k, v := range many {
			if i > 0 {
				manyJSON.WriteString(",")
			}
			fmt.Fprintf(&manyJSON, "%q:%q", k, v)
			i++
		}
		manyJSON.WriteString("}")

		cases := []struct {
			name, path, body string
			status           int
			field            string
		}{
			{"another namespace", "/api/v1/translations/add/common/es", `{"a.b":"c"}`, http.StatusNotFound, ""},
			{"a language the panel does not offer", "/api/v1/translations/add/translation/ru", `{"a.b":"c"}`, http.StatusNotFound, ""},
			{"not JSON", "/api/v1/translations/add/translation/es", `a.b=c`, http.StatusBadRequest, ""},
			{"an array", "/api/v1/translations/add/translation/es", `["a.b"]`, http.StatusBadRequest, ""},
			{"no keys", "/api/v1/translations/add/translation/es", `{}`, http.StatusBadRequest, "body"},
			{"more than 50 keys", "/api/v1/translations/add/translation/es", manyJSON.String(), http.StatusBadRequest, "body"},
			{"a key that is no message id", "/api/v1/translations/add/translation/es", `{"a b":"c"}`, http.StatusBadRequest, "a b"},
			{"a fallback that is not a string", "/api/v1/translations/add/translation/es", `{"a.b":{"one":"c"}}`, http.StatusBadRequest, "a.b"},
			{"a fallback too long", "/api/v1/translations/add/translation/es", `{"a.b":"` + strings.Repeat("é", 1001) + `"}`, http.StatusBadRequest, "a.b"},
			{"a body over 8 KiB", "/api/v1/translations/add/translation/es", `{"a.b":"` + strings.Repeat("x", 9000) + `"}`, http.StatusRequestEntityTooLarge, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := c.postJSON(tc.path, tc.body)
				assert.Equal(t, tc.status, res.StatusCode, res.Body)
				assert.Contains(t, res.Body, `"name":"ClientError"`)
				if tc.field != "" {
					assert.Contains(t, res.Body, fmt.Sprintf(`"field":%q`, tc.field))
				}
			})
		}
		assert.Empty(t, missingRows(t, e, tenancy.MissingFilter{}), "a refused report stores nothing")
	})
}

func TestMissingTranslationReportsAreRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		for i := range 30 {
			res := c.postJSON("/api/v1/translations/add/translation/es", fmt.Sprintf(`{"feed.new_%d":"x"}`, i))
			require.Equal(t, http.StatusNoContent, res.StatusCode, "report %d: %s", i+1, res.Body)
		}
		res := c.postJSON("/api/v1/translations/add/translation/es", `{"feed.one_more":"x"}`)
		assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
		assert.Contains(t, res.Body, `"statusCode":429`)
		assert.Len(t, missingRows(t, e, tenancy.MissingFilter{}), 30)
	})
}

func TestAKeyAPageMissesInTheMembersLanguageIsRecordedWithoutAWritePerPage(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.header.Set("Accept-Language", "es")
		// A flash names a message id; one the catalogue lacks shows as its id, and is missed.
		for range 3 {
			res := c.do(http.MethodGet, "/login", nil, http.Header{"Cookie": {"flash=error|error.no_such_message"}})
			require.Equal(t, http.StatusOK, res.StatusCode)
			require.Contains(t, res.Body, "error.no_such_message")
		}
		assert.Empty(t, missingRows(t, e, tenancy.MissingFilter{}), "pages only count in memory")

		require.NoError(t, e.app.Tenancy.FlushMissingTranslations(context.Background()))
		rows := missingRows(t, e, tenancy.MissingFilter{})
		require.Len(t, rows, 1, "every other message of the page is translated: %v", rows)
		assert.Equal(t, "demo", rows[0].PanelKey)
		assert.Equal(t, "es", rows[0].LanguageCode)
		assert.Equal(t, "error.no_such_message", rows[0].MessageKey)
		assert.Equal(t, tenancy.SourceServer, rows[0].Source)
		assert.Equal(t, int64(3), rows[0].SeenCount)
	})
}

func TestTheTranslationsCommandsListAndExportTheMissingKeys(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		require.Equal(t, http.StatusNoContent, e.client("localhost").postJSON("/api/v1/translations/add/translation/es", `{"feed.brand_new":"Brand new"}`).StatusCode)
		require.Equal(t, http.StatusNoContent, e.client("northwind.localhost").postJSON("/api/v1/translations/add/translation/ru", `{"feed.other":"Other"}`).StatusCode)

		var out bytes.Buffer
		list, err := prepareTranslationsCommand([]string{"missing", "--lang", "es"})
		require.NoError(t, err)
		require.NoError(t, list.run(ctx, e.app, &out))
		assert.Contains(t, out.String(), "feed.brand_new")
		assert.Contains(t, out.String(), "demo")
		assert.NotContains(t, out.String(), "feed.other", "--lang es leaves Russian out")

		out.Reset()
		export, err := prepareTranslationsCommand([]string{"export", "--lang", "es"})
		require.NoError(t, err)
		require.NoError(t, export.run(ctx, e.app, &out))
		var file map[string]any
		require.NoError(t, yaml.Unmarshal(out.Bytes(), &file), out.String())
		assert.Equal(t, map[string]any{"feed.brand_new": "Brand new"}, file)
		assert.Contains(t, out.String(), "# missed 1 times (demo)")

		out.Reset()
		none, err := prepareTranslationsCommand([]string{"missing", "--panel", "northwind", "--lang", "es"})
		require.NoError(t, err)
		require.NoError(t, none.run(ctx, e.app, &out))
		assert.Equal(t, "no missing translations reported\n", out.String())
	})
}

func TestTheTranslationsCommandsRefuseBadArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no action", nil, "canvass translations needs a command: export, missing"},
		{"an unknown action", []string{"import"}, `unknown command "import" for "canvass translations"`},
		{"export without a language", []string{"export"}, `required flag(s) "lang" not set`},
		{"a language Canvass does not ship", []string{"export", "--lang", "fr"}, "--lang fr: not a language Canvass ships (en, es, ru, zh)"},
		{"missing with --out", []string{"missing", "--out", "x.yaml"}, "unknown flag: --out"},
		{"a stray argument", []string{"missing", "extra"}, `canvass translations missing takes no arguments, got "extra"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := prepareTranslationsCommand(tc.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestAnExportGivesEachMissingKeyItsEnglishMessageToTranslate(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"en.yaml": {Data: []byte("feed.title: \"Your feed\"\nfeed.minutes:\n  one: \"{{.Count}} min\"\n  other: \"{{.Count}} mins\"\n")}}
	at := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	row := func(panel, lang, key, fallback string, n int64) tenancy.MissingRow {
		return tenancy.MissingRow{PanelKey: panel, MissingTranslation: tenancy.MissingTranslation{
			LanguageCode: lang, MessageKey: key, Fallback: fallback, SeenCount: n, FirstSeenAt: at, LastSeenAt: at}}
	}
	data, err := exportMissingTranslations(fsys, "ru", []tenancy.MissingRow{
		row("acme", "ru", "feed.title", "", 2),
		row("beta", "ru", "feed.title", "", 3),
		row("acme", "ru", "feed.minutes", "", 1),
		row("acme", "ru", "survey.only_client", "Client text", 1),
		row("acme", "ru", "survey.nothing", "", 1),
		row("acme", "es", "feed.other_language", "", 9),
	})
	require.NoError(t, err)
	var file map[string]any
	require.NoError(t, yaml.Unmarshal(data, &file), string(data))
	assert.Equal(t, map[string]any{
		"feed.title":         "Your feed",
		"feed.minutes":       map[string]any{"one": "{{.Count}} min", "other": "{{.Count}} mins"},
		"survey.only_client": "Client text",
		"survey.nothing":     "survey.nothing",
	}, file)
	text := string(data)
	assert.Contains(t, text, "# missed 5 times (acme, beta)")
	assert.Contains(t, text, "English lacks it too")
	assert.Less(t, strings.Index(text, "feed.minutes"), strings.Index(text, "feed.title"), "keys are sorted")
}
