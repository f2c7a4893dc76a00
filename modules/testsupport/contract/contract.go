// Package contract holds tests' HTTP exchanges to the OpenAPI document (modules/apidocs): the
// app's test client and every module's HTTP tests call Check, so every API request the suite
// sends is found in the document and its answer validated there.
package contract

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/canvass/canvass/modules/apidocs"
	"github.com/canvass/canvass/modules/testsupport/httpcoding"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"
)

// isAPIPath is where the API families live (web.IsAPI's rule) and so where the contract applies.
func IsAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/ah/api/") || strings.HasPrefix(p, "/panel/") || strings.HasPrefix(p, "/console/api/")
}

var contract struct {
	once   sync.Once
	router routers.Router
	err    error
}

// Router is kin-openapi's router over the embedded document, made once per test binary.
func Router(t testing.TB) routers.Router {
	contract.once.Do(func() {
		doc, err := apidocs.Load()
		if err != nil {
			contract.err = err
			return
		}
		// Pages under /api/ (the docs page) answer HTML: its body is text, as text/plain's is.
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
		contract.router, contract.err = gorillamux.NewRouter(doc.T)
	})
	require.NoError(t, contract.err, "the OpenAPI document (modules/apidocs/openapi) loads")
	return contract.router
}

// Check holds one HTTP exchange of a test to the OpenAPI document: every API request
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
func Check(t testing.TB, req *http.Request, sent []byte, res *http.Response, data []byte) {
	t.Helper()
	if !IsAPIPath(req.URL.Path) {
		return
	}
	router := Router(t)
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(sent))
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return
	}
	exercised.Store(route.Method+" "+route.Path, true)
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
	body := httpcoding.Decode(t, res.Header.Get("Content-Encoding"), data)
	header := res.Header.Clone()
	header.Del("Content-Encoding")
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: header, Body: io.NopCloser(bytes.NewReader(body)), Options: opts}
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("API contract: the answer to %s %s (%d) breaks the OpenAPI document (modules/apidocs/openapi/): %v\nbody: %.600s",
			req.Method, req.URL.RequestURI(), res.StatusCode, err, body)
	}
}

// exercised are the operations ("METHOD /path") some exchange was checked against.
var exercised sync.Map

// Exercised lists the operations the test binary's exchanges were checked against, sorted.
func Exercised() []string {
	var out []string
	exercised.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	sort.Strings(out)
	return out
}
