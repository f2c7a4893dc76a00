package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/canvass/canvass/modules/console"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheOperatorsCommandRefusesABadRoleOrIncompleteArgumentsClearly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "canvass operators needs a command: add"},
		{"an unknown action", []string{"remove", "--email", "a@b.test"}, `unknown command "remove" for "canvass operators"`},
		{"add without anything", []string{"add"}, `required flag(s) "email", "panel", "role" not set`},
		{"add without a panel", []string{"add", "--email", "a@b.test", "--role", "owner"}, `required flag(s) "panel" not set`},
		{"an unknown role", []string{"add", "--email", "a@b.test", "--role", "admin", "--panel", "demo"}, `--role "admin": role must be one of owner, editor, finance, support`},
		{"an email that is none", []string{"add", "--email", "not-an-email", "--role", "owner", "--panel", "demo"}, `--email "not-an-email": not an email address`},
		{"a stray argument", []string{"add", "--email", "a@b.test", "--role", "owner", "--panel", "demo", "extra"}, `canvass operators add takes no arguments, got "extra"`},
		{"an unknown flag", []string{"add", "--email", "a@b.test", "--role", "owner", "--panel", "demo", "--admin"}, "unknown flag: --admin"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepareOperatorsCommand(c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	oc, err := prepareOperatorsCommand([]string{"add", "--email", "Ana@Ops.test", "--role", "finance", "--panel", "demo", "--password", "ana-password-1"})
	require.NoError(t, err)
	assert.Equal(t, operatorsCommand{email: "Ana@Ops.test", role: "finance", panel: "demo", password: "ana-password-1"}, *oc)
}

// operatorsCLI runs one `canvass operators` command against the env and returns its output.
func (e *env) operatorsCLI(args ...string) (string, error) {
	e.t.Helper()
	oc, err := prepareOperatorsCommand(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = oc.run(context.Background(), e.app, &out)
	return out.String(), err
}

var generatedPasswordRE = regexp.MustCompile(`(?m)^password \(shown once\): ([a-z2-7]{20})$`)

func TestTheOperatorsCommandPrintsAGeneratedPasswordOnceAndKeepsAGivenOne(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		svc := e.app.Console.Service()

		out, err := e.operatorsCLI("add", "--email", "Gen@Ops.test", "--role", "support", "--panel", "northwind")
		require.NoError(t, err)
		m := generatedPasswordRE.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		assert.Equal(t, "created operator gen@ops.test\ngen@ops.test is support on northwind\n"+m[0]+"\n", out)
		op, err := svc.Authenticate(ctx, "gen@ops.test", m[1])
		require.NoError(t, err)
		require.NotNil(t, op, "the printed password signs in")

		// A second role for the same operator: no new password.
		out, err = e.operatorsCLI("add", "--email", "gen@ops.test", "--role", "editor", "--panel", "northwind")
		require.NoError(t, err)
		assert.Equal(t, "gen@ops.test is editor on northwind\n", out)
		out, err = e.operatorsCLI("add", "--email", "gen@ops.test", "--role", "editor", "--panel", "northwind")
		require.NoError(t, err)
		assert.Equal(t, "operator gen@ops.test already is editor on northwind\n", out)

		// --password: nothing printed but what was done, and that password signs in.
		out, err = e.operatorsCLI("add", "--email", "given@ops.test", "--role", "owner", "--panel", "demo", "--password", "given-password-1")
		require.NoError(t, err)
		assert.Equal(t, "created operator given@ops.test\ngiven@ops.test is owner on demo\n", out)
		op, err = svc.Authenticate(ctx, "given@ops.test", "given-password-1")
		require.NoError(t, err)
		require.NotNil(t, op)
		c := e.client(consoleHost)
		res := c.consoleLogin("given@ops.test", "given-password-1", "")
		assert.Equal(t, http.StatusSeeOther, res.StatusCode)
		assert.Contains(t, c.get("/console/").Body, "Canvass Demo")

		_, err = e.operatorsCLI("add", "--email", "short@ops.test", "--role", "owner", "--panel", "demo", "--password", "short")
		assert.ErrorIs(t, err, console.ErrBadPassword)
		_, err = e.operatorsCLI("add", "--email", "nowhere@ops.test", "--role", "owner", "--panel", "nowhere")
		assert.ErrorContains(t, err, `operators add: no panel "nowhere"`)
		_, err = svc.Authenticate(ctx, "nowhere@ops.test", "x")
		require.NoError(t, err)

		// Each grant is in the audit log, by the command line.
		log, err := svc.AuditLog(ctx, console.AuditFilter{PanelIDs: []string{panelID(t, e, "northwind")}})
		require.NoError(t, err)
		var roles []string
		for _, entry := range log {
			if entry.Target == "gen@ops.test" {
				assert.Equal(t, "operator.add", entry.Action)
				assert.Equal(t, "cli", entry.OperatorEmail)
				roles = append(roles, entry.AfterJSON)
			}
		}
		assert.Len(t, roles, 2, "one entry per role granted, none for a role already held")
	})
}

func panelID(t *testing.T, e *env, key string) string {
	t.Helper()
	p, err := e.app.Tenancy.PanelByKey(context.Background(), key)
	require.NoError(t, err)
	return p.ID
}
