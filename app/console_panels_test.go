package main

import (
	"bytes"
	"encoding/json"
	"html"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/offers"
	"github.com/canvass/canvass/modules/signinconfig"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleUpload sends a multipart form with one file and the CSRF token of the page at from.
func (c *client) consoleUpload(from, target string, fields map[string]string, filename, contentType string, data []byte) *response {
	c.e.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	require.NoError(c.e.t, w.WriteField("_csrf", consoleToken(c.e.t, c.get(from).Body)))
	for k, v := range fields {
		require.NoError(c.e.t, w.WriteField(k, v))
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+filename+`"`)
	h.Set("Content-Type", contentType)
	part, err := w.CreatePart(h)
	require.NoError(c.e.t, err)
	_, err = part.Write(data)
	require.NoError(c.e.t, err)
	require.NoError(c.e.t, w.Close())
	return c.do(http.MethodPost, target, &b, http.Header{"Content-Type": {w.FormDataContentType()}})
}

// ownerConsole is a console client signed in as the demo owner (of demo and northwind).
func ownerConsole(t *testing.T, e *env) *client {
	t.Helper()
	c := e.client(consoleHost)
	require.Equal(t, http.StatusSeeOther, c.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
	return c
}

// demoSettingsForm is the demo panel's settings form as the page fills it.
func demoSettingsForm() url.Values {
	return url.Values{
		"hosts": {"localhost\n127.0.0.1"}, "languages": {"en", "es"}, "default_language": {"en"},
		"web_app_name": {"Canvass Demo"}, "widget_after": {"frame"}, "embed_origins": {demoPartnerOrigin},
	}
}

func TestAnOwnerEditsAPanelsSettingsAndABadDomainOrLanguageIsRefusedWithNothingSaved(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := ownerConsole(t, e)
		page := c.get("/console/panels/demo/settings")
		require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
		assert.Contains(t, page.Body, ">localhost\n127.0.0.1</textarea>", "in the tenant file's order: the first is where mailed links point")
		before, err := e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)

		refusals := []struct {
			name    string
			change  func(f url.Values)
			message string
		}{
			{"a domain that is no host name", func(f url.Values) { f.Set("hosts", "localhost\nnot a host!") }, `&#34;not a host!&#34; is not a host name.`},
			{"another panel's domain", func(f url.Values) { f.Set("hosts", "localhost\nnorthwind.localhost") }, "northwind.localhost already belongs to another panel."},
			{"the console's own host", func(f url.Values) { f.Set("hosts", "localhost\nconsole.localhost") }, "console.localhost is the console&#39;s own address"},
			{"a language the app lacks", func(f url.Values) { f["languages"] = []string{"en", "xx"} }, "Choose at least one language the app supports."},
			{"no language", func(f url.Values) { delete(f, "languages") }, "Choose at least one language the app supports."},
			{"a default that is not one of them", func(f url.Values) { f.Set("default_language", "ru") }, "The default language must be one of the panel&#39;s languages."},
		}
		for _, tc := range refusals {
			t.Run(tc.name, func(t *testing.T) {
				form := demoSettingsForm()
				form.Set("terms_required", "on")
				tc.change(form)
				res := c.consolePost("/console/panels/demo/settings", "/console/panels/demo/settings", form)
				assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
				assert.Contains(t, res.Body, tc.message)
				assert.Contains(t, res.Body, "Nothing was saved")
				after, err := e.app.Tenancy.Spec(t.Context(), "demo")
				require.NoError(t, err)
				assert.Equal(t, before, after, "nothing is saved")
			})
		}

		form := demoSettingsForm()
		form.Set("hosts", "localhost\n127.0.0.1\nsurveys.demo.localhost")
		form["languages"] = []string{"en", "es", "ru"}
		form.Set("default_language", "es")
		form.Set("terms_required", "on")
		form.Set("email_validation_reminder", "on")
		form.Set("google_tag_mngr_id", "GTM-DEMO42")
		form.Set("login_page_url", "https://www.demo.example/login")
		res := c.consolePost("/console/panels/demo/settings", "/console/panels/demo/settings", form)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/console/panels/demo/settings?done=saved", res.Header.Get("Location"))
		after, err := e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)
		assert.Equal(t, []string{"localhost", "127.0.0.1", "surveys.demo.localhost"}, after.Hosts, "in the order given")
		assert.Equal(t, []string{"es", "en", "ru"}, after.Languages)
		assert.True(t, after.AppSettings.TermsRequired)
		assert.True(t, after.AppSettings.EmailValidationReminder)
		assert.Equal(t, "GTM-DEMO42", after.AppSettings.GoogleTagMngrID)
		assert.Equal(t, "https://www.demo.example/login", after.LoginPageURL)
		assert.Equal(t, before.AppTheme, after.AppTheme, "the theme is not the settings page's")

		// The panel answers on its new domain at once, in its new default language.
		info := e.client("surveys.demo.localhost").get("/ah/api/v1/domain-info")
		require.Equal(t, http.StatusOK, info.StatusCode, info.Body)
		assert.Contains(t, info.Body, `"language_code":"es","is_default":true`)

		entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{before.ID}})
		require.NoError(t, err)
		require.NotEmpty(t, entries)
		assert.Equal(t, "panel.settings", entries[0].Action)
		assert.Contains(t, entries[0].BeforeJSON, `"hosts":["localhost","127.0.0.1"]`)
		assert.Contains(t, entries[0].AfterJSON, "surveys.demo.localhost")
	})
}

