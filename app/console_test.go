package main

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/console"
	"github.com/pquerna/otp/totp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const consoleHost = "console.localhost"

var consoleCSRFRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// consoleToken is the CSRF token the page's forms carry.
func consoleToken(t testing.TB, body string) string {
	t.Helper()
	m := consoleCSRFRE.FindStringSubmatch(body)
	require.NotNil(t, m, "a form with its CSRF token: %s", body)
	return html.UnescapeString(m[1])
}

// consolePost sends a form with the token of the page at from, as a browser would.
func (c *client) consolePost(from, target string, form url.Values) *response {
	c.e.t.Helper()
	form.Set("_csrf", consoleToken(c.e.t, c.get(from).Body))
	return c.do(http.MethodPost, target, strings.NewReader(form.Encode()), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
}

// totpSteps is the last time step each TOTP secret's code was used for in this test process.
var totpSteps = struct {
	sync.Mutex
	last map[string]int64
}{last: map[string]int64{}}

// totpCode is the code an authenticator shows for secret, for a step not used before: the
// console accepts each step once (RFC 6238 §5.2), so signing in again within 30 seconds of the
// enrolment or of the last sign-in takes the next step's code, which the server's skew of one
// step accepts; past that, it waits for the clock to reach the step.
func totpCode(t testing.TB, secret string) string {
	t.Helper()
	for {
		totpSteps.Lock()
		now := time.Now().Unix() / 30
		step := max(now, totpSteps.last[secret]+1)
		if step <= now+1 {
			totpSteps.last[secret] = step
			totpSteps.Unlock()
			code, err := totp.GenerateCode(secret, time.Unix(step*30, 0))
			require.NoError(t, err)
			return code
		}
		totpSteps.Unlock()
		time.Sleep(time.Until(time.Unix((step-1)*30, 0)))
	}
}

// consoleLogin signs an operator in by password (and TOTP, when they have a secret).
func (c *client) consoleLogin(email, password, secret string) *response {
	c.e.t.Helper()
	res := c.consolePost("/console/login", "/console/login", url.Values{"email": {email}, "password": {password}})
	if secret != "" && res.StatusCode == http.StatusSeeOther && res.Header.Get("Location") == "/console/login/totp" {
		res = c.consolePost("/console/login/totp", "/console/login/totp", url.Values{"code": {totpCode(c.e.t, secret)}})
	}
	return res
}

func TestTheConsoleIsServedOnItsHostAndNeverOnAPanelsDomain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	cases := []struct {
		name, host, path string
		status           int
	}{
		{"the console's login", consoleHost, "/console/login", http.StatusOK},
		{"the console's login with a port", consoleHost + ":3000", "/console/login", http.StatusOK},
		{"the console host's root", consoleHost, "/", http.StatusFound},
		{"a member page on the console host", consoleHost, "/feed", http.StatusNotFound},
		{"the console on Canvass Demo's domain", "localhost", "/console/login", http.StatusNotFound},
		{"the console on Northwind's domain", "northwind.localhost", "/console/", http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := e.client(tc.host).get(tc.path)
			assert.Equal(t, tc.status, res.StatusCode, res.Body)
			assert.NotContains(t, res.Body, "Unrecognized domain")
		})
	}
	res := e.client(consoleHost).get("/console/login")
	for _, ck := range res.Cookies() {
		assert.Empty(t, ck.Domain, "%s is host-only", ck.Name)
		assert.True(t, ck.HttpOnly, "%s is HttpOnly", ck.Name)
		assert.Equal(t, http.SameSiteStrictMode, ck.SameSite, "%s is SameSite=Strict", ck.Name)
	}
}

