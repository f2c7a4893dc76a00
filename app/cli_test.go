package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseCommand parses `canvass ARGS...` as main does, up to where the command would read the
// configuration and open the database, and returns what the command parsed and checked.
func parseCommand[T any](args ...string) (T, error) {
	var got T
	c := &cli{log: quietCLILog(), parsed: func(v any) { got = v.(T) }}
	err := c.execute(context.Background(), args, io.Discard, io.Discard)
	return got, err
}

func prepareAffiliatesCommand(args []string) (*affiliatesCommand, error) {
	return parseCommand[*affiliatesCommand](append([]string{"affiliates"}, args...)...)
}

func prepareCompetitionsCommand(args []string) (*competitionsCommand, error) {
	return parseCommand[*competitionsCommand](append([]string{"competitions"}, args...)...)
}

func prepareErrorsCommand(args []string) (*errorsCommand, error) {
	return parseCommand[*errorsCommand](append([]string{"errors"}, args...)...)
}

func prepareJobsCommand(args []string) (*jobsCommand, error) {
	return parseCommand[*jobsCommand](append([]string{"jobs"}, args...)...)
}

func prepareMailCommand(args []string) (*mailSend, error) {
	return parseCommand[*mailSend](append([]string{"mail"}, args...)...)
}

func prepareOperatorsCommand(args []string) (*operatorsCommand, error) {
	return parseCommand[*operatorsCommand](append([]string{"operators"}, args...)...)
}

func prepareRedemptionsCommand(args []string) (*redemptionsCommand, error) {
	return parseCommand[*redemptionsCommand](append([]string{"redemptions"}, args...)...)
}

func prepareTranslationsCommand(args []string) (*translationsCommand, error) {
	return parseCommand[*translationsCommand](append([]string{"translations"}, args...)...)
}

// everyCommand is every command of the tree as a user types it after `canvass` (the root is
// the empty path), help's and completion's included: a new command is covered by the tests
// that walk it without being listed anywhere.
func everyCommand() [][]string {
	root := (&cli{log: quietCLILog()}).rootCmd()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var paths [][]string
	var walk func(cmd *cobra.Command, path []string)
	walk = func(cmd *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range cmd.Commands() {
			if !sub.Hidden {
				walk(sub, append(slices.Clone(path), sub.Name()))
			}
		}
	}
	walk(root, []string{})
	return paths
}

// runBinary runs the canvass binary with args in an empty folder of its own and without any
// CANVASS_ variable (the database would be ./data/canvass.db there), and returns its exit
// status, its output and the folder.
func runBinary(t *testing.T, bin string, args ...string) (code int, stdout, stderr, dir string) {
	t.Helper()
	dir = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a command that serves instead never ends
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CANVASS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return code, out.String(), errOut.String(), dir
}

func assertNothingCreated(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Empty(t, names, "the command created files in its working directory")
}

