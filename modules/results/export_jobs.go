package results

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/jobs"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	resultviews "github.com/canvass/canvass/views/console/results"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Export jobs: a filter that keeps more responses than a download can stream before the
// server's write timeout (Deps.DirectLimit, 10,000 by default) has its CSV or workbook prepared
// in the background, as a task of the job queue (TaskExport). The task reads the responses
// with EachResponse and writes them through the same writers as the direct downloads
// (WriteCSV, WriteXLSX) into the database, a chunk of about a megabyte at a time
// (result_export_chunks), so any process can serve the file and memory stays flat. A file is
// kept ExportKept after it is ready; a sweep (SweepExports) deletes it then.

// Export statuses.
const (
	ExportQueued  = "queued"
	ExportRunning = "running"
	ExportDone    = "done"
	ExportFailed  = "failed"
)

// Export jobs' limits and timetable.
const (
	// DirectExportLimit is the most responses an export downloads at once (Deps.DirectLimit's
	// default): at about 27 s a million, ten thousand stream well inside the write timeout.
	DirectExportLimit = 10000
	// TaskExport is the name of the export task (jobs.HandleTaskWith).
	TaskExport = "results.export"
	// ExportAttempts is how often an export is tried; each attempt starts over.
	ExportAttempts = 3
	// ExportTimeout bounds one attempt: a million responses take well under a minute as CSV
	// and a few as a workbook. Below jobs.RescueAfter, so no second worker takes an attempt
	// that is still writing.
	ExportTimeout = 4 * time.Minute
	// ExportKept is how long a prepared file is kept after it is ready (or an export's failure
	// shown); SweepExports deletes it after.
	ExportKept = 24 * time.Hour
	// SweepExportsEvery is how often the expired exports are deleted.
	SweepExportsEvery = time.Hour
	// exportChunk is the file's bytes a chunk holds: a megabyte once in base64.
	exportChunk = 768 << 10
	// exportProgressEvery is how many rows go by between two updates of an export's progress.
	exportProgressEvery = 2000
	// recentExports is how many of a campaign's exports its summary lists.
	recentExports = 5
)

// Export is one export job: a campaign's responses within a filter, in one format, prepared
// in the background.
type Export struct {
	ID          string `gorm:"primaryKey"` // UUIDv7
	PanelID     string
	CampaignID  string
	Format      string // csv, xlsx
	FilterQuery string // the filter as the results' query string ("" the default)
	OperatorID  string // who asked (an API token's operator)
	ViaAPI      bool   // asked through the API
	Status      string
	RowsDone    int64
	RowsTotal   int64 // counted when queued; the rows written once done
	Bytes       int64
	ErrorCode   string // why it failed: a key of exportErrors ("" none)
	CreatedAt   time.Time
	StartedAt   *time.Time
	FinishedAt  *time.Time
	ExpiresAt   *time.Time // ExportKept after it finished
}

func (Export) TableName() string { return "result_exports" }

// ExportChunk is a piece of an export's file, in order of Seq (from 0), as base64.
type ExportChunk struct {
	ExportID string `gorm:"primaryKey"`
	Seq      int    `gorm:"primaryKey"`
	Data     string
}

func (ExportChunk) TableName() string { return "result_export_chunks" }

// Models are the module's tables, for the schema check.
func Models() []any { return []any{&Export{}, &ExportChunk{}} }

// Tasks queues an export's task in the caller's transaction (the job queue).
type Tasks interface {
	QueueTask(tx *gorm.DB, name string, payload []byte) error
}

// Why an export failed, and the message each is shown with.
const (
	exportFailedCode = "failed" // the attempts ran out (the log says why)
	exportGoneCode   = "gone"   // the campaign or its panel is gone
	exportFilterCode = "filter" // the filter no longer fits the campaign
)

var exportErrors = map[string]string{
	exportFailedCode: "console.results.exports.error.failed",
	exportGoneCode:   "console.results.exports.error.gone",
	exportFilterCode: "console.results.exports.error.filter",
}

// jobFormats are the formats an export job prepares, by name: the responses. The codebook
// and the SPSS syntax are small whatever the count: they always download at once.
var jobFormats = map[string]exportFormat{"csv": exportFormats[0], "xlsx": exportFormats[3]}