func TestAnOperatorLoginNeverTellsWhetherTheEmailExists(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	answer := func(email string) *response {
		return e.client(consoleHost).consolePost("/console/login", "/console/login", url.Values{"email": {email}, "password": {"wrong-password-1"}})
	}
	known, unknown := answer("editor@ops.demo.test"), answer("nobody@ops.demo.test")
	assert.Equal(t, http.StatusUnprocessableEntity, known.StatusCode)
	assert.Equal(t, known.StatusCode, unknown.StatusCode)
	// The same page but for the per-response nonce and CSRF token.
	volatile := regexp.MustCompile(`(nonce|content)="[^"]*"`)
	norm := func(s string) string {
		s = volatile.ReplaceAllString(consoleCSRFRE.ReplaceAllString(s, ""), "")
		return strings.NewReplacer("editor@ops.demo.test", "E", "nobody@ops.demo.test", "E").Replace(s)
	}
	assert.Equal(t, norm(known.Body), norm(unknown.Body))
	assert.Empty(t, known.Cookies(), "no session for a wrong password")
}

func TestConsoleLoginsAreRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.client(consoleHost)
	var last *response
	for range 11 {
		last = c.consolePost("/console/login", "/console/login", url.Values{"email": {"editor@ops.demo.test"}, "password": {"wrong-password-1"}})
	}
	assert.Equal(t, http.StatusTooManyRequests, last.StatusCode)
	// Even the right password waits now.
	res := c.consolePost("/console/login", "/console/login", url.Values{"email": {"editor@ops.demo.test"}, "password": {"console-editor-1"}})
	assert.Equal(t, http.StatusTooManyRequests, res.StatusCode)
}

func TestAConsoleFormWithoutItsTokenIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.client(consoleHost)
	c.get("/console/login")
	for _, token := range []string{"", "forged", consoleToken(t, e.client(consoleHost).get("/console/login").Body)} {
		res := c.do(http.MethodPost, "/console/login", strings.NewReader(url.Values{"_csrf": {token}, "email": {"owner@ops.demo.test"}, "password": {"console-owner-1"}}.Encode()),
			http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
		assert.Equal(t, http.StatusForbidden, res.StatusCode, "token %q", token)
	}
}

func TestAnOperatorEnrolsTOTPThenNeedsACodeOrARecoveryCodeOnce(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client(consoleHost)
		res := c.consoleLogin("owner@ops.demo.test", "console-owner-1", "")
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		require.Equal(t, "/console/", res.Header.Get("Location"))
		before := c.cookie(console.SessionCookie)

		page := c.get("/console/totp/enrol")
		require.Equal(t, http.StatusOK, page.StatusCode)
		secret := regexp.MustCompile(`id="totp-secret"[^>]*>([A-Z2-7]+)<`).FindStringSubmatch(page.Body)
		require.NotNil(t, secret, page.Body)
		assert.Contains(t, html.UnescapeString(page.Body), "otpauth://totp/")
		wrong := c.consolePost("/console/totp/enrol", "/console/totp/enrol", url.Values{"code": {"000000"}})
		assert.Equal(t, http.StatusUnprocessableEntity, wrong.StatusCode)
		done := c.consolePost("/console/totp/enrol", "/console/totp/enrol", url.Values{"code": {totpCode(t, secret[1])}})
		require.Equal(t, http.StatusOK, done.StatusCode, done.Body)
		codes := regexp.MustCompile(`<li><code>([a-z2-7]{5}-[a-z2-7]{5})</code></li>`).FindAllStringSubmatch(done.Body, -1)
		require.Len(t, codes, console.RecoveryCodes)
		assert.Equal(t, before, c.cookie(console.SessionCookie), "enrolling while signed in keeps the session")

		// Signing in again asks for the second factor; the password alone reaches nothing.
		c2 := e.client(consoleHost)
		res = c2.consoleLogin("owner@ops.demo.test", "console-owner-1", "")
		require.Equal(t, "/console/login/totp", res.Header.Get("Location"))
		assert.Equal(t, "/console/login/totp", c2.get("/console/").Header.Get("Location"))
		half := c2.cookie(console.SessionCookie)
		res = c2.consolePost("/console/login/totp", "/console/login/totp", url.Values{"code": {codes[0][1]}})
		require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.NotEqual(t, half, c2.cookie(console.SessionCookie), "the session is rotated at login")
		assert.Equal(t, http.StatusOK, c2.get("/console/").StatusCode)

		// The recovery code was spent.
		c3 := e.client(consoleHost)
		c3.consoleLogin("owner@ops.demo.test", "console-owner-1", "")
		res = c3.consolePost("/console/login/totp", "/console/login/totp", url.Values{"code": {codes[0][1]}})
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		res = c3.consolePost("/console/login/totp", "/console/login/totp", url.Values{"code": {strings.ToUpper(codes[1][1])}})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)

		// Signing out ends the session.
		res = c3.consolePost("/console/", "/console/logout", url.Values{})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Equal(t, "/console/login", c3.get("/console/").Header.Get("Location"))
	})
}

