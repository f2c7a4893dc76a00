package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/canvass/canvass/modules/apidocs"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isAPIPath is where the API families live (web.IsAPI's rule) and so where the contract applies.
func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/ah/api/") || strings.HasPrefix(p, "/panel/")
}

var contract struct {
	once   sync.Once
	router routers.Router
	err    error
}

// contractRouter is kin-openapi's router over the embedded document, made once per test binary.
func contractRouter(t testing.TB) routers.Router {
	contract.once.Do(func() {
		doc, err := apidocs.Load()
		if err != nil {
			contract.err = err
			return
		}
		contract.router, contract.err = gorillamux.NewRouter(doc.T)
	})
	require.NoError(t, contract.err, "the OpenAPI document (modules/apidocs/openapi) loads")
	return contract.router
}

// checkContract holds one exchange of client.do to the OpenAPI document: every API request
// the suite sends is found in the document and its response validated there.
//
// The request is validated only when the server accepted it (any status but 4xx). A 4xx is
// the server refusing the request, and tests send invalid requests on purpose to see that
// refusal (missing fields, the hostile sweep's values): for those the request cannot be held
// to the document, but the refusal itself is, and must be a documented status in the error
// shape. A request the server accepts and the document calls invalid means one of the two is
// wrong, so that fails.
//
// A request whose method and path the document does not name is left alone here: the
// coverage test below holds the document to every route Fiber registers, so such a request
// answers the app's 404 or 405 for a route nobody serves.
func checkContract(t testing.TB, req *http.Request, sent []byte, res *http.Response, data []byte) {
	t.Helper()
	if !isAPIPath(req.URL.Path) {
		return
	}
	router := contractRouter(t)
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(sent))
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus: true,
		MultiError:            true,
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	if res.StatusCode < 400 || res.StatusCode >= 500 {
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Errorf("API contract: %s %s was accepted (%d) but breaks the OpenAPI document (modules/apidocs/openapi/): %v\nbody sent: %.400s",
				req.Method, req.URL.RequestURI(), res.StatusCode, err, sent)
		}
	}
	probe.Body = io.NopCloser(bytes.NewReader(sent))
	body, err := decoded(res.Header.Get("Content-Encoding"), data)
	if err != nil {
		t.Errorf("API contract: %s %s: read the %s answer: %v", req.Method, req.URL.RequestURI(), res.Header.Get("Content-Encoding"), err)
		return
	}
	header := res.Header.Clone()
	header.Del("Content-Encoding")
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Options: opts}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("API contract: the answer to %s %s (%d) breaks the OpenAPI document (modules/apidocs/openapi/): %v\nbody: %.600s",
			req.Method, req.URL.RequestURI(), res.StatusCode, err, body)
	}
}

func decoded(encoding string, data []byte) ([]byte, error) {
	switch strings.ToLower(encoding) {
	case "", "identity":
		return data, nil
	case "gzip":
		r, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(data)))
	}
	return data, nil
}

// fiberParamRE is a Fiber path parameter with its optional constraint (:version<regex(v[12])>).
var fiberParamRE = regexp.MustCompile(`:([A-Za-z0-9_]+)(<[^>]*>)?`)

// apiRoutes are the API operations Fiber registers, as "METHOD /path/{param}". Ask an app
// that is not listening: Fiber adds its HEAD routes when it starts.
func apiRoutes(app *App) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range app.Fiber.GetRoutes(true) {
		if r.Method == http.MethodHead || !isAPIPath(r.Path) {
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
	documented := documentedOperations(t)
	for _, r := range apiRoutes(newEnv(t, "sqlite").app) {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is served but not described: add it to its family's file in modules/apidocs/openapi/", r)
		}
	}
}

func TestEveryOperationTheOpenAPIDocumentNamesHasARoute(t *testing.T) {
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
