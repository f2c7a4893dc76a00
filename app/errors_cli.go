package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/canvass/canvass/modules/clientreports"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// errorsCommand is `canvass errors list|top`: the client errors browsers reported, checked
// before the database is opened.
type errorsCommand struct {
	action, panel string
	limit         int
	since         time.Duration
}

func (c *cli) errorsCmd() *cobra.Command {
	return group("errors", "The errors browsers reported from pages and islands",
		c.errorsListCmd(), c.errorsTopCmd())
}

// errorsRun runs ec once its --limit (and --since) are checked.
func (c *cli) errorsRun(ec *errorsCommand, since *string) func(*cobra.Command, []string) error {
	return c.body(func(cmd *cobra.Command, _ []string) error {
		if err := checkRange("limit", ec.limit, 1, 1000); err != nil {
			return err
		}
		if since != nil {
			d, err := parseWindow(*since)
			if err != nil {
				return usageErrorf("--since: %v", err)
			}
			ec.since = d
		}
		return c.withApp(cmd, ec, func(ctx context.Context, app *App, _ Config, db *gorm.DB) error {
			return ec.run(ctx, app, db, cmd.OutOrStdout(), time.Now())
		})
	})
}

func (c *cli) errorsListCmd() *cobra.Command {
	ec := &errorsCommand{action: "list"}
	cmd := &cobra.Command{
		Use:               "list [--panel KEY] [--limit 50]",
		Short:             "The latest client error reports, with page, member and app",
		Example:           "  canvass errors list --panel demo --limit 20",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.errorsRun(ec, nil),
	}
	cmd.Flags().StringVar(&ec.panel, "panel", "", "only this panel's errors (all panels when absent)")
	cmd.Flags().IntVar(&ec.limit, "limit", 50, "at most this many reports, 1 to 1000")
	return cmd
}

func (c *cli) errorsTopCmd() *cobra.Command {
	ec := &errorsCommand{action: "top"}
	since := "24h"
	cmd := &cobra.Command{
		Use:               "top [--panel KEY] [--since 24h] [--limit 20]",
		Short:             "The most frequent client errors in a window",
		Example:           "  canvass errors top --since 7d",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              c.errorsRun(ec, &since),
	}
	cmd.Flags().StringVar(&ec.panel, "panel", "", "only this panel's errors (all panels when absent)")
	cmd.Flags().StringVar(&since, "since", since, "the window: a Go duration (90m, 24h) or days (7d)")
	cmd.Flags().IntVar(&ec.limit, "limit", 20, "at most this many errors, 1 to 1000")
	return cmd
}

// parseWindow reads a positive duration: Go's (90m, 24h) or whole days (7d).
func parseWindow(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration such as 24h or 7d", s)
	}
	return d, nil
}

func (ec *errorsCommand) run(ctx context.Context, app *App, db *gorm.DB, out io.Writer, now time.Time) error {
	panelID := ""
	keys := map[string]string{} // panel id -> key, for the PANEL column
	if ec.panel != "" {
		p, err := app.Tenancy.PanelByKey(ctx, ec.panel)
		if err != nil {
			return fmt.Errorf("panel %s: %w", ec.panel, err)
		}
		panelID, keys[p.ID] = p.ID, p.Key
	} else {
		panels, err := allPanels(db, app.Tenancy)(ctx)
		if err != nil {
			return err
		}
		for _, p := range panels {
			keys[p.ID] = p.Key
		}
	}
	store := app.ClientReports.Store()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	if ec.action == "top" {
		list, err := store.Top(ctx, panelID, now.Add(-ec.since), ec.limit)
		if err != nil {
			return err
		}
		fmt.Fprintln(w, "REPORTS\tALL\tPANEL\tLEVEL\tERROR\tWHERE\tLAST SEEN")
		for _, e := range list {
			fmt.Fprintf(w, "%d\t%d\t%s\t%s\t%s\t%s\t%s\n", e.InWindow, e.Count, keys[e.PanelID], e.Level,
				errorText(e.Name, e.Message, e.Arguments), where(e.Source, e.Lineno, e.Colno), e.LastSeenAt.UTC().Format(time.RFC3339))
		}
		if err := w.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(out, "%d errors reported since %s\n", len(list), now.Add(-ec.since).UTC().Truncate(time.Hour).Format(time.RFC3339))
		return nil
	}
	list, err := store.Recent(ctx, panelID, ec.limit)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "WHEN\tPANEL\tLEVEL\tERROR\tWHERE\tPAGE\tMEMBER\tAPP\tREQUEST\tALL")
	for _, r := range list {
		member := "-"
		if r.ParticipantID != nil {
			member = *r.ParticipantID
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", r.CreatedAt.UTC().Format(time.RFC3339), keys[r.PanelID], r.Level,
			errorText(r.Name, r.Message, r.Arguments), where(r.Source, r.Lineno, r.Colno), orDash(r.Href), member, appText(r.Report), orDash(r.RequestID), r.Count)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d reports\n", len(list))
	return nil
}

// errorText is an error on one line: "TypeError: x is undefined", or a console call's arguments.
func errorText(name, message, arguments string) string {
	s := message
	if name != "" {
		s = name + ": " + message
	}
	if arguments != "" {
		s = "console " + arguments
	}
	return oneLine(s, 120)
}

func where(source string, line, col int) string {
	if source == "" {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", oneLine(source, 80), line, col)
}

// appText is the request conventions of a report: "web en 412x915@2.63 native:ios".
func appText(r clientreports.Report) string {
	parts := []string{orDash(r.AppName), orDash(r.AppLang)}
	if r.ViewportWidth > 0 || r.ViewportHeight > 0 {
		v := fmt.Sprintf("%dx%d", r.ViewportWidth, r.ViewportHeight)
		if r.DPR > 0 {
			v += "@" + strconv.FormatFloat(r.DPR, 'f', -1, 64)
		}
		parts = append(parts, v)
	}
	if r.NativeApp != "" {
		parts = append(parts, "native:"+r.NativeApp)
	}
	return strings.Join(parts, " ")
}

// oneLine keeps a text on its table row: line breaks and tabs become spaces, long texts end in "...".
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-3]) + "..."
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
