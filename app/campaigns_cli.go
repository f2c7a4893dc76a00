package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// invalidCampaignFilesError holds every problem of the campaign files that failed to parse;
// main prints it as it is, one problem per line.
type invalidCampaignFilesError struct {
	Lines   []string
	Invalid int
	Total   int
}

func (e *invalidCampaignFilesError) Error() string {
	return strings.Join(e.Lines, "\n") + fmt.Sprintf("\n%d of %d campaign files are invalid", e.Invalid, e.Total)
}

// parseCampaignFiles reads and checks every file; any invalid file fails the whole lot, with
// the problems of all of them.
func parseCampaignFiles(files []string, ok func(name string)) ([]*campaigns.Definition, error) {
	var defs []*campaigns.Definition
	bad := &invalidCampaignFilesError{Total: len(files)}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			bad.Lines = append(bad.Lines, err.Error())
			bad.Invalid++
			continue
		}
		def, err := campaigns.ParseFile(name, data)
		if err != nil {
			bad.Lines = append(bad.Lines, err.Error())
			bad.Invalid++
			continue
		}
		if ok != nil {
			ok(name)
		}
		defs = append(defs, def)
	}
	if bad.Invalid > 0 {
		return nil, bad
	}
	return defs, nil
}

func (c *cli) campaignsCmd() *cobra.Command {
	return group("campaigns", "Check, import and preview a panel's campaigns",
		c.campaignsValidateCmd(), c.campaignsImportCmd(), c.campaignsPreviewLinkCmd())
}

func (c *cli) campaignsValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check campaign files (YAML or JSON); needs no database",
		Long: `Checks each campaign file as an import would, and prints "ok FILE" for each valid one and every
problem of the others, one a line as FILE:LINE: /PATH: problem (as editors read them); fails
(exit status 1) when any file is invalid. Reads neither the configuration nor the database.`,
		Example:           "  canvass campaigns validate campaigns/*.yaml",
		Args:              someArgs("campaign FILE"),
		ValidArgsFunction: filesEnding("yaml", "yml", "json"),
		RunE: c.body(func(cmd *cobra.Command, files []string) error {
			return validateCampaignFiles(cmd.OutOrStdout(), files)
		}),
	}
}

// validateCampaignFiles is `canvass campaigns validate FILE...`: no database, no
// configuration; "ok FILE" for each valid file, an error listing the problems of the others.
func validateCampaignFiles(out io.Writer, files []string) error {
	_, err := parseCampaignFiles(files, func(name string) { fmt.Fprintf(out, "ok %s\n", name) })
	return err
}

// campaignImport is `canvass campaigns import --panel KEY FILE...`, its files already
// parsed, so an invalid file stops it before the database is opened.
type campaignImport struct {
	panelKey string
	defs     []*campaigns.Definition
}

