package web_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testMessages is a small bundle: es lacks one English message, and one id exists nowhere.
var testMessages = fstest.MapFS{
	"en.yaml": {Data: []byte(`
greeting: "Hello {{.Name}}"
only.english: "Only in English"
points:
  one: "{{.Count}} point"
  other: "{{.Count}} points"
stars:
  one: "{{.PluralCount}} star"
  other: "{{.PluralCount}} stars"
`)},
	"es.yaml": {Data: []byte(`
greeting: "Hola {{.Name}}"
points:
  one: "{{.Count}} punto"
  other: "{{.Count}} puntos"
stars:
  one: "{{.PluralCount}} estrella"
  other: "{{.PluralCount}} estrellas"
`)},
}

func TestTranslateFallsBackToEnglishThenToTheID(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(testMessages, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	require.NoError(t, err)
	cases := []struct {
		name, lang, id string
		data           map[string]any
		count          any
		want           string
	}{
		{"a message of the language is used with its template data", "es", "greeting", map[string]any{"Name": "Ana"}, nil, "Hola Ana"},
		{"English uses its own message", "en", "greeting", map[string]any{"Name": "Ann"}, nil, "Hello Ann"},
		{"a message the language lacks falls back to English", "es", "only.english", nil, nil, "Only in English"},
		{"a language without a file falls back to English", "fr", "greeting", map[string]any{"Name": "Anne"}, nil, "Hello Anne"},
		{"an id no language has falls back to the id itself", "es", "no.such.id", nil, nil, "no.such.id"},
		{"an id English lacks too falls back to the id itself", "en", "no.such.id", nil, nil, "no.such.id"},
		{"a count picks the singular form", "es", "points", map[string]any{"Count": 1}, 1, "1 punto"},
		{"a count picks the plural form", "es", "points", map[string]any{"Count": 5}, 5, "5 puntos"},
		{"a count picks the CLDR form of English", "en", "points", map[string]any{"Count": 1}, 1, "1 point"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, loc.Translate(tc.lang, tc.id, tc.data, tc.count))
		})
	}
}

func TestACountWithoutTemplateDataFillsPluralCount(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(testMessages, nil)
	require.NoError(t, err)
	assert.Equal(t, "1 estrella", loc.Translate("es", "stars", nil, 1))
	assert.Equal(t, "5 estrellas", loc.Translate("es", "stars", nil, 5))
}

func TestAMissingTranslationIsLoggedOncePerLanguageAndID(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	loc, err := web.NewLocales(testMessages, slog.New(slog.NewTextHandler(&logged, nil)))
	require.NoError(t, err)
	for range 3 {
		loc.Translate("es", "only.english", nil, nil)
	}
	loc.Translate("es", "greeting", map[string]any{"Name": "Ana"}, nil)
	assert.Equal(t, 1, strings.Count(logged.String(), "missing translation"), logged.String())
}

func TestTrBindsTheTranslatorToOneLanguage(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(testMessages, nil)
	require.NoError(t, err)
	assert.Equal(t, "Hola Ana", loc.Tr("es")("greeting", map[string]any{"Name": "Ana"}, nil))
}

func TestTheRealMessageFilesTranslateTheUnrecognizedDomainError(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(locales.FS, nil)
	require.NoError(t, err)
	assert.Equal(t, "Unrecognized domain: evil.example", loc.Translate("en", "error.unrecognized_domain", map[string]any{"Host": "evil.example"}, nil))
	for _, lang := range []string{"es", "ru", "zh"} {
		got := loc.Translate(lang, "error.unrecognized_domain", map[string]any{"Host": "evil.example"}, nil)
		assert.Contains(t, got, "evil.example", lang)
		assert.NotContains(t, got, "{{", lang)
	}
}

func TestHasTellsWhetherALanguageDefinesAMessage(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(testMessages, nil)
	require.NoError(t, err)
	cases := []struct {
		name, lang, id string
		want           bool
	}{
		{"Spanish defines a plural message", "es", "points", true},
		{"English defines a plural message", "en", "points", true},
		{"Spanish lacks a message English has", "es", "only.english", false},
		{"no language has an unknown id", "en", "no.such.id", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, loc.Has(tc.lang, tc.id))
		})
	}
}

func TestHasSeesAPlainMessageALanguageDefines(t *testing.T) {
	t.Parallel()
	loc, err := web.NewLocales(testMessages, nil)
	require.NoError(t, err)
	assert.True(t, loc.Has("en", "greeting"))
	assert.True(t, loc.Has("es", "greeting"))

	real, err := web.NewLocales(locales.FS, nil)
	require.NoError(t, err)
	for _, lang := range []string{"en", "es", "ru", "zh"} {
		assert.True(t, real.Has(lang, "common.continue"), lang)
	}
}
