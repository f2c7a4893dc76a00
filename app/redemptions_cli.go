package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/modules/redemptions"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// The wallet is the redemptions module's ledger.
var _ redemptions.Ledger = (*wallet.Module)(nil)

// redemptionsPayoutKeyPurpose derives the key that seals payout details from the app secret.
// Changing it (or the secret) makes every stored PayPal email and bank account unreadable.
const redemptionsPayoutKeyPurpose = "redemptions-payout-details"

// panelByID resolves a panel by its id for the redemptions module (operators' commands know a
// redemption's panel by id; tenancy resolves panels by key).
func panelByID(db *gorm.DB, t *tenancy.Module) func(ctx context.Context, id string) (*web.Panel, error) {
	return func(ctx context.Context, id string) (*web.Panel, error) {
		var keys []string
		if err := db.WithContext(ctx).Model(&tenancy.Panel{}).Where("id = ?", id).Limit(1).Pluck("key", &keys).Error; err != nil {
			return nil, fmt.Errorf("panel %s: %w", id, err)
		}
		if len(keys) == 0 {
			return nil, fmt.Errorf("panel %s: %w", id, web.ErrNotFound)
		}
		return t.PanelByKey(ctx, keys[0])
	}
}

// redemptionsCommand is `canvass redemptions ...`, checked before the database is opened.
type redemptionsCommand struct {
	action        string
	panel, status string
	limit         int
	id            string
	operator      string
	reason        string
	file          string
	options       *redemptions.OptionsFile
}

func (c *cli) redemptionsCmd() *cobra.Command {
	return group("redemptions", "Members' payouts: the ways to redeem, the operators' queue and its decisions",
		group("options", "A panel's ways to redeem (PayPal, bank transfer, vouchers)", c.redemptionsOptionsApplyCmd()),
		c.redemptionsListCmd(), c.redemptionsShowCmd(),
		c.redemptionsDecideCmd("approve", "Approve a redemption for payout", ""),
		c.redemptionsDecideCmd("reject", "Reject a redemption and refund the member", "Rejecting refunds the amount to the member's balance."),
		c.redemptionsDecideCmd("mark-paid", "Record that an approved redemption was paid out", ""))
}

// redemptionsRun runs rc once the line has parsed: the redemption ID, when it takes one.
func (c *cli) redemptionsRun(rc *redemptionsCommand) func(*cobra.Command, []string) error {
	return c.body(func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 {
			rc.id = args[0]
		}
		return c.withApp(cmd, rc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
			return rc.run(ctx, app, cmd.OutOrStdout())
		})
	})
}