func (c *cli) campaignsImportCmd() *cobra.Command {
	var panelKey string
	cmd := &cobra.Command{
		Use:   "import --panel KEY FILE...",
		Short: "Create or update a panel's campaigns from files, all or none",
		Long: `Checks every file first: one invalid file refuses the whole batch before the database is opened.
Then creates or updates every campaign (by its uuid) in one transaction, and prints each as
created or updated.`,
		Example:           "  canvass campaigns import --panel demo campaigns/*.yaml",
		Args:              someArgs("campaign FILE"),
		ValidArgsFunction: filesEnding("yaml", "yml", "json"),
		RunE: c.body(func(cmd *cobra.Command, files []string) error {
			defs, err := parseCampaignFiles(files, nil)
			if err != nil {
				return err
			}
			ci := &campaignImport{panelKey: panelKey, defs: defs}
			return c.withApp(cmd, ci, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return ci.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	cmd.Flags().StringVar(&panelKey, "panel", "", "the key of the panel the campaigns belong to (required)")
	required(cmd, "panel")
	return cmd
}

// run imports every campaign in one transaction and prints what it created and updated.
func (ci *campaignImport) run(ctx context.Context, app *App, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, ci.panelKey)
	if err != nil {
		return fmt.Errorf("panel %q: %w", ci.panelKey, err)
	}
	res, err := app.Campaigns.Import(ctx, panel, ci.defs)
	if err != nil {
		return err
	}
	for _, id := range res.Created {
		fmt.Fprintf(out, "created %s\n", id)
	}
	for _, id := range res.Updated {
		fmt.Fprintf(out, "updated %s\n", id)
	}
	return nil
}

// previewLink is `canvass campaigns preview-link --panel KEY [--lang L] [--hours H]
// [--question QID] UUID`: a signed link to walk a campaign as a member would, recording
// nothing (or, with --question, to see one question).
type previewLink struct {
	panelKey, lang, question, campaign string
	hours                              int
}

func (c *cli) campaignsPreviewLinkCmd() *cobra.Command {
	pl := &previewLink{}
	cmd := &cobra.Command{
		Use:   "preview-link --panel KEY [--lang CODE] [--hours 72] [--question QID] CAMPAIGN_UUID",
		Short: "Print a signed link to preview a campaign (nothing is recorded)",
		Long: `Prints a signed link to walk a campaign as a member would, recording nothing, or with --question
to see one question only. The link works for --hours; its origin is CANVASS_BASE_URL, else the
panel's first domain.`,
		Example:           "  canvass campaigns preview-link --panel demo --lang es 3f0c1e9a-5b7d-4c2e-9a61-0d8f2b4c6e11",
		Args:              oneArg("CAMPAIGN_UUID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: c.body(func(cmd *cobra.Command, args []string) error {
			if pl.hours < 1 {
				return usageErrorf("--hours must be at least 1, not %d", pl.hours)
			}
			pl.campaign = args[0]
			return c.withApp(cmd, pl, func(ctx context.Context, app *App, cfg Config, _ *gorm.DB) error {
				return pl.run(ctx, app, cfg, cmd.OutOrStdout())
			})
		}),
	}
	f := cmd.Flags()
	f.StringVar(&pl.panelKey, "panel", "", "the panel key (required)")
	f.StringVar(&pl.lang, "lang", "", "the language to preview (default: the panel's default)")
	f.IntVar(&pl.hours, "hours", 72, "how many hours the link works")
	f.StringVar(&pl.question, "question", "", "preview this question only (its id)")
	required(cmd, "panel")
	return cmd
}

func (pl *previewLink) run(ctx context.Context, app *App, cfg Config, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, pl.panelKey)
	if err != nil {
		return fmt.Errorf("panel %q: %w", pl.panelKey, err)
	}
	lang := pl.lang
	if lang == "" {
		lang = panel.DefaultLanguage
	}
	if !panel.Offers(lang) {
		return fmt.Errorf("panel %s does not offer %q", panel.Key, lang)
	}
	camp, err := app.Campaigns.Campaign(ctx, panel, pl.campaign)
	if err != nil {
		return fmt.Errorf("campaign %s of %s: %w", pl.campaign, panel.Key, err)
	}
	if pl.question != "" && !camp.HasQuestion(pl.question) {
		return fmt.Errorf("campaign %s has no question %q", pl.campaign, pl.question)
	}
	path := app.Surveys.PreviewLink(panel, camp.ID, lang, time.Now().Add(time.Duration(pl.hours)*time.Hour), pl.question)
	origin := cfg.BaseURL
	if origin == "" && len(panel.Hosts) > 0 {
		scheme := "https://"
		if !cfg.Production() {
			scheme = "http://"
		}
		origin = scheme + panel.Hosts[0]
		if strings.HasPrefix(cfg.Addr, ":") && !cfg.Production() {
			origin += cfg.Addr // the development port
		}
	}
	fmt.Fprintln(out, origin+path)
	return nil
}
