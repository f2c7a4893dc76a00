package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/accounts"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// partnerPage is a page of the demo's partner site, allow-listed by both demo panels.
const partnerPage = demoPartnerOrigin + "/members?from=widgets"

// frame is a browser page inside another site's frame on a panel host: it keeps every cookie
// the panel sets there, as a browser keeps a partition's. (A cookie jar over these tests'
// plain HTTP would drop them: SameSite=None cookies are Secure.)
type frame struct {
	c       *client
	cookies map[string]string
}

func (e *env) frame(host string) *frame {
	return &frame{c: e.client(host), cookies: map[string]string{}}
}

func (f *frame) do(method, target string, body io.Reader, header http.Header) *response {
	h := http.Header{}
	for k, v := range header {
		h[k] = v
	}
	var pairs []string
	for name, v := range f.cookies {
		pairs = append(pairs, name+"="+v)
	}
	if len(pairs) > 0 {
		h.Set("Cookie", strings.Join(pairs, "; "))
	}
	res := f.c.do(method, target, body, h)
	for _, ck := range res.Cookies() {
		if ck.MaxAge < 0 || ck.Value == "" {
			delete(f.cookies, ck.Name)
		} else {
			f.cookies[ck.Name] = ck.Value
		}
	}
	return res
}

func (f *frame) get(target string) *response { return f.do(http.MethodGet, target, nil, nil) }

