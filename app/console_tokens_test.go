package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// consoleAPIToken creates an API token for a demo operator (by email), for one panel ("" for all
// of theirs) with the scopes given, and returns it.
func consoleAPIToken(t testing.TB, e *env, email, panelKey string, scopes ...console.Action) string {
	t.Helper()
	svc := e.app.Console.Service()
	op, err := svc.OperatorByEmail(t.Context(), email)
	require.NoError(t, err)
	token, _, err := svc.CreateToken(t.Context(), console.ActorOf(op), op, console.TokenInput{Name: fmt.Sprintf("test token %d", len(scopes)), Scopes: scopes, PanelKey: panelKey, Days: 30})
	require.NoError(t, err)
	return token
}

// consoleCall calls the console's JSON API with a bearer token (empty: none) and a JSON body
// (empty: none).
func (c *client) consoleCall(method, target, token, jsonBody string) *response {
	c.e.t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	var body *strings.Reader
	if jsonBody != "" {
		h.Set("Content-Type", "application/json")
		body = strings.NewReader(jsonBody)
	}
	if body == nil {
		return c.do(method, target, nil, h)
	}
	return c.do(method, target, body, h)
}

var newTokenRE = regexp.MustCompile(`<code id="new-token"[^>]*>([^<]+)</code>`)

func TestAnOperatorCreatesATokenSeesItOnceUsesItAndRevokesIt(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.client(consoleHost)
		require.Equal(t, http.StatusSeeOther, c.consoleLogin("finance@ops.demo.test", "console-finance-1", "").StatusCode)

		page := c.get("/console/tokens")
		require.Equal(t, http.StatusOK, page.StatusCode)
		assert.Contains(t, page.Body, `value="ledger.adjust"`, "finance may give a token the ledger")
		assert.NotContains(t, page.Body, `value="campaigns.edit"`, "but not what their roles do not allow")

		res := c.consolePost("/console/tokens", "/console/tokens", url.Values{"name": {"payouts robot"}, "panel": {"demo"}, "days": {"90"}, "scope": {"redemptions.manage", "ledger.adjust"}})
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		m := newTokenRE.FindStringSubmatch(res.Body)
		require.NotNil(t, m, "the new token is shown: %s", res.Body)
		token := m[1]
		assert.True(t, strings.HasPrefix(token, console.TokenPrefix))
		assert.NotContains(t, c.get("/console/tokens").Body, token, "shown once only")

		api := e.client(consoleHost)
		who := api.consoleCall(http.MethodGet, "/console/api/token", token, "")
		require.Equal(t, http.StatusOK, who.StatusCode, who.Body)
		var got struct {
			Operator struct{ Email string }
			Token    struct {
				Name   string
				Scopes []string
				Panel  *string
			}
			Panels []struct {
				Key     string
				Actions []string
			}
		}
		require.NoError(t, json.Unmarshal([]byte(who.Body), &got))
		assert.Equal(t, "finance@ops.demo.test", got.Operator.Email)
		assert.Equal(t, []string{"redemptions.manage", "ledger.adjust"}, got.Token.Scopes)
		require.NotNil(t, got.Token.Panel)
		assert.Equal(t, "demo", *got.Token.Panel)
		require.Len(t, got.Panels, 1)
		assert.Equal(t, []string{"redemptions.manage", "ledger.adjust"}, got.Panels[0].Actions)

		// The audit log has the creation (never the token) by the operator.
		entries, err := e.app.Console.Service().AuditLog(t.Context(), console.AuditFilter{PanelIDs: []string{panelID(t, e, "demo")}})
		require.NoError(t, err)
		require.NotEmpty(t, entries)
		assert.Equal(t, "token.create", entries[0].Action)
		assert.NotContains(t, entries[0].AfterJSON, token)

		var id string
		for _, tok := range mustTokens(t, e, "finance@ops.demo.test") {
			id = tok.ID
		}
		require.Equal(t, http.StatusSeeOther, c.consolePost("/console/tokens", "/console/tokens/revoke", url.Values{"id": {id}}).StatusCode)
		dead := api.consoleCall(http.MethodGet, "/console/api/token", token, "")
		assert.Equal(t, http.StatusUnauthorized, dead.StatusCode, "a revoked token is dead at once")
		assert.Contains(t, c.get("/console/tokens").Body, "Revoked")
		assert.Equal(t, http.StatusSeeOther, c.consolePost("/console/tokens", "/console/tokens/revoke", url.Values{"id": {id}}).StatusCode, "revoking again changes nothing")

		// Another operator cannot revoke it (or learn it exists).
		other := e.client(consoleHost)
		other.consoleLogin("support@ops.demo.test", "console-support-1", "")
		assert.Equal(t, http.StatusNotFound, other.consolePost("/console/tokens", "/console/tokens/revoke", url.Values{"id": {id}}).StatusCode)
	})
}

func mustTokens(t testing.TB, e *env, email string) []console.APIToken {
	t.Helper()
	op, err := e.app.Console.Service().OperatorByEmail(t.Context(), email)
	require.NoError(t, err)
	tokens, err := e.app.Console.Service().Tokens(t.Context(), op.ID)
	require.NoError(t, err)
	return tokens
}

func TestATokenIsRefusedWhatItsScopesOrItsOperatorsRolesDoNotAllow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	c := e.client(consoleHost)
	cases := []struct {
		name, form string
		values     url.Values
	}{
		{"no name", "name", url.Values{"name": {" "}, "days": {"30"}, "scope": {"view"}}},
		{"no scope", "scopes", url.Values{"name": {"x"}, "days": {"30"}}},
		{"a scope the roles do not allow", "scopes", url.Values{"name": {"x"}, "days": {"30"}, "scope": {"members.close"}}},
		{"an unknown scope", "scopes", url.Values{"name": {"x"}, "days": {"30"}, "scope": {"view", "root"}}},
		{"another panel", "panel", url.Values{"name": {"x"}, "days": {"30"}, "scope": {"view"}, "panel": {"northwind"}}},
		{"a lifetime not offered", "days", url.Values{"name": {"x"}, "days": {"7"}, "scope": {"view"}}},
	}
	c.consoleLogin("editor@ops.demo.test", "console-editor-1", "")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.consolePost("/console/tokens", "/console/tokens", tc.values)
			assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
			assert.Contains(t, res.Body, `role="alert"`)
			assert.NotRegexp(t, newTokenRE, res.Body)
		})
	}
	assert.Empty(t, mustTokens(t, e, "editor@ops.demo.test"), "no token was made")

	api := e.client(consoleHost)
	for name, header := range map[string]string{"no token": "", "an unknown token": console.TokenPrefix + "nope", "a member's pp-token": "0b5f6c1e-0000-4000-8000-000000000000"} {
		t.Run(name+" is a 401", func(t *testing.T) {
			res := api.consoleCall(http.MethodGet, "/console/api/token", header, "")
			assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
			assert.Equal(t, `Bearer realm="console"`, res.Header.Get("WWW-Authenticate"))
			assert.Contains(t, res.Body, `"statusCode":401`)
		})
	}
	t.Run("a console session cookie does not open the API", func(t *testing.T) {
		assert.Equal(t, http.StatusUnauthorized, c.consoleCall(http.MethodGet, "/console/api/token", "", "").StatusCode)
	})
	t.Run("the API is not on a panel's domain", func(t *testing.T) {
		token := consoleAPIToken(t, e, "editor@ops.demo.test", "", console.ActionView)
		req := httptest.NewRequest(http.MethodGet, "http://localhost/console/api/token", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := e.app.Fiber.Test(req)
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, res.StatusCode)
	})
}
