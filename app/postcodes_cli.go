package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/canvass/canvass/modules/postcodes"
)

const postcodesUsage = "usage: canvass postcodes import --panel KEY FILE.csv  (header: id,postcode,label[,locality,region])"

// postcodesImport is `canvass postcodes import --panel KEY FILE.csv`, its file already
// parsed, so a bad row stops it before the database is opened.
type postcodesImport struct {
	panelKey string
	file     string
	rows     []postcodes.Row
}

func preparePostcodesImport(args []string) (*postcodesImport, error) {
	if len(args) == 0 || args[0] != "import" {
		return nil, errors.New(postcodesUsage)
	}
	fs := flag.NewFlagSet("postcodes import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	panelKey := fs.String("panel", "", "the key of the panel the postcodes belong to")
	if err := fs.Parse(args[1:]); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, postcodesUsage)
	}
	if *panelKey == "" || fs.NArg() != 1 {
		return nil, errors.New(postcodesUsage)
	}
	name := fs.Arg(0)
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("postcodes import: %w", err)
	}
	defer f.Close()
	rows, err := postcodes.ParseCSV(name, f)
	if err != nil {
		return nil, err
	}
	return &postcodesImport{panelKey: *panelKey, file: name, rows: rows}, nil
}

// run imports every row in one transaction and says what changed.
func (pi *postcodesImport) run(ctx context.Context, app *App, out io.Writer) error {
	panel, err := app.Tenancy.PanelByKey(ctx, pi.panelKey)
	if err != nil {
		return fmt.Errorf("panel %q: %w", pi.panelKey, err)
	}
	res, err := app.Postcodes.Import(ctx, panel.ID, pi.rows)
	if err != nil {
		return fmt.Errorf("%s: %w", pi.file, err)
	}
	fmt.Fprintf(out, "imported %d postcodes into %s: %d new, %d updated, %d unchanged\n", res.Rows, panel.Key, res.Created, res.Updated, res.Unchanged)
	return nil
}

// demoPostcodesFS holds each demo panel's postcodes, demo/postcodes/<panel key>.csv: real US
// ZIP codes for Canvass Demo, real UK postcodes and districts for Northwind Rewards.
//
//go:embed demo/postcodes
var demoPostcodesFS embed.FS

// importDemoPostcodes loads a demo panel's embedded postcodes (idempotent: upsert by id).
func importDemoPostcodes(ctx context.Context, app *App, panelKey string) error {
	name := "demo/postcodes/" + panelKey + ".csv"
	f, err := demoPostcodesFS.Open(name)
	if err != nil {
		return fmt.Errorf("demo postcodes of %s: %w", panelKey, err)
	}
	defer f.Close()
	rows, err := postcodes.ParseCSV(name, f)
	if err != nil {
		return err
	}
	panel, err := app.Tenancy.PanelByKey(ctx, panelKey)
	if err != nil {
		return fmt.Errorf("demo panel %s: %w", panelKey, err)
	}
	if _, err := app.Postcodes.Import(ctx, panel.ID, rows); err != nil {
		return fmt.Errorf("demo postcodes of %s: %w", panelKey, err)
	}
	return nil
}