func TestAnOwnerChoosesAPanelsLayoutAndItsMembersGetItAtOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		member := e.client("localhost")
		member.login(DemoEmail, DemoPassword)
		feed := member.get("/feed")
		require.Equal(t, http.StatusOK, feed.StatusCode)
		assert.Contains(t, feed.Body, `<div class="shell">`, "the demo panel has the standard layout")
		assert.NotContains(t, feed.Body, "/static/css/layouts/", "and no layout's stylesheet")

		c := ownerConsole(t, e)
		page := c.get("/console/panels/demo/settings")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Regexp(t, `<option value="standard" selected>Standard: [^<]+</option>\s*<option value="compact">Compact: `, page.Body)

		form := demoSettingsForm()
		form.Set("layout", "fancy")
		res := c.consolePost("/console/panels/demo/settings", "/console/panels/demo/settings", form)
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		assert.Contains(t, res.Body, "Choose one of the layouts.")
		spec, err := e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)
		assert.Empty(t, spec.AppSettings.Layout, "nothing is saved")

		form.Set("layout", "compact")
		res = c.consolePost("/console/panels/demo/settings", "/console/panels/demo/settings", form)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		spec, err = e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)
		assert.Equal(t, "compact", spec.AppSettings.Layout)

		feed = member.get("/feed")
		require.Equal(t, http.StatusOK, feed.StatusCode)
		assert.Contains(t, feed.Body, `<nav class="nav cx-nav"`, "the members' next page has the new layout")
		assert.Contains(t, feed.Body, `class="feed-card cx-card"`)
		css := regexp.MustCompile(`href="(/static/css/layouts/compact\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(feed.Body)
		require.NotNil(t, css, "with the layout's stylesheet, versioned")
		sheet := member.get(css[1])
		assert.Equal(t, http.StatusOK, sheet.StatusCode)
		assert.Contains(t, sheet.Body, ".cx-card")
	})
}

var themeCSSRE = regexp.MustCompile(`--color-cta:([^;]+);`)

// memberCTA is the CTA colour the demo member's feed is themed with.
func memberCTA(t *testing.T, e *env) string {
	t.Helper()
	m := e.client("localhost")
	m.login(DemoEmail, DemoPassword)
	feed := m.get("/feed")
	require.Equal(t, http.StatusOK, feed.StatusCode)
	match := themeCSSRE.FindStringSubmatch(feed.Body)
	require.NotNil(t, match, "the feed carries its theme")
	return match[1]
}

func themeForm(spec tenancy.PanelSpec, op string, changes map[string]string) url.Values {
	f := url.Values{"op": {op}}
	for k, v := range spec.AppTheme {
		f.Set(k, v)
	}
	for k, v := range changes {
		f.Set(k, v)
	}
	return f
}

func TestAnOwnerPreviewsThenSavesAThemeAndTheMemberFeedServesItAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := ownerConsole(t, e)
	spec, err := e.app.Tenancy.Spec(t.Context(), "demo")
	require.NoError(t, err)
	assert.Equal(t, "#1AC0B4", memberCTA(t, e))

	page := c.get("/console/panels/demo/theme")
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	assert.Contains(t, page.Body, `id="contrast-report"`)

	// Preview: white text on a yellow button, drawn and measured, and nothing saved.
	preview := c.consolePost("/console/panels/demo/theme", "/console/panels/demo/theme", themeForm(spec, "preview", map[string]string{"color_cta": "#ffff00"}))
	require.Equal(t, http.StatusOK, preview.StatusCode, preview.Body)
	assert.Contains(t, preview.Body, `id="theme-preview"`)
	assert.Contains(t, preview.Body, ".theme-preview{--color-primary:#475369;")
	assert.Contains(t, preview.Body, "--color-cta:#ffff00;")
	assert.Contains(t, preview.Body, "Button text colour on Button colour")
	assert.Regexp(t, `<tr data-pass="false"><th scope="row">Button text colour on Button colour</th><td class="console-wrap"><code>#ffffff</code> / <code>#ffff00</code></td><td>1\.07:1</td>`, preview.Body)
	assert.Contains(t, preview.Body, "Fails (needs 4.5:1)")
	assert.Contains(t, preview.Body, `value="#ffff00"`, "the edited value is kept in the form")
	assert.Equal(t, "#1AC0B4", memberCTA(t, e), "a preview saves nothing")

	// A colour that is none is refused beside its field.
	bad := c.consolePost("/console/panels/demo/theme", "/console/panels/demo/theme", themeForm(spec, "save", map[string]string{"color_cta": "#ff0000;}body{display:none"}))
	assert.Equal(t, http.StatusUnprocessableEntity, bad.StatusCode)
	assert.Contains(t, bad.Body, "is not a CSS colour")
	assert.Equal(t, "#1AC0B4", memberCTA(t, e))

	saved := c.consolePost("/console/panels/demo/theme", "/console/panels/demo/theme", themeForm(spec, "save", map[string]string{"color_cta": "#7b2cbf"}))
	require.Equal(t, http.StatusSeeOther, saved.StatusCode, saved.Body)
	assert.Equal(t, "#7b2cbf", memberCTA(t, e), "the member feed on the panel's domain serves the new colour at once")

	entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{spec.ID}})
	require.NoError(t, err)
	assert.Equal(t, "panel.theme", entries[0].Action)
	assert.Contains(t, entries[0].BeforeJSON, `"color_cta":"#1AC0B4"`)
	assert.Contains(t, entries[0].AfterJSON, `"color_cta":"#7b2cbf"`)
}

