package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/canvass/canvass/modules/console"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// operatorsCommand is `canvass operators add`, checked before the database is opened.
type operatorsCommand struct {
	email, role, panel, password string
}

func (c *cli) operatorsCmd() *cobra.Command {
	oc := &operatorsCommand{}
	roles := make([]string, 0, len(console.Roles))
	for _, r := range console.Roles {
		roles = append(roles, string(r))
	}
	add := &cobra.Command{
		Use:   "add --email EMAIL --role owner|editor|finance|support --panel KEY [--password P]",
		Short: "Add an operator of the console, or give one a role on a panel",
		Long: `Adds an operator of the console (CANVASS_CONSOLE_HOST) with a role on a panel, or gives an existing
operator that role. A new operator's password is generated and printed once unless --password
gives it. Roles: owner (everything, operators too), editor (campaigns and previews), finance
(redemptions, ledger, competitions) and support (members read-only, suspend, resend mails).`,
		Example:           "  canvass operators add --email ana@ops.example --role finance --panel demo",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			if _, ok := console.ParseRole(oc.role); !ok {
				return usageErrorf("--role %q: %w", oc.role, console.ErrBadRole)
			}
			if console.NormalizeEmail(oc.email) == "" {
				return usageErrorf("--email %q: %w", oc.email, console.ErrBadEmail)
			}
			return c.withApp(cmd, oc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return oc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	f := add.Flags()
	f.StringVar(&oc.email, "email", "", "the operator's email, their sign-in (required)")
	f.StringVar(&oc.role, "role", "", strings.Join(roles, ", ")+" (required)")
	f.StringVar(&oc.panel, "panel", "", "the key of the panel the role is on (required)")
	f.StringVar(&oc.password, "password", "", "a new operator's password (generated and printed once when absent)")
	required(add, "email", "role", "panel")
	completeWith(add, "role", roles...)
	return group("operators", "The console's operators", add)
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
