package main

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matrixOperator is one operator of the authorisation matrix: their roles on their own panel,
// and a panel they hold no role on.
type matrixOperator struct {
	email, password string
	own, other      string
	role            console.Role
}

var matrixOperators = []matrixOperator{
	{"owner-of-northwind@ops.test", "matrix-owner-1", "northwind", "demo", console.RoleOwner},
	{"editor@ops.demo.test", "console-editor-1", "demo", "northwind", console.RoleEditor},
	{"finance@ops.demo.test", "console-finance-1", "demo", "northwind", console.RoleFinance},
	{"support@ops.demo.test", "console-support-1", "demo", "northwind", console.RoleSupport},
}

// matrixParamRE finds a route's parameters besides :panel, filled with an id no row has.
var matrixParamRE = regexp.MustCompile(`:[A-Za-z_]+`)

// matrixTarget is the route's path on a panel, with every other parameter an unknown id.
func matrixTarget(path, panel string) (target string, hasIDs bool) {
	target = strings.ReplaceAll(path, ":panel", panel)
	hasIDs = matrixParamRE.MatchString(target)
	return matrixParamRE.ReplaceAllString(target, "00000000-0000-4000-8000-000000000000"), hasIDs
}

// TestEveryConsoleRouteAllowsForbidsOrHidesAsEachRoleAndPanelRequire is the authorisation
// matrix: every console route on a panel (pages and API, each registered with its action),
// for each role, on the operator's own panel and on another one. Allowed: anything but
// 401/403 (and, for a page or read with no id to miss, 404; an empty form may name nothing). Not allowed by the role: 403. Another
// panel: 404, never telling it exists. An API token narrowed to fewer scopes is refused the
// rest (403), and one made for another panel sees nothing here (404).
func TestEveryConsoleRouteAllowsForbidsOrHidesAsEachRoleAndPanelRequire(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		svc := e.app.Console.Service()
		_, err := svc.AddOperator(t.Context(), console.CLI, "owner-of-northwind@ops.test", console.RoleOwner, panelID(t, e, "northwind"), "matrix-owner-1")
		require.NoError(t, err)
		routes := e.app.Console.RouteActions()
		require.NotEmpty(t, routes)
		keys := slices.Sorted(maps.Keys(routes))

		for _, op := range matrixOperators {
			t.Run(string(op.role), func(t *testing.T) {
				c := e.client(consoleHost)
				require.Equal(t, http.StatusSeeOther, c.consoleLogin(op.email, op.password, "").StatusCode)
				var scopes []console.Action
				for _, a := range console.Actions {
					if console.RolesAllow([]console.Role{op.role}, a) {
						scopes = append(scopes, a)
					}
				}
				token := consoleAPIToken(t, e, op.email, "", scopes...)
				viewOnly := consoleAPIToken(t, e, op.email, "", console.ActionView)

				for _, key := range keys {
					action := routes[key]
					method, path, _ := strings.Cut(key, " ")
					allowed := console.RolesAllow([]console.Role{op.role}, action)
					for _, panel := range []string{op.own, op.other} {
						target, hasIDs := matrixTarget(path, panel)
						var res *response
						if strings.HasPrefix(path, console.APIPrefix+"/") {
							body := ""
							if method != http.MethodGet && method != http.MethodDelete {
								body = "{}"
							}
							res = c.consoleCall(method, target, token, body)
						} else if method == http.MethodGet {
							res = c.get(target)
						} else {
							res = c.consolePost("/console/", target, url.Values{})
						}
						where := fmt.Sprintf("%s %s as %s (action %s)", method, target, op.role, action)
						switch {
						case panel == op.other:
							assert.Equal(t, http.StatusNotFound, res.StatusCode, "%s: another panel is hidden", where)
						case !allowed:
							assert.Equal(t, http.StatusForbidden, res.StatusCode, "%s: the role may not", where)
						default:
							assert.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, res.StatusCode, "%s: the role may: %.300s", where, res.Body)
							if !hasIDs && method == http.MethodGet {
								assert.NotEqual(t, http.StatusNotFound, res.StatusCode, "%s: the role may", where)
							}
						}
						if strings.HasPrefix(path, console.APIPrefix+"/") && panel == op.own && allowed && action != console.ActionView {
							narrow := c.consoleCall(method, target, viewOnly, map[bool]string{true: "{}"}[method != http.MethodGet && method != http.MethodDelete])
							assert.Equal(t, http.StatusForbidden, narrow.StatusCode, "%s with a token without the scope", where)
						}
					}
				}
			})
		}

		t.Run("a token for one panel sees no other", func(t *testing.T) {
			token := consoleAPIToken(t, e, "owner@ops.demo.test", "northwind", console.Actions...)
			c := e.client(consoleHost)
			for _, key := range keys {
				method, path, _ := strings.Cut(key, " ")
				if !strings.HasPrefix(path, console.APIPrefix+"/") || method != http.MethodGet {
					continue
				}
				target, _ := matrixTarget(path, "demo")
				assert.Equal(t, http.StatusNotFound, c.consoleCall(method, target, token, "").StatusCode, "%s with a token for northwind", target)
			}
		})
	})
}