func (f *frame) postForm(target string, form url.Values) *response {
	if form.Get("_csrf") == "" {
		form.Set("_csrf", f.cookies[web.CSRFCookie])
	}
	return f.do(http.MethodPost, target, strings.NewReader(form.Encode()), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

// signIn logs the demo member in through the login widget's plain form, framed by parent.
func (f *frame) signIn(t *testing.T, parent string) *response {
	t.Helper()
	f.get(widgetPath("login", parent))
	res := f.postForm("/widgets/login", url.Values{"email": {DemoEmail}, "password": {DemoPassword}, "parentFrameUrl": {parent}})
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	return res
}

func widgetPath(kind, parent string) string {
	if parent == "" {
		return "/widgets/" + kind
	}
	return "/widgets/" + kind + "?" + url.Values{"parentFrameUrl": {parent}}.Encode()
}

// setCookie is the response's Set-Cookie of one cookie, as a browser reads it.
func setCookie(res *response, name string) *http.Cookie {
	for _, line := range res.Header.Values("Set-Cookie") {
		if ck, err := http.ParseSetCookie(line); err == nil && ck.Name == name {
			return ck
		}
	}
	return nil
}

// widgetsOf gives a demo panel its widget_after and embed origins, as a tenant file would.
func (e *env) widgetsOf(t *testing.T, key, after string, origins ...string) {
	t.Helper()
	e.changeDemoPanel(t, key, func(spec *tenancy.PanelSpec) {
		spec.AppSettings.WidgetAfter, spec.AppSettings.EmbedOrigins = after, origins
	})
}

// widgetIsland are the props a widget page gives its island.
type widgetIsland struct {
	API     string         `json:"api"`
	Target  *string        `json:"target"`
	Message map[string]any `json:"message"`
	Handoff string         `json:"handoff"`
	Done    string         `json:"done"`
	Captcha string         `json:"captcha"`
}

var widgetIslandRE = regexp.MustCompile(`(?s)<div data-island="widget">.*?<script type="application/json"[^>]*>(.*?)</script>`)

func islandOf(t *testing.T, body string) widgetIsland {
	t.Helper()
	m := widgetIslandRE.FindStringSubmatch(body)
	require.NotNil(t, m, "the widget island: %.2000s", body)
	var p widgetIsland
	require.NoError(t, json.Unmarshal([]byte(m[1]), &p))
	return p
}

func tokenHash(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// startedBy is what a session records of where it began: the app and the framing page.
func (e *env) startedBy(t *testing.T, ppToken string) (app, parent string) {
	t.Helper()
	var row struct {
		AppName        string
		ParentFrameURL string
	}
	require.NoError(t, e.db.Raw(`SELECT app_name, parent_frame_url FROM sessions WHERE token_hash = ?`, tokenHash(ppToken)).Scan(&row).Error)
	return row.AppName, row.ParentFrameURL
}

var openLinkRE = regexp.MustCompile(`href="(/widgets/continue\?code=([0-9a-f]+))" target="_top"`)

func TestTheWidgetsShowTheirFormsInThePanelsThemeWithItsProvidersAndCaptchaAndNothingOfTheApp(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.withLocalSignIn(t)
		e.withCaptcha(t, "always") // Canvass Demo asks for one on every form, and offers no provider now
		for _, tc := range []struct {
			name, host, path, title, action, theme, api, message, captcha string
		}{
			{"Canvass Demo's login widget", "localhost", "/widgets/login", "Log in · Canvass Demo - development", "/widgets/login",
				"--color-primary:#475369", "/ah/api/v2/user/login", "canvass:signed-in", "captcha-local"},
			{"Canvass Demo's join widget", "localhost", "/widgets/join", "Create your account · Canvass Demo - development", "/widgets/join",
				"--color-primary:#475369", "/ah/api/v2/user/register", "canvass:joined", "captcha-local"},
			{"Northwind's login widget", "northwind.localhost", "/widgets/login", "Log in · Northwind Rewards - development", "/widgets/login",
				"--color-primary:#1F3A5F", "/ah/api/v2/user/login", "canvass:signed-in", ""},
			{"Northwind's join widget, in Russian", "northwind.localhost", "/widgets/join?lang=ru", "Создайте аккаунт · Northwind Rewards - development", "/widgets/join",
				"--color-primary:#1F3A5F", "/ah/api/v2/user/register", "canvass:joined", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f := e.frame(tc.host)
				res := f.get(tc.path)
				if res.StatusCode == http.StatusSeeOther { // ?lang= becomes a cookie first
					res = f.get(res.Header.Get("Location"))
				}
				require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
				assert.Equal(t, tc.title, title(res.Body))
				assert.Contains(t, res.Body, `action="`+tc.action+`"`)
				assert.Contains(t, res.Body, `name="_csrf"`)
				assert.Contains(t, res.Body, tc.theme, "the panel's theme")
				for _, p := range []string{"google", "facebook", "twitter"} {
					link := `href="/sign-in/` + p + `" target="_blank" rel="noopener"`
					if tc.host == "northwind.localhost" {
						assert.Contains(t, res.Body, link, "providers refuse frames: a new tab")
					} else {
						assert.NotContains(t, res.Body, link, "only the providers the panel has")
					}
				}
				assert.NotContains(t, res.Body, `class="nav"`, "no app navigation")
				assert.NotContains(t, res.Body, `class="brand" href`, "no link out of the frame")
				island := islandOf(t, res.Body)
				assert.Equal(t, tc.api, island.API)
				assert.Equal(t, tc.message, island.Message["type"])
				assert.Equal(t, tc.captcha, island.Captcha)
				if tc.captcha != "" {
					assert.Contains(t, res.Body, `name="captcha-local"`, "the captcha the panel asks for")
				} else {
					assert.NotContains(t, res.Body, `name="captcha-local"`)
				}
			})
		}
	})
}