func TestAnUploadedLogoIsCheckedStoredAndServedOnThePanelsDomain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := ownerConsole(t, e)
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123456"/></svg>`)

	refused := []struct {
		name, filename, contentType string
		data                        []byte
		message                     string
	}{
		{"a text file", "logo.png", "image/png", []byte("this is not an image at all"), "is not a PNG, JPEG, GIF, WebP, SVG or ICO image"},
		{"an HTML page named as an image", "logo.svg", "image/svg+xml", []byte("<html><script>alert(1)</script></html>"), "is not a PNG, JPEG, GIF, WebP, SVG or ICO image"},
		{"a file too large", "logo.png", "image/png", append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, tenancy.MaxAssetBytes)...), "larger than 512 KB"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			res := c.consoleUpload("/console/panels/demo/theme", "/console/panels/demo/theme/upload", map[string]string{"kind": "logo"}, tc.filename, tc.contentType, tc.data)
			assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
			assert.Contains(t, res.Body, tc.message)
			spec, err := e.app.Tenancy.Spec(t.Context(), "demo")
			require.NoError(t, err)
			assert.Equal(t, "/static/img/canvass-logo.svg", spec.AppTheme["logo_url"])
		})
	}

	res := c.consoleUpload("/console/panels/demo/theme", "/console/panels/demo/theme/upload", map[string]string{"kind": "favicon"}, "icon.svg", "image/svg+xml", svg)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	spec, err := e.app.Tenancy.Spec(t.Context(), "demo")
	require.NoError(t, err)
	fav := spec.AppTheme["logo_favicon_url"]
	require.Regexp(t, `^/panel-assets/favicon-[0-9a-f]{16}\.svg$`, fav)

	served := e.client("localhost").get(fav)
	require.Equal(t, http.StatusOK, served.StatusCode)
	assert.Equal(t, "image/svg+xml", served.Header.Get("Content-Type"))
	assert.Contains(t, served.Header.Get("Content-Disposition"), "attachment", "an SVG opened alone is a download, never a document that runs script")
	assert.Equal(t, "nosniff", served.Header.Get("X-Content-Type-Options"))
	assert.Empty(t, served.Header.Values("Set-Cookie"), "a public, immutable file sets no cookie (a shared cache would keep it)")
	assert.Equal(t, string(svg), served.Body)
	assert.Equal(t, http.StatusNotFound, e.client("northwind.localhost").get(fav).StatusCode, "only on its own panel's domains")
	assert.Contains(t, e.client("localhost").get("/login").Body, `<link rel="icon" href="`+fav+`"`)

	shown := c.get("/console/panels/demo/assets/" + strings.TrimPrefix(fav, tenancy.AssetPath))
	assert.Equal(t, http.StatusOK, shown.StatusCode)
	assert.Equal(t, http.StatusNotFound, c.get("/console/panels/northwind/assets/"+strings.TrimPrefix(fav, tenancy.AssetPath)).StatusCode)
}