func TestEveryCommandsHelpAndTheCompletionScriptsExitZeroAndCreateNothing(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "canvass")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	paths := everyCommand()
	require.Greater(t, len(paths), 40, "the tree holds every command and sub-command")
	require.Contains(t, paths, []string{"ledger", "adjust"})
	require.Contains(t, paths, []string{"redemptions", "options", "apply"})
	for _, path := range paths {
		name := strings.Join(append([]string{"canvass"}, path...), " ")
		t.Run(name+" --help prints its usage", func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr, dir := runBinary(t, bin, append(slices.Clone(path), "--help")...)
			assert.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stdout, "Usage:")
			assert.Contains(t, stdout, name)
			assert.Empty(t, stderr)
			assertNothingCreated(t, dir)
		})
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"canvass help lists the commands in their groups", []string{"help"},
			[]string{"Usage:", "Running the server:", "Money, prizes and partners:", "ledger", "completion", "serve"}},
		{"canvass -h is the same help", []string{"-h"}, []string{"Usage:", "Running the server:"}},
		{"canvass help ledger adjust explains the command and its flags", []string{"help", "ledger", "adjust"},
			[]string{"canvass ledger adjust --panel KEY --member EMAIL --amount AMOUNT --reason TEXT", "--operator", "--key", "Examples:"}},
		{"canvass completion bash writes a bash script", []string{"completion", "bash"}, []string{"bash completion", "canvass"}},
		{"canvass completion zsh writes a zsh script", []string{"completion", "zsh"}, []string{"#compdef canvass"}},
		{"canvass completion fish writes a fish script", []string{"completion", "fish"}, []string{"complete -c canvass"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr, dir := runBinary(t, bin, tc.args...)
			assert.Equal(t, exitOK, code, stderr)
			assert.NotEmpty(t, stdout)
			for _, w := range tc.want {
				assert.Contains(t, stdout, w)
			}
			assert.Empty(t, stderr)
			assertNothingCreated(t, dir)
		})
	}
	t.Run("a mistake in the line exits 2 and creates nothing either", func(t *testing.T) {
		t.Parallel()
		code, stdout, stderr, dir := runBinary(t, bin, "ledger", "adjust", "--member", "m@demo.test", "--amount", "5.00", "--reason", "r")
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, stdout)
		assert.Equal(t, "Error: required flag(s) \"panel\" not set\nRun 'canvass ledger adjust --help' for usage.\n", stderr)
		assertNothingCreated(t, dir)
	})
}

func TestAMistakeInTheCommandLineExitsTwoNamingItWithoutRunningTheCommand(t *testing.T) {
	t.Parallel()
	member := []string{"--member", "m@demo.test", "--amount", "5.00", "--reason", "Missed reward"}
	for _, tc := range []struct {
		name string
		args []string
		want []string
		// hint is the command whose --help the error points at.
		hint string
	}{
		{"an unknown flag", []string{"ledger", "balance", "--panel", "demo", "--member", "m@demo.test", "--colour", "red"},
			[]string{"unknown flag: --colour"}, "canvass ledger balance"},
		{"an unknown flag without a command, which does not serve", []string{"--colour"}, []string{"unknown flag: --colour"}, "canvass"},
		{"an unknown command", []string{"ledgr", "balance"}, []string{`unknown command "ledgr" for "canvass"`, "ledger"}, "canvass"},
		{"an unknown sub-command", []string{"ledger", "adjst", "--panel", "demo"},
			[]string{`unknown command "adjst" for "canvass ledger"`, "did you mean adjust?"}, "canvass ledger"},
		{"a group of commands alone", []string{"redemptions"},
			[]string{"canvass redemptions needs a command: approve, list, mark-paid, options, reject, show"}, "canvass redemptions"},
		{"a missing required flag", append([]string{"ledger", "adjust"}, member...), []string{`required flag(s) "panel" not set`}, "canvass ledger adjust"},
		{"missing required flags", []string{"operators", "add", "--role", "owner"}, []string{`required flag(s) "email", "panel" not set`}, "canvass operators add"},
		{"a blank required flag", append([]string{"ledger", "adjust", "--panel", " "}, member...), []string{"--panel must not be blank"}, "canvass ledger adjust"},
		{"a missing argument", []string{"jobs", "retry"}, []string{"canvass jobs retry needs one job ID"}, "canvass jobs retry"},
		{"one argument too many", []string{"postcodes", "import", "--panel", "demo", "a.csv", "b.csv"},
			[]string{"canvass postcodes import needs one FILE.csv, got 2: a.csv b.csv"}, "canvass postcodes import"},
		{"an argument to a command that takes none", []string{"migrate", "now"}, []string{`canvass migrate takes no arguments, got "now"`}, "canvass migrate"},
		{"a flag value that does not parse", []string{"jobs", "list", "--limit", "many"}, []string{`invalid argument "many" for "--limit" flag`}, "canvass jobs list"},
		{"a flag value out of its range", []string{"errors", "list", "--limit", "0"}, []string{"--limit must be a whole number from 1 to 1000, not 0"}, "canvass errors list"},
		{"a flag value that is not one of its choices", []string{"operators", "add", "--email", "a@ops.test", "--role", "admin", "--panel", "demo"},
			[]string{`--role "admin"`}, "canvass operators add"},
		{"an argument that does not parse", []string{"jobs", "cancel", "seven"}, []string{`"seven" is not a job ID`}, "canvass jobs cancel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			c := &cli{log: quietCLILog(), parsed: func(any) { t.Error("the line parsed: the command would have run") }}
			code := report(c.execute(context.Background(), tc.args, &stdout, &stderr), c.log, &stderr)
			assert.Equal(t, exitUsage, code)
			for _, w := range tc.want {
				assert.Contains(t, stderr.String(), w)
			}
			assert.True(t, strings.HasSuffix(stderr.String(), "\nRun '"+tc.hint+" --help' for usage.\n"), stderr.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "Error:"), "the error is printed once")
			assert.Empty(t, stdout.String())
		})
	}
}