func TestTheWidgetsMayBeFramedOnlyByThePanelsSitesAndEmbedOriginsAndTheHandoffNever(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client("localhost")
		for _, path := range []string{"/widgets/login", "/widgets/join"} {
			res := c.get(path)
			require.Equal(t, http.StatusOK, res.StatusCode)
			csp := res.Header.Get("Content-Security-Policy")
			for _, origin := range []string{"'self'", "https://localhost", "http://localhost:*", "https://127.0.0.1", demoPartnerOrigin} {
				assert.Regexp(t, `frame-ancestors [^;]*`+regexp.QuoteMeta(origin), csp, path)
			}
			assert.NotContains(t, csp, "frame-ancestors *", path)
			assert.Empty(t, res.Header.Get("X-Frame-Options"), path)
		}
		for _, path := range []string{"/login", "/widgets/continue?code=0123"} {
			res := c.get(path)
			assert.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'self';", path)
			assert.Equal(t, "SAMEORIGIN", res.Header.Get("X-Frame-Options"), path)
		}
	})
}

func TestCookiesSetInAWidgetArePartitionedAndSameSiteNoneAndTheHandoffsAreThePanelsOwn(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		login := func(app string) *response {
			h := http.Header{"Content-Type": {"application/json"}}
			if app != "" {
				h.Set(web.AppNameHeader, app)
			}
			return e.client("localhost").do(http.MethodPost, "/ah/api/v2/user/login", strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, DemoEmail, DemoPassword)), h)
		}
		handoff := func() *response {
			f := e.frame("localhost")
			f.signIn(t, "")
			res := f.do(http.MethodPost, "/ah/api/v1/widgets/handoff", strings.NewReader(`{}`), http.Header{"Content-Type": {"application/json"}})
			var body struct{ URL string }
			require.NoError(t, json.Unmarshal([]byte(res.Body), &body), res.Body)
			u, err := url.Parse(body.URL)
			require.NoError(t, err)
			return e.client("localhost").get(u.RequestURI())
		}
		for _, tc := range []struct {
			name        string
			cookie      string
			res         func() *response
			partitioned bool
		}{
			{"the login widget's CSRF cookie", web.CSRFCookie, func() *response { return e.frame("localhost").get("/widgets/login") }, true},
			{"the join widget's CSRF cookie", web.CSRFCookie, func() *response { return e.frame("northwind.localhost").get("/widgets/join") }, true},
			{"the session of the login widget's form", accounts.TokenCookie, func() *response { return e.frame("localhost").signIn(t, "") }, true},
			{"the session of a login the widget's script sends", accounts.TokenCookie, func() *response { return login(web.AppWidget) }, true},
			{"the session of the app's own login call", accounts.TokenCookie, func() *response { return login(web.AppWeb) }, false},
			{"the session of a login call that names no app", accounts.TokenCookie, func() *response { return login("") }, false},
			{"the session the hand-off starts on the panel itself", accounts.TokenCookie, handoff, false},
			{"the app's own login page's CSRF cookie", web.CSRFCookie, func() *response { return e.client("localhost").get("/login") }, false},
		} {
			t.Run(tc.name, func(t *testing.T) {
				ck := setCookie(tc.res(), tc.cookie)
				require.NotNil(t, ck, "%s is set", tc.cookie)
				assert.Equal(t, tc.partitioned, ck.Partitioned, "Partitioned")
				if tc.partitioned {
					assert.Equal(t, http.SameSiteNoneMode, ck.SameSite)
					assert.True(t, ck.Secure, "SameSite=None needs Secure")
				} else {
					assert.Equal(t, http.SameSiteLaxMode, ck.SameSite)
				}
			})
		}
	})
}

