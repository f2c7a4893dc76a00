package results

import (
	"bufio"
	"context"
	"io"
	"strings"
	"unicode"

	"github.com/canvass/canvass/modules/campaigns"
	"github.com/canvass/canvass/modules/console"
	"github.com/canvass/canvass/modules/surveys"
	"github.com/canvass/canvass/modules/web"
	resultviews "github.com/canvass/canvass/views/console/results"
	"github.com/gofiber/fiber/v3"
)

// The exports, started from the summary with its filter (pages and API alike): the responses
// as CSV, the codebook as CSV, SPSS syntax that reads the CSV, and a workbook with both. The
// responses are read and written a batch at a time while the download streams, so a million
// of them take no more memory than fifty. Each export is audited: it holds member data.

// exportFormat is one export's file.
type exportFormat struct {
	path        string // after the results' path
	suffix      string // after the campaign's name in the file's name
	contentType string
}

var exportFormats = []exportFormat{
	{resultviews.ExportCSV, "-responses.csv", "text/csv; charset=utf-8"},
	{resultviews.ExportCodebook, "-codebook.csv", "text/csv; charset=utf-8"},
	{resultviews.ExportSPSS, "-responses.sps", "text/plain; charset=utf-8"},
	{resultviews.ExportXLSX, "-responses.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
}

// words are the export's own words in the panel's default language.
func (p *Part) words(lang string) Words {
	t := func(id string) string {
		if p.m == nil {
			return id // a module test's Part, mounted on no console
		}
		return p.m.TIn(lang, id, nil)
	}
	w := Words{
		Response: t("console.results.export.response"), Member: t("console.results.export.member"), Outcome: t("console.results.export.outcome"),
		Started: t("console.results.export.started"), Finished: t("console.results.export.finished"), Language: t("console.results.export.language"),
		Chosen: t("console.results.export.chosen"), NotChosen: t("console.results.export.not_chosen"), Most: t("console.results.export.most"),
		Least: t("console.results.export.least"), Amount: t("console.results.export.amount"), Period: t("console.results.export.period"),
		Periods: map[string]string{"day": t("console.results.period.day"), "week": t("console.results.period.week"),
			"month": t("console.results.period.month"), "year": t("console.results.period.year")},
	}
	return w
}

// fileStem is a campaign's name as the start of a file's name: lower-case letters, digits and
// dashes ("campaign" when nothing is left).
func fileStem(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 60 {
		s = strings.Trim(s[:60], "-")
	}
	if s == "" {
		return "campaign"
	}
	return s
}

// tooLargeParam=tooLargeValue on the summary's address says a download was refused for its
// size (the summary's notice).
const (
	tooLargeParam = "export"
	tooLargeValue = "too_large"
)

// export serves one format of the export; api: a refused filter is the API's 400, else the
// page's 400 (the summary, which says what is wrong). The responses (CSV, XLSX) of a filter
// that keeps more than Deps.DirectLimit are refused (the API's 409; the page goes back to the
// summary, whose forms prepare them as export jobs).
func (p *Part) export(format exportFormat, api bool) func(c fiber.Ctx, a console.PanelAccess) error {
	return func(c fiber.Ctx, a console.PanelAccess) error {
		panel, camp, err := p.campaign(c, a)
		if err != nil {
			return err
		}
		f := FilterOf(query(c))
		rf, err := f.Check(panel, camp)
		if err != nil {
			if api {
				return err
			}
			return p.summaryPage(c, a)
		}
		if jobFormatOf(format) != "" {
			// More responses than stream before the write timeout: an export job's, not a download's.
			n, err := p.count(c.Context(), rf)
			if err != nil {
				return err
			}
			if n > int64(p.d.DirectLimit) {
				if api {
					return web.Fail(fiber.StatusConflict, "console.results.exports.error.too_large", map[string]any{"Max": p.d.DirectLimit}).WithCode("export_too_large")
				}
				v := f.Values()
				v.Set(tooLargeParam, tooLargeValue)
				return p.m.Redirect(c, resultviews.SummaryPath(a.Panel.Key, camp.ID)+"?"+v.Encode()+"#rv-export")
			}
		}
		if err := p.m.Audit(c, a.Panel.ID, "results.export", camp.ID, nil, map[string]any{"format": strings.TrimPrefix(format.path, "/"), "filter": f.Query()}); err != nil {
			return err
		}
		lang := panel.DefaultLanguage
		vars := Variables(camp, lang, p.words(lang))
		stem := fileStem(camp.Names.In(lang, camp.DefaultLanguage))
		c.Set(fiber.HeaderContentType, format.contentType)
		c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+stem+format.suffix+`"`)
		c.Set(fiber.HeaderCacheControl, "no-store")
		write := p.writer(format, vars, stem, camp, rf)
		return c.SendStreamWriter(func(w *bufio.Writer) {
			if err := write(w); err != nil {
				// The status is sent: the download ends short, and the log says why.
				p.d.Log.Warn("results export failed", "campaign", camp.ID, "format", format.path, "err", err)
				return
			}
			_ = w.Flush()
		})
	}
}

// writer is the function that writes one export; it reads the responses as it writes, with a
// context of its own (the request's ends when the handler returns, before the body streams).
func (p *Part) writer(format exportFormat, vars []Variable, stem string, camp *campaigns.Campaign, rf surveys.ResultsFilter) func(io.Writer) error {
	each := func(fn func(surveys.ResponseWithAnswers) error) error {
		return p.d.Reader.EachResponse(context.Background(), rf, fn)
	}
	switch format.path {
	case resultviews.ExportCodebook:
		return func(w io.Writer) error { return WriteCodebook(w, vars) }
	case resultviews.ExportSPSS:
		title := camp.Names.In(camp.DefaultLanguage, "")
		return func(w io.Writer) error { return WriteSPS(w, vars, stem+"-responses.csv", title) }
	case resultviews.ExportXLSX:
		return func(w io.Writer) error { return WriteXLSX(w, vars, each) }
	}
	return func(w io.Writer) error { return WriteCSV(w, vars, each) }
}
