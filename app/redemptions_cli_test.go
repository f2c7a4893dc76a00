package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/canvass/canvass/modules/redemptions"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedemptionsCommandsRefuseIncompleteArgumentsBeforeTouchingTheDatabase(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("options:\n  - id: paypal\n    kind: paypal\n    nmae: PayPal\n"), 0o600))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "canvass redemptions needs a command"},
		{"options without apply", []string{"options", "list"}, `unknown command "list" for "canvass redemptions options"`},
		{"apply without a panel", []string{"options", "apply", bad}, `required flag(s) "panel" not set`},
		{"apply without a file", []string{"options", "apply", "--panel", "demo"}, "canvass redemptions options apply needs one options FILE.yaml"},
		{"apply of a missing file", []string{"options", "apply", "--panel", "demo", filepath.Join(dir, "none.yaml")}, "no such file"},
		{"apply of a file with a typo", []string{"options", "apply", "--panel", "demo", bad}, "line 4: field nmae not found"},
		{"approve without a reason", []string{"approve", "some-id", "--operator", "olga"}, `required flag(s) "reason" not set`},
		{"reject without an id", []string{"reject", "--reason", "fraud"}, "canvass redemptions reject needs one redemption ID"},
		{"show of two ids", []string{"show", "a", "b"}, "canvass redemptions show needs one redemption ID, got 2"},
		{"an unknown action", []string{"refund", "x"}, `unknown command "refund" for "canvass redemptions"`},
		{"an unknown flag", []string{"list", "--colour"}, "unknown flag: --colour"},
		{"a status that is none", []string{"list", "--status", "lost"}, `--status "lost" is not one of pending, approved, paid, rejected`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepareRedemptionsCommand(c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	rc, err := prepareRedemptionsCommand([]string{"approve", "--operator", "olga", "the-id", "--reason", "checked"})
	require.NoError(t, err, "flags may come before and after the id")
	assert.Equal(t, []string{"approve", "the-id", "olga", "checked"}, []string{rc.action, rc.id, rc.operator, rc.reason})
}

// redemptionsCLI runs one `canvass redemptions` command against the env and returns its output.
func (e *env) redemptionsCLI(args ...string) (string, error) {
	e.t.Helper()
	rc, err := prepareRedemptionsCommand(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = rc.run(context.Background(), e.app, &out)
	return out.String(), err
}

func TestOperatorsApplyOptionsAndMoveRedemptionsThroughTheirLifecycle(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		// The demo options as a file, applied again, change nothing; a new option is created.
		file := filepath.Join(t.TempDir(), "demo.yaml")
		require.NoError(t, os.WriteFile(file, []byte(demoRedemptionOptions["demo"]+`  - id: steam-voucher
    kind: voucher
    name: Steam wallet code
    minimum: "5.00"
`), 0o600))
		out, err := e.redemptionsCLI("options", "apply", "--panel", "demo", file)
		require.NoError(t, err)
		assert.Equal(t, "unchanged paypal\nunchanged bank\nunchanged amazon-voucher\ncreated steam-voucher\n", out)
		out, err = e.redemptionsCLI("options", "apply", "--panel", "demo", file)
		require.NoError(t, err)
		assert.NotContains(t, out, "created")

		// The demo member redeems twice.
		panel, pid := e.demoParticipant()
		redeem := func(amount, option string) *redemptions.Redemption {
			r, created, err := e.app.Redemptions.Redeem(context.Background(), redemptions.RedeemInput{Panel: panel, ParticipantID: pid, Email: DemoEmail, OptionID: option, Amount: amount, Key: uuid.NewString()})
			require.NoError(t, err)
			require.True(t, created)
			return r
		}
		paid := redeem("20.00", "paypal")
		e.credit(2000, "top-up")
		refused := redeem("20.00", "amazon-voucher")

		out, err = e.redemptionsCLI("list", "--panel", "demo", "--status", "pending")
		require.NoError(t, err)
		assert.Contains(t, out, "ID")
		assert.Contains(t, out, paid.ID)
		assert.Contains(t, out, refused.ID)
		assert.Contains(t, out, "m***@demo.test")
		assert.NotContains(t, out, DemoEmail, "the list masks destinations")
		assert.Contains(t, out, "2 redemptions")
		out, err = e.redemptionsCLI("list", "--panel", "northwind")
		require.NoError(t, err)
		assert.Contains(t, out, "0 redemptions")
		_, err = e.redemptionsCLI("list", "--status", "lost")
		assert.ErrorContains(t, err, `--status "lost" is not one of pending, approved, paid, rejected`)

		out, err = e.redemptionsCLI("show", paid.ID)
		require.NoError(t, err)
		assert.Regexp(t, `\n  paypal email +`+regexp.QuoteMeta(DemoEmail)+`\n`, out, "operators see the whole destination")
		assert.Regexp(t, `\nstatus +pending\n`, out)
		assert.Contains(t, out, "(new) -> pending  by member")

		steps := []struct {
			args []string
			want string // part of the output, or of the error when fails
			fail bool
		}{
			{[]string{"mark-paid", paid.ID, "--operator", "olga", "--reason", "paid early"}, "redemption " + paid.ID + " is pending and can't be marked paid (from pending it can move to approved or rejected)", true},
			{[]string{"approve", paid.ID, "--operator", "olga", "--reason", "looks fine"}, paid.ID + " is approved (by olga: looks fine)", false},
			{[]string{"approve", paid.ID, "--operator", "olga", "--reason", "again"}, "redemption " + paid.ID + " is already approved", true},
			{[]string{"mark-paid", paid.ID, "--operator", "pat", "--reason", "PayPal batch 7"}, paid.ID + " is paid (by pat: PayPal batch 7)", false},
			{[]string{"reject", paid.ID, "--operator", "pat", "--reason", "too late"}, "is paid and can't be rejected (from paid it can move to nothing: it is final)", true},
			{[]string{"reject", refused.ID, "--operator", "olga", "--reason", "voucher out of stock"}, "refunded 20.00 USD to member " + pid, false},
			{[]string{"reject", refused.ID, "--operator", "olga", "--reason", "again"}, "is already rejected", true},
			{[]string{"approve", "no-such-id", "--operator", "olga", "--reason", "x"}, "no such redemption", true},
		}
		for _, s := range steps {
			out, err := e.redemptionsCLI(s.args...)
			if s.fail {
				require.Error(t, err, strings.Join(s.args, " "))
				assert.Contains(t, err.Error(), s.want)
				continue
			}
			require.NoError(t, err, strings.Join(s.args, " "))
			assert.Contains(t, out, s.want)
		}
		assert.Equal(t, "25.00", e.balanceOf(e.member()), "25.00 - 20.00 paid + 20.00 earned; the rejected 20.00 came back")

		out, err = e.redemptionsCLI("show", paid.ID)
		require.NoError(t, err)
		for _, line := range []string{"pending -> approved  by olga: looks fine", "approved -> paid  by pat: PayPal batch 7"} {
			assert.Contains(t, out, line)
		}
		out, err = e.redemptionsCLI("show", refused.ID)
		require.NoError(t, err)
		assert.Regexp(t, `\n  email +`+regexp.QuoteMeta(DemoEmail)+`\n`, out, "a voucher goes to the account email")
		assert.Regexp(t, `\nrefund +[0-9a-f-]{36}\n`, out)
		e.reconciledLedger()
	})
}