func TestParentFrameURLAndTheAppNameAreRecordedOnTheSessionAndOnTheAccountHolderWhoJoins(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		widget := http.Header{"Content-Type": {"application/json"}, web.AppNameHeader: {web.AppWidget}}
		apiLogin := e.client("localhost").do(http.MethodPost, "/ah/api/v2/user/login",
			strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q,"parentFrameUrl":%q}`, DemoEmail, DemoPassword, partnerPage)), widget)
		loggedIn := decodeJSON[struct{ PPToken string }](t, apiLogin, http.StatusOK)
		apiJoin := e.client("localhost").do(http.MethodPost, "/ah/api/v2/user/register",
			strings.NewReader(`{"email":"api-joiner@demo.test","password":"joiner-pass-1","parentFrameUrl":"https://www.acme.example/join"}`), widget)
		joined := decodeJSON[struct{ PPToken string }](t, apiJoin, http.StatusCreated)

		login := e.frame("localhost")
		login.signIn(t, partnerPage)
		join := e.frame("northwind.localhost")
		join.get(widgetPath("join", partnerPage))
		res := join.postForm("/widgets/join", url.Values{"email": {"form-joiner@demo.test"}, "password": {"joiner-pass-1"}, "parentFrameUrl": {partnerPage}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, widgetPath("join", partnerPage), res.Header.Get("Location"), "the member stays in the frame")

		app := e.client("localhost")
		require.Equal(t, http.StatusSeeOther, app.login(DemoEmail, DemoPassword).StatusCode)

		for _, tc := range []struct {
			name, token, app, parent string
		}{
			{"a login the widget's script sends", loggedIn.PPToken, "widget", partnerPage},
			{"a sign-up the widget's script sends", joined.PPToken, "widget", "https://www.acme.example/join"},
			{"the login widget's form", login.cookies[accounts.TokenCookie], "widget", partnerPage},
			{"the join widget's form", join.cookies[accounts.TokenCookie], "widget", partnerPage},
			{"the app's own login page", app.cookie(accounts.TokenCookie), "web", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				require.NotEmpty(t, tc.token)
				gotApp, gotParent := e.startedBy(t, tc.token)
				assert.Equal(t, tc.app, gotApp)
				assert.Equal(t, tc.parent, gotParent)
			})
		}
		for _, tc := range []struct{ email, app, parent string }{
			{"api-joiner@demo.test", "widget", "https://www.acme.example/join"},
			{"form-joiner@demo.test", "widget", partnerPage},
			{DemoEmail, "", ""},
		} {
			var h accounts.AccountHolder
			require.NoError(t, e.db.Where("email_normalized = ?", tc.email).Take(&h).Error)
			assert.Equal(t, tc.app, h.JoinAppName, tc.email)
			assert.Equal(t, tc.parent, h.JoinParentFrameURL, tc.email)
		}
	})
}

func TestABadParentFrameURLIsA400NamingTheFieldAndNobodySignsInOrJoins(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		rows := func() [2]int64 {
			return [2]int64{e.count(t, "SELECT COUNT(*) FROM sessions"), e.count(t, "SELECT COUNT(*) FROM account_holders")}
		}
		for _, bad := range []struct{ name, value string }{
			{"another scheme", "ftp://files.acme.example/join"},
			{"script", "javascript:alert(1)"},
			{"a path without its site", "/members"},
			{"a protocol-relative address", "//www.acme.example/members"},
			{"no host", "https://"},
			{"credentials", "https://user:secret@www.acme.example/members"},
			{"a blank", "https://www.acme.example/our members"},
			{"too long", "https://www.acme.example/" + strings.Repeat("x", 2048)},
		} {
			t.Run(bad.name, func(t *testing.T) {
				before := rows()
				body := func(extra string) *strings.Reader {
					return strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q,"parentFrameUrl":%q%s}`, DemoEmail, DemoPassword, bad.value, extra))
				}
				for _, call := range []struct{ path, body string }{
					{"/ah/api/v2/user/login", ""},
					{"/ah/api/v2/user/register", ""},
				} {
					res := e.client("localhost").do(http.MethodPost, call.path, body(call.body), http.Header{"Content-Type": {"application/json"}, web.AppNameHeader: {web.AppWidget}})
					apiErr := decodeJSON[struct {
						Details []struct{ Field, Message string }
					}](t, res, http.StatusBadRequest)
					var fields []string
					for _, d := range apiErr.Details {
						fields = append(fields, d.Field)
						if d.Field == "parentFrameUrl" {
							assert.Contains(t, d.Message, "full http or https address of at most 2048 characters", call.path)
						}
					}
					assert.Contains(t, fields, "parentFrameUrl", call.path)
				}
				for _, kind := range []string{"login", "join"} {
					f := e.frame("localhost")
					f.get("/widgets/" + kind)
					res := f.postForm("/widgets/"+kind, url.Values{"email": {"new-" + kind + "@demo.test"}, "password": {"joiner-pass-1"}, "parentFrameUrl": {bad.value}})
					assert.Equal(t, http.StatusBadRequest, res.StatusCode, kind)
					assert.Contains(t, html.UnescapeString(res.Body), "(parentFrameUrl) must be a full http or https address", kind)
					assert.Empty(t, f.cookies[accounts.TokenCookie], kind)
				}
				assert.Equal(t, before, rows(), "no session and no account holder")
			})
		}
	})
}

