package resultviews

import (
	"net/url"
	"strconv"
)

// ExportsPath is where the summary's forms post a large export: …/results/exports.
func ExportsPath(panelKey, campaignID string) string {
	return SummaryPath(panelKey, campaignID) + "/exports"
}

// ExportJobPath is one export job's page: …/results/exports/{export}.
func ExportJobPath(panelKey, campaignID, exportID string) string {
	return ExportsPath(panelKey, campaignID) + "/" + url.PathEscape(exportID)
}

// ExportProgressPath is an export job's progress as JSON, which its page's script polls.
func ExportProgressPath(panelKey, campaignID, exportID string) string {
	return ExportJobPath(panelKey, campaignID, exportID) + "/progress"
}

// ExportDownloadPath is an export job's file, once it is ready.
func ExportDownloadPath(panelKey, campaignID, exportID string) string {
	return ExportJobPath(panelKey, campaignID, exportID) + "/download"
}

// Export job statuses, as modules/results stores them.
const (
	ExportQueued  = "queued"
	ExportRunning = "running"
	ExportDone    = "done"
	ExportFailed  = "failed"
)

// Exports is the summary's export section. Below the limit, the CSV and the workbook are
// plain downloads; above it (Prepare), they are forms that prepare them as export jobs.
type Exports struct {
	Prepare   bool   // the filter keeps more responses than a download may carry
	Limit     int    // the most responses a download carries
	Responses int    // the responses the filter keeps (the forms' buttons say it)
	Notice    string // a download refused for its size, come back here
	Recent    []ExportRow
}

// ExportRow is one of a campaign's recent export jobs, as the summary lists them.
type ExportRow struct {
	Path        string // its page
	Status      string // queued, running, done, failed
	StatusLabel string
	Label       string // "Responses (CSV), asked for 2026-11-20 09:30 UTC"
}

// ExportProps is one export job's page: what it exports, its progress, and its file once it
// is ready (or why it failed, and a form to try again).
type ExportProps struct {
	Head
	ID          string
	Format      string // csv, xlsx
	FormatLabel string
	Filter      []string // the filter in words; empty: the default (completed responses)
	FilterQuery string   // the filter as a query string (the try-again form sends it)
	Status      string
	StatusLabel string
	Done, Total int64  // rows written, and to write (0: not counted)
	Percent     string // "40 %"
	Progress    string // the progress in words
	Created     string
	Finished    string // "" until it finished
	Expires     string // "" until it finished
	Size        string // the file's size, once it is ready
	Error       string // why it failed
	Download    string // its file, once it is ready
	Poll        string // its progress as JSON, while it is queued or running ("" after)
	Self        string // this page ("Check again")
	Back        string // the summary with the export's filter
}

// over tells whether the job is over: done or failed.
func (p ExportProps) over() bool { return p.Status == ExportDone || p.Status == ExportFailed }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
