package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// seedScale is `canvass seed scale --campaign ID --participations N [--panel KEY]`: a campaign
// answered by N synthetic members, to measure the results (and, later, the whole app) at a
// real panel's size. The issue after the results one extends it to whole panels.
type seedScale struct {
	panelKey, campaignID string
	participations       int
}

// seedChunk is how many runs the seeder generates and writes at a time: memory for one chunk.
const seedChunk = 20000

func (c *cli) seedCmd() *cobra.Command {
	s := &seedScale{}
	scale := &cobra.Command{
		Use:   "scale --campaign ID --participations N [--panel KEY]",
		Short: "Give a campaign N synthetic respondents and their answers, to measure at scale",
		Long: `Creates the panel's synthetic members respondent-0001@synthetic.invalid up to N (members who can
never sign in, labelled synthetic) where missing, and has each take the campaign once: most
complete, the others are screened, stopped by a quota, disqualified or stop half-way, started over
the last 30 days, answered as the demo's synthetic respondents answer. Written in multi-row inserts,
20,000 runs at a time; members who already took the campaign are skipped, so running it again adds
only what is missing. Use it on a database made for measuring, never on a live panel.`,
		Example:           "  canvass seed scale --panel demo --campaign 1b5e5832-96f3-4e6f-a723-1fb47d13febc --participations 1000000",
		Args:              noArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, _ []string) error {
			if s.participations < 1 {
				return fmt.Errorf("canvass seed scale needs --participations of at least 1, got %d", s.participations)
			}
			return c.withApp(cmd, s, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return s.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	scale.Flags().StringVar(&s.panelKey, "panel", "demo", "the key of the campaign's panel")
	scale.Flags().StringVar(&s.campaignID, "campaign", "", "the campaign's uuid (required)")
	scale.Flags().IntVar(&s.participations, "participations", 0, "how many synthetic members take it (required)")
	required(scale, "campaign")
	required(scale, "participations")
	return group("seed", "Synthetic data to measure Canvass at a real panel's size", scale)
}

// run seeds the members, then their runs a chunk at a time, saying how fast.
func (s *seedScale) run(ctx context.Context, app *App, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, s.panelKey)
	if err != nil {
		return fmt.Errorf("panel %q: %w", s.panelKey, err)
	}
	camp, err := app.Campaigns.Campaign(ctx, panel, s.campaignID)
	if err != nil {
		return fmt.Errorf("campaign %s of %s: %w", s.campaignID, panel.Key, err)
	}
	began := time.Now()
	ids, err := app.Accounts.Service().EnsureSyntheticMembers(ctx, panel, s.participations)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d synthetic members of %s ready in %s\n", len(ids), panel.Key, time.Since(began).Round(time.Millisecond))
	places, err := demoPlaces(panel.Key)
	if err != nil {
		places = nil // another panel: the built-in postcodes
	}
	now := time.Now().UTC()
	added, runsBegan := 0, time.Now()
	for start := 0; start < len(ids); start += seedChunk {
		chunk := ids[start:min(start+seedChunk, len(ids))]
		n, err := app.Surveys.SeedRuns(ctx, panel.ID, camp, demoRuns(panel, camp, chunk, places, now, 1))
		added += n
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "runs: %d of %d (%d added)\n", start+len(chunk), len(ids), added)
	}
	took := time.Since(runsBegan)
	fmt.Fprintf(out, "%d runs added to %s in %s (%.0f runs/s)\n", added, camp.ID, took.Round(time.Millisecond), float64(added)/max(took.Seconds(), 0.001))
	return nil
}