func TestTheMessageGoesOnlyToTheAllowListedOriginOfTheFramingPageAndNeverToEveryone(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.widgetsOf(t, "demo", "frame", "https://www.acme.example")
		for _, tc := range []struct {
			name, query, referer string
			target               *string
		}{
			{"a page of an embed origin, in the frame's address", "https://www.acme.example/members?x=1", "", ptr("https://www.acme.example")},
			{"the same page with its default port", "https://www.acme.example:443/members", "", ptr("https://www.acme.example")},
			{"a page of an embed origin, by its Referer", "", "https://www.acme.example/", ptr("https://www.acme.example")},
			{"a page of the panel's own site", "https://localhost/welcome", "", ptr("https://localhost")},
			{"another site, in the frame's address", "https://evil.example/", "", nil},
			{"another site, by its Referer", "", "https://evil.example/phish", nil},
			{"an embed origin's host on another port", "https://www.acme.example:8443/", "", nil},
			{"an embed origin's host over http", "http://www.acme.example/", "", nil},
			{"everyone", "*", "", nil},
			{"no page at all", "", "", nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				path := "/widgets/login"
				if tc.query != "" {
					path += "?" + url.Values{"parentFrameUrl": {tc.query}}.Encode()
				}
				h := http.Header{}
				if tc.referer != "" {
					h.Set("Referer", tc.referer)
				}
				res := e.frame("localhost").do(http.MethodGet, path, nil, h)
				require.Equal(t, http.StatusOK, res.StatusCode)
				island := islandOf(t, res.Body)
				if tc.target == nil {
					assert.Nil(t, island.Target, "nobody is told")
					assert.NotContains(t, res.Body, `name="parentFrameUrl"`, "nor is the page recorded")
				} else {
					require.NotNil(t, island.Target)
					assert.Equal(t, *tc.target, *island.Target)
				}
				assert.NotContains(t, res.Body, `"target":"*"`)
				assert.Equal(t, map[string]any{"type": "canvass:signed-in", "panel": "demo", "member": true}, island.Message, "who the member is never goes")
			})
		}
	})
}

func ptr(s string) *string { return &s }

