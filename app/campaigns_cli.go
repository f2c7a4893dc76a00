package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

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