// demoSecrets gives the demo panel credentials with known secrets.
func demoSecrets(t *testing.T, e *env) string {
	t.Helper()
	spec, err := e.app.Tenancy.Spec(t.Context(), "demo")
	require.NoError(t, err)
	require.NoError(t, e.app.SignIn.ApplySignIn(t.Context(), spec.ID, signinconfig.SignInSpec{
		"google": {ClientID: "demo-google.apps.example", ClientSecret: "google-secret-value-WXYZ"},
	}, &signinconfig.CaptchaSpec{Kind: "turnstile", SiteKey: "0x4AAA-site", Secret: "captcha-secret-CAPT", Mode: "off"}))
	require.NoError(t, e.app.Offers.Apply(t.Context(), spec.ID, &offers.Spec{BaseURL: "https://api.offers.example/v1", AppID: "demo-app", PostbackSecret: "postback-secret-POST"}))
	return spec.ID
}

func TestProviderCredentialsAreShownMaskedReplaceableAndNeverAudited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	panelID := demoSecrets(t, e)
	c := ownerConsole(t, e)

	page := c.get("/console/panels/demo/providers")
	require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
	for _, secret := range []string{"google-secret-value-WXYZ", "captcha-secret-CAPT", "postback-secret-POST"} {
		assert.NotContains(t, page.Body, secret, "a secret is never sent back")
	}
	assert.Contains(t, page.Body, "Set: ••••WXYZ.")
	assert.Contains(t, page.Body, "Set: ••••CAPT.")
	assert.Contains(t, page.Body, `value="demo-google.apps.example"`, "a client id is no secret")

	// A bad value is refused and nothing changes.
	form := url.Values{"google_client_id": {"demo-google.apps.example"}, "google_issuer": {"http://evil.example"}, "captcha_kind": {"turnstile"}, "captcha_site_key": {"0x4AAA-site"}, "captcha_mode": {"off"},
		"offers_base_url": {"https://api.offers.example/v1"}, "offers_app_id": {"demo-app"}}
	bad := c.consolePost("/console/panels/demo/providers", "/console/panels/demo/providers", form)
	assert.Equal(t, http.StatusUnprocessableEntity, bad.StatusCode)
	assert.Contains(t, bad.Body, "must be an https address")
	assert.NotContains(t, bad.Body, "google-secret-value-WXYZ")

	// Replace the Google secret; the others are kept as they were.
	form.Set("google_issuer", "")
	form.Set("google_client_secret", "a-brand-new-google-secret-1234")
	res := c.consolePost("/console/panels/demo/providers", "/console/panels/demo/providers", form)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	signIn, captcha, err := e.app.SignIn.SignInSpecOf(t.Context(), panelID)
	require.NoError(t, err)
	assert.Equal(t, "a-brand-new-google-secret-1234", signIn["google"].ClientSecret)
	assert.Equal(t, "captcha-secret-CAPT", captcha.Secret)
	o, err := e.app.Offers.SpecOf(t.Context(), panelID)
	require.NoError(t, err)
	assert.Equal(t, "postback-secret-POST", o.PostbackSecret)

	entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{panelID}})
	require.NoError(t, err)
	assert.Equal(t, "panel.providers", entries[0].Action)
	assert.Contains(t, entries[0].AfterJSON, `"google.client_secret"`)
	for _, entry := range entries {
		assert.NotContains(t, entry.BeforeJSON+entry.AfterJSON, "a-brand-new-google-secret-1234")
		assert.NotContains(t, entry.BeforeJSON+entry.AfterJSON, "google-secret-value-WXYZ")
	}
	assert.Contains(t, c.get("/console/panels/demo/providers").Body, "Set: ••••1234.")

	// Remove the offers provider.
	form.Set("offers_remove", "on")
	form.Del("google_client_secret")
	res = c.consolePost("/console/panels/demo/providers", "/console/panels/demo/providers", form)
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	o, err = e.app.Offers.SpecOf(t.Context(), panelID)
	require.NoError(t, err)
	assert.Nil(t, o)
}