func TestInProductionAnOperatorWithoutTOTPEnrolsBeforeAnythingElse(t *testing.T) {
	t.Parallel()
	cfg := testConfig("production")
	e := newEnvWith(t, "sqlite", cfg)
	c := e.client(consoleHost)
	res := c.consoleLogin("editor@ops.demo.test", "console-editor-1", "")
	require.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
	assert.Equal(t, "/console/totp/enrol", res.Header.Get("Location"))
	for _, path := range []string{"/console/", "/console/audit"} {
		assert.Equal(t, "/console/totp/enrol", c.get(path).Header.Get("Location"), path)
	}
	for _, ck := range res.Cookies() {
		assert.True(t, ck.Secure, "%s is Secure outside development", ck.Name)
	}
}

func TestAnOwnerAddsAndRemovesAnOperatorAndTheAuditLogRecordsIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client(consoleHost)
		require.Equal(t, http.StatusSeeOther, c.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
		page := "/console/panels/demo/operators"
		res := c.consolePost(page, page, url.Values{"email": {"New.Editor@Example.test"}, "role": {"editor"}})
		require.Equal(t, http.StatusOK, res.StatusCode, res.Body)
		pw := regexp.MustCompile(`id="new-password">([a-z2-7]+)<`).FindStringSubmatch(res.Body)
		require.NotNil(t, pw, "a new operator's password is shown once")
		assert.Contains(t, c.get(page).Body, "new.editor@example.test")
		assert.NotContains(t, c.get(page).Body, pw[1])

		bad := c.consolePost(page, page, url.Values{"email": {"not-an-email"}, "role": {"editor"}})
		assert.Equal(t, http.StatusUnprocessableEntity, bad.StatusCode)

		// The new editor signs in with it.
		ed := e.client(consoleHost)
		assert.Equal(t, http.StatusSeeOther, ed.consoleLogin("new.editor@example.test", pw[1], "").StatusCode)

		op, err := e.app.Console.Service().Authenticate(context.Background(), "new.editor@example.test", pw[1])
		require.NoError(t, err)
		res = c.consolePost(page, page+"/remove", url.Values{"operator": {op.ID}, "role": {"editor"}})
		assert.Equal(t, http.StatusSeeOther, res.StatusCode, res.Body)
		assert.NotContains(t, c.get(page).Body, "new.editor@example.test")

		// The last owner stays.
		owner, err := e.app.Console.Service().Authenticate(context.Background(), "owner@ops.demo.test", "console-owner-1")
		require.NoError(t, err)
		res = c.consolePost(page, page+"/remove", url.Values{"operator": {owner.ID}, "role": {"owner"}})
		assert.Equal(t, http.StatusConflict, res.StatusCode)

		log := c.get("/console/audit?panel=demo")
		require.Equal(t, http.StatusOK, log.StatusCode)
		body := html.UnescapeString(log.Body)
		assert.Contains(t, body, "operator.add")
		assert.Contains(t, body, "operator.remove")
		csv := c.get("/console/audit.csv?panel=demo")
		require.Equal(t, http.StatusOK, csv.StatusCode)
		assert.Contains(t, csv.Header.Get("Content-Type"), "text/csv")
		assert.Contains(t, csv.Body, "operator.add,new.editor@example.test")
		mine := html.UnescapeString(c.get("/console/audit").Body)
		assert.Contains(t, mine, ">login<", "the operator's own sign-ins are in their log")
	})
}

