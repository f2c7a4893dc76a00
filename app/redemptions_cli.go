package main

import (
	"context"
	"errors"
	"flag"
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

const redemptionsUsage = `usage: canvass redemptions options apply --panel KEY FILE.yaml
       canvass redemptions list [--panel KEY] [--status pending|approved|paid|rejected] [--limit 200]
       canvass redemptions show ID
       canvass redemptions approve ID --reason TEXT [--operator NAME]
       canvass redemptions reject ID --reason TEXT [--operator NAME]     (refunds the member)
       canvass redemptions mark-paid ID --reason TEXT [--operator NAME]`

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

func prepareRedemptionsCommand(args []string) (*redemptionsCommand, error) {
	if len(args) == 0 {
		return nil, errors.New(redemptionsUsage)
	}
	rc := &redemptionsCommand{action: args[0]}
	args = args[1:]
	if rc.action == "options" {
		if len(args) == 0 || args[0] != "apply" {
			return nil, errors.New(redemptionsUsage)
		}
		rc.action, args = "options apply", args[1:]
	}
	fs := flag.NewFlagSet("redemptions "+rc.action, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&rc.panel, "panel", "", "the panel key")
	fs.StringVar(&rc.status, "status", "", "pending, approved, paid or rejected")
	fs.IntVar(&rc.limit, "limit", 200, "at most this many redemptions")
	fs.StringVar(&rc.operator, "operator", os.Getenv("USER"), "who acts")
	fs.StringVar(&rc.reason, "reason", "", "why (kept with the change)")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, redemptionsUsage)
	}
	switch rc.action {
	case "options apply":
		if rc.panel == "" || len(positional) != 1 {
			return nil, fmt.Errorf("redemptions options apply needs --panel and one FILE.yaml\n%s", redemptionsUsage)
		}
		rc.file = positional[0]
		data, err := os.ReadFile(rc.file)
		if err != nil {
			return nil, err
		}
		if rc.options, err = redemptions.ParseOptions(rc.file, data); err != nil {
			return nil, err
		}
	case "list":
		if len(positional) > 0 {
			return nil, errors.New(redemptionsUsage)
		}
	case "show":
		if len(positional) != 1 {
			return nil, fmt.Errorf("redemptions show needs one redemption ID\n%s", redemptionsUsage)
		}
		rc.id = positional[0]
	case "approve", "reject", "mark-paid":
		if len(positional) != 1 {
			return nil, fmt.Errorf("redemptions %s needs one redemption ID\n%s", rc.action, redemptionsUsage)
		}
		rc.id = positional[0]
		if strings.TrimSpace(rc.reason) == "" || strings.TrimSpace(rc.operator) == "" {
			return nil, fmt.Errorf("redemptions %s needs --reason (and --operator when $USER is not set)\n%s", rc.action, redemptionsUsage)
		}
	default:
		return nil, errors.New(redemptionsUsage)
	}
	return rc, nil
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
	for _, spec := range demoPanels() {
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

// parseInterspersed parses fs from args where flags may come before or after the positional
// arguments (approve ID --reason ...), which the flag package alone stops at; it returns the
// positional arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
