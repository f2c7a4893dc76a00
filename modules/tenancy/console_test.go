package tenancy

import (
	"context"
	"errors"
	"testing"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

func TestAPanelReadsBackAsTheSpecItWasAppliedFrom(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		spec := validSpec("acme", []string{"acme.example.com", "www.acme.example.com"}, "es", "en")
		spec.AppSettings = AppSettings{WebAppName: "Acme", TermsRequired: true, EmbedOrigins: []string{"https://www.acme.example"}}
		spec.AppTheme = AppTheme{"color_cta": "#ff6b35"}
		spec.LoginPageURL = "https://acme.example/login"
		id, err := store.Apply(ctx, spec)
		require.NoError(t, err)

		got, err := store.Spec(ctx, "acme")
		require.NoError(t, err)
		spec.ID = id
		spec.Instance.Key, spec.Instance.Name = "main", "main"
		spec.Hosts = []string{"acme.example.com", "www.acme.example.com"}
		assert.Equal(t, spec, got)

		_, err = store.Spec(ctx, "nobody")
		assert.ErrorIs(t, err, ErrUnknownPanel)
	})
}

func TestSavingSettingsReplacesHostsAndLanguagesInOneTransaction(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		id, err := store.Apply(ctx, validSpec("acme", []string{"a.example.com", "b.example.com"}, "en"))
		require.NoError(t, err)
		_, err = store.Apply(ctx, validSpec("other", []string{"other.example.com"}, "en"))
		require.NoError(t, err)

		before, err := store.SaveSettings(ctx, "acme", Settings{
			Hosts: []string{"B.example.com", "c.example.com"}, Languages: []string{"ru", "en"},
			AppSettings: AppSettings{TermsRequired: true, GoogleTagMngrID: "GTM-ABC123"}, LogoutPageURL: "https://acme.example/bye",
		}, web.IsSupported)
		require.NoError(t, err)
		assert.Equal(t, []string{"a.example.com", "b.example.com"}, before.Hosts)

		got, err := store.Spec(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, []string{"b.example.com", "c.example.com"}, got.Hosts, "a host left out stops answering")
		assert.Equal(t, []string{"ru", "en"}, got.Languages, "the first language is the default")
		assert.True(t, got.AppSettings.TermsRequired)
		assert.Equal(t, "GTM-ABC123", got.AppSettings.GoogleTagMngrID)
		assert.Equal(t, "Panel acme", got.AppSettings.WebAppName, "an empty web app name is the panel's name")
		assert.Equal(t, "https://acme.example/bye", got.LogoutPageURL)
		assert.EqualValues(t, 0, count(t, db, &Domain{}, "host = ?", "a.example.com"))

		cases := []struct {
			name string
			in   Settings
			want func(t *testing.T, err error)
		}{
			{"a bad host", Settings{Hosts: []string{"not a host"}, Languages: []string{"en"}}, func(t *testing.T, err error) {
				assert.ErrorContains(t, err, `hosts[0]: "not a host" is not a host name`)
			}},
			{"a language the app lacks", Settings{Hosts: []string{"b.example.com"}, Languages: []string{"xx"}}, func(t *testing.T, err error) {
				assert.ErrorContains(t, err, `languages[0]: "xx" is not a supported language`)
			}},
			{"another panel's host", Settings{Hosts: []string{"b.example.com", "other.example.com"}, Languages: []string{"en"}}, func(t *testing.T, err error) {
				var taken *HostTakenError
				require.True(t, errors.As(err, &taken), "%v", err)
				assert.Equal(t, "other.example.com", taken.Host)
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := store.SaveSettings(ctx, "acme", tc.in, web.IsSupported)
				tc.want(t, err)
				after, err := store.Spec(ctx, "acme")
				require.NoError(t, err)
				assert.Equal(t, got, after, "nothing is saved")
			})
		}
		assert.NotEmpty(t, id)
	})
}

func TestSavingAThemeChecksItAsApplyDoesAndKeepsTheOldOne(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		s := validSpec("acme", []string{"acme.example.com"}, "en")
		s.AppTheme = AppTheme{"color_cta": "#111111"}
		_, err := store.Apply(ctx, s)
		require.NoError(t, err)

		before, err := store.SaveTheme(ctx, "acme", AppTheme{"color_cta": "#e07a1f", "text_font_color": " "})
		require.NoError(t, err)
		assert.Equal(t, AppTheme{"color_cta": "#111111"}, before)
		got, err := store.Spec(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, AppTheme{"color_cta": "#e07a1f"}, got.AppTheme, "empty values are dropped")

		_, err = store.SaveTheme(ctx, "acme", AppTheme{"color_cta": "red;}body{x:y", "logo_url": "http://x.example/a.png"})
		var te *ThemeError
		require.True(t, errors.As(err, &te))
		assert.Len(t, te.Problems, 2)
		got, err = store.Spec(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, AppTheme{"color_cta": "#e07a1f"}, got.AppTheme, "nothing is saved")
	})
}

