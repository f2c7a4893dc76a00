package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
)

const campaignsUsage = "usage: canvass campaigns validate FILE... | canvass campaigns import --panel KEY FILE..."

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

// validateCampaignFiles is `canvass campaigns validate FILE...`: no database, no
// configuration; "ok FILE" for each valid file, an error listing the problems of the others.
func validateCampaignFiles(out io.Writer, files []string) error {
	if len(files) == 0 {
		return errors.New(campaignsUsage)
	}
	_, err := parseCampaignFiles(files, func(name string) { fmt.Fprintf(out, "ok %s\n", name) })
	return err
}

// campaignImport is `canvass campaigns import --panel KEY FILE...`, its files already
// parsed, so an invalid file stops it before the database is opened.
type campaignImport struct {
	panelKey string
	defs     []*campaigns.Definition
}

func prepareCampaignImport(args []string) (*campaignImport, error) {
	if len(args) == 0 || args[0] != "import" {
		return nil, errors.New(campaignsUsage)
	}
	fs := flag.NewFlagSet("campaigns import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	panelKey := fs.String("panel", "", "the key of the panel the campaigns belong to")
	if err := fs.Parse(args[1:]); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, campaignsUsage)
	}
	if *panelKey == "" || fs.NArg() == 0 {
		return nil, errors.New(campaignsUsage)
	}
	defs, err := parseCampaignFiles(fs.Args(), nil)
	if err != nil {
		return nil, err
	}
	return &campaignImport{panelKey: *panelKey, defs: defs}, nil
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

const previewUsage = "usage: canvass campaigns preview-link --panel KEY [--lang CODE] [--hours 72] [--question QID] CAMPAIGN_UUID"

func preparePreviewLink(args []string) (*previewLink, error) {
	fs := flag.NewFlagSet("campaigns preview-link", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pl := &previewLink{}
	fs.StringVar(&pl.panelKey, "panel", "", "the panel key")
	fs.StringVar(&pl.lang, "lang", "", "the language to preview (default: the panel's default)")
	fs.IntVar(&pl.hours, "hours", 72, "how long the link works")
	fs.StringVar(&pl.question, "question", "", "preview one question only")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || pl.panelKey == "" || pl.hours < 1 {
		return nil, errors.New(previewUsage)
	}
	pl.campaign = fs.Arg(0)
	return pl, nil
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
