package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/canvass/canvass/modules/web"
)

const ledgerUsage = `usage: canvass ledger adjust --panel KEY --member EMAIL --amount 5.00 --reason "..." [--operator NAME] [--key KEY]
       canvass ledger balance --panel KEY --member EMAIL
       canvass ledger reconcile`

// ledgerCommand is `canvass ledger ...`, its flags checked before the database is opened.
type ledgerCommand struct {
	action                              string
	panel, member, amount, reason, user string
	key                                 string
}

func prepareLedgerCommand(args []string) (*ledgerCommand, error) {
	if len(args) == 0 {
		return nil, errors.New(ledgerUsage)
	}
	lc := &ledgerCommand{action: args[0]}
	fs := flag.NewFlagSet("ledger "+lc.action, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&lc.panel, "panel", "", "the panel key")
	fs.StringVar(&lc.member, "member", "", "the member's email")
	fs.StringVar(&lc.amount, "amount", "", "a signed amount in the panel's currency: 5.00 credits, -5.00 debits")
	fs.StringVar(&lc.reason, "reason", "", "why (the member sees it)")
	fs.StringVar(&lc.user, "operator", os.Getenv("USER"), "who makes the entry")
	fs.StringVar(&lc.key, "key", "", "makes a repeated command a no-op")
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() > 0 {
		return nil, errors.New(ledgerUsage)
	}
	switch lc.action {
	case "adjust":
		if lc.panel == "" || lc.member == "" || lc.amount == "" || strings.TrimSpace(lc.reason) == "" {
			return nil, fmt.Errorf("ledger adjust needs --panel, --member, --amount and --reason\n%s", ledgerUsage)
		}
		if lc.user == "" {
			lc.user = "operator"
		}
	case "balance":
		if lc.panel == "" || lc.member == "" {
			return nil, fmt.Errorf("ledger balance needs --panel and --member\n%s", ledgerUsage)
		}
	case "reconcile":
	default:
		return nil, errors.New(ledgerUsage)
	}
	return lc, nil
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
