package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/clientreports"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reportClientError posts one report as the islands' reporter does: JSON, the request
// conventions' headers, and the pp-token header when token is set.
func (c *client) reportClientError(level, body, token string) *response {
	h := http.Header{
		"Content-Type": {"application/json"}, "User-Agent": {"Mozilla/5.0 (Linux; Android 14) Chromium/130"},
		"X-App-Name": {"web"}, "X-App-Lang": {"es"}, "X-Viewport-Width": {"412"}, "X-Viewport-Height": {"915"}, "X-DPR": {"2.625"},
	}
	if token != "" {
		h.Set("pp-token", token)
	}
	return c.do(http.MethodPost, "/api/v1/public/client/"+level, strings.NewReader(body), h)
}

// clientReports lists a panel's kept reports, newest first.
func (e *env) clientReports(t *testing.T, panelKey string) []clientreports.ListedReport {
	t.Helper()
	panel, err := e.app.Tenancy.PanelByKey(context.Background(), panelKey)
	require.NoError(t, err)
	list, err := e.app.ClientReports.Store().Recent(context.Background(), panel.ID, 100)
	require.NoError(t, err)
	return list
}

const typeErrorReport = `{"href":"http://localhost/feed","name":"TypeError","message":"x is undefined","source":"http://localhost/static/dist/main.js","stack":"TypeError: x is undefined\n    at f (main.js:3:7)","lineno":3,"colno":7}`

func TestAClientErrorIsStoredWithItsPanelMemberRequestAndApp(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		member := e.member()
		res := member.reportClientError("error", typeErrorReport, member.cookie("pp-token"))
		require.Equal(t, http.StatusNoContent, res.StatusCode, res.Body)
		requestID := res.Header.Get("X-Request-ID")
		require.NotEmpty(t, requestID)

		// A visitor on Northwind reports a console call: no member, its own panel.
		visitor := e.client("northwind.localhost")
		require.Equal(t, http.StatusNoContent, visitor.reportClientError("error", `{"href":"http://northwind.localhost/login","arguments":["Failed prop type",{"a":1}]}`, "").StatusCode)

		list := e.clientReports(t, "demo")
		require.Len(t, list, 1)
		got := list[0]
		require.NotNil(t, got.ParticipantID)
		assert.Equal(t, member.participantID(t), *got.ParticipantID)
		assert.Equal(t, []any{"error", "TypeError", "x is undefined", "http://localhost/static/dist/main.js", 3, 7, "http://localhost/feed", requestID},
			[]any{got.Level, got.Name, got.Message, got.Source, got.Lineno, got.Colno, got.Href, got.RequestID})
		assert.Equal(t, []any{"Mozilla/5.0 (Linux; Android 14) Chromium/130", "web", "es", 412, 915, 2.63, ""},
			[]any{got.UserAgent, got.AppName, got.AppLang, got.ViewportWidth, got.ViewportHeight, got.DPR, got.NativeApp})

		nw := e.clientReports(t, "northwind")
		require.Len(t, nw, 1)
		assert.Nil(t, nw[0].ParticipantID)
		assert.Equal(t, `["Failed prop type",{"a":1}]`, nw[0].Arguments)
	})
}

func TestAnIdenticalClientErrorIsCountedNotStoredAgain(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.get("/login")
		for range 3 {
			require.Equal(t, http.StatusNoContent, c.reportClientError("error", typeErrorReport, "").StatusCode)
		}
		before := tableRows(t, e.db)
		for range clientreports.SamplesPerHour {
			require.Equal(t, http.StatusNoContent, c.reportClientError("error", typeErrorReport, "").StatusCode)
		}
		after := tableRows(t, e.db)
		assert.Equal(t, before["client_errors"], after["client_errors"], "still one error")
		assert.Equal(t, before["client_error_hours"], after["client_error_hours"], "in one hour")
		assert.Equal(t, int64(clientreports.SamplesPerHour), after["client_reports"], "only the hour's first reports are kept in full")
		list := e.clientReports(t, "demo")
		assert.Equal(t, int64(3+clientreports.SamplesPerHour), list[0].Count)
	})
}

