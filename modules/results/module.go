// Package results is what a campaign's members answered, for the operators who run the panel
// (issue 34): the console's summary (every question's result drawn for its control, filters
// and a cross-tab), the responses table and one respondent's answers, and the same as JSON in
// the console API. It reads participations and answers through the survey engine's Reader
// (modules/surveys owns those tables) and campaigns through the catalogue; it is a part of
// the console (modules/console), mounted under each panel's campaigns. It owns the export jobs
// (result_exports and their files, export_jobs.go): a large export is prepared by the job queue.
package results

import (
	"context"
	"errors"
	"log/slog"
	"net/url"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"gorm.io/gorm"
)

// Catalogue is what the results need of the campaign catalogue.
type Catalogue interface {
	Campaign(ctx context.Context, panel *web.Panel, id string) (*campaigns.Campaign, error)
}

// Deps are the modules the results read through, and the panels.
type Deps struct {
	Reader    Reader
	Catalogue Catalogue
	// Panel resolves a panel by key (its languages).
	Panel func(ctx context.Context, key string) (*web.Panel, error)
	Log   *slog.Logger

	// DB holds the export jobs and their files (result_exports, result_export_chunks).
	DB *gorm.DB
	// Tasks queues an export job's task (the job queue); the app registers RunExport as
	// TaskExport's handler and SweepExports as a periodic job.
	Tasks Tasks
	// PanelByID resolves a panel by id (an export job's).
	PanelByID func(ctx context.Context, id string) (*web.Panel, error)
	// DirectLimit is the most responses a CSV or workbook downloads at once; a filter that
	// keeps more has them prepared as an export job (0: DirectExportLimit).
	DirectLimit int
	// ExportChunk is the bytes of a prepared file a chunk holds, and ExportProgressEvery how
	// many rows go by between two notes of an export's progress (0: exportChunk and
	// exportProgressEvery; tests make them small to see several with few rows).
	ExportChunk         int
	ExportProgressEvery int
}

// Part is the results' part of the console.
type Part struct {
	d Deps
	m *console.Module
}

func New(d Deps) *Part {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.DirectLimit <= 0 {
		d.DirectLimit = DirectExportLimit
	}
	if d.ExportChunk <= 0 {
		d.ExportChunk = exportChunk
	}
	if d.ExportProgressEvery <= 0 {
		d.ExportProgressEvery = exportProgressEvery
	}
	return &Part{d: d}
}

const (
	base    = "/console/panels/:panel/campaigns/:id/results"
	apiBase = "/panels/:panel/campaigns/:id/results"
)

// Mount registers the results' pages and API calls. The summary, the text answers and the
// exports need results.read (editors); a respondent's answers are member data, readable by
// editors and support (results.responses), and every such read is audited.
func (p *Part) Mount(m *console.Module, r, api fiber.Router) {
	p.m = m
	read, responses := console.ActionReadResults, console.ActionReadResponses
	m.PanelPage(r, fiber.MethodGet, base, read, p.summaryPage)
	m.PanelPage(r, fiber.MethodGet, base+"/text/:question", read, p.textPage)
	m.PanelPage(r, fiber.MethodGet, base+"/responses", responses, p.responsesPage)
	m.PanelPage(r, fiber.MethodGet, base+"/responses/:response", responses, p.responsePage)
	for _, f := range exportFormats {
		m.PanelPage(r, fiber.MethodGet, base+f.path, read, p.export(f, false))
		m.PanelAPI(api, fiber.MethodGet, apiBase+f.path, read, p.export(f, true))
	}

	m.PanelAPI(api, fiber.MethodGet, apiBase, read, p.apiSummary)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/text/:question", read, p.apiText)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/responses", responses, p.apiResponses)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/responses/:response", responses, p.apiResponse)

	// Export jobs: a large export prepared in the background, its page, its progress (the
	// page's script polls it) and its file.
	m.PanelPage(r, fiber.MethodPost, base+"/exports", read, p.createExportPage)
	m.PanelPage(r, fiber.MethodGet, base+"/exports/:export", read, p.exportPage)
	m.PanelPage(r, fiber.MethodGet, base+"/exports/:export/progress", read, p.exportProgress)
	m.PanelPage(r, fiber.MethodGet, base+"/exports/:export/download", read, p.exportDownload)
	m.PanelAPI(api, fiber.MethodPost, apiBase+"/exports", read, p.apiCreateExport)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/exports/:export", read, p.apiExport)
	m.PanelAPI(api, fiber.MethodGet, apiBase+"/exports/:export/download", read, p.exportDownload)
}

// campaign is the panel and the campaign of the path; another panel's campaign is a 404.
func (p *Part) campaign(c fiber.Ctx, a console.PanelAccess) (*web.Panel, *campaigns.Campaign, error) {
	panel, err := p.d.Panel(c.Context(), a.Panel.Key)
	if err != nil {
		return nil, nil, err
	}
	camp, err := p.d.Catalogue.Campaign(c.Context(), panel, c.Params("id"))
	if errors.Is(err, web.ErrNotFound) {
		return nil, nil, fiber.ErrNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	return panel, camp, nil
}

// query is the request's query string as values (repeated keys kept: answer=…&answer=…).
func query(c fiber.Ctx) url.Values {
	v, err := url.ParseQuery(string(c.Request().URI().QueryString()))
	if err != nil {
		return url.Values{}
	}
	return v
}

// pageSize is how many responses or text answers a page lists.
const pageSize = 50

// when is a time as the console shows it (console.When).
var when = console.When