func TestCreatingAPanelRefusesATakenKeyInstanceOrHost(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		_, err := store.Apply(ctx, validSpec("acme", []string{"acme.example.com"}, "en"))
		require.NoError(t, err)

		fresh := validSpec("fresh", []string{"fresh.example.com"}, "en")
		fresh.Instance.Code = "fresh"
		id, err := store.Create(ctx, fresh)
		require.NoError(t, err)
		assert.NotEmpty(t, id)

		again := validSpec("fresh", []string{"fresh2.example.com"}, "en")
		again.Instance.Code = "fresh2"
		_, err = store.Create(ctx, again)
		assert.ErrorIs(t, err, ErrPanelExists)

		sameInstance := validSpec("other", []string{"other.example.com"}, "en")
		sameInstance.Instance.Code = "main"
		_, err = store.Create(ctx, sameInstance)
		assert.ErrorIs(t, err, ErrInstanceExists)

		takenHost := validSpec("third", []string{"ACME.example.com"}, "en")
		takenHost.Instance.Code = "third"
		_, err = store.Create(ctx, takenHost)
		var taken *HostTakenError
		require.True(t, errors.As(err, &taken))
		assert.EqualValues(t, 0, count(t, db, &Panel{}, "key IN ?", []string{"other", "third"}))
	})
}

func TestAnUploadedAssetIsAnImageStoredOnceAndPointedAtByTheTheme(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		ctx := context.Background()
		store := NewStore(db)
		id, err := store.Apply(ctx, validSpec("acme", []string{"acme.example.com"}, "en"))
		require.NoError(t, err)

		_, url, err := store.SaveAsset(ctx, "acme", AssetLogo, png)
		require.NoError(t, err)
		assert.Regexp(t, `^/panel-assets/logo-[0-9a-f]{16}\.png$`, url)
		_, again, err := store.SaveAsset(ctx, "acme", AssetLogo, png)
		require.NoError(t, err)
		assert.Equal(t, url, again, "the same file is the same address")
		assert.EqualValues(t, 1, count(t, db, &PanelAsset{}, "panel_id = ?", id))
		got, err := store.Spec(ctx, "acme")
		require.NoError(t, err)
		assert.Equal(t, url, got.AppTheme["logo_url"])
		a, err := store.Asset(ctx, id, url[len(AssetPath):])
		require.NoError(t, err)
		assert.Equal(t, "image/png", a.ContentType)

		for name, data := range map[string][]byte{"a text file": []byte("hello, not an image"), "nothing": nil, "a script": []byte("<script>alert(1)</script>")} {
			_, _, err := store.SaveAsset(ctx, "acme", AssetFavicon, data)
			assert.Error(t, err, name)
		}
		_, _, err = store.SaveAsset(ctx, "acme", AssetFavicon, append(png, make([]byte, MaxAssetBytes)...))
		assert.ErrorIs(t, err, ErrAssetSize)
		assert.EqualValues(t, 1, count(t, db, &PanelAsset{}, "panel_id = ?", id), "nothing refused is stored")
	})
}

func TestSniffImageReadsTheBytesNotTheName(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		data string
		want string
	}{
		"png":          {"\x89PNG\r\n\x1a\nrest", "image/png"},
		"jpeg":         {"\xff\xd8\xff\xe0rest", "image/jpeg"},
		"gif":          {"GIF89a....", "image/gif"},
		"webp":         {"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"},
		"ico":          {"\x00\x00\x01\x00\x01\x00", "image/x-icon"},
		"svg":          {`<svg xmlns="http://www.w3.org/2000/svg"></svg>`, "image/svg+xml"},
		"svg with xml": {`<?xml version="1.0"?><svg></svg>`, "image/svg+xml"},
		"html":         {"<html><body>hi</body></html>", ""},
		"pdf":          {"%PDF-1.4", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { assert.Equal(t, tc.want, SniffImage([]byte(tc.data))) })
	}
}

func TestTheContrastReportListsEveryPairWithItsRatioAndVerdict(t *testing.T) {
	t.Parallel()
	report := AppTheme{"color_cta": "#ffff00", "font_color_cta": "#ffffff", "wb_background_color": "#000000", "wb_regular_text_color": "#ffffff"}.ContrastReport()
	byPair := map[string]ContrastPair{}
	for _, p := range report {
		byPair[p.Text+"/"+p.Background] = p
	}
	cta := byPair["font_color_cta/color_cta"]
	assert.False(t, cta.Pass, "white on yellow fails")
	assert.InDelta(t, 1.07, cta.Ratio, 0.01)
	assert.NotEmpty(t, cta.Used, "pages draw it in a shade that passes")
	wb := byPair["wb_regular_text_color/wb_background_color"]
	assert.True(t, wb.Pass)
	assert.Equal(t, 21.0, wb.Ratio)
	text := byPair["text_font_color/"]
	assert.True(t, text.Pass)
	assert.True(t, text.Default, "the default text on the page")
	_, cbListed := byPair["cb_regular_text_color/cb_background_color"]
	assert.False(t, cbListed, "the content box's pairs only when the panel sets its colours")
}
