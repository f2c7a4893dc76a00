package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/canvass/canvass/migrations"
	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/require"
)

// consoleSweepFields are the names console forms and API bodies read; the console sweep sends a
// hostile value in all of them at once (one request per value and route, not one per field:
// the console's routes are many and its forms small).
var consoleSweepFields = []string{
	"q", "email", "name", "reason", "amount", "status", "id", "ids", "key", "document", "source", "value",
	"confirm_email", "from", "to", "lang", "panel", "scope", "days", "role", "operator", "action",
	"member", "limit", "page", "sort", "option", "early", "confirm", "domains", "languages", "default_language",
}

// TestHostileValuesOnEveryConsoleRouteNeverMakeA500NorWriteARefusedRow is the hostile-value
// sweep of the operator console (its own host, its own app): every GET and POST route of its
// pages and JSON API, signed in as an owner of both demo panels (pages with their CSRF token;
// the API with a token of every scope), gets each hostile value in every field it may read
// and in each path parameter. Never a 5xx; a refusal writes no row and, from the API, is in
// the spec's error shape.
func TestHostileValuesOnEveryConsoleRouteNeverMakeA500NorWriteARefusedRow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the sweep sends thousands of requests")
	}
	eachSweepPart(t, withoutJobWorkers(), func(t *testing.T, e *env, part int) {
		c := e.client(consoleHost)
		require.Equal(t, http.StatusSeeOther, c.consoleLogin("owner@ops.demo.test", "console-owner-1", "").StatusCode)
		csrf := consoleToken(t, c.get("/console/").Body)
		token := consoleAPIToken(t, e, "owner@ops.demo.test", "", console.Actions...)
		s := &sweep{t: t, e: e, rows: tableRows(t, e.db)}
		counts := sweepCounts{status: map[int]int{}, answers: map[string]int{}}

		seen := map[string]bool{}
		for _, r := range e.app.Console.Routes() {
			if (r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodPut) || seen[r.Method+" "+r.Path] {
				continue
			}
			if r.Path == "/console/logout" {
				continue // it ends the sweep's session; its refusals are the CSRF test's
			}
			seen[r.Method+" "+r.Path] = true
			if len(seen)%sweepParts != part {
				continue // another part's route (eachSweepPart)
			}
			api := strings.HasPrefix(r.Path, console.APIPrefix+"/")
			sr := sweepRoute{method: r.Method, path: r.Path, key: r.Method + " " + r.Path, api: api, page: !api}
			counts.routes++
			var params []string
			for _, seg := range strings.Split(r.Path, "/") {
				if strings.HasPrefix(seg, ":") {
					params = append(params, seg)
				}
			}
			target := func(param, value string) string {
				segs := strings.Split(r.Path, "/")
				for i, seg := range segs {
					switch {
					case seg == param:
						segs[i] = url.PathEscape(value)
					case seg == ":panel":
						segs[i] = "demo"
					case strings.HasPrefix(seg, ":"):
						segs[i] = "00000000-0000-4000-8000-000000000000"
					}
				}
				return strings.Join(segs, "/")
			}
			send := func(what, path string, v hostile) {
				var res *response
				switch {
				case r.Method == http.MethodGet:
					q := url.Values{}
					switch {
					case len(v.text) > 200: // a request line holds one long value, not 30
						q.Set("q", v.text)
					case v.text != "":
						for _, f := range consoleSweepFields {
							q.Set(f, v.text)
						}
					}
					h := http.Header{}
					if api {
						h.Set("Authorization", "Bearer "+token)
					}
					res = c.do(http.MethodGet, path+"?"+q.Encode(), nil, h)
				case api:
					body := "{}"
					if v.json != "" {
						var fields []string
						for _, f := range consoleSweepFields {
							fields = append(fields, fmt.Sprintf("%q:%s", f, v.json))
						}
						body = "{" + strings.Join(fields, ",") + "}"
					}
					res = c.consoleCall(r.Method, path, token, body)
				default:
					form := url.Values{"_csrf": {csrf}}
					if v.text != "" {
						for _, f := range consoleSweepFields {
							form.Set(f, v.text)
						}
					}
					res = c.do(http.MethodPost, path, strings.NewReader(form.Encode()), http.Header{"Content-Type": {"application/x-www-form-urlencoded"}})
				}
				s.check(&counts, sr, what, res)
			}
			for _, v := range hostileValues {
				if v.text == "" && (r.Method == http.MethodGet || !api) {
					continue
				}
				send(fmt.Sprintf("%s fields=%s", sr.key, v.name), target("", ""), v)
				for _, p := range params {
					if v.text != "" && len(v.text) <= maxSweepPath {
						send(fmt.Sprintf("%s %s=%s", sr.key, p, v.name), target(p, v.text), hostile{name: "none"})
					}
				}
			}
			if api && r.Method != http.MethodGet {
				for _, b := range hostileBodies {
					res := c.consoleCall(r.Method, target("", ""), token, b.json)
					s.check(&counts, sr, fmt.Sprintf("%s body=%s", sr.key, b.name), res)
				}
			}
		}
		t.Logf("%s: %d of %d console routes: %d requests; statuses %v", migrations.DialectOf(e.db), counts.routes, len(seen), counts.requests, counts.status)
	})
}
