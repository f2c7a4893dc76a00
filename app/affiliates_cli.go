package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/web"
)

const affiliatesUsage = `usage: canvass affiliates create --panel KEY --code CODE --partner NAME [--bonus 2.00] [--operator NAME]
       canvass affiliates list --panel KEY`

// affiliatesCommand is `canvass affiliates ...`, checked before the database is opened.
type affiliatesCommand struct {
	action, panel, code, partner, bonus, operator string
}

func prepareAffiliatesCommand(args []string) (*affiliatesCommand, error) {
	if len(args) == 0 {
		return nil, errors.New(affiliatesUsage)
	}
	ac := &affiliatesCommand{action: args[0]}
	fs := flag.NewFlagSet("affiliates "+ac.action, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&ac.panel, "panel", "", "the panel key")
	fs.StringVar(&ac.code, "code", "", "the partner's code (3-32 letters, digits, - and _)")
	fs.StringVar(&ac.partner, "partner", "", "the partner's name, as members read it")
	fs.StringVar(&ac.bonus, "bonus", "", "the sign-up bonus in the panel's currency (none when absent)")
	fs.StringVar(&ac.operator, "operator", os.Getenv("USER"), "who creates it")
	positional, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, affiliatesUsage)
	}
	if len(positional) > 0 {
		return nil, errors.New(affiliatesUsage)
	}
	var missing []string
	if ac.panel == "" {
		missing = append(missing, "--panel")
	}
	switch ac.action {
	case "create":
		if ac.code == "" {
			missing = append(missing, "--code")
		}
		if strings.TrimSpace(ac.partner) == "" {
			missing = append(missing, "--partner")
		}
	case "list":
	default:
		return nil, errors.New(affiliatesUsage)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("affiliates %s needs %s\n%s", ac.action, strings.Join(missing, ", "), affiliatesUsage)
	}
	return ac, nil
}

func (ac *affiliatesCommand) run(ctx context.Context, app *App, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, ac.panel)
	if err != nil {
		return fmt.Errorf("panel %s: %w", ac.panel, err)
	}
	svc := app.Referrals.Service()
	if ac.action == "create" {
		a, err := svc.CreateAffiliate(ctx, panel, referrals.NewAffiliate{Code: ac.code, Partner: ac.partner, Bonus: ac.bonus, Operator: ac.operator})
		if err != nil {
			return fmt.Errorf("affiliates create: %w", err)
		}
		bonus := "no bonus"
		if a.BonusMinor > 0 {
			bonus = "bonus " + web.MoneyString(a.BonusMinor, a.CurrencyCode) + " " + a.CurrencyCode
		}
		fmt.Fprintf(out, "created affiliate %s of panel %s: %s, %s\n", a.Code, panel.Key, a.Partner, bonus)
		fmt.Fprintf(out, "links: /affiliates/%s (the partner's page) and /join?%s (joining with it)\n", a.Code, url.Values{"affiliate": {a.Code}}.Encode())
		return nil
	}
	list, err := svc.Affiliates(ctx, panel)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "CODE\tPARTNER\tBONUS\tMEMBERS\tCREATED\tBY")
	for _, a := range list {
		fmt.Fprintf(w, "%s\t%s\t%s %s\t%d\t%s\t%s\n", a.Code, a.Partner, web.MoneyString(a.BonusMinor, a.CurrencyCode), a.CurrencyCode,
			a.Members, a.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), a.Operator)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d affiliates\n", len(list))
	return nil
}