// jobFormatOf is the name a job gives a direct export's format ("" for one no job prepares).
func jobFormatOf(f exportFormat) string {
	for name, jf := range jobFormats {
		if jf.path == f.path {
			return name
		}
	}
	return ""
}

// exportTask is the task's payload.
type exportTask struct {
	Export string `json:"export"`
}

// errExportGone: the export was deleted while it ran (expired, or its panel).
var errExportGone = errors.New("results: the export is gone")

// exportRefused is a reason an export cannot succeed however often it is tried.
type exportRefused struct{ code string }

func (e exportRefused) Error() string { return "results: export refused: " + e.code }

// count is how many responses the checked filter keeps.
func (p *Part) count(ctx context.Context, rf surveys.ResultsFilter) (int64, error) {
	counts, err := p.d.Reader.OutcomeCounts(ctx, rf)
	if err != nil {
		return 0, err
	}
	var n int64
	if len(rf.Outcomes) == 0 {
		for _, k := range counts {
			n += int64(k)
		}
		return n, nil
	}
	for _, o := range rf.Outcomes {
		n += int64(counts[o])
	}
	return n, nil
}

// queueExport stores an export of the campaign's responses within the checked filter and
// queues its task, in one transaction; its total is counted now.
func (p *Part) queueExport(ctx context.Context, panelID string, camp *campaigns.Campaign, format string, f Filter, rf surveys.ResultsFilter, operatorID string, viaAPI bool) (*Export, error) {
	total, err := p.count(ctx, rf)
	if err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	e := &Export{ID: id.String(), PanelID: panelID, CampaignID: camp.ID, Format: format, FilterQuery: f.Query(), OperatorID: operatorID,
		ViaAPI: viaAPI, Status: ExportQueued, RowsTotal: total, CreatedAt: time.Now().UTC()}
	payload, err := json.Marshal(exportTask{Export: e.ID})
	if err != nil {
		return nil, err
	}
	err = p.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(e).Error; err != nil {
			return fmt.Errorf("store export of campaign %s: %w", camp.ID, err)
		}
		return p.d.Tasks.QueueTask(tx, TaskExport, payload)
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// exportOf is an export of a campaign of a panel; any other, or one expired (its sweep may
// not have run yet), is web.ErrNotFound.
func (p *Part) exportOf(ctx context.Context, panelID, campaignID, id string) (*Export, error) {
	var e Export
	err := p.d.DB.WithContext(ctx).Where("id = ? AND panel_id = ? AND campaign_id = ?", id, panelID, campaignID).
		Where("expires_at IS NULL OR expires_at > ?", time.Now().UTC()).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, web.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("load export %s: %w", id, err)
	}
	return &e, nil
}

// recent are a campaign's newest exports that have not expired, for its summary.
func (p *Part) recent(ctx context.Context, panelID, campaignID string) ([]Export, error) {
	var out []Export
	err := p.d.DB.WithContext(ctx).Where("panel_id = ? AND campaign_id = ?", panelID, campaignID).
		Where("expires_at IS NULL OR expires_at > ?", time.Now().UTC()).
		Order("created_at DESC, id DESC").Limit(recentExports).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list exports of campaign %s: %w", campaignID, err)
	}
	return out, nil
}

// RunExport is the export task (jobs.TaskHandler): it prepares the export its payload names,
// from the start whatever an earlier attempt left. An export already done, or deleted, is
// left as it is. A failure that another attempt could mend puts it back in the queue; the
// last attempt's, or one no attempt can mend (the campaign gone, the filter no longer
// fitting), marks it failed and deletes what it wrote.
func (p *Part) RunExport(ctx context.Context, payload []byte) error {
	var task exportTask
	if err := json.Unmarshal(payload, &task); err != nil || task.Export == "" {
		p.d.Log.Error("results: an export task names no export", "payload", string(payload))
		return nil // no attempt would read it better
	}
	var e Export
	err := p.d.DB.WithContext(ctx).Where("id = ?", task.Export).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load export %s: %w", task.Export, err)
	}
	if e.Status == ExportDone {
		return nil
	}
	err = p.prepare(ctx, &e)
	if err == nil || errors.Is(err, errExportGone) {
		return nil
	}
	// The context may be spent (the attempt's timeout): what is recorded now gets its own.
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	var left int64
	if cerr := p.d.DB.WithContext(after).Model(&Export{}).Where("id = ?", e.ID).Count(&left).Error; cerr == nil && left == 0 {
		return nil // deleted while it ran (a chunk of it refused): nothing to do
	}
	var refused exportRefused
	if errors.As(err, &refused) {
		return p.fail(after, e.ID, refused.code)
	}
	if attempt, attempts := jobs.TaskAttempt(ctx); attempt < attempts {
		if qerr := p.d.DB.WithContext(after).Model(&Export{}).Where("id = ? AND status = ?", e.ID, ExportRunning).
			Updates(map[string]any{"status": ExportQueued, "rows_done": 0}).Error; qerr != nil {
			return errors.Join(err, qerr)
		}
		return err
	}
	p.d.Log.Warn("results: export failed", "export", e.ID, "campaign", e.CampaignID, "format", e.Format, "err", err)
	return errors.Join(err, p.fail(after, e.ID, exportFailedCode))
}

