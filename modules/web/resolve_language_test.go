package web_test

import (
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
)

func panelOffering(def string, codes ...string) *web.Panel {
	p := &web.Panel{DefaultLanguage: def}
	for _, c := range codes {
		p.Languages = append(p.Languages, web.Language{Code: c, Name: web.LanguageName(c), IsDefault: c == def})
	}
	return p
}

func TestResolveLanguageFollowsTheSpecsLanguageRules(t *testing.T) {
	t.Parallel()
	spanishFirst := panelOffering("es", "es", "en", "ru")
	cases := []struct {
		name             string
		panel            *web.Panel
		detected, member string
		want             string
	}{
		{"the member's languageCode overrides the detected language", spanishFirst, "en", "ru", "ru"},
		{"a detected language the panel offers is used", spanishFirst, "en", "", "en"},
		{"a language the panel does not offer falls back to its default", spanishFirst, "zh", "", "es"},
		{"an unknown language falls back to the panel default", spanishFirst, "fr", "", "es"},
		{"nothing detected is the panel default", spanishFirst, "", "", "es"},
		{"a member language the panel does not offer falls back to the default", spanishFirst, "", "zh", "es"},
		{"a member language the panel does not offer gives way to an offered detected one", spanishFirst, "ru", "zh", "ru"},
		{"without a default English is next", panelOffering("", "ru", "en"), "fr", "", "en"},
		{"a default the panel does not offer is skipped for English", panelOffering("de", "ru", "en"), "fr", "", "en"},
		{"without a default or English the first offered language is used", panelOffering("", "zh", "ru"), "fr", "", "zh"},
		{"a nil panel keeps a supported member language", nil, "ru", "es", "es"},
		{"a nil panel keeps a supported detected language", nil, "ru", "", "ru"},
		{"a nil panel refuses a language Canvass has no messages for", nil, "fr", "", "en"},
		{"a nil panel with nothing detected is English", nil, "", "", "en"},
		{"a panel offering no languages behaves like no panel", panelOffering(""), "zh", "", "zh"},
		{"a panel offering no languages and nothing detected is English", panelOffering(""), "", "", "en"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, web.ResolveLanguage(tc.panel, tc.detected, tc.member))
		})
	}
}