func TestAHandoffCodeOpensThePanelOnceForAFewMinutesAndIsStoredOnlyAsItsHash(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		e.widgetsOf(t, "demo", "panel", demoPartnerOrigin)
		f := e.frame("localhost")
		f.signIn(t, partnerPage)
		card := f.get(widgetPath("login", partnerPage))
		require.Equal(t, http.StatusOK, card.StatusCode)
		assert.Contains(t, card.Body, "You&#39;re logged in to Canvass Demo as member@demo.test")
		m := openLinkRE.FindStringSubmatch(card.Body)
		require.NotNil(t, m, "the signed-in card opens the panel at the top of the window: %.3000s", card.Body)
		link, code := html.UnescapeString(m[1]), m[2]

		var hashes []string
		require.NoError(t, e.db.Raw(`SELECT token_hash FROM account_tokens WHERE purpose = ? AND used_at IS NULL`, accounts.PurposeWidgetHandoff).Scan(&hashes).Error)
		assert.Equal(t, []string{tokenHash(code)}, hashes, "only the code's hash is stored")

		sessions := func() int64 { return e.count(t, "SELECT COUNT(*) FROM sessions") }
		top := e.client("localhost")
		before := sessions()
		res := top.get(link)
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.Equal(t, "/feed", res.Header.Get("Location"))
		assert.Equal(t, before+1, sessions())
		assert.Equal(t, http.StatusOK, top.get("/feed").StatusCode, "signed in on the panel itself")
		app, _ := e.startedBy(t, top.cookie(accounts.TokenCookie))
		assert.Equal(t, "widget", app)

		mint := func(t *testing.T) string {
			res := f.do(http.MethodPost, "/ah/api/v1/widgets/handoff", strings.NewReader(`{}`), http.Header{"Content-Type": {"application/json"}, web.AppNameHeader: {web.AppWidget}})
			var body struct{ URL string }
			require.NoError(t, json.Unmarshal([]byte(decodeJSON[json.RawMessage](t, res, http.StatusOK)), &body))
			u, err := url.Parse(body.URL)
			require.NoError(t, err)
			assert.Equal(t, "http://localhost/widgets/continue", u.Scheme+"://"+u.Host+u.Path, "the panel's own address")
			return u.RequestURI()
		}
		expired := mint(t)
		require.NoError(t, e.db.Exec(`UPDATE account_tokens SET expires_at = ? WHERE purpose = ? AND used_at IS NULL`,
			time.Now().UTC().Add(-time.Second), accounts.PurposeWidgetHandoff).Error)
		replaced := mint(t)
		current := mint(t)
		for _, tc := range []struct {
			name, host, link string
		}{
			{"a code used once already", "localhost", link},
			{"a code past its few minutes", "localhost", expired},
			{"a code a newer one replaced", "localhost", replaced},
			{"a code of another panel", "northwind.localhost", current},
			{"a code nobody minted", "localhost", "/widgets/continue?code=" + strings.Repeat("ab", 32)},
			{"no code", "localhost", "/widgets/continue"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := sessions()
				res := e.client(tc.host).get(tc.link)
				assert.Equal(t, http.StatusBadRequest, res.StatusCode)
				assert.Contains(t, html.UnescapeString(res.Body), "This link has expired or was already used")
				assert.Empty(t, setCookie(res, accounts.TokenCookie), "no session")
				assert.Equal(t, before, sessions())
			})
		}
		assert.Equal(t, http.StatusSeeOther, e.client("localhost").get(current).StatusCode, "the newest code still opens the panel")

		anon := e.client("localhost").postJSON("/ah/api/v1/widgets/handoff", `{}`)
		assert.Equal(t, http.StatusUnauthorized, anon.StatusCode, "no member, no code")
	})
}

func TestASignedInWidgetSaysWhoIsInOffersThePanelOnlyWhenItOpensItselfAndSignsOut(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		for _, after := range []string{"frame", "panel"} {
			t.Run(after, func(t *testing.T) {
				e.widgetsOf(t, "demo", after, demoPartnerOrigin)
				f := e.frame("localhost")
				f.signIn(t, partnerPage)
				card := f.get(widgetPath("join", partnerPage))
				require.Equal(t, http.StatusOK, card.StatusCode)
				assert.Equal(t, "You're logged in · Canvass Demo - development", title(card.Body))
				assert.Equal(t, after == "panel", openLinkRE.MatchString(card.Body), "the way to the panel")
				assert.NotContains(t, card.Body, `data-island="widget"`, "no form: the member is in")
				again := f.postForm("/widgets/login", url.Values{"email": {DemoEmail}, "password": {"not-even-checked"}})
				assert.Equal(t, http.StatusSeeOther, again.StatusCode, "a member who is in is shown so")

				out := f.postForm("/widgets/logout", url.Values{"kind": {"join"}, "parentFrameUrl": {partnerPage}})
				require.Equal(t, http.StatusSeeOther, out.StatusCode)
				assert.Equal(t, widgetPath("join", partnerPage), out.Header.Get("Location"), "back to the widget in the frame")
				assert.Empty(t, f.cookies[accounts.TokenCookie])
				assert.Contains(t, f.get(out.Header.Get("Location")).Body, `action="/widgets/join"`, "the form again")
			})
		}
	})
}

