package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/canvass/canvass/modules/console"
)

const operatorsUsage = `usage: canvass operators add --email EMAIL --role owner|editor|finance|support --panel KEY [--password PASSWORD]`

// operatorsCommand is `canvass operators add`, checked before the database is opened.
type operatorsCommand struct {
	email, role, panel, password string
}

func prepareOperatorsCommand(args []string) (*operatorsCommand, error) {
	if len(args) == 0 || args[0] != "add" {
		return nil, errors.New(operatorsUsage)
	}
	oc := &operatorsCommand{}
	fs := flag.NewFlagSet("operators add", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&oc.email, "email", "", "the operator's email (their sign-in)")
	fs.StringVar(&oc.role, "role", "", "owner, editor, finance or support")
	fs.StringVar(&oc.panel, "panel", "", "the panel key the role is on")
	fs.StringVar(&oc.password, "password", "", "the password of a new operator (generated and printed once when absent)")
	positional, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, operatorsUsage)
	}
	if len(positional) > 0 {
		return nil, errors.New(operatorsUsage)
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"--email", oc.email}, {"--role", oc.role}, {"--panel", oc.panel}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("operators add needs %s\n%s", strings.Join(missing, ", "), operatorsUsage)
	}
	if _, ok := console.ParseRole(oc.role); !ok {
		return nil, fmt.Errorf("operators add: --role %q: %w\n%s", oc.role, console.ErrBadRole, operatorsUsage)
	}
	if console.NormalizeEmail(oc.email) == "" {
		return nil, fmt.Errorf("operators add: --email %q: %w", oc.email, console.ErrBadEmail)
	}
	return oc, nil
}

func (oc *operatorsCommand) run(ctx context.Context, app *App, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, oc.panel)
	if err != nil {
		return fmt.Errorf("operators add: no panel %q: %w", oc.panel, err)
	}
	role, _ := console.ParseRole(oc.role)
	res, err := app.Console.Service().AddOperator(ctx, console.CLI, oc.email, role, panel.ID, oc.password)
	if err != nil {
		return fmt.Errorf("operators add: %w", err)
	}
	switch {
	case res.Created:
		fmt.Fprintf(out, "created operator %s\n", res.Operator.Email)
	case !res.Granted:
		fmt.Fprintf(out, "operator %s already is %s on %s\n", res.Operator.Email, role, panel.Key)
		return nil
	}
	fmt.Fprintf(out, "%s is %s on %s\n", res.Operator.Email, role, panel.Key)
	if res.Password != "" {
		fmt.Fprintf(out, "password (shown once): %s\n", res.Password)
	}
	return nil
}
