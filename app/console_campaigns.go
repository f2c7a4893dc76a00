package main

import (
	"log/slog"

	"github.com/canvass/canvass/modules/console"
	consolecampaigns "github.com/canvass/canvass/modules/console/campaigns"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/results"
	"gorm.io/gorm"
)

// consoleCampaigns is the console's campaigns part, over the catalogue, the survey engine's
// participations and previews, and the panels.
func consoleCampaigns(a *App) console.Part {
	return consolecampaigns.New(consolecampaigns.Deps{
		Catalogue: a.Campaigns, Participations: a.Surveys, Previews: a.Surveys, Panel: a.Tenancy.PanelByKey,
	})
}

// consoleResults is the console's results part: what a campaign's members answered, read
// through the survey engine over the catalogue's campaigns. Its large exports are tasks of the
// job queue (an attempt may take ExportTimeout, not the queue's minute), and a periodic job
// deletes their files once expired. directLimit is the most responses a CSV or workbook
// downloads at once (0: results.DirectExportLimit; tests set fewer).
func consoleResults(a *App, db *gorm.DB, log *slog.Logger, directLimit int) console.Part {
	p := results.New(results.Deps{
		Reader: a.Surveys, Catalogue: a.Campaigns, Panel: a.Tenancy.PanelByKey, Log: log,
		DB: db, Tasks: a.Jobs, PanelByID: panelByID(db, a.Tenancy), DirectLimit: directLimit,
	})
	a.Jobs.HandleTaskWith(results.TaskExport, p.RunExport, jobs.TaskPolicy{Attempts: results.ExportAttempts, Timeout: results.ExportTimeout})
	a.Jobs.Every("result_exports", results.SweepExportsEvery, p.SweepExports)
	return p
}