func TestWidgetAfterIsSetByTheTenantFileAndAnythingButFrameOrPanelIsRefused(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		dir := t.TempDir()
		file := func(after string) string {
			spec := demoPanels()[1]
			spec.AppSettings.WidgetAfter = after
			data, err := yaml.Marshal(spec)
			require.NoError(t, err)
			return writeCampaignTestFile(t, dir, "northwind-"+after+".yaml", string(data))
		}
		after := func() string {
			p, err := e.app.Tenancy.PanelByKey(context.Background(), "northwind")
			require.NoError(t, err)
			return p.WidgetAfter
		}
		require.Equal(t, "panel", after(), "the demo's Northwind opens itself")
		require.NoError(t, applyTenantFiles(context.Background(), e.app, []string{file("frame")}, quietCLILog(), &bytes.Buffer{}))
		assert.Equal(t, "frame", after())
		require.NoError(t, applyTenantFiles(context.Background(), e.app, []string{file("")}, quietCLILog(), &bytes.Buffer{}))
		assert.Equal(t, "frame", after(), "frame unless the panel says otherwise")
		err := applyTenantFiles(context.Background(), e.app, []string{file("popup")}, quietCLILog(), &bytes.Buffer{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `app_settings.widget_after: "popup" is not frame or panel`)
		assert.Equal(t, "frame", after(), "a refused file changes nothing")
	})
}

func TestTheDemoServesItsPartnerSiteOnPartnerLocalhostOnlyAndEveryOtherUnknownHostIsStillUnrecognized(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects(t) {
		t.Run(string(d), func(t *testing.T) {
			cfg := testConfig("development")
			cfg.Demo, cfg.Addr = true, ":3000"
			e := newEnvWith(t, d, cfg)
			page := e.client("partner.localhost:3000").get("/")
			require.Equal(t, http.StatusOK, page.StatusCode, page.Body)
			assert.Contains(t, page.Body, `src="http://localhost:3000/widgets/login?parentFrameUrl=http%3A%2F%2Fpartner.localhost%3A3000%2F"`)
			assert.Contains(t, page.Body, `src="http://northwind.localhost:3000/widgets/join?parentFrameUrl=http%3A%2F%2Fpartner.localhost%3A3000%2F"`)
			assert.Contains(t, page.Body, "not a panel")
			csp := page.Header.Get("Content-Security-Policy")
			assert.Contains(t, csp, "frame-src http://localhost:3000 http://northwind.localhost:3000;")
			assert.Contains(t, csp, "frame-ancestors 'none'")
			assert.Equal(t, http.StatusNotFound, e.client("partner.localhost:3000").get("/feed").StatusCode, "one page, no panel")

			other := e.client("other.localhost:3000").get("/")
			assert.Equal(t, http.StatusNotFound, other.StatusCode)
			assert.Contains(t, other.Body, "Unrecognized domain: other.localhost")

			widget := e.client("localhost:3000").get("/widgets/login")
			assert.Contains(t, widget.Header.Get("Content-Security-Policy"), demoPartnerOrigin, "the demo panels let the partner frame them")

			prod := testConfig("production")
			prod.Demo, prod.Addr = true, ":3000"
			res := newEnvWith(t, d, prod).client("partner.localhost:3000").get("/")
			assert.Equal(t, http.StatusNotFound, res.StatusCode, "a production demo has no partner site")
			assert.Contains(t, res.Body, "Unrecognized domain: partner.localhost")
		})
	}
}
