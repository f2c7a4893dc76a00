package web_test

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTr shows which message id was translated, so a test sees translation happen.
func fakeTr(id string, data map[string]any, _ any) string {
	if len(data) > 0 {
		return fmt.Sprintf("tr:%s %v", id, data)
	}
	return "tr:" + id
}

func TestToAPIRendersTheSpecsErrorCatalogue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		err         *web.Error
		wantName    string
		wantStatus  int
		wantMessage string
		wantDetails []web.Detail
	}{
		{
			name:        "a client error takes the first invalid field's message",
			err:         web.Invalid("email", "error.required", nil).Also("password", "error.password_too_short", map[string]any{"Min": 8}),
			wantName:    "ClientError",
			wantStatus:  400,
			wantMessage: "tr:error.required",
			wantDetails: []web.Detail{
				{Field: "email", Code: "invalid", Message: "tr:error.required"},
				{Field: "password", Code: "invalid", Message: "tr:error.password_too_short map[Min:8]"},
			},
		},
		{
			name:        "a client error without details takes its own translated message",
			err:         web.NotFound(),
			wantName:    "ClientError",
			wantStatus:  404,
			wantMessage: "tr:error.not_found",
			wantDetails: []web.Detail{},
		},
		{
			name:        "a literal contract text is kept verbatim",
			err:         web.Literal(400, "answer payload can't be null!"),
			wantName:    "ClientError",
			wantStatus:  400,
			wantMessage: "answer payload can't be null!",
			wantDetails: []web.Detail{},
		},
		{
			name:        "a literal contract text with a code keeps its text in the detail too",
			err:         web.Literal(400, "answer payload can't be null!").WithCode("null_answer"),
			wantName:    "ClientError",
			wantStatus:  400,
			wantMessage: "answer payload can't be null!",
			wantDetails: []web.Detail{{Message: "answer payload can't be null!", Code: "null_answer"}},
		},
		{
			name:        "a 500 always says Oops, something went wrong and hides its cause",
			err:         web.Internal(errors.New("pq: relation users does not exist")),
			wantName:    "ServerError",
			wantStatus:  500,
			wantMessage: "Oops, something went wrong",
			wantDetails: []web.Detail{},
		},
		{
			name:        "a 500 with a message id still says Oops, something went wrong",
			err:         &web.Error{Status: 500, ID: "error.unavailable", Details: []web.Detail{{Message: "secret"}}},
			wantName:    "ServerError",
			wantStatus:  500,
			wantMessage: "Oops, something went wrong",
			wantDetails: []web.Detail{},
		},
		{
			name:        "another server error is translated from its id",
			err:         &web.Error{Status: 502, ID: "error.unavailable"},
			wantName:    "ServerError",
			wantStatus:  502,
			wantMessage: "tr:error.unavailable",
			wantDetails: []web.Detail{},
		},
		{
			name:        "another server error without an id is the generic server message",
			err:         &web.Error{Status: 503},
			wantName:    "ServerError",
			wantStatus:  503,
			wantMessage: "tr:error.server",
			wantDetails: []web.Detail{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.err.ToAPI(fakeTr)
			assert.Equal(t, tc.wantName, got.Name)
			assert.Equal(t, tc.wantStatus, got.StatusCode)
			assert.Equal(t, tc.wantMessage, got.Message)
			assert.Equal(t, tc.wantDetails, publicDetails(got.Details))

			raw, err := json.Marshal(got)
			require.NoError(t, err)
			var generic map[string]any
			require.NoError(t, json.Unmarshal(raw, &generic))
			assert.NotNil(t, generic["details"], "details is never null: %s", raw)
			assert.IsType(t, []any{}, generic["details"])
			assert.ElementsMatch(t, []string{"name", "message", "statusCode", "details"}, keysOf(generic))
		})
	}
}

func TestA500InEveryLanguageSaysOopsSomethingWentWrong(t *testing.T) {
	t.Parallel()
	kit := newKit(t, "development")
	for _, lang := range []string{"en", "es", "ru", "zh"} {
		t.Run(lang, func(t *testing.T) {
			got := web.Internal(errors.New("boom")).ToAPI(kit.Locales.Tr(lang))
			assert.Equal(t, "Oops, something went wrong", got.Message)
		})
	}
}

// publicDetails keeps what the JSON shows of each detail.
func publicDetails(ds []web.Detail) []web.Detail {
	if ds == nil {
		return nil
	}
	out := []web.Detail{}
	for _, d := range ds {
		out = append(out, web.Detail{Message: d.Message, Field: d.Field, Code: d.Code})
	}
	return out
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestAsErrorMapsWhatHandlersReturnToTheCatalogue(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	cases := []struct {
		name       string
		err        error
		wantStatus int
		wantID     string
	}{
		{"a web error passes through", web.Fail(409, "error.conflict", nil), 409, "error.conflict"},
		{"a wrapped web error passes through", fmt.Errorf("load campaign: %w", web.NotFound()), 404, "error.not_found"},
		{"fiber's not found is the catalogue's not found", fiber.ErrNotFound, 404, "error.not_found"},
		{"fiber's method not allowed", fiber.ErrMethodNotAllowed, 405, "error.method_not_allowed"},
		{"fiber's body too large", fiber.ErrRequestEntityTooLarge, 413, "error.too_large"},
		{"fiber's unsupported media type", fiber.ErrUnsupportedMediaType, 415, "error.unsupported_media_type"},
		{"fiber's too many requests", fiber.ErrTooManyRequests, 429, "error.rate_limited"},
		{"fiber's bad request", fiber.ErrBadRequest, 400, "error.bad_request"},
		{"any other fiber client error is a bad request with its status", fiber.NewError(422, "nope"), 422, "error.bad_request"},
		{"a fiber server error keeps its status", fiber.ErrServiceUnavailable, 503, ""},
		{"a network error is 502 unavailable", refused, 502, "error.unavailable"},
		{"a wrapped network error is 502 unavailable", fmt.Errorf("load panel: %w", refused), 502, "error.unavailable"},
		{"a connection refused message is 502 unavailable", errors.New("failed to connect to `host=db`: dial tcp 10.0.0.5:5432: connect: connection refused"), 502, "error.unavailable"},
		{"a closed database is 502 unavailable", errors.New("sql: database is closed"), 502, "error.unavailable"},
		{"ECONNREFUSED is 502 unavailable", fmt.Errorf("query: %w", syscall.ECONNREFUSED), 502, "error.unavailable"},
		{"ECONNRESET is 502 unavailable", fmt.Errorf("query: %w", syscall.ECONNRESET), 502, "error.unavailable"},
		{"a bad driver connection is 502 unavailable", fmt.Errorf("query: %w", driver.ErrBadConn), 502, "error.unavailable"},
		{"ErrUnavailable is 502 unavailable", fmt.Errorf("mailer: %w", web.ErrUnavailable), 502, "error.unavailable"},
		{"a deadline is an internal error, not unavailability", fmt.Errorf("query: %w", context.DeadlineExceeded), 500, ""},
		{"anything else is an internal error", errors.New("boom"), 500, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := web.AsError(tc.err)
			require.NotNil(t, got)
			assert.Equal(t, tc.wantStatus, got.Status)
			assert.Equal(t, tc.wantID, got.ID)
			if tc.wantStatus >= 500 {
				assert.ErrorIs(t, got, tc.err, "the cause is kept for the log")
			}
		})
	}
}