func (c *cli) redemptionsOptionsApplyCmd() *cobra.Command {
	rc := &redemptionsCommand{action: "options apply"}
	cmd := &cobra.Command{
		Use:   "apply --panel KEY FILE.yaml",
		Short: "Create or update a panel's redemption options by id from a file",
		Long: `Reads and checks the options file before the database is opened (an unknown field is an error),
then creates or updates each option by id and prints what it did.`,
		Example:           "  canvass redemptions options apply --panel demo options.yaml",
		Args:              oneArg("options FILE.yaml"),
		ValidArgsFunction: filesEnding("yaml", "yml"),
		RunE: c.body(func(cmd *cobra.Command, args []string) error {
			rc.file = args[0]
			data, err := os.ReadFile(rc.file)
			if err != nil {
				return err
			}
			if rc.options, err = redemptions.ParseOptions(rc.file, data); err != nil {
				return err
			}
			return c.withApp(cmd, rc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return rc.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	cmd.Flags().StringVar(&rc.panel, "panel", "", "the panel key (required)")
	required(cmd, "panel")
	return cmd
}

func (c *cli) redemptionsListCmd() *cobra.Command {
	rc := &redemptionsCommand{action: "list"}
	statuses := make([]string, 0, len(redemptions.Statuses))
	for _, s := range redemptions.Statuses {
		statuses = append(statuses, string(s))
	}
	cmd := &cobra.Command{
		Use:               "list [--panel KEY] [--status STATUS] [--limit 200]",
		Short:             "The operators' queue of redemptions, oldest first",
		Example:           "  canvass redemptions list --status pending",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			if rc.status != "" && !contains(statuses, rc.status) {
				return usageErrorf("--status %q is not one of %s", rc.status, strings.Join(statuses, ", "))
			}
			return c.redemptionsRun(rc)(cmd, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&rc.panel, "panel", "", "only this panel's redemptions (all panels when absent)")
	f.StringVar(&rc.status, "status", "", "only redemptions in this status: "+strings.Join(statuses, ", "))
	f.IntVar(&rc.limit, "limit", 200, "at most this many redemptions")
	completeWith(cmd, "status", statuses...)
	return cmd
}

func (c *cli) redemptionsShowCmd() *cobra.Command {
	rc := &redemptionsCommand{action: "show"}
	return &cobra.Command{
		Use:               "show ID",
		Short:             "Show a redemption with its whole payout destination and its events",
		Example:           "  canvass redemptions show 0b7c0e1e-2f64-4d0a-9a55-6f1c2d3e4f50",
		Args:              oneArg("redemption ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.redemptionsRun(rc),
	}
}

// redemptionsDecideCommand is `canvass redemptions approve|reject|mark-paid ID --reason TEXT`.
func (c *cli) redemptionsDecideCmd(action, short, long string) *cobra.Command {
	rc := &redemptionsCommand{action: action}
	cmd := &cobra.Command{
		Use:               action + " ID --reason TEXT [--operator NAME]",
		Short:             short,
		Long:              strings.TrimSpace(short + ". The reason and the operator are kept with the change. " + long),
		Example:           "  canvass redemptions " + action + ` 0b7c0e1e-2f64-4d0a-9a55-6f1c2d3e4f50 --reason "Checked the payout details"`,
		Args:              oneArg("redemption ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(rc.operator) == "" {
				return usageErrorf("%s needs --operator when $USER is not set", cmd.CommandPath())
			}
			return c.redemptionsRun(rc)(cmd, args)
		},
	}
	cmd.Flags().StringVar(&rc.reason, "reason", "", "why, kept with the change (required)")
	operatorFlag(cmd, &rc.operator, "who acts")
	required(cmd, "reason")
	return cmd
}

func (rc *redemptionsCommand) run(ctx context.Context, app *App, out io.Writer) error {
	m := app.Redemptions
	switch rc.action {
	case "options apply":
		panel, err := app.Tenancy.PanelByKey(ctx, rc.panel)
		if err != nil {
			return fmt.Errorf("panel %q: %w", rc.panel, err)
		}
		opts, err := rc.options.Build(rc.file, panel)
		if err != nil {
			return err
		}
		applied, err := m.ApplyOptions(ctx, panel, opts)
		if err != nil {
			return err
		}
		for _, a := range applied {
			fmt.Fprintf(out, "%s %s\n", a.Action, a.ID)
		}
	case "list":
		f := redemptions.ListFilter{Status: redemptions.Status(rc.status), Limit: rc.limit}
		if rc.panel != "" {
			panel, err := app.Tenancy.PanelByKey(ctx, rc.panel)
			if err != nil {
				return fmt.Errorf("panel %q: %w", rc.panel, err)
			}
			f.PanelID = panel.ID
		}
		list, err := m.List(ctx, f)
		if err != nil {
			return err
		}
		keys := panelKeys(ctx, app)
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tPANEL\tSTATUS\tOPTION\tAMOUNT\tFEE\tNET\tCREATED\tMEMBER\tDESTINATION")
		for _, r := range list {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s %s\t%s\t%s\t%s\t%s\t%s\n", r.ID, keys(r.PanelID), r.Status, r.OptionID,
				web.MoneyString(r.AmountMinor, r.CurrencyCode), r.CurrencyCode, web.MoneyString(r.FeeMinor, r.CurrencyCode),
				web.MoneyString(r.NetMinor, r.CurrencyCode), r.CreatedAt.UTC().Format(time.RFC3339), r.ParticipantID,
				r.MaskedDestination().Summary())
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d redemptions\n", len(list))
	case "show":
		return rc.show(ctx, app, out)
	case "approve", "reject", "mark-paid":
		act := map[string]func(context.Context, string, string, string) (*redemptions.Redemption, error){
			"approve": m.Approve, "reject": m.Reject, "mark-paid": m.MarkPaid,
		}[rc.action]
		r, err := act(ctx, rc.id, rc.operator, rc.reason)
		if err != nil {
			return fmt.Errorf("%s %s: %w", rc.action, rc.id, err)
		}
		fmt.Fprintf(out, "%s is %s (by %s: %s)\n", r.ID, r.Status, rc.operator, rc.reason)
		if r.RefundEntryID != nil {
			fmt.Fprintf(out, "refunded %s %s to member %s (transaction %s)\n", web.MoneyString(r.AmountMinor, r.CurrencyCode), r.CurrencyCode, r.ParticipantID, *r.RefundEntryID)
		}
	}
	return nil
}

// show prints a redemption for an operator, with its whole (unmasked) destination.
func (rc *redemptionsCommand) show(ctx context.Context, app *App, out io.Writer) error {
	r, events, err := app.Redemptions.Redemption(ctx, rc.id)
	if err != nil {
		return err
	}
	dest, err := app.Redemptions.FullDestination(r)
	if err != nil {
		return err
	}
	money := func(minor int64) string { return web.MoneyString(minor, r.CurrencyCode) + " " + r.CurrencyCode }
	refund := "-"
	if r.RefundEntryID != nil {
		refund = *r.RefundEntryID
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, row := range [][2]string{
		{"redemption", r.ID}, {"panel", panelKeys(ctx, app)(r.PanelID)}, {"member", r.ParticipantID},
		{"option", r.OptionID + " (" + string(r.Kind) + ")"}, {"status", string(r.Status)},
		{"amount", money(r.AmountMinor)}, {"fee", money(r.FeeMinor)}, {"net", money(r.NetMinor)},
		{"created", r.CreatedAt.UTC().Format(time.RFC3339)}, {"debit", r.EntryID}, {"refund", refund},
	} {
		fmt.Fprintf(w, "%s\t%s\n", row[0], row[1])
	}
	fmt.Fprintln(w, "destination\t"+string(dest.Kind))
	for _, f := range [][2]string{
		{"paypal email", dest.PayPalEmail}, {"email", dest.Email}, {"account holder", dest.AccountHolder},
		{"iban", dest.IBAN}, {"bic", dest.BIC}, {"sort code", dest.SortCode}, {"routing number", dest.RoutingNumber},
		{"account number", dest.AccountNumber}, {"account type", dest.AccountType}, {"currency", dest.Currency},
	} {
		if f[1] != "" {
			fmt.Fprintf(w, "  %s\t%s\n", f[0], f[1])
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "events:")
	for _, e := range events {
		from := string(e.FromStatus)
		if from == "" {
			from = "(new)"
		}
		line := fmt.Sprintf("  %s  %s -> %s  by %s", e.CreatedAt.UTC().Format(time.RFC3339), from, e.ToStatus, e.Operator)
		if e.Reason != "" {
			line += ": " + e.Reason
		}
		fmt.Fprintln(out, line)
	}
	return nil
}

// panelKeys names panels by id for the operators' output, each looked up once.
func panelKeys(ctx context.Context, app *App) func(id string) string {
	known := map[string]string{}
	return func(id string) string {
		if k, ok := known[id]; ok {
			return k
		}
		k := id
		if p, err := app.Redemptions.PanelByID(ctx, id); err == nil {
			k = p.Key
		}
		known[id] = k
		return k
	}
}

// demoRedemptionOptions are the demo panels' ways to redeem, in the operators' file format
// (so the demo also exercises what `canvass redemptions options apply` reads).
var demoRedemptionOptions = map[string]string{
	"demo": `options:
  - id: paypal
    kind: paypal
    name: PayPal
    description:
      en: Paid to your PayPal account within three working days.
      es: Pagado en tu cuenta PayPal en tres días hábiles.
  - id: bank
    kind: bank
    name: {en: Bank transfer, es: Transferencia bancaria}
    description:
      en: Paid to your US checking or savings account within five working days.
      es: Pagado en tu cuenta corriente o de ahorro de EE. UU. en cinco días hábiles.
    fee: "0.50"
  - id: amazon-voucher
    kind: voucher
    name: {en: Amazon.com gift card, es: Tarjeta regalo de Amazon.com}
    description:
      en: A gift card code sent to your account's email address.
      es: Un código de tarjeta regalo enviado al correo de tu cuenta.
    minimum: "10.00"
`,
	"northwind": `options:
  - id: paypal
    kind: paypal
    name: PayPal
    description:
      en: Paid to your PayPal account within three working days.
      ru: Выплата на ваш счёт PayPal в течение трёх рабочих дней.
      zh: 三个工作日内支付到您的 PayPal 账户。
  - id: bank
    kind: bank
    name: {en: Bank transfer, ru: Банковский перевод, zh: 银行转账}
    description:
      en: Paid to your UK bank account by Faster Payments.
      ru: Выплата на ваш британский банковский счёт через Faster Payments.
      zh: 通过 Faster Payments 支付到您的英国银行账户。
  - id: amazon-voucher
    kind: voucher
    name: {en: Amazon.co.uk gift card, ru: Подарочная карта Amazon.co.uk, zh: Amazon.co.uk 礼品卡}
    description:
      en: A gift card code sent to your account's email address.
      ru: Код подарочной карты придёт на адрес электронной почты вашего аккаунта.
      zh: 礼品卡代码将发送到您账户的电子邮箱。
    minimum: "10.00"
`,
}

// loadDemoRedemptions gives both demo panels PayPal, bank transfer and a voucher, and the demo
// member a PayPal email on file so a newcomer can redeem at once. Running it again changes
// nothing.
func loadDemoRedemptions(ctx context.Context, app *App, member *web.Panel, participantID string) error {
	for _, spec := range demoPanelsFor(app.addr) {
		panel, err := app.Tenancy.PanelByKey(ctx, spec.Key)
		if err != nil {
			return fmt.Errorf("demo panel %s: %w", spec.Key, err)
		}
		name := "demo/redemptions/" + spec.Key + ".yaml"
		file, err := redemptions.ParseOptions(name, []byte(demoRedemptionOptions[spec.Key]))
		if err != nil {
			return err
		}
		opts, err := file.Build(name, panel)
		if err != nil {
			return err
		}
		if _, err := app.Redemptions.ApplyOptions(ctx, panel, opts); err != nil {
			return err
		}
	}
	have, err := app.Redemptions.Details(ctx, member, participantID, redemptions.KindPayPal)
	if err != nil {
		return fmt.Errorf("demo member's PayPal email: %w", err)
	}
	if have == nil {
		if _, err := app.Redemptions.SavePayPal(ctx, member, participantID, DemoEmail); err != nil {
			return fmt.Errorf("demo member's PayPal email: %w", err)
		}
	}
	return nil
}