// fail marks an export failed (shown until it expires like a file) and deletes its chunks.
func (p *Part) fail(ctx context.Context, id, code string) error {
	now := time.Now().UTC()
	expires := now.Add(ExportKept)
	return p.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("export_id = ?", id).Delete(&ExportChunk{}).Error; err != nil {
			return fmt.Errorf("delete chunks of export %s: %w", id, err)
		}
		err := tx.Model(&Export{}).Where("id = ?", id).Updates(map[string]any{
			"status": ExportFailed, "error_code": code, "rows_done": 0, "bytes": 0, "finished_at": now, "expires_at": expires,
		}).Error
		if err != nil {
			return fmt.Errorf("mark export %s failed: %w", id, err)
		}
		return nil
	})
}

// prepare writes the export's file into its chunks, from the start.
func (p *Part) prepare(ctx context.Context, e *Export) error {
	panel, err := p.d.PanelByID(ctx, e.PanelID)
	if errors.Is(err, web.ErrNotFound) {
		return exportRefused{exportGoneCode}
	}
	if err != nil {
		return err
	}
	camp, err := p.d.Catalogue.Campaign(ctx, panel, e.CampaignID)
	if errors.Is(err, web.ErrNotFound) {
		return exportRefused{exportGoneCode}
	}
	if err != nil {
		return err
	}
	q, err := url.ParseQuery(e.FilterQuery)
	if err != nil {
		return exportRefused{exportFilterCode}
	}
	rf, err := FilterOf(q).Check(panel, camp)
	if err != nil {
		return exportRefused{exportFilterCode}
	}
	format, ok := jobFormats[e.Format]
	if !ok {
		return exportRefused{exportFailedCode}
	}

	// Start over: what an earlier attempt wrote goes first.
	err = p.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("export_id = ?", e.ID).Delete(&ExportChunk{}).Error; err != nil {
			return fmt.Errorf("delete chunks of export %s: %w", e.ID, err)
		}
		res := tx.Model(&Export{}).Where("id = ? AND status <> ?", e.ID, ExportDone).Updates(map[string]any{
			"status": ExportRunning, "started_at": time.Now().UTC(), "rows_done": 0, "bytes": 0, "error_code": "",
			"finished_at": nil, "expires_at": nil,
		})
		if res.Error != nil {
			return fmt.Errorf("start export %s: %w", e.ID, res.Error)
		}
		if res.RowsAffected == 0 {
			return errExportGone
		}
		return nil
	})
	if err != nil {
		return err
	}

	lang := panel.DefaultLanguage
	vars := Variables(camp, lang, p.words(lang))
	w := newChunkWriter(ctx, p.d.DB, e.ID, p.d.ExportChunk)
	var rows int64
	each := func(fn func(surveys.ResponseWithAnswers) error) error {
		return p.d.Reader.EachResponse(ctx, rf, func(r surveys.ResponseWithAnswers) error {
			if err := fn(r); err != nil {
				return err
			}
			rows++
			if rows%int64(p.d.ExportProgressEvery) == 0 {
				return p.progress(ctx, e.ID, rows)
			}
			return nil
		})
	}
	if format.path == resultviews.ExportXLSX {
		err = WriteXLSX(w, vars, each)
	} else {
		err = WriteCSV(w, vars, each)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	res := p.d.DB.WithContext(ctx).Model(&Export{}).Where("id = ? AND status = ?", e.ID, ExportRunning).Updates(map[string]any{
		"status": ExportDone, "rows_done": rows, "rows_total": rows, "bytes": w.bytes, "finished_at": now, "expires_at": now.Add(ExportKept),
	})
	if res.Error != nil {
		return fmt.Errorf("finish export %s: %w", e.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		return errExportGone
	}
	return nil
}

// progress records the rows written so far.
func (p *Part) progress(ctx context.Context, id string, rows int64) error {
	res := p.d.DB.WithContext(ctx).Model(&Export{}).Where("id = ? AND status = ?", id, ExportRunning).Update("rows_done", rows)
	if res.Error != nil {
		return fmt.Errorf("note progress of export %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return errExportGone
	}
	return nil
}

// SweepExports deletes the exports that expired by now, with their files, and those that
// never finished a day after they should have (their job was cancelled, or lost with its
// process): a periodic job (jobs.Every), safe to run twice.
func (p *Part) SweepExports(ctx context.Context, now time.Time) (int64, error) {
	const expired = "(expires_at IS NOT NULL AND expires_at <= ?) OR (expires_at IS NULL AND created_at <= ?)"
	now = now.UTC()
	stale := now.Add(-2 * ExportKept)
	var n int64
	err := p.d.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		ids := tx.Session(&gorm.Session{NewDB: true}).Model(&Export{}).Select("id").Where(expired, now, stale)
		if err := tx.Where("export_id IN (?)", ids).Delete(&ExportChunk{}).Error; err != nil {
			return fmt.Errorf("delete expired exports' chunks: %w", err)
		}
		res := tx.Where(expired, now, stale).Delete(&Export{})
		if res.Error != nil {
			return fmt.Errorf("delete expired exports: %w", res.Error)
		}
		n = res.RowsAffected
		return nil
	})
	return n, err
}

