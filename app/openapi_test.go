package main

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/apidocs"
	"github.com/canvass/canvass/modules/testsupport/contract"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fiberParamRE is a Fiber path parameter with its optional constraint (:version<regex(v[12])>).
var fiberParamRE = regexp.MustCompile(`:([A-Za-z0-9_]+)(<[^>]*>)?`)

// apiRoutes are the API operations Fiber registers, as "METHOD /path/{param}". Ask an app
// that is not listening: Fiber adds its HEAD routes when it starts.
func apiRoutes(app *App) []string {
	seen := map[string]bool{}
	var out []string
	// The console's API is its own Fiber app's, on the console host.
	for _, r := range append(app.Fiber.GetRoutes(true), app.Console.Routes()...) {
		if r.Method == http.MethodHead || !contract.IsAPIPath(r.Path) {
			continue
		}
		p := fiberParamRE.ReplaceAllString(r.Path, "{$1}")
		if len(p) > 1 {
			p = strings.TrimSuffix(p, "/") // Fiber's routing is not strict about a trailing slash
		}
		k := r.Method + " " + p
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func documentedOperations(t *testing.T) []string {
	doc, err := apidocs.Load()
	require.NoError(t, err)
	var out []string
	for p, item := range doc.T.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+p)
		}
	}
	sort.Strings(out)
	return out
}

func TestEveryAPIRouteFiberRegistersIsInTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	documented := documentedOperations(t)
	for _, r := range apiRoutes(newEnv(t, "sqlite").app) {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is served but not described: add it to its family's file in modules/apidocs/openapi/", r)
		}
	}
}

func TestEveryOperationTheOpenAPIDocumentNamesHasARoute(t *testing.T) {
	t.Parallel()
	routes := apiRoutes(newEnv(t, "sqlite").app)
	for _, op := range documentedOperations(t) {
		if !slices.Contains(routes, op) {
			t.Errorf("the OpenAPI document describes %s, which no route serves", op)
		}
	}
}

// TestTheOpenAPIDocumentIsValid is the document's lint: kin-openapi's validation of the
// merged document (apidocs.Load), and one operationId, summary and tag per operation. It lists
// the operations, so a run shows how many the suite validates.
func TestTheOpenAPIDocumentIsValid(t *testing.T) {
	t.Parallel()
	doc, err := apidocs.Load()
	require.NoError(t, err)
	require.NoError(t, doc.T.Validate(context.Background()))
	ids := map[string]string{}
	n := 0
	for _, p := range doc.T.Paths.InMatchingOrder() {
		for method, op := range doc.T.Paths.Value(p).Operations() {
			n++
			name := method + " " + p
			t.Logf("%s", name)
			assert.NotEmpty(t, op.OperationID, "%s has an operationId", name)
			assert.NotEmpty(t, op.Summary, "%s has a summary", name)
			assert.Len(t, op.Tags, 1, "%s belongs to one family", name)
			if prev, dup := ids[op.OperationID]; dup {
				t.Errorf("%s and %s share the operationId %q", prev, name, op.OperationID)
			}
			ids[op.OperationID] = name
			assert.NotNil(t, op.Responses.Status(500), "%s documents its server errors (5XX)", name)
		}
	}
	t.Logf("%d operations documented", n)
}
