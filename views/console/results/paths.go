package resultviews

import (
	"net/url"
	"sort"
)

// campaignPath is the campaign's own page in the console.
func campaignPath(panelKey, campaignID string) string {
	return "/console/panels/" + url.PathEscape(panelKey) + "/campaigns/" + url.PathEscape(campaignID)
}

// SummaryPath is a campaign's results summary: /console/panels/{panel}/campaigns/{id}/results.
func SummaryPath(panelKey, campaignID string) string {
	return campaignPath(panelKey, campaignID) + "/results"
}

// ResponsesPath is the table of a campaign's responses: …/results/responses.
func ResponsesPath(panelKey, campaignID string) string {
	return SummaryPath(panelKey, campaignID) + "/responses"
}

// ResponsePath is one respondent's answers: …/results/responses/{participation}.
func ResponsePath(panelKey, campaignID, participationID string) string {
	return ResponsesPath(panelKey, campaignID) + "/" + url.PathEscape(participationID)
}

// TextPath is every answer to one free-text question: …/results/text/{question}.
func TextPath(panelKey, campaignID, questionID string) string {
	return SummaryPath(panelKey, campaignID) + "/text/" + url.PathEscape(questionID)
}

// Export files, after the summary's path: the responses, the codebook, SPSS syntax, a workbook.
const (
	ExportCSV      = "/export.csv"
	ExportCodebook = "/codebook.csv"
	ExportSPSS     = "/export.sps"
	ExportXLSX     = "/export.xlsx"
)

// ExportPath is one export of a campaign's results (file: ExportCSV, …).
func ExportPath(panelKey, campaignID, file string) string {
	return SummaryPath(panelKey, campaignID) + file
}

// WithQuery is path with the query string query ("" leaves the path as it is).
func WithQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// hidden is one hidden input a GET form carries.
type hidden struct {
	Name, Value string
}

// hiddenFields are the values of the query string query as hidden inputs, in a stable order,
// leaving out the names the form sets itself (skip): a second form on a page (the cross-tab,
// a search) keeps the filter in force.
func hiddenFields(query string, skip ...string) []hidden {
	if query == "" {
		return nil
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(v))
	for name := range v {
		skipped := false
		for _, s := range skip {
			if s == name {
				skipped = true
			}
		}
		if !skipped && name != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []hidden
	for _, name := range names {
		for _, value := range v[name] {
			out = append(out, hidden{Name: name, Value: value})
		}
	}
	return out
}
