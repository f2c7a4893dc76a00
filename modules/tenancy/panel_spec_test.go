package tenancy

import (
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/web"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// validSpec is a tenant that passes validation; tests break one thing at a time.
func validSpec(key string, hosts []string, languages ...string) PanelSpec {
	var s PanelSpec
	s.Instance.Code = "main"
	s.Key = key
	s.Name = "Panel " + key
	s.CurrencyCode = "USD"
	s.Hosts = hosts
	s.Languages = languages
	return s
}

func TestAValidPanelSpecHasNoProblems(t *testing.T) {
	t.Parallel()
	s := validSpec("acme", []string{"acme.example.com", "localhost:3000"}, "en", "es", "ru", "zh")
	s.ID = "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11"
	s.AppTheme = AppTheme{"color_primary": "#112233", "logo_url": "https://cdn.example.com/logo.svg"}
	s.AppSettings.TermsURL = "https://acme.example.com/terms"
	s.AppSettings.TermsText = map[string]string{"en": "Be kind.\n\nAnswer once.", "zh": strings.Repeat("条", MaxTermsText)}
	s.AppSettings.Layout = "compact"
	assert.NoError(t, s.Validate(web.IsSupported))
}

func TestPanelSpecValidateRefusesWhatTheSpecForbids(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(s *PanelSpec)
		want   string
	}{
		{"the reserved instance code onboarding", func(s *PanelSpec) { s.Instance.Code = "onboarding" }, `instance.code: "onboarding" is reserved`},
		{"the reserved instance code translations", func(s *PanelSpec) { s.Instance.Code = "translations" }, `instance.code: "translations" is reserved`},
		{"the reserved instance code public", func(s *PanelSpec) { s.Instance.Code = "public" }, `instance.code: "public" is reserved`},
		{"an instance code in capitals", func(s *PanelSpec) { s.Instance.Code = "Main" }, "instance.code:"},
		{"a key with a slash", func(s *PanelSpec) { s.Key = "acme/evil" }, "key:"},
		{"a one-letter key", func(s *PanelSpec) { s.Key = "a" }, "key:"},
		{"a missing name", func(s *PanelSpec) { s.Name = "  " }, "name: required"},
		{"a lower-case currency", func(s *PanelSpec) { s.CurrencyCode = "usd" }, `currency_code: "usd" is not an ISO 4217 code`},
		{"a two-letter currency", func(s *PanelSpec) { s.CurrencyCode = "US" }, `currency_code: "US"`},
		{"a four-letter currency", func(s *PanelSpec) { s.CurrencyCode = "EURO" }, `currency_code: "EURO"`},
		{"no currency", func(s *PanelSpec) { s.CurrencyCode = "" }, `currency_code: ""`},
		{"a uuid that is not one", func(s *PanelSpec) { s.ID = "panel-1" }, `uuid: "panel-1" is not a UUID`},
		{"no hosts", func(s *PanelSpec) { s.Hosts = nil }, "hosts: at least one host name"},
		{"a host that is not a host name", func(s *PanelSpec) { s.Hosts = []string{"acme.example.com", "evil.example/path"} }, `hosts[1]: "evil.example/path" is not a host name`},
		{"no languages", func(s *PanelSpec) { s.Languages = nil }, "languages: at least one language"},
		{"an unsupported language", func(s *PanelSpec) { s.Languages = []string{"en", "fr"} }, `languages[1]: "fr" is not a supported language`},
		{"a theme problem", func(s *PanelSpec) { s.AppTheme = AppTheme{"logo_url": "http://cdn.example.com/logo.svg"} }, "app_theme: logo_url must be an https:// address"},
		{"a panel to move to that is no key", func(s *PanelSpec) { s.AppSettings.ChangeInstanceTo = []string{"other", "Not A Key"} }, `app_settings.change_instance_to[1]: "Not A Key" is not the key of another panel`},
		{"a terms page that is a script", func(s *PanelSpec) { s.AppSettings.TermsURL = "javascript:alert(1)" }, `app_settings.terms_url: "javascript:alert(1)" is not an http(s) address`},
		{"a terms page without a host", func(s *PanelSpec) { s.AppSettings.TermsURL = "/terms.html" }, `app_settings.terms_url: "/terms.html"`},
		{"a layout nobody registered", func(s *PanelSpec) { s.AppSettings.Layout = "fancy" }, `app_settings.layout: "fancy" is not a layout (standard, compact)`},
		{"terms in a language the panel lacks", func(s *PanelSpec) {
			s.AppSettings.TermsText = map[string]string{"en": "Be kind.", "ru": "Будьте добры."}
		}, `app_settings.terms_text.ru: "ru" is not one of the panel's languages`},
		{"terms longer than a box", func(s *PanelSpec) {
			s.AppSettings.TermsText = map[string]string{"es": strings.Repeat("é", MaxTermsText+1)}
		}, "app_settings.terms_text.es: 50001 characters, more than 50000"},
		{"moving to the panel itself", func(s *PanelSpec) { s.AppSettings.ChangeInstanceTo = []string{"acme"} }, `app_settings.change_instance_to[0]: "acme" is not the key of another panel`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := validSpec("acme", []string{"acme.example.com"}, "en", "es")
			tc.change(&s)
			err := s.Validate(web.IsSupported)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestPanelSpecValidateListsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	s := validSpec("acme", []string{"acme.example.com"}, "fr")
	s.Instance.Code = "public"
	s.CurrencyCode = "usd"
	err := s.Validate(web.IsSupported)
	require.Error(t, err)
	for _, want := range []string{`instance.code: "public" is reserved`, `currency_code: "usd"`, `languages[0]: "fr"`} {
		assert.Contains(t, err.Error(), want)
	}
}