// TestEveryConsoleRouteAnswersEachRoleOnItsOwnPanelAndAnother is the authorisation matrix:
// every console route, as each role on its own panel (Canvass Demo) and on a panel it holds no
// role on (Northwind) or that does not exist: allowed, 403 or 404.
func TestEveryConsoleRouteAnswersEachRoleOnItsOwnPanelAndAnother(t *testing.T) {
	t.Parallel()
	type route struct {
		method, path string
		form         func(t *testing.T, e *env) url.Values
	}
	addForm := func(t *testing.T, e *env) url.Values {
		return url.Values{"email": {"matrix-added@example.test"}, "role": {"support"}}
	}
	// Removing the support grant every matrix operator shares a panel with (seeded below).
	removeForm := func(t *testing.T, e *env) url.Values {
		op, err := e.app.Console.Service().Authenticate(context.Background(), "matrix-target@example.test", "matrix-password-1")
		require.NoError(t, err)
		require.NotNil(t, op)
		return url.Values{"operator": {op.ID}, "role": {"support"}}
	}
	routes := []route{
		{"GET", "/console/panels/%s/operators", nil},
		{"POST", "/console/panels/%s/operators", addForm},
		{"POST", "/console/panels/%s/operators/remove", removeForm},
		{"GET", "/console/audit?panel=%s", nil},
		{"GET", "/console/audit.csv?panel=%s", nil},
	}
	ok := map[string]int{"GET": http.StatusOK, "POST": http.StatusOK}
	okRemove := http.StatusSeeOther
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		svc := e.app.Console.Service()
		demo, err := e.app.Tenancy.PanelByKey(ctx, "demo")
		require.NoError(t, err)
		northwind, err := e.app.Tenancy.PanelByKey(ctx, "northwind")
		require.NoError(t, err)
		for _, p := range []string{demo.ID, northwind.ID} {
			_, err := svc.AddOperator(ctx, console.CLI, "matrix-target@example.test", console.RoleSupport, p, "matrix-password-1")
			require.NoError(t, err)
		}
		for _, role := range console.Roles {
			email := "matrix-" + string(role) + "@example.test"
			_, err := svc.AddOperator(ctx, console.CLI, email, role, demo.ID, "matrix-password-1")
			require.NoError(t, err)
			c := e.client(consoleHost)
			require.Equal(t, http.StatusSeeOther, c.consoleLogin(email, "matrix-password-1", "").StatusCode)
			// Pages of no panel: every role.
			for _, p := range []string{"/console/", "/console/audit", "/console/audit.csv", "/console/totp/enrol"} {
				assert.Equal(t, http.StatusOK, c.get(p).StatusCode, "%s GET %s", role, p)
			}
			for _, r := range routes {
				for _, panel := range []string{"demo", "northwind", "no-such-panel"} {
					path := fmt.Sprintf(r.path, panel)
					var res *response
					if r.method == "GET" {
						res = c.get(path)
					} else {
						res = c.consolePost("/console/", path, r.form(t, e))
					}
					want := http.StatusNotFound
					if panel == "demo" {
						want = http.StatusForbidden
						if role == console.RoleOwner {
							want = ok[r.method]
							if strings.HasSuffix(r.path, "/remove") {
								want = okRemove
							}
						}
					}
					assert.Equal(t, want, res.StatusCode, "%s %s as %s", r.method, path, role)
				}
			}
		}
		// Signed out, every route leads to the login.
		c := e.client(consoleHost)
		for _, r := range routes {
			if r.method == "GET" {
				res := c.get(fmt.Sprintf(r.path, "demo"))
				assert.Equal(t, "/console/login", res.Header.Get("Location"), r.path)
			}
		}
	})
}