func TestACommandThatRunsAndFailsExitsOneWithoutTheUsageHint(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	var stdout, stderr bytes.Buffer
	c := &cli{log: quietCLILog()}

	code := report(c.execute(context.Background(), []string{"campaigns", "validate", missing}, &stdout, &stderr), c.log, &stderr)

	assert.Equal(t, exitError, code)
	assert.Contains(t, stderr.String(), "missing.yaml")
	assert.Contains(t, stderr.String(), "1 of 1 campaign files are invalid")
	assert.NotContains(t, stderr.String(), "--help")
}

func TestCanvassWithoutACommandServes(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"serve"}} {
		got, err := parseCommand[string](args...)
		require.NoError(t, err, "%v", args)
		assert.Equal(t, "serve", got, "%v", args)
	}
}

func TestCommandLinesParseToWhatTheCommandsRunWithTheFlagsDefaults(t *testing.T) {
	t.Parallel()
	t.Run("tenant apply takes its files in order", func(t *testing.T) {
		t.Parallel()
		files, err := parseCommand[[]string]("tenant", "apply", "a.yaml", "b.yaml")
		require.NoError(t, err)
		assert.Equal(t, []string{"a.yaml", "b.yaml"}, files)
	})
	t.Run("a negative amount is the amount's value, not a flag", func(t *testing.T) {
		t.Parallel()
		lc, err := parseCommand[*ledgerCommand]("ledger", "adjust", "--panel", "demo", "--member", "m@demo.test", "--amount", "-5.00",
			"--reason", "Duplicate credit", "--operator", "olga", "--key", "k1")
		require.NoError(t, err)
		assert.Equal(t, ledgerCommand{action: "adjust", panel: "demo", member: "m@demo.test", amount: "-5.00", reason: "Duplicate credit", user: "olga", key: "k1"}, *lc)
	})
	t.Run("the preview link works 72 hours unless told otherwise", func(t *testing.T) {
		t.Parallel()
		pl, err := parseCommand[*previewLink]("campaigns", "preview-link", "the-uuid", "--panel", "demo")
		require.NoError(t, err)
		assert.Equal(t, previewLink{panelKey: "demo", campaign: "the-uuid", hours: 72}, *pl)
	})
	t.Run("jobs list shows 50 jobs unless told otherwise", func(t *testing.T) {
		t.Parallel()
		jc, err := parseCommand[*jobsCommand]("jobs", "list", "--state", "retryable")
		require.NoError(t, err)
		assert.Equal(t, jobsCommand{action: "list", state: "retryable", limit: 50}, *jc)
	})
	t.Run("restore takes --force after its file", func(t *testing.T) {
		t.Parallel()
		bc, err := parseCommand[*backupCommand]("restore", "backup.db", "--force")
		require.NoError(t, err)
		assert.Equal(t, backupCommand{action: "restore", file: "backup.db", force: true}, *bc)
	})
}
