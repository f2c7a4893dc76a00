package main

import (
	"context"
	"fmt"
	"io"

	"github.com/canvass/canvass/modules/web"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// ledgerCommand is `canvass ledger adjust|balance|reconcile`, its flags checked before the
// database is opened.
type ledgerCommand struct {
	action                              string
	panel, member, amount, reason, user string
	key                                 string
}

func (c *cli) ledgerCmd() *cobra.Command {
	return group("ledger", "Operators' manual entries, a member's balance and the ledger's check",
		c.ledgerAdjustCmd(), c.ledgerBalanceCmd(), c.ledgerReconcileCmd())
}

func (c *cli) ledgerAdjustCmd() *cobra.Command {
	lc := &ledgerCommand{action: "adjust"}
	cmd := &cobra.Command{
		Use:   "adjust --panel KEY --member EMAIL --amount AMOUNT --reason TEXT",
		Short: "Record an operator's manual entry in a member's ledger (a negative amount debits)",
		Long: `Records a manual entry in a member's ledger and prints the balance after it. A positive amount
credits, a negative one debits; the member sees the reason in their transactions. --key makes the
command safe to run again: a second run with the same key records nothing.`,
		Example: `  canvass ledger adjust --panel demo --member member@demo.test --amount 5.00 --reason "Missed reward for the June survey"
  canvass ledger adjust --panel demo --member member@demo.test --amount -5.00 --reason "Duplicate credit" --key ticket-4711`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			if lc.user == "" {
				lc.user = "operator"
			}
			return c.withApp(cmd, lc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return lc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	f := cmd.Flags()
	f.StringVar(&lc.panel, "panel", "", "the panel key (required)")
	f.StringVar(&lc.member, "member", "", "the member's email (required)")
	f.StringVar(&lc.amount, "amount", "", "a signed amount in the panel's currency: 5.00 credits, -5.00 debits (required)")
	f.StringVar(&lc.reason, "reason", "", "why, as the member reads it (required)")
	operatorFlag(cmd, &lc.user, "who makes the entry")
	f.StringVar(&lc.key, "key", "", "an idempotency key: a repeated command with it records nothing")
	required(cmd, "panel", "member", "amount", "reason")
	return cmd
}

func (c *cli) ledgerBalanceCmd() *cobra.Command {
	lc := &ledgerCommand{action: "balance"}
	cmd := &cobra.Command{
		Use:               "balance --panel KEY --member EMAIL",
		Short:             "Print a member's balance",
		Example:           "  canvass ledger balance --panel demo --member member@demo.test",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			return c.withApp(cmd, lc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return lc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	cmd.Flags().StringVar(&lc.panel, "panel", "", "the panel key (required)")
	cmd.Flags().StringVar(&lc.member, "member", "", "the member's email (required)")
	required(cmd, "panel", "member")
	return cmd
}

func (c *cli) ledgerReconcileCmd() *cobra.Command {
	lc := &ledgerCommand{action: "reconcile"}
	return &cobra.Command{
		Use:   "reconcile",
		Short: "Check every cached balance against its ledger entries",
		Long: `Compares every wallet's cached balance, entry count and offer debt with the sums of its ledger
entries, prints each mismatch, and fails (exit status 1) when there is any.`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			return c.withApp(cmd, lc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return lc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
}

func (lc *ledgerCommand) run(ctx context.Context, app *App, out io.Writer) error {
	var panel *web.Panel
	var pid string
	if lc.panel != "" {
		p, err := app.Tenancy.PanelByKey(ctx, lc.panel)
		if err != nil {
			return fmt.Errorf("panel %q: %w", lc.panel, err)
		}
		panel = p
	}
	if lc.member != "" {
		id, err := app.Accounts.Service().ParticipantByEmail(ctx, panel, lc.member)
		if err != nil {
			return err
		}
		pid = id
	}
	switch lc.action {
	case "adjust":
		e, created, err := app.Wallet.Adjust(ctx, panel, pid, lc.amount, lc.reason, lc.user, lc.key)
		if err != nil {
			return fmt.Errorf("adjust %s of %s: %w", lc.amount, lc.member, err)
		}
		verb := "recorded"
		if !created {
			verb = "already recorded"
		}
		fmt.Fprintf(out, "%s %s %s for %s: balance %s %s (transaction %s)\n", verb,
			web.MoneyString(e.AmountMinor, e.CurrencyCode), e.CurrencyCode, lc.member,
			web.MoneyString(e.BalanceAfter, e.CurrencyCode), e.CurrencyCode, e.ID)
	case "balance":
		b, err := app.Wallet.Balance(ctx, panel, pid)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %s\n", web.MoneyString(b.Minor, b.Currency), b.Currency)
	case "reconcile":
		bad, err := app.Wallet.Reconcile(ctx, "")
		if err != nil {
			return err
		}
		for _, m := range bad {
			fmt.Fprintf(out, "MISMATCH %s: cached %d, entries sum %d; counter %d, entries %d; owed %d, debts sum %d\n",
				m.ParticipantID, m.Cached, m.Sum, m.CachedCount, m.Count, m.CachedOwed, m.Debt)
		}
		if len(bad) > 0 {
			return fmt.Errorf("%d wallets do not match their ledger", len(bad))
		}
		fmt.Fprintln(out, "ok: every wallet matches its ledger")
	}
	return nil
}
