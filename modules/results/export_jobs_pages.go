package results

import (
	"errors"
	"net/url"
	"strconv"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/web"
	resultviews "github.com/canvass/canvass/views/console/results"
	"github.com/gofiber/fiber/v3"
)

// The export jobs' pages and API calls. The summary's forms (and the API) post a format and
// the filter as a query string; the job's page shows its progress and, once it is ready, its
// file, which downloads under the direct export's name. Creating a job is audited like a
// direct export (results.export), and so is each download of its file
// (results.export.download): member data leaves the console either way.

// ExportJSON is an export job as the API shows it. Error is why it failed, in words.
type ExportJSON struct {
	ID         string     `json:"id"`
	CampaignID string     `json:"campaignId"`
	Format     string     `json:"format"`
	Filter     string     `json:"filter"`
	Status     string     `json:"status"`
	RowsDone   int64      `json:"rowsDone"`
	RowsTotal  int64      `json:"rowsTotal"`
	Bytes      int64      `json:"bytes"`
	Error      *string    `json:"error"`
	CreatedAt  time.Time  `json:"createdAt"`
	StartedAt  *time.Time `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	ExpiresAt  *time.Time `json:"expiresAt"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (p *Part) exportJSON(c fiber.Ctx, e *Export) ExportJSON {
	out := ExportJSON{ID: e.ID, CampaignID: e.CampaignID, Format: e.Format, Filter: e.FilterQuery, Status: e.Status, RowsDone: e.RowsDone,
		RowsTotal: e.RowsTotal, Bytes: e.Bytes, CreatedAt: e.CreatedAt.UTC(), StartedAt: utc(e.StartedAt), FinishedAt: utc(e.FinishedAt), ExpiresAt: utc(e.ExpiresAt)}
	if e.Status == ExportFailed {
		msg := p.exportError(c, e.ErrorCode)
		out.Error = &msg
	}
	return out
}

// exportError is why an export failed, in words.
func (p *Part) exportError(c fiber.Ctx, code string) string {
	id := exportErrors[code]
	if id == "" {
		id = exportErrors[exportFailedCode]
	}
	return p.m.T(c, id, nil)
}

// newExport checks a format and a filter (its query string) and queues their export job of
// the campaign, audited like a direct export.
func (p *Part) newExport(c fiber.Ctx, a console.PanelAccess, panel *web.Panel, camp *campaigns.Campaign, format, filter string) (*Export, error) {
	if _, ok := jobFormats[format]; !ok {
		return nil, web.Invalid("format", "console.results.exports.error.format", nil)
	}
	q, err := url.ParseQuery(filter)
	if err != nil {
		return nil, web.Invalid("filter", "console.results.exports.error.query", nil)
	}
	f := FilterOf(q)
	rf, err := f.Check(panel, camp)
	if err != nil {
		return nil, err
	}
	operator := ""
	if op := console.OperatorOf(c); op != nil {
		operator = op.ID
	}
	e, err := p.queueExport(c.Context(), a.Panel.ID, camp, format, f, rf, operator, console.IsAPI(c))
	if err != nil {
		return nil, err
	}
	if err := p.m.Audit(c, a.Panel.ID, "results.export", camp.ID, nil, map[string]any{"format": format, "filter": f.Query(), "export": e.ID}); err != nil {
		return nil, err
	}
	return e, nil
}

// createExportPage is the summary's form (and a failed job's "Try again"): the job is queued
// and its page opens.
func (p *Part) createExportPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	e, err := p.newExport(c, a, panel, camp, c.FormValue("format"), c.FormValue("filter"))
	if err != nil {
		return err
	}
	return p.m.Redirect(c, resultviews.ExportJobPath(a.Panel.Key, e.CampaignID, e.ID))
}

// exportFor is the path's export job of the path's campaign; another panel's or campaign's is
// a 404.
func (p *Part) exportFor(c fiber.Ctx, a console.PanelAccess) (*web.Panel, *campaigns.Campaign, *Export, error) {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return nil, nil, nil, err
	}
	e, err := p.exportOf(c.Context(), a.Panel.ID, camp.ID, c.Params("export"))
	if errors.Is(err, web.ErrNotFound) {
		return nil, nil, nil, fiber.ErrNotFound
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return panel, camp, e, nil
}

// formatLabel is an export job's format in words.
func (p *Part) formatLabel(c fiber.Ctx, format string) string {
	if format == "xlsx" {
		return p.m.T(c, "console.results.export.xlsx", nil)
	}
	return p.m.T(c, "console.results.export.csv", nil)
}

// exportPercent is the share of the rows written, as the page shows it ("" before it is known).
func exportPercent(e *Export) string {
	switch {
	case e.Status == ExportDone:
		return percent(1)
	case e.RowsTotal <= 0:
		return ""
	}
	return percent(min(float64(e.RowsDone)/float64(e.RowsTotal), 1))
}

// exportProgressText is where an export job is, in words.
func (p *Part) exportProgressText(c fiber.Ctx, e *Export) string {
	switch e.Status {
	case ExportQueued:
		return p.m.T(c, "console.results.exports.rows_queued", map[string]any{"Total": e.RowsTotal})
	case ExportRunning:
		return p.m.T(c, "console.results.exports.rows_running", map[string]any{"Done": e.RowsDone, "Total": e.RowsTotal, "Percent": exportPercent(e)})
	case ExportDone:
		return p.m.T(c, "console.results.exports.rows_done", map[string]any{"Done": e.RowsDone})
	}
	return p.m.T(c, "console.results.exports.rows_failed", nil)
}