var fileProblemsRE = regexp.MustCompile(`(?s)<ul class="form-error" id="import-problems">(.*?)</ul>`)

func TestAnExportedTenantFileHasNoSecretAndImportsBackToTheSamePanel(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		panelID := demoSecrets(t, e)
		c := ownerConsole(t, e)
		before, err := e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)

		res := c.get("/console/panels/demo/export.yaml")
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, res.Header.Get("Content-Disposition"), `filename="demo.yaml"`)
		file := res.Body
		for _, secret := range []string{"google-secret-value-WXYZ", "captcha-secret-CAPT", "postback-secret-POST"} {
			assert.NotContains(t, file, secret)
		}
		assert.Contains(t, file, "client_secret: env:DEMO_GOOGLE_CLIENT_SECRET")
		assert.Contains(t, file, "postback_secret: env:DEMO_OFFERS_POSTBACK_SECRET")
		assert.Contains(t, file, "color_cta: '#1AC0B4'")

		// Change the panel, then import the export: it is as it was, secrets included.
		_, err = e.app.Tenancy.SaveTheme(t.Context(), "demo", tenancy.AppTheme{"color_cta": "#000000"})
		require.NoError(t, err)
		res = c.consoleUpload("/console/panels/demo/file", "/console/panels/demo/import", nil, "demo.yaml", "application/yaml", []byte(file))
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		after, err := e.app.Tenancy.Spec(t.Context(), "demo")
		require.NoError(t, err)
		assert.Equal(t, before, after)
		signIn, captcha, err := e.app.SignIn.SignInSpecOf(t.Context(), panelID)
		require.NoError(t, err)
		assert.Equal(t, "google-secret-value-WXYZ", signIn["google"].ClientSecret)
		assert.Equal(t, "captcha-secret-CAPT", captcha.Secret)
		again := c.get("/console/panels/demo/export.yaml").Body
		assert.Equal(t, file, again, "export → import → export round-trips")

		// Another panel's file, or a bad one, changes nothing and says why.
		for name, tc := range map[string]struct{ file, message string }{
			"another panel's key": {strings.Replace(file, "\nkey: demo\n", "\nkey: northwind\n", 1), "describes the panel northwind"},
			"a bad language":      {strings.Replace(file, "- es\n", "- xx\n", 1), `languages[1]: &#34;xx&#34; is not a supported language`},
			"not YAML":            {"key: [unclosed", "not valid YAML"},
		} {
			res := c.consoleUpload("/console/panels/demo/file", "/console/panels/demo/import", nil, "bad.yaml", "application/yaml", []byte(tc.file))
			assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, name)
			m := fileProblemsRE.FindStringSubmatch(res.Body)
			require.NotNil(t, m, name)
			assert.Contains(t, m[1], tc.message, name)
			now, err := e.app.Tenancy.Spec(t.Context(), "demo")
			require.NoError(t, err)
			assert.Equal(t, before, now, name)
		}
	})
}

