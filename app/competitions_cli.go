package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/competitions"
	"github.com/canvass/canvass/modules/tenancy"
	"github.com/canvass/canvass/modules/wallet"
	"github.com/canvass/canvass/modules/web"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// The wallet is what the competitions module pays through.
var _ competitions.Ledger = (*wallet.Module)(nil)

// allPanels lists every panel (by key), for operators who name a competition by id alone.
func allPanels(db *gorm.DB, t *tenancy.Module) func(ctx context.Context) ([]*web.Panel, error) {
	return func(ctx context.Context) ([]*web.Panel, error) {
		var keys []string
		if err := db.WithContext(ctx).Model(&tenancy.Panel{}).Order("key").Pluck("key", &keys).Error; err != nil {
			return nil, fmt.Errorf("list panels: %w", err)
		}
		out := make([]*web.Panel, 0, len(keys))
		for _, k := range keys {
			p, err := t.PanelByKey(ctx, k)
			if err != nil {
				return nil, fmt.Errorf("panel %s: %w", k, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
}

// competitionsCommand is `canvass competitions list|show|draw|verify`, checked before the
// database is opened.
type competitionsCommand struct {
	action   string
	panel    string
	id       string
	operator string
	reason   string
	early    bool
}

func (c *cli) competitionsCmd() *cobra.Command {
	return group("competitions", "Competitions' entries and prize draws: list, show, draw and verify them",
		c.competitionsListCmd(), c.competitionsShowCmd(), c.competitionsDrawCmd(), c.competitionsVerifyCmd())
}

// competitionsRun runs cc once the line has parsed: the competition ID, when it takes one.
func (c *cli) competitionsRun(cc *competitionsCommand) func(*cobra.Command, []string) error {
	return c.body(func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 {
			cc.id = args[0]
		}
		return c.withApp(cmd, cc, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
			return cc.run(ctx, app, cmd.OutOrStdout())
		})
	})
}

func (c *cli) competitionsListCmd() *cobra.Command {
	cc := &competitionsCommand{action: "list"}
	cmd := &cobra.Command{
		Use:               "list [--panel KEY]",
		Short:             "List competitions with their entries and draws",
		Example:           "  canvass competitions list --panel demo",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.competitionsRun(cc),
	}
	cmd.Flags().StringVar(&cc.panel, "panel", "", "only this panel's competitions (all panels when absent)")
	return cmd
}

func (c *cli) competitionsShowCmd() *cobra.Command {
	cc := &competitionsCommand{action: "show"}
	cmd := &cobra.Command{
		Use:               "show ID [--panel KEY]",
		Short:             "Show a competition, its draw and winners",
		Example:           "  canvass competitions show 5f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
		Args:              oneArg("competition ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.competitionsRun(cc),
	}
	cmd.Flags().StringVar(&cc.panel, "panel", "", "the panel key (default: the competition's own panel)")
	return cmd
}

func (c *cli) competitionsDrawCmd() *cobra.Command {
	cc := &competitionsCommand{action: "draw"}
	cmd := &cobra.Command{
		Use:   "draw ID --reason TEXT [--operator NAME] [--early]",
		Short: "Draw a competition's winners once and credit their prizes",
		Long: `Draws the winners of a competition once, from a recorded seed and the recorded entrants, and
credits each winner's prize. Before the competition's draw date it refuses unless --early.
canvass competitions verify checks a draw again later.`,
		Example:           `  canvass competitions draw 5f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11 --reason "Monthly draw" --early`,
		Args:              oneArg("competition ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
	}
	run := c.competitionsRun(cc)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if strings.TrimSpace(cc.operator) == "" {
			return usageErrorf("%s needs --operator when $USER is not set", cmd.CommandPath())
		}
		return run(cmd, args)
	}
	f := cmd.Flags()
	f.StringVar(&cc.reason, "reason", "", "why, kept with the draw (required)")
	operatorFlag(cmd, &cc.operator, "who draws")
	f.BoolVar(&cc.early, "early", false, "draw before the competition's draw date")
	f.StringVar(&cc.panel, "panel", "", "the panel key (default: the competition's own panel)")
	required(cmd, "reason")
	return cmd
}

func (c *cli) competitionsVerifyCmd() *cobra.Command {
	cc := &competitionsCommand{action: "verify"}
	return &cobra.Command{
		Use:   "verify ID",
		Short: "Check a draw again from its seed and entrants",
		Long: `Draws a competition again from its recorded seed and entrants and compares the winners with the
recorded ones; fails (exit status 1) when they differ.`,
		Example:           "  canvass competitions verify 5f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
		Args:              oneArg("competition ID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.competitionsRun(cc),
	}
}

func (cc *competitionsCommand) run(ctx context.Context, app *App, out io.Writer) error {
	switch cc.action {
	case "list":
		return cc.list(ctx, app, out)
	case "show":
		panel, err := cc.panelOf(ctx, app)
		if err != nil {
			return err
		}
		d, err := app.Competitions.Show(ctx, panel, cc.id)
		if err != nil {
			return err
		}
		printCompetition(out, panel, d)
	case "draw":
		panel, err := cc.panelOf(ctx, app)
		if err != nil {
			return err
		}
		d, err := app.Competitions.Draw(ctx, panel, cc.id, cc.operator, cc.reason, cc.early)
		if err != nil {
			return fmt.Errorf("draw %s: %w", cc.id, err)
		}
		info, err := app.Competitions.Show(ctx, panel, cc.id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "drew competition %s (%s) of panel %s\n", d.Record.CompetitionID, info.Info.Name, panel.Key)
		printDraw(out, &info.Info, d.Record, d.Winners)
	case "verify":
		v, err := app.Competitions.Verify(ctx, cc.id)
		if err != nil {
			return err
		}
		r := v.Draw.Record
		w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintf(w, "competition\t%s\n", r.CompetitionID)
		fmt.Fprintf(w, "seed\t%s\n", r.Seed)
		fmt.Fprintf(w, "entrants\t%d recorded, %d entered now\n", r.Entrants, len(v.Entrants))
		fmt.Fprintf(w, "digest\t%s recorded\n", r.EntrantsDigest)
		fmt.Fprintf(w, "\t%s recomputed\n", v.Digest)
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(out, "winners (recorded / recomputed):")
		for i := range max(len(v.Expected), len(v.Draw.Winners)) {
			got, want := "-", "-"
			if i < len(v.Draw.Winners) {
				got = v.Draw.Winners[i].ParticipantID
			}
			if i < len(v.Expected) {
				want = v.Expected[i]
			}
			mark := "ok"
			if got != want {
				mark = "MISMATCH"
			}
			fmt.Fprintf(out, "  %d  %s  %s  %s\n", i+1, got, want, mark)
		}
		if !v.OK() {
			for _, p := range v.Problems {
				fmt.Fprintln(out, "problem: "+p)
			}
			return fmt.Errorf("the draw of competition %s does not check out (%d problems)", r.CompetitionID, len(v.Problems))
		}
		fmt.Fprintln(out, "verified: the recorded seed and entrants give the recorded winners")
	}
	return nil
}

// panelOf is the --panel given, or the panel the competition belongs to.
func (cc *competitionsCommand) panelOf(ctx context.Context, app *App) (*web.Panel, error) {
	if cc.panel != "" {
		p, err := app.Tenancy.PanelByKey(ctx, cc.panel)
		if err != nil {
			return nil, fmt.Errorf("panel %q: %w", cc.panel, err)
		}
		return p, nil
	}
	return app.Competitions.PanelOf(ctx, cc.id)
}

func (cc *competitionsCommand) list(ctx context.Context, app *App, out io.Writer) error {
	var panels []*web.Panel
	if cc.panel != "" {
		p, err := cc.panelOf(ctx, app)
		if err != nil {
			return err
		}
		panels = []*web.Panel{p}
	} else {
		all, err := app.Competitions.Panels(ctx)
		if err != nil {
			return err
		}
		panels = all
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "COMPETITION\tPANEL\tNAME\tPRIZE\tWINNERS\tDRAW AT\tENTERED\tDECLINED\tDRAWN")
	n := 0
	for _, p := range panels {
		list, err := app.Competitions.List(ctx, p)
		if err != nil {
			return err
		}
		for _, s := range list {
			drawn := "no"
			if s.Drawn != nil {
				drawn = s.Drawn.DrawnAt.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%d\t%d\t%s\n", s.Info.ID, p.Key, s.Info.Name, prizeText(&s.Info),
				s.Info.Winners, drawAt(&s.Info), s.Entered, s.Rejected, drawn)
			n++
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d competitions\n", n)
	return nil
}

// printCompetition prints a competition for an operator: what it offers, its entries and its
// draw with the winners.
func printCompetition(out io.Writer, panel *web.Panel, d *competitions.Details) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, row := range [][2]string{
		{"competition", d.Info.ID}, {"panel", panel.Key}, {"campaign", d.Info.CampaignID + " (" + d.Info.Name + ")"},
		{"prize", prizeText(&d.Info)}, {"winners", strconv.Itoa(d.Info.Winners)}, {"draw at", drawAt(&d.Info)},
		{"entered", strconv.Itoa(d.Entered)}, {"declined", strconv.Itoa(d.Rejected)},
	} {
		fmt.Fprintf(w, "%s\t%s\n", row[0], row[1])
	}
	if d.Drawn == nil {
		fmt.Fprintln(w, "drawn\tno")
	}
	w.Flush()
	if d.Drawn != nil {
		printDraw(out, &d.Info, *d.Drawn, d.Winners)
	}
}

// printDraw prints a draw: when, by whom and why, the seed, the entrants' digest and the
// winners by rank.
func printDraw(out io.Writer, info *campaigns.CompetitionInfo, r competitions.DrawRecord, winners []competitions.Winner) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	when := r.DrawnAt.UTC().Format(time.RFC3339)
	if r.Early {
		when += " (early: before the draw date)"
	}
	fmt.Fprintf(w, "drawn\t%s by %s: %s\n", when, r.Operator, r.Reason)
	fmt.Fprintf(w, "seed\t%s\n", r.Seed)
	fmt.Fprintf(w, "entrants\t%d\n", r.Entrants)
	fmt.Fprintf(w, "digest\t%s\n", r.EntrantsDigest)
	fmt.Fprintf(w, "winners\t%d of %d asked\n", len(winners), r.Winners)
	w.Flush()
	prize := "prize recorded"
	if info.PrizeMinor > 0 {
		prize = web.MoneyString(info.PrizeMinor, info.Currency) + " " + info.Currency + " credited"
	}
	for _, win := range winners {
		tx := "-"
		if win.TransactionID != nil {
			tx = *win.TransactionID
		}
		fmt.Fprintf(out, "  %d  %s  %s (transaction %s)\n", win.Rank, win.ParticipantID, prize, tx)
	}
}

func prizeText(info *campaigns.CompetitionInfo) string {
	if info.PrizeMinor > 0 {
		return fmt.Sprintf("%s (%s %s)", info.Prize, web.MoneyString(info.PrizeMinor, info.Currency), info.Currency)
	}
	return info.Prize
}

func drawAt(info *campaigns.CompetitionInfo) string {
	if info.DrawAt == nil {
		return "-"
	}
	return info.DrawAt.UTC().Format(time.RFC3339)
}
