package results

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/canvass/canvass/migrations/dbtest"
	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/testsupport/seed"
	"github.com/canvass/canvass/modules/web"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"gorm.io/gorm"
)

// jobReader is the survey engine as an export job reads it: n responses (the export test's
// first one over and over, each its own id); fail, when set, is called before each response
// and may stop the read; seen is called with each response's number.
type jobReader struct {
	Reader
	n    int
	fail func(i int) error
	seen func(i int)
}

func (r *jobReader) responses() []surveys.ResponseWithAnswers {
	one := exportResponses()[0]
	out := make([]surveys.ResponseWithAnswers, r.n)
	for i := range out {
		out[i] = one
		out[i].ID = fmt.Sprintf("r%06d", i+1)
		out[i].StartedAt = one.StartedAt.Add(time.Duration(i) * time.Second)
	}
	return out
}

func (r *jobReader) OutcomeCounts(context.Context, surveys.ResultsFilter) (map[string]int, error) {
	return map[string]int{campaigns.StatusCompleted: r.n}, nil
}

func (r *jobReader) EachResponse(_ context.Context, _ surveys.ResultsFilter, fn func(surveys.ResponseWithAnswers) error) error {
	for i, resp := range r.responses() {
		if r.fail != nil {
			if err := r.fail(i); err != nil {
				return err
			}
		}
		if r.seen != nil {
			r.seen(i)
		}
		if err := fn(resp); err != nil {
			return err
		}
	}
	return nil
}

type jobCatalogue struct{ c *campaigns.Campaign }

func (k jobCatalogue) Campaign(_ context.Context, _ *web.Panel, id string) (*campaigns.Campaign, error) {
	if k.c == nil || id != k.c.ID {
		return nil, web.ErrNotFound
	}
	return k.c, nil
}

// jobTasks keeps the tasks the part queued.
type jobTasks struct {
	mu       sync.Mutex
	payloads [][]byte
}

