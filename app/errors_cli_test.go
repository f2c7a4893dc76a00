package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorsCommandsRefuseBadArgumentsBeforeTouchingTheDatabase(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "canvass errors needs a command: list, top"},
		{"an unknown action", []string{"delete"}, `unknown command "delete" for "canvass errors"`},
		{"a stray argument", []string{"list", "extra"}, `canvass errors list takes no arguments, got "extra"`},
		{"a limit of nothing", []string{"list", "--limit", "0"}, "--limit must be a whole number from 1 to 1000"},
		{"a window on list", []string{"list", "--since", "24h"}, "unknown flag: --since"},
		{"a window that is no duration", []string{"top", "--since", "yesterday"}, `--since: "yesterday" is not a duration`},
		{"a negative window", []string{"top", "--since", "-2h"}, `--since: "-2h" is not a duration`},
		{"days that are no number", []string{"top", "--since", "xd"}, `--since: "xd" is not a number of days`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepareErrorsCommand(c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	ec, err := prepareErrorsCommand([]string{"top", "--panel", "demo", "--since", "7d", "--limit", "5"})
	require.NoError(t, err)
	assert.Equal(t, errorsCommand{action: "top", panel: "demo", limit: 5, since: 7 * 24 * time.Hour}, *ec)
	ec, err = prepareErrorsCommand([]string{"list"})
	require.NoError(t, err)
	assert.Equal(t, 50, ec.limit)
}

// errorsCLI runs one `canvass errors` command against the env at now and returns its output.
func (e *env) errorsCLI(now time.Time, args ...string) (string, error) {
	e.t.Helper()
	ec, err := prepareErrorsCommand(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = ec.run(context.Background(), e.app, e.db, &out, now)
	return out.String(), err
}

func TestAnOperatorSeesTheMostFrequentClientErrorsPerPanel(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		demo, nw := e.client("localhost"), e.client("northwind.localhost")
		for range 3 {
			require.Equal(t, http.StatusNoContent, demo.reportClientError("error", typeErrorReport, "").StatusCode)
		}
		require.Equal(t, http.StatusNoContent, demo.reportClientError("error", `{"href":"http://localhost/offers","name":"RangeError","message":"bad\nrange","source":"http://localhost/static/dist/x.js","lineno":1,"colno":2}`, "").StatusCode)
		require.Equal(t, http.StatusNoContent, nw.reportClientError("error", `{"href":"http://northwind.localhost/login","arguments":["Warning", 2]}`, "").StatusCode)

		out, err := e.errorsCLI(time.Now(), "top", "--panel", "demo")
		require.NoError(t, err)
		assert.Regexp(t, regexp.MustCompile(`(?s)REPORTS +ALL +PANEL +LEVEL +ERROR +WHERE +LAST SEEN\n`+
			`3 +3 +demo +error +TypeError: x is undefined +http://localhost/static/dist/main\.js:3:7 +\S+\n`+
			`1 +1 +demo +error +RangeError: bad range +http://localhost/static/dist/x\.js:1:2 +\S+\n`+
			`2 errors reported since `), out)
		assert.NotContains(t, out, "northwind")

		out, err = e.errorsCLI(time.Now(), "top", "--limit", "1")
		require.NoError(t, err)
		assert.Contains(t, out, "TypeError")
		assert.Contains(t, out, "1 errors reported")

		// Two days later the window of a day holds none of them; a week's does.
		later := time.Now().Add(48 * time.Hour)
		out, err = e.errorsCLI(later, "top")
		require.NoError(t, err)
		assert.Contains(t, out, "0 errors reported")
		out, err = e.errorsCLI(later, "top", "--since", "7d")
		require.NoError(t, err)
		assert.Contains(t, out, "3 errors reported")

		out, err = e.errorsCLI(time.Now(), "list", "--panel", "northwind")
		require.NoError(t, err)
		assert.Regexp(t, regexp.MustCompile(`(?m)^\S+ +northwind +error +console \["Warning",2\] +- +http://northwind\.localhost/login +- +web es 412x915@2\.63 +\S+ +1$`), out)
		assert.Contains(t, out, "1 reports")

		_, err = e.errorsCLI(time.Now(), "list", "--panel", "nowhere")
		assert.ErrorContains(t, err, "panel nowhere")
	})
}