func TestARefusedClientReportSaysWhyInTheErrorShapeAndStoresNothing(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		c := e.client("localhost")
		c.get("/login")
		before := tableRows(t, e.db)
		cases := []struct {
			name, level, contentType, body string
			status                         int
			field                          string
		}{
			{"an unknown level", "panic", "application/json", typeErrorReport, http.StatusBadRequest, "level"},
			{"an empty report", "error", "application/json", `{}`, http.StatusBadRequest, "message"},
			{"a message that is no text", "error", "application/json", `{"message":{"a":1}}`, http.StatusBadRequest, "message"},
			{"a stack over its bound", "error", "application/json", `{"message":"m","stack":"` + strings.Repeat("x", clientreports.MaxStack+1) + `"}`, http.StatusBadRequest, "stack"},
			{"a line that is no number", "error", "application/json", `{"message":"m","lineno":"three"}`, http.StatusBadRequest, "lineno"},
			{"arguments that are no list", "error", "application/json", `{"arguments":{"0":"a"}}`, http.StatusBadRequest, "arguments"},
			{"a body over the bound", "error", "application/json", `{"message":"m","stack":"` + strings.Repeat("x", 9000) + `","source":"` + strings.Repeat("y", 9000) + `","href":"` + strings.Repeat("z", 9000) + `","name":"` + strings.Repeat("n", 9000) + `"}`, http.StatusRequestEntityTooLarge, ""},
			{"no JSON", "error", "text/plain", `message=m`, http.StatusUnsupportedMediaType, ""},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				res := c.do(http.MethodPost, "/api/v1/public/client/"+tc.level, strings.NewReader(tc.body), http.Header{"Content-Type": {tc.contentType}})
				require.Equal(t, tc.status, res.StatusCode, res.Body)
				var body struct {
					Name       string `json:"name"`
					Message    string `json:"message"`
					StatusCode int    `json:"statusCode"`
					Details    []struct {
						Field string `json:"field"`
					} `json:"details"`
				}
				require.NoError(t, json.Unmarshal([]byte(res.Body), &body), res.Body)
				assert.Equal(t, "ClientError", body.Name)
				assert.Equal(t, tc.status, body.StatusCode)
				assert.NotEmpty(t, body.Message)
				if tc.field != "" {
					require.NotEmpty(t, body.Details)
					assert.Equal(t, tc.field, body.Details[0].Field)
				}
			})
		}
		assert.Equal(t, before, tableRows(t, e.db))
	})
}

func TestClientReportsAreRateLimitedPerTokenAndPerAddress(t *testing.T) {
	t.Parallel()
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		member := e.member()
		token := member.cookie("pp-token")
		for i := range clientreports.DefaultTokenPerMinute {
			require.Equal(t, http.StatusNoContent, member.reportClientError("error", typeErrorReport, token).StatusCode, "report %d", i+1)
		}
		over := member.reportClientError("error", typeErrorReport, token)
		require.Equal(t, http.StatusTooManyRequests, over.StatusCode)
		assert.NotEmpty(t, over.Header.Get("Retry-After"))
		assert.Contains(t, over.Body, `"statusCode":429`)

		// A visitor at the same address still reports, until the address's own bound.
		visitor := e.client("localhost")
		sent := clientreports.DefaultTokenPerMinute + 1
		for ; sent < clientreports.DefaultIPPerMinute; sent++ {
			require.Equal(t, http.StatusNoContent, visitor.reportClientError("error", typeErrorReport, "").StatusCode, "report %d from the address", sent+1)
		}
		assert.Equal(t, http.StatusTooManyRequests, visitor.reportClientError("error", typeErrorReport, "").StatusCode)
	})
}