func (q *jobTasks) QueueTask(_ *gorm.DB, name string, payload []byte) error {
	if name != TaskExport {
		return fmt.Errorf("unexpected task %s", name)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.payloads = append(q.payloads, payload)
	return nil
}

// jobFixture is a migrated database with a panel, and the part over it with a campaign and n
// responses.
type jobFixture struct {
	t      *testing.T
	ctx    context.Context
	db     *gorm.DB
	p      *Part
	panel  *web.Panel
	camp   *campaigns.Campaign
	reader *jobReader
	tasks  *jobTasks
}

func newJobFixture(t *testing.T, db *gorm.DB, n int) *jobFixture {
	f := &jobFixture{t: t, ctx: context.Background(), db: db, camp: exportCampaign(), reader: &jobReader{n: n}, tasks: &jobTasks{}}
	f.panel = seed.Panel(t, db, "acme", "USD", "en")
	f.p = New(Deps{Reader: f.reader, Catalogue: jobCatalogue{f.camp}, DB: db, Tasks: f.tasks, ExportChunk: jobChunk, ExportProgressEvery: jobProgressEvery,
		PanelByID: func(_ context.Context, id string) (*web.Panel, error) {
			if id != f.panel.ID {
				return nil, web.ErrNotFound
			}
			return f.panel, nil
		}})
	return f
}

// queue queues an export of format with the filter's query string and gives it and its task.
func (f *jobFixture) queue(format, query string) (*Export, []byte) {
	f.t.Helper()
	q, err := url.ParseQuery(query)
	require.NoError(f.t, err)
	filter := FilterOf(q)
	rf, err := filter.Check(f.panel, f.camp)
	require.NoError(f.t, err)
	e, err := f.p.queueExport(f.ctx, f.panel.ID, f.camp, format, filter, rf, "operator-1", false)
	require.NoError(f.t, err)
	f.tasks.mu.Lock()
	defer f.tasks.mu.Unlock()
	require.NotEmpty(f.t, f.tasks.payloads, "the job's task is queued with it")
	return e, f.tasks.payloads[len(f.tasks.payloads)-1]
}

func (f *jobFixture) load(id string) Export {
	f.t.Helper()
	var e Export
	require.NoError(f.t, f.db.Where("id = ?", id).Take(&e).Error)
	return e
}

func (f *jobFixture) chunks(id string) int64 {
	f.t.Helper()
	var n int64
	require.NoError(f.t, f.db.Model(&ExportChunk{}).Where("export_id = ?", id).Count(&n).Error)
	return n
}

// file is an export's file as its download reads it back.
func (f *jobFixture) file(id string) []byte {
	f.t.Helper()
	b, err := io.ReadAll(&chunkReader{db: f.db, id: id})
	require.NoError(f.t, err)
	return b
}

// direct is the file the direct export writes for the same responses.
func (f *jobFixture) direct(format string) []byte {
	f.t.Helper()
	var buf bytes.Buffer
	vars := Variables(f.camp, "en", f.p.words("en"))
	if format == "xlsx" {
		require.NoError(f.t, WriteXLSX(&buf, vars, each(f.reader.responses())))
	} else {
		require.NoError(f.t, WriteCSV(&buf, vars, each(f.reader.responses())))
	}
	return buf.Bytes()
}

// sheets are a workbook's sheets' rows.
func sheets(t *testing.T, b []byte) map[string][][]string {
	t.Helper()
	book, err := excelize.OpenReader(bytes.NewReader(b))
	require.NoError(t, err)
	defer book.Close()
	out := map[string][][]string{}
	for _, name := range book.GetSheetList() {
		rows, err := book.GetRows(name)
		require.NoError(t, err)
		out[name] = rows
	}
	return out
}

// jobResponses are enough responses for a file of several of the fixture's small chunks, with
// progress noted on the way (every jobProgressEvery rows). Small, so that the workbook's
// writing stays quick under the race detector.
const (
	jobResponses     = 900
	jobChunk         = 16 << 10
	jobProgressEvery = 200
)

func TestAnExportJobWritesTheDirectExportsFileInChunksWithItsProgress(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		for _, format := range []string{"csv", "xlsx"} {
			t.Run(format, func(t *testing.T) {
				f := newJobFixture(t, db, jobResponses)
				e, task := f.queue(format, "outcome=all")
				assert.Equal(t, ExportQueued, e.Status)
				assert.EqualValues(t, jobResponses, e.RowsTotal, "its total is counted when it is queued")
				assert.Equal(t, "outcome=all", e.FilterQuery)

				var midway []int64 // rows done as the database says, while it writes
				f.reader.seen = func(i int) {
					if i == 450 || i == 850 {
						midway = append(midway, f.load(e.ID).RowsDone)
					}
				}
				require.NoError(t, f.p.RunExport(f.ctx, task))
				assert.Equal(t, []int64{400, 800}, midway, "progress is noted every few hundred rows")

				done := f.load(e.ID)
				assert.Equal(t, ExportDone, done.Status)
				assert.EqualValues(t, jobResponses, done.RowsDone, "the progress reaches its total")
				assert.Equal(t, done.RowsTotal, done.RowsDone)
				require.NotNil(t, done.FinishedAt)
				require.NotNil(t, done.ExpiresAt)
				assert.WithinDuration(t, done.FinishedAt.Add(ExportKept), *done.ExpiresAt, time.Second, "kept a day after it is ready")

				file, want := f.file(e.ID), f.direct(format)
				assert.EqualValues(t, len(file), done.Bytes)
				assert.EqualValues(t, (len(file)+jobChunk-1)/jobChunk, f.chunks(e.ID), "a chunk each time one fills")
				if format == "csv" {
					assert.Greater(t, len(file), jobChunk, "the CSV fills more than one chunk")
					assert.Equal(t, string(want), string(file), "the direct export's file, byte for byte")
				} else {
					assert.Equal(t, sheets(t, want), sheets(t, file), "the direct export's workbook, cell for cell")
				}

				// A second run of a done job (a retry after its commit) leaves it as it is.
				require.NoError(t, f.p.RunExport(f.ctx, task))
				assert.Equal(t, file, f.file(e.ID))
			})
		}
	})
}

func TestAnExportJobRunAgainStartsOverFromWhatAnEarlierAttemptLeft(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newJobFixture(t, db, 50)
		e, task := f.queue("csv", "")
		// An attempt that died midway: running, with chunks of its own.
		require.NoError(t, db.Model(&Export{}).Where("id = ?", e.ID).Updates(map[string]any{"status": ExportRunning, "rows_done": 30}).Error)
		for seq := range 3 {
			require.NoError(t, db.Create(&ExportChunk{ExportID: e.ID, Seq: seq, Data: "c3RhbGU="}).Error)
		}
		require.NoError(t, f.p.RunExport(f.ctx, task))
		done := f.load(e.ID)
		assert.Equal(t, ExportDone, done.Status)
		assert.EqualValues(t, 50, done.RowsDone)
		assert.EqualValues(t, 1, f.chunks(e.ID), "the earlier chunks are gone")
		assert.Equal(t, string(f.direct("csv")), string(f.file(e.ID)))
	})
}

