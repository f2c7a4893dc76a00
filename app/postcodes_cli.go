package main

import (
	"context"
	"embed"
	"fmt"
	"io"
	"os"

	"github.com/canvass/canvass/modules/postcodes"
	"github.com/spf13/cobra"
	"gorm.io/gorm"
)

// postcodesImport is `canvass postcodes import --panel KEY FILE.csv`, its file already
// parsed, so a bad row stops it before the database is opened.
type postcodesImport struct {
	panelKey string
	file     string
	rows     []postcodes.Row
}

func (c *cli) postcodesCmd() *cobra.Command {
	var panelKey string
	imp := &cobra.Command{
		Use:   "import --panel KEY FILE.csv",
		Short: "Create or update a panel's postcodes by id from a CSV file, all or none",
		Long: `Reads and checks a CSV file of postcodes (header: id,postcode,label[,locality,region]) before the
database is opened: one bad row refuses the whole file, with its line. Then every row is created
or updated by id in one transaction, and the counts of new, updated and unchanged rows printed.`,
		Example:           "  canvass postcodes import --panel northwind postcodes.csv",
		Args:              oneArg("FILE.csv"),
		ValidArgsFunction: filesEnding("csv"),
		RunE: c.body(func(cmd *cobra.Command, args []string) error {
			pi, err := preparePostcodesImport(panelKey, args[0])
			if err != nil {
				return err
			}
			return c.withApp(cmd, pi, func(ctx context.Context, app *App, _ Config, _ *gorm.DB) error {
				return pi.run(ctx, app, cmd.OutOrStdout())
			})
		}),
	}
	imp.Flags().StringVar(&panelKey, "panel", "", "the key of the panel the postcodes belong to (required)")
	required(imp, "panel")
	return group("postcodes", "A panel's postcodes, for members' addresses", imp)
}

func preparePostcodesImport(panelKey, name string) (*postcodesImport, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("postcodes import: %w", err)
	}
	defer f.Close()
	rows, err := postcodes.ParseCSV(name, f)
	if err != nil {
		return nil, err
	}
	return &postcodesImport{panelKey: panelKey, file: name, rows: rows}, nil
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