// size is a file's size as the page shows it: "850 KB", "12.3 MB".
func size(bytes int64) string {
	switch {
	case bytes < 1000:
		return strconv.FormatInt(bytes, 10) + " B"
	case bytes < 1000*1000:
		return strconv.FormatFloat(float64(bytes)/1000, 'f', 0, 64) + " KB"
	case bytes < 1000*1000*1000:
		return strconv.FormatFloat(float64(bytes)/1e6, 'f', 1, 64) + " MB"
	}
	return strconv.FormatFloat(float64(bytes)/1e9, 'f', 1, 64) + " GB"
}

func (p *Part) exportPage(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, e, err := p.exportFor(c, a)
	if err != nil {
		return err
	}
	q, _ := url.ParseQuery(e.FilterQuery)
	f := FilterOf(q)
	props := resultviews.ExportProps{
		Head: p.head(c, a, camp), ID: e.ID, Format: e.Format, FormatLabel: p.formatLabel(c, e.Format),
		Filter: p.filterForm(c, panel, camp, checked{filter: f}).Active, FilterQuery: e.FilterQuery,
		Status: e.Status, StatusLabel: p.m.T(c, "console.results.exports.status."+e.Status, nil),
		Done: e.RowsDone, Total: e.RowsTotal, Percent: exportPercent(e), Progress: p.exportProgressText(c, e), Created: when(&e.CreatedAt),
		Download: resultviews.ExportDownloadPath(a.Panel.Key, camp.ID, e.ID), Self: resultviews.ExportJobPath(a.Panel.Key, camp.ID, e.ID),
		Back: resultviews.WithQuery(resultviews.SummaryPath(a.Panel.Key, camp.ID), e.FilterQuery),
	}
	if e.Status == ExportDone || e.Status == ExportFailed {
		props.Finished, props.Expires = when(e.FinishedAt), when(e.ExpiresAt)
	} else {
		props.Poll = resultviews.ExportProgressPath(a.Panel.Key, camp.ID, e.ID)
	}
	if e.Status == ExportDone {
		props.Size = size(e.Bytes)
	}
	if e.Status == ExportFailed {
		props.Error = p.exportError(c, e.ErrorCode)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return p.m.Render(c, fiber.StatusOK, resultviews.Export(props))
}

// exportProgress is an export job's progress as its page's script reads it: the status, the
// rows written and to write, and the page's words for them.
func (p *Part) exportProgress(c fiber.Ctx, a console.PanelAccess) error {
	_, _, e, err := p.exportFor(c, a)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"status": e.Status, "done": e.RowsDone, "total": e.RowsTotal, "percent": exportPercent(e), "text": p.exportProgressText(c, e)})
}

// exportDownload streams a ready export job's file from its chunks, under the direct export's
// name (pages and API alike); before it is ready, a 409.
func (p *Part) exportDownload(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, e, err := p.exportFor(c, a)
	if err != nil {
		return err
	}
	if e.Status != ExportDone {
		return web.Fail(fiber.StatusConflict, "console.results.exports.error.not_ready", nil).WithCode("export_not_ready")
	}
	format := jobFormats[e.Format]
	if err := p.m.Audit(c, a.Panel.ID, "results.export.download", e.ID, nil, map[string]any{"campaign": camp.ID, "format": e.Format, "filter": e.FilterQuery}); err != nil {
		return err
	}
	stem := fileStem(camp.Names.In(panel.DefaultLanguage, camp.DefaultLanguage))
	c.Set(fiber.HeaderContentType, format.contentType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+stem+format.suffix+`"`)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.SendStream(&chunkReader{db: p.d.DB, id: e.ID}, int(e.Bytes))
}

// exportInput is an export job as the API is asked for one: a format, and the filter as the
// results' query string ("outcome=all&answer=q1%3Dyes"; empty or left out: the default).
type exportInput struct {
	Format string `json:"format"`
	Filter string `json:"filter"`
}

// POST /console/api/panels/:panel/campaigns/:id/results/exports: 202 with the queued job.
func (p *Part) apiCreateExport(c fiber.Ctx, a console.PanelAccess) error {
	panel, camp, err := p.campaign(c, a)
	if err != nil {
		return err
	}
	var in exportInput
	if err := web.DecodeJSON(c, &in); err != nil {
		return err
	}
	e, err := p.newExport(c, a, panel, camp, in.Format, in.Filter)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"export": p.exportJSON(c, e)})
}

// GET /console/api/panels/:panel/campaigns/:id/results/exports/:export
func (p *Part) apiExport(c fiber.Ctx, a console.PanelAccess) error {
	_, _, e, err := p.exportFor(c, a)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"export": p.exportJSON(c, e)})
}

// exportSection is the summary's export section for a filter that keeps responses: forms
// that prepare the responses above the limit, the notice of a download refused for its size,
// and the campaign's recent export jobs.
func (p *Part) exportSection(c fiber.Ctx, a console.PanelAccess, camp *campaigns.Campaign, responses int) (resultviews.Exports, error) {
	out := resultviews.Exports{Prepare: responses > p.d.DirectLimit, Limit: p.d.DirectLimit, Responses: responses}
	if c.Query(tooLargeParam) == tooLargeValue {
		out.Notice = p.m.T(c, "console.results.exports.error.too_large", map[string]any{"Max": p.d.DirectLimit})
	}
	list, err := p.recent(c.Context(), a.Panel.ID, camp.ID)
	if err != nil {
		return out, err
	}
	for i := range list {
		e := &list[i]
		out.Recent = append(out.Recent, resultviews.ExportRow{
			Path: resultviews.ExportJobPath(a.Panel.Key, camp.ID, e.ID), Status: e.Status,
			StatusLabel: p.m.T(c, "console.results.exports.status."+e.Status, nil),
			Label:       p.m.T(c, "console.results.exports.recent_item", map[string]any{"Format": p.formatLabel(c, e.Format), "Created": when(&e.CreatedAt)}),
		})
	}
	return out, nil
}