// chunkWriter is an export's file as it is written: it stores a chunk each time size bytes
// have come, and the rest on Close.
type chunkWriter struct {
	ctx   context.Context
	db    *gorm.DB
	id    string
	size  int
	buf   []byte
	seq   int
	bytes int64
}

func newChunkWriter(ctx context.Context, db *gorm.DB, id string, size int) *chunkWriter {
	return &chunkWriter{ctx: ctx, db: db, id: id, size: size, buf: make([]byte, 0, size)}
}

func (w *chunkWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		k := min(w.size-len(w.buf), len(b))
		w.buf = append(w.buf, b[:k]...)
		b, n = b[k:], n+k
		if len(w.buf) == w.size {
			if err := w.flush(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// Close stores what is left.
func (w *chunkWriter) Close() error {
	if len(w.buf) == 0 {
		return nil
	}
	return w.flush()
}

func (w *chunkWriter) flush() error {
	chunk := ExportChunk{ExportID: w.id, Seq: w.seq, Data: base64.StdEncoding.EncodeToString(w.buf)}
	if err := w.db.WithContext(w.ctx).Create(&chunk).Error; err != nil {
		return fmt.Errorf("store chunk %d of export %s: %w", w.seq, w.id, err)
	}
	w.bytes += int64(len(w.buf))
	w.seq++
	w.buf = w.buf[:0]
	return nil
}

// chunkReader reads an export's file back, a chunk at a time, as the download streams (with
// a context of its own: the request's ends before the body is sent).
type chunkReader struct {
	db  *gorm.DB
	id  string
	seq int
	cur []byte
}

func (r *chunkReader) Read(b []byte) (int, error) {
	for len(r.cur) == 0 {
		var chunks []ExportChunk
		err := r.db.WithContext(context.Background()).Where("export_id = ? AND seq = ?", r.id, r.seq).Limit(1).Find(&chunks).Error
		if err != nil {
			return 0, fmt.Errorf("read chunk %d of export %s: %w", r.seq, r.id, err)
		}
		if len(chunks) == 0 {
			return 0, io.EOF
		}
		if r.cur, err = base64.StdEncoding.DecodeString(chunks[0].Data); err != nil {
			return 0, fmt.Errorf("decode chunk %d of export %s: %w", r.seq, r.id, err)
		}
		r.seq++
	}
	n := copy(b, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}
