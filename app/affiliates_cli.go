package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"text/tabwriter"

	"github.com/canvass/canvass/modules/referrals"
	"github.com/canvass/canvass/modules/web"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// affiliatesCommand is `canvass affiliates create|list`, checked before the database is opened.
type affiliatesCommand struct {
	action, panel, code, partner, bonus, operator string
}

func (c *cli) affiliatesCmd() *cobra.Command {
	return group("affiliates", "Partners' codes: the members each brings get a sign-up bonus",
		c.affiliatesCreateCmd(), c.affiliatesListCmd())
}

func (c *cli) affiliatesCreateCmd() *cobra.Command {
	ac := &affiliatesCommand{action: "create"}
	cmd := &cobra.Command{
		Use:   "create --panel KEY --code CODE --partner NAME [--bonus 2.00]",
		Short: "Create a partner's code: members it brings get the bonus once",
		Long: `Creates a partner's code on a panel, and prints the partner's page and the join link with it.
A member who joins through the code gets the bonus (if any) once.`,
		Example:           `  canvass affiliates create --panel northwind --code SPRING-25 --partner "Spring Offers" --bonus 2.50`,
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			return c.withApp(cmd, ac, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return ac.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	f := cmd.Flags()
	f.StringVar(&ac.panel, "panel", "", "the panel key (required)")
	f.StringVar(&ac.code, "code", "", "the partner's code: 3-32 letters, digits, - and _ (required)")
	f.StringVar(&ac.partner, "partner", "", "the partner's name, as members read it (required)")
	f.StringVar(&ac.bonus, "bonus", "", "the sign-up bonus in the panel's currency (none when absent)")
	operatorFlag(cmd, &ac.operator, "who creates it")
	required(cmd, "panel", "code", "partner")
	return cmd
}

func (c *cli) affiliatesListCmd() *cobra.Command {
	ac := &affiliatesCommand{action: "list"}
	cmd := &cobra.Command{
		Use:               "list --panel KEY",
		Short:             "List a panel's partner codes with the members each brought",
		Example:           "  canvass affiliates list --panel northwind",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			return c.withApp(cmd, ac, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return ac.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	cmd.Flags().StringVar(&ac.panel, "panel", "", "the panel key (required)")
	required(cmd, "panel")
	return cmd
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
