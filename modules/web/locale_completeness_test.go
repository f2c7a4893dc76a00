package web_test

import (
	"io/fs"
	"sort"
	"testing"

	"github.com/canvass/canvass/locales"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// translations are the supported languages other than English.
func translations() []string {
	var out []string
	for _, l := range web.Supported {
		if l.Code != "en" {
			out = append(out, l.Code)
		}
	}
	return out
}

func TestThereIsOneMessageFilePerSupportedLanguage(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(locales.FS, "*.yaml")
	require.NoError(t, err)
	var want []string
	for _, l := range web.Supported {
		want = append(want, l.Code+".yaml")
	}
	assert.ElementsMatch(t, want, files)
}

func TestEveryLanguageHasExactlyTheMessageIDsOfEnglish(t *testing.T) {
	t.Parallel()
	en, err := web.MessageIDs(locales.FS, "en")
	require.NoError(t, err)
	require.NotEmpty(t, en)
	for _, lang := range translations() {
		t.Run(lang, func(t *testing.T) {
			ids, err := web.MessageIDs(locales.FS, lang)
			require.NoError(t, err)
			assert.Empty(t, without(en, ids), "ids of en.yaml missing from %s.yaml", lang)
			assert.Empty(t, without(ids, en), "ids of %s.yaml that en.yaml does not have", lang)
		})
	}
}

func TestEveryTranslationKeepsTheTemplatePlaceholdersOfEnglish(t *testing.T) {
	t.Parallel()
	en := messages(t, "en")
	for _, lang := range translations() {
		t.Run(lang, func(t *testing.T) {
			msgs := messages(t, lang)
			checked := 0
			for id, enValue := range en {
				value, ok := msgs[id]
				if !ok {
					continue // reported by the id completeness test
				}
				checked++
				assert.Equal(t, web.Placeholders(enValue), web.Placeholders(value), "%s.yaml %s: %q", lang, id, value)
			}
			assert.NotZero(t, checked)
		})
	}
}

func TestPlaceholdersAreFoundWhateverTheirSpacing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		value any
		want  []string
	}{
		{"none", "Continue", []string{}},
		{"one", "Unrecognized domain: {{.Host}}", []string{"Host"}},
		{"spaced and trimmed", "Hola {{- .Name -}} y {{ .App }}", []string{"App", "Name"}},
		{"repeated once", "{{.App}} and {{.App}}", []string{"App"}},
		{"plural forms together", map[string]any{"one": "{{.Count}} point", "other": "{{.Count}} points of {{.App}}"}, []string{"App", "Count"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, web.Placeholders(tc.value))
		})
	}
}

// messages reads a language file as id -> value (a string, or a map of plural forms).
func messages(t *testing.T, lang string) map[string]any {
	t.Helper()
	data, err := fs.ReadFile(locales.FS, lang+".yaml")
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, yaml.Unmarshal(data, &m))
	return m
}

// without lists the elements of a that b lacks, sorted.
func without(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