func TestOnlyAnOwnerOfThePanelReachesItsSetUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	demo, err := e.app.Tenancy.PanelByKey(t.Context(), "demo")
	require.NoError(t, err)
	_, err = e.app.Console.Service().AddOperator(t.Context(), console.CLI, "demo-owner@ops.demo.test", console.RoleOwner, demo.ID, "demo-owner-pass-1")
	require.NoError(t, err)

	pages := []string{"/settings", "/theme", "/providers", "/file", "/export.yaml"}
	cases := []struct {
		who, password, panel string
		status               int
	}{
		{"editor@ops.demo.test", "console-editor-1", "demo", http.StatusForbidden},
		{"finance@ops.demo.test", "console-finance-1", "demo", http.StatusForbidden},
		{"support@ops.demo.test", "console-support-1", "demo", http.StatusForbidden},
		{"demo-owner@ops.demo.test", "demo-owner-pass-1", "northwind", http.StatusNotFound},
		{"demo-owner@ops.demo.test", "demo-owner-pass-1", "demo", http.StatusOK},
		{"owner@ops.demo.test", "console-owner-1", "northwind", http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.who+" on "+tc.panel, func(t *testing.T) {
			c := e.client(consoleHost)
			require.Equal(t, http.StatusSeeOther, c.consoleLogin(tc.who, tc.password, "").StatusCode)
			for _, p := range pages {
				assert.Equal(t, tc.status, c.get("/console/panels/"+tc.panel+p).StatusCode, p)
			}
			if tc.status != http.StatusOK {
				// Nor may they write: the form is refused before anything is read.
				res := c.do(http.MethodPost, "/console/panels/"+tc.panel+"/settings", strings.NewReader(url.Values{"_csrf": {consoleToken(t, c.get("/console/").Body)}, "hosts": {"x.example"}}.Encode()),
					http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
				assert.Equal(t, tc.status, res.StatusCode)
			}
			newPanel := http.StatusOK
			if !strings.Contains(tc.who, "owner") {
				newPanel = http.StatusForbidden
			}
			assert.Equal(t, newPanel, c.get("/console/panels/new").StatusCode, "creating a panel: owners only")
		})
	}
}

func TestAnOwnerCreatesAPanelAndBecomesItsOwner(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := ownerConsole(t, e)
		form := url.Values{"key": {"acme"}, "name": {"Acme Opinions"}, "currency_code": {"eur"}, "hosts": {"acme.localhost"}, "languages": {"en", "es"}, "default_language": {"es"}}

		for name, tc := range map[string]struct {
			change  func(f url.Values)
			message string
		}{
			"a taken key":    {func(f url.Values) { f.Set("key", "northwind") }, "A panel or instance with the key northwind exists already."},
			"a bad key":      {func(f url.Values) { f.Set("key", "Acme!") }, "Use 2 to 40 lower-case letters"},
			"a taken domain": {func(f url.Values) { f.Set("hosts", "localhost") }, "localhost already belongs to another panel."},
			"a bad currency": {func(f url.Values) { f.Set("currency_code", "euros") }, "three-letter ISO 4217 code"},
		} {
			f := url.Values{}
			for k, v := range form {
				f[k] = append([]string(nil), v...)
			}
			tc.change(f)
			res := c.consolePost("/console/panels/new", "/console/panels/new", f)
			assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, name)
			assert.Contains(t, html.UnescapeString(res.Body), tc.message, name)
		}
		_, err := e.app.Tenancy.Spec(t.Context(), "acme")
		require.ErrorIs(t, err, tenancy.ErrUnknownPanel)

		res := c.consolePost("/console/panels/new", "/console/panels/new", form)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/console/panels/acme/settings?done=created", res.Header.Get("Location"))
		spec, err := e.app.Tenancy.Spec(t.Context(), "acme")
		require.NoError(t, err)
		assert.Equal(t, "EUR", spec.CurrencyCode)
		assert.Equal(t, []string{"es", "en"}, spec.Languages)
		assert.Equal(t, "acme", spec.Instance.Code)
		home := c.get("/console/")
		assert.Contains(t, home.Body, "Acme Opinions")
		assert.Equal(t, http.StatusOK, c.get("/console/panels/acme/settings").StatusCode, "its creator owns it")
		assert.Equal(t, http.StatusOK, e.client("acme.localhost").get("/login").StatusCode, "it answers on its domain")

		entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{spec.ID}})
		require.NoError(t, err)
		var actions []string
		for _, en := range entries {
			actions = append(actions, en.Action)
		}
		assert.Contains(t, actions, "panel.create")
		assert.Contains(t, actions, "operator.add")

		editor := e.client(consoleHost)
		editor.consoleLogin("editor@ops.demo.test", "console-editor-1", "")
		assert.Equal(t, http.StatusForbidden, editor.consolePost("/console/", "/console/panels/new", url.Values{"key": {"evil"}}).StatusCode)
	})
}

