package results

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/canvass/canvass/modules/surveys"
	"github.com/xuri/excelize/v2"
)

// The export formats: CSV (the responses; the codebook as a second CSV), SPSS syntax that reads
// that CSV with its labels, and XLSX (a Responses sheet and a Codebook sheet). Each writes as
// it reads: each(fn) calls fn with one response after another (surveys.EachResponse), so memory
// stays the same whatever the count.

// Each is a source of responses: it calls fn with each, in order, and stops at fn's error.
type Each func(fn func(surveys.ResponseWithAnswers) error) error

// Names are the variables' names, the export's header.
func Names(vars []Variable) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = v.Name
	}
	return out
}

// WriteCSV writes the header and a row per response.
func WriteCSV(w io.Writer, vars []Variable, each Each) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Names(vars)); err != nil {
		return err
	}
	err := each(func(r surveys.ResponseWithAnswers) error { return cw.Write(Row(vars, r)) })
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// CodebookHeader names the codebook's columns.
var CodebookHeader = []string{"variable", "question", "label", "code", "option", "value_label"}

// codebook is the codebook's rows: a row per variable, then one per code it may hold.
func codebook(vars []Variable) [][]string {
	var rows [][]string
	for _, v := range vars {
		rows = append(rows, []string{v.Name, v.Question, v.Label, "", "", ""})
		for _, c := range v.Values {
			rows = append(rows, []string{v.Name, v.Question, "", c.Code, c.Option, c.Label})
		}
	}
	return rows
}

// WriteCodebook writes the codebook as CSV.
func WriteCodebook(w io.Writer, vars []Variable) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CodebookHeader); err != nil {
		return err
	}
	if err := cw.WriteAll(codebook(vars)); err != nil {
		return err
	}
	return cw.Error()
}

// spssQuote is a text as an SPSS string literal, cut to max bytes (SPSS's limits: 255 for a
// variable label, 120 for a value label) without splitting a character.
func spssQuote(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// WriteSPS writes SPSS syntax that reads the CSV export (saved as csvName beside it) with its
// variable and value labels.
func WriteSPS(w io.Writer, vars []Variable, csvName, title string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "* %s.\n* Reads %s (UTF-8, from Canvass) with its variable and value labels.\n", strings.ReplaceAll(title, "\n", " "), csvName)
	b.WriteString("SET UNICODE=ON.\nGET DATA\n  /TYPE=TXT\n  /FILE=" + spssQuote(csvName, 1000) + "\n  /ENCODING='UTF8'\n")
	b.WriteString("  /ARRANGEMENT=DELIMITED\n  /DELCASE=LINE\n  /FIRSTCASE=2\n  /DELIMITERS=\",\"\n  /QUALIFIER='\"'\n  /VARIABLES=\n")
	for _, v := range vars {
		format := "A" + strconv.Itoa(max(v.Width, 1))
		if v.Numeric {
			format = "F12.2"
			if len(v.Values) > 0 {
				format = "F8.0"
			}
		}
		fmt.Fprintf(&b, "    %s %s\n", v.Name, format)
	}
	b.WriteString(".\nVARIABLE LABELS\n")
	for i, v := range vars {
		sep := "  "
		if i > 0 {
			sep = "  /"
		}
		fmt.Fprintf(&b, "%s%s %s\n", sep, v.Name, spssQuote(v.Label, 255))
	}
	b.WriteString(".\n")
	first := true
	for _, v := range vars {
		if len(v.Values) == 0 {
			continue
		}
		if first {
			b.WriteString("VALUE LABELS\n  ")
			first = false
		} else {
			b.WriteString("  /")
		}
		b.WriteString(v.Name)
		for _, c := range v.Values {
			fmt.Fprintf(&b, " %s %s", c.Code, spssQuote(c.Label, 120))
		}
		b.WriteString("\n")
	}
	if !first {
		b.WriteString(".\n")
	}
	b.WriteString("EXECUTE.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Sheet names of the XLSX export.
const (
	SheetResponses = "Responses"
	SheetCodebook  = "Codebook"
)

// WriteXLSX writes the responses and the codebook as a workbook, streaming the responses'
// rows (excelize keeps a large sheet in a temporary file, not in memory).
func WriteXLSX(w io.Writer, vars []Variable, each Each) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", SheetResponses); err != nil {
		return err
	}
	if _, err := f.NewSheet(SheetCodebook); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(SheetResponses)
	if err != nil {
		return err
	}
	row := 1
	put := func(sw *excelize.StreamWriter, cells []any) error {
		cell, err := excelize.CoordinatesToCellName(1, row)
		if err != nil {
			return err
		}
		row++
		return sw.SetRow(cell, cells)
	}
	header := make([]any, len(vars))
	for i, v := range vars {
		header[i] = v.Name
	}
	if err := put(sw, header); err != nil {
		return err
	}
	err = each(func(r surveys.ResponseWithAnswers) error {
		cells := Row(vars, r)
		out := make([]any, len(cells))
		for i, s := range cells {
			out[i] = s
			if vars[i].Numeric && s != "" {
				if n, err := strconv.ParseFloat(s, 64); err == nil {
					out[i] = n
				}
			}
		}
		return put(sw, out)
	})
	if err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	cb, err := f.NewStreamWriter(SheetCodebook)
	if err != nil {
		return err
	}
	row = 1
	header = make([]any, len(CodebookHeader))
	for i, h := range CodebookHeader {
		header[i] = h
	}
	if err := put(cb, header); err != nil {
		return err
	}
	for _, r := range codebook(vars) {
		cells := make([]any, len(r))
		for i, s := range r {
			cells[i] = s
		}
		if err := put(cb, cells); err != nil {
			return err
		}
	}
	if err := cb.Flush(); err != nil {
		return err
	}
	return f.Write(w)
}
