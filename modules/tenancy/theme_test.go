package tenancy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestThemeCSSIsTheDefaultThemeWithThePanelsValidColoursOverIt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		theme  AppTheme
		has    []string
		hasNot []string
	}{
		{
			name:  "no theme gives the spec's default theme",
			theme: nil,
			has: []string{
				"--color-primary:#475369;", "--color-secondary:#475370;", "--color-cta:#000000;", "--color-cta-text:#ffffff;",
				"--color-header-text:#ffffff;", "--color-link:#909090;", "--color-text:#444444;", "--color-highlight:#4169e1;",
				"--color-background:#ffffff;", "--color-accent:#1DC9BC;", "--color-error:#F22C44;", "--color-success:#2DCC70;",
				"--color-info:#4169E1;", "--font-size:14px;", "--hover-tint:15%;", "--color-error-graphic:#1AC0B4;",
			},
			hasNot: []string{"--wb-", "--cb-"},
		},
		{
			name:   "a panel colour overrides the default",
			theme:  AppTheme{"color_primary": "#112233", "link_font_color": "rgb(10, 20, 30)", "text_font_color": "darkslategray"},
			has:    []string{"--color-primary:#112233;", "--color-link:rgb(10, 20, 30);", "--color-text:darkslategray;", "--color-secondary:#475370;"},
			hasNot: []string{"#475369", "#909090", "#444444"},
		},
		{
			name:   "the call-to-action colour also colours the error graphic",
			theme:  AppTheme{"color_cta": "#ff6600"},
			has:    []string{"--color-cta:#ff6600;", "--color-error-graphic:#ff6600;"},
			hasNot: []string{"#1AC0B4"},
		},
		{
			name:   "widget and card colours appear only when the panel sets them",
			theme:  AppTheme{"wb_button_color": "#00aa00", "cb_background_color": "white"},
			has:    []string{"--wb-button:#00aa00;", "--cb-background:white;"},
			hasNot: []string{"--wb-background", "--cb-button"},
		},
		{
			name:  "empty and blank values are dropped for the default",
			theme: AppTheme{"color_primary": "", "color_cta": "   "},
			has:   []string{"--color-primary:#475369;", "--color-cta:#000000;", "--color-error-graphic:#1AC0B4;"},
		},
		{
			name:   "an injection attempt is not emitted",
			theme:  AppTheme{"color_primary": "red;}body{display:none", "color_cta": "#000;}</style><script>alert(1)</script>"},
			has:    []string{"--color-primary:#475369;", "--color-cta:#000000;"},
			hasNot: []string{"display:none", "body{", "</style>", "<script>", "alert"},
		},
		{
			name:   "a url() value is not a colour and is not emitted",
			theme:  AppTheme{"color_secondary": "url(https://evil.example/track.png)"},
			has:    []string{"--color-secondary:#475370;"},
			hasNot: []string{"url(", "evil.example"},
		},
		{
			name:   "an unknown field is not emitted",
			theme:  AppTheme{"color_evil": "#123456"},
			hasNot: []string{"#123456", "evil"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			css := tc.theme.CSS()
			assert.True(t, strings.HasPrefix(css, ":root{") && strings.HasSuffix(css, "}"), css)
			assert.Equal(t, 1, strings.Count(css, "{"), "one rule only: %s", css)
			assert.Equal(t, 1, strings.Count(css, "}"), "one rule only: %s", css)
			for _, s := range tc.has {
				assert.Contains(t, css, s)
			}
			for _, s := range tc.hasNot {
				assert.NotContains(t, css, s)
			}
		})
	}
}

func TestFontFamilyQuotesAPlainNameAndRefusesAnythingElse(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, family, want string }{
		{"no font is the default", "", ""},
		{"a blank font is the default", "   ", ""},
		{"a plain name is quoted with a fallback", "Roboto", "'Roboto', sans-serif"},
		{"a name with spaces is trimmed and quoted", "  Open Sans  ", "'Open Sans', sans-serif"},
		{"a list is kept as written", "'Roboto Slab', serif", "'Roboto Slab', serif, sans-serif"},
		{"a name trying to close the rule is refused", "Roboto;}body{display:none", ""},
		{"a name trying to close the style element is refused", "Roboto</style>", ""},
		{"a name longer than 100 characters is refused", strings.Repeat("a", 101), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, AppTheme{"panel_font_family": tc.family}.FontFamily())
		})
	}
}

func TestProblemsListsWhatIsWrongWithATheme(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		theme AppTheme
		want  []string
	}{
		{"no theme has no problems", nil, nil},
		{"a correct theme has no problems", AppTheme{
			"color_primary": "#475369", "color_cta": "black", "link_font_color": "rgba(0,0,0,0.5)",
			"logo_url": "https://cdn.example.com/logo.svg", "logo_favicon_url": "/static/img/favicon.svg",
			"panel_font_url": "https://fonts.example.com/css?family=Roboto", "panel_font_family": "Roboto",
			"survey_theme_guid": "0b5e7c4e-6f2a-4a7e-9d61-6c1f0a7d2b11",
		}, nil},
		{"empty values are not problems", AppTheme{"color_primary": "", "logo_url": " "}, nil},
		{"an unknown field", AppTheme{"colour_primary": "#fff"}, []string{"unknown theme field colour_primary"}},
		{"a bad colour", AppTheme{"color_cta": "red;}body{display:none"}, []string{"color_cta is not a CSS colour"}},
		{"an http:// logo url", AppTheme{"logo_url": "http://cdn.example.com/logo.svg"}, []string{"logo_url must be an https:// address or a path on this site"}},
		{"a javascript: logo url", AppTheme{"logo_favicon_url": "javascript:alert(1)"}, []string{"logo_favicon_url must be an https:// address or a path on this site"}},
		{"a font name with characters a font cannot have", AppTheme{"panel_font_family": "Roboto;}"}, []string{"panel_font_family has characters a font name cannot have"}},
		{"every problem at once, in field order", AppTheme{"text_font_color": "nope!", "color_primary": "#12", "bogus": "x"}, []string{
			"unknown theme field bogus", "color_primary is not a CSS colour", "text_font_color is not a CSS colour",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.theme.Problems())
		})
	}
}

func TestAProtocolRelativeURLIsNotAPathOnThisSite(t *testing.T) {
	t.Parallel()
	for _, field := range []string{"logo_url", "logo_favicon_url", "panel_font_url"} {
		got := AppTheme{field: "//evil.example/logo.svg"}.Problems()
		assert.Equal(t, []string{field + " must be an https:// address or a path on this site"}, got)
	}
}