func TestThePanelsAPIReadsAndWritesWithATokenScopedToPanelEdit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	panelID := demoSecrets(t, e)
	token := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionEditPanel)
	c := e.client(consoleHost)

	res := c.consoleCall(http.MethodGet, "/console/api/panels/demo/settings", token, "")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	var settings tenancy.Settings
	require.NoError(t, json.Unmarshal([]byte(res.Body), &settings))
	assert.Equal(t, []string{"en", "es"}, settings.Languages)

	settings.Hosts = append(settings.Hosts, "bad host")
	body, _ := json.Marshal(settings)
	res = c.consoleCall(http.MethodPut, "/console/api/panels/demo/settings", token, string(body))
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	assert.Contains(t, res.Body, `"field":"hosts"`)
	settings.Hosts = settings.Hosts[:len(settings.Hosts)-1]
	settings.AppSettings.GoogleTagMngrID = "GTM-API1"
	body, _ = json.Marshal(settings)
	res = c.consoleCall(http.MethodPut, "/console/api/panels/demo/settings", token, string(body))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Contains(t, res.Body, `"google_tag_mngr_id":"GTM-API1"`)

	res = c.consoleCall(http.MethodPost, "/console/api/panels/demo/theme/preview", token, `{"app_theme":{"color_cta":"#ffff00","font_color_cta":"#ffffff"}}`)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Contains(t, res.Body, `"text":"font_color_cta","background":"color_cta","text_value":"#ffffff","background_value":"#ffff00","ratio":1.07,"target":4.5,"pass":false`)
	res = c.consoleCall(http.MethodGet, "/console/api/panels/demo/theme", token, "")
	assert.Contains(t, res.Body, `"color_cta":"#1AC0B4"`, "a preview saves nothing")
	res = c.consoleCall(http.MethodPut, "/console/api/panels/demo/theme", token, `{"app_theme":{"color_cta":"not a colour!"}}`)
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)
	res = c.consoleCall(http.MethodPut, "/console/api/panels/demo/theme", token, `{"app_theme":{"color_cta":"#7b2cbf"}}`)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Equal(t, "#7b2cbf", memberCTA(t, e))

	res = c.consoleCall(http.MethodGet, "/console/api/panels/demo/providers", token, "")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Contains(t, res.Body, `"client_secret":"••••WXYZ"`)
	assert.NotContains(t, res.Body, "google-secret-value-WXYZ")
	res = c.consoleCall(http.MethodPut, "/console/api/panels/demo/providers", token, `{"sign_in":{"google":{"client_secret":"••••WXYZ","client_id":"new-client-id"}},"offers":null}`)
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	assert.Contains(t, res.Body, `"client_id":"new-client-id"`)
	assert.Contains(t, res.Body, `"offers":null`)
	signIn, _, err := e.app.SignIn.SignInSpecOf(t.Context(), panelID)
	require.NoError(t, err)
	assert.Equal(t, "google-secret-value-WXYZ", signIn["google"].ClientSecret, "a masked secret sent back is kept")

	res = c.consoleCall(http.MethodGet, "/console/api/panels/demo/export", token, "")
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	var file struct{ File string }
	require.NoError(t, json.Unmarshal([]byte(res.Body), &file))
	assert.NotContains(t, file.File, "google-secret-value-WXYZ")
	body, _ = json.Marshal(map[string]string{"file": file.File})
	res = c.consoleCall(http.MethodPost, "/console/api/panels/demo/import", token, string(body))
	require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
	body, _ = json.Marshal(map[string]string{"file": strings.Replace(file.File, "\nkey: demo\n", "\nkey: northwind\n", 1)})
	res = c.consoleCall(http.MethodPost, "/console/api/panels/demo/import", token, string(body))
	assert.Equal(t, http.StatusBadRequest, res.StatusCode)

	// Another panel, another scope, another role.
	assert.Equal(t, http.StatusNotFound, c.consoleCall(http.MethodGet, "/console/api/panels/northwind/settings", token, "").StatusCode)
	narrow := consoleAPIToken(t, e, "owner@ops.demo.test", "demo", console.ActionReadAudit)
	assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, "/console/api/panels/demo/settings", narrow, "").StatusCode)
	editor := consoleAPIToken(t, e, "editor@ops.demo.test", "demo", console.ActionEditCampaigns)
	assert.Equal(t, http.StatusForbidden, c.consoleCall(http.MethodGet, "/console/api/panels/demo/theme", editor, "").StatusCode)
}