func TestAnExportJobThatFailsSaysWhyAndKeepsNothingOfItsFile(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		for _, tc := range []struct {
			name, query string
			before      func(f *jobFixture)
			code        string
			err         bool // the attempt's error goes back to the queue
		}{
			{name: "reading the responses fails on the last attempt", code: exportFailedCode, err: true, before: func(f *jobFixture) {
				f.reader.fail = func(i int) error {
					if i == 800 {
						return errors.New("the database went away")
					}
					return nil
				}
			}},
			{name: "the campaign is gone", code: exportGoneCode, before: func(f *jobFixture) { f.camp.ID = "another" }},
			{name: "the filter no longer fits the campaign", query: "answer=drink%3Dtea", code: exportFilterCode, before: func(f *jobFixture) {
				f.camp.Definition.Questions[0].Answers = opts("coffee")
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f := newJobFixture(t, db, jobResponses)
				e, task := f.queue("csv", tc.query)
				tc.before(f)
				err := f.p.RunExport(f.ctx, task)
				if tc.err {
					assert.Error(t, err, "the queue records the attempt as failed")
				} else {
					assert.NoError(t, err, "no attempt would do better: nothing to retry")
				}
				failed := f.load(e.ID)
				assert.Equal(t, ExportFailed, failed.Status)
				assert.Equal(t, tc.code, failed.ErrorCode)
				assert.Zero(t, failed.Bytes)
				assert.NotNil(t, failed.ExpiresAt, "a failure is shown for a day too")
				assert.Zero(t, f.chunks(e.ID), "what it wrote is deleted")
			})
		}
	})
}

func TestTheSweepDeletesExpiredAndStaleExportsWithTheirFilesAndKeepsTheRest(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newJobFixture(t, db, 3)
		now := time.Now().UTC()
		add := func(status string, created time.Time, expires *time.Time) string {
			e, _ := f.queue("csv", "")
			require.NoError(t, db.Model(&Export{}).Where("id = ?", e.ID).Updates(map[string]any{"status": status, "created_at": created, "expires_at": expires}).Error)
			require.NoError(t, db.Create(&ExportChunk{ExportID: e.ID, Seq: 0, Data: "ZmlsZQ=="}).Error)
			return e.ID
		}
		past, future := now.Add(-time.Minute), now.Add(time.Hour)
		expired := add(ExportDone, now.Add(-25*time.Hour), &past)
		failed := add(ExportFailed, now.Add(-25*time.Hour), &past)
		stale := add(ExportQueued, now.Add(-3*24*time.Hour), nil)
		live := add(ExportDone, now.Add(-time.Hour), &future)
		waiting := add(ExportQueued, now.Add(-time.Hour), nil)

		n, err := f.p.SweepExports(f.ctx, now)
		require.NoError(t, err)
		assert.EqualValues(t, 3, n)
		for _, id := range []string{expired, failed, stale} {
			var rows int64
			require.NoError(t, db.Model(&Export{}).Where("id = ?", id).Count(&rows).Error)
			assert.Zero(t, rows, "the export is gone")
			assert.Zero(t, f.chunks(id), "and its file")
		}
		for _, id := range []string{live, waiting} {
			assert.Equal(t, id, f.load(id).ID, "kept")
			assert.EqualValues(t, 1, f.chunks(id))
		}
		n, err = f.p.SweepExports(f.ctx, now)
		require.NoError(t, err)
		assert.Zero(t, n, "safe to run twice")
	})
}

func TestAnExportJobDeletedWhileItRunsStopsWithoutAnError(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, db *gorm.DB) {
		f := newJobFixture(t, db, jobResponses)
		e, task := f.queue("csv", "")
		f.reader.seen = func(i int) {
			if i == 100 {
				require.NoError(t, db.Where("id = ?", e.ID).Delete(&Export{}).Error)
			}
		}
		assert.NoError(t, f.p.RunExport(f.ctx, task), "nothing left to do")
		assert.Zero(t, f.chunks(e.ID))
		var payload exportTask
		require.NoError(t, json.Unmarshal(task, &payload))
		assert.Equal(t, e.ID, payload.Export)
		assert.NoError(t, f.p.RunExport(f.ctx, []byte(`{"export":"`+strings.Repeat("0", 36)+`"}`)), "an export that is no more")
	})
}
