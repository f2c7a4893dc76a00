package postcodes

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Field limits of an imported row.
const (
	MaxIDLength       = 100
	MaxPostcodeLength = 20
	MaxLabelLength    = 200
	maxProblems       = 10 // an import error lists at most this many rows
)

// Row is one place to import; Line is where it stands in its file, for error messages.
type Row struct {
	Line     int
	ID       string
	Postcode string
	Label    string // the postcode when empty
	Locality string
	Region   string
}

// ImportResult tells what an import did.
type ImportResult struct {
	Rows      int // rows imported
	Created   int // places that were new
	Updated   int // places that existed and changed
	Unchanged int // places that existed as they are
}

// InvalidError lists the bad rows of an import; nothing was imported.
type InvalidError struct {
	Problems []string // "FILE:LINE: problem", at most maxProblems
	More     int      // bad rows beyond those
}

func (e *InvalidError) Error() string {
	msg := strings.Join(e.Problems, "\n")
	if e.More > 0 {
		msg += fmt.Sprintf("\n... and %d more", e.More)
	}
	return msg
}

// columns a file may have; others are ignored.
var columns = []string{"id", "postcode", "label", "locality", "region"}

// ParseCSV reads a postcode file: a header naming at least id, postcode and label (in any
// order, any case; locality and region are optional; other columns are ignored), then one
// place per line. Every bad row is reported with its line (up to ten), and none is kept.
func ParseCSV(name string, r io.Reader) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: the first line must be a header with id,postcode,label", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	at := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\uFEFF"))) // a BOM from spreadsheet exports
		if _, dup := at[h]; dup && h != "" {
			return nil, fmt.Errorf("%s:1: column %q appears twice", name, h)
		}
		at[h] = i
	}
	for _, c := range columns[:3] {
		if _, ok := at[c]; !ok {
			return nil, fmt.Errorf("%s:1: the header has no %q column (it needs id,postcode,label)", name, c)
		}
	}
	cell := func(rec []string, col string) string {
		if i, ok := at[col]; ok {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var rows []Row
	bad := &InvalidError{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			bad.add(fmt.Sprintf("%s:%d: %v", name, pe.StartLine, pe.Err))
			if errors.Is(pe.Err, csv.ErrFieldCount) {
				continue // the reader carries on after a short or long row
			}
			break // a broken quote leaves nothing sensible to read
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		rows = append(rows, Row{
			Line: line, ID: cell(rec, "id"), Postcode: cell(rec, "postcode"), Label: cell(rec, "label"),
			Locality: cell(rec, "locality"), Region: cell(rec, "region"),
		})
	}
	if err := checkRows(name, rows, bad); err != nil {
		return nil, err
	}
	return rows, nil
}

func (e *InvalidError) add(problem string) {
	if len(e.Problems) < maxProblems {
		e.Problems = append(e.Problems, problem)
	} else {
		e.More++
	}
}

// checkRows adds every bad row's problem to bad and returns it when there is any. Problems
// read "FILE:LINE: ..." as editors jump to them, or "line LINE: ..." without a file name.
func checkRows(name string, rows []Row, bad *InvalidError) error {
	where := func(line int) string {
		if name == "" {
			return fmt.Sprintf("line %d", line)
		}
		return fmt.Sprintf("%s:%d", name, line)
	}
	seen := make(map[string]int, len(rows))
	for _, r := range rows {
		if msg := r.problem(); msg != "" {
			bad.add(where(r.Line) + ": " + msg)
			continue
		}
		if first, dup := seen[r.ID]; dup {
			bad.add(fmt.Sprintf("%s: id %q is already on line %d", where(r.Line), r.ID, first))
			continue
		}
		seen[r.ID] = r.Line
	}
	if len(bad.Problems) > 0 {
		return bad
	}
	return nil
}

func (r Row) problem() string {
	switch {
	case r.ID == "":
		return "id is empty"
	case utf8.RuneCountInString(r.ID) > MaxIDLength:
		return fmt.Sprintf("id is longer than %d characters", MaxIDLength)
	case Normalize(r.Postcode) == "":
		return "postcode is empty"
	case utf8.RuneCountInString(r.Postcode) > MaxPostcodeLength:
		return fmt.Sprintf("postcode is longer than %d characters", MaxPostcodeLength)
	case utf8.RuneCountInString(r.Label) > MaxLabelLength:
		return fmt.Sprintf("label is longer than %d characters", MaxLabelLength)
	case !utf8.ValidString(r.ID + r.Postcode + r.Label + r.Locality + r.Region):
		return "not valid UTF-8"
	}
	return ""
}

// Import creates or updates a panel's places by id, all or none: a bad row (named by its
// line) imports nothing. Places missing from rows are kept.
func (m *Module) Import(ctx context.Context, panelID string, rows []Row) (ImportResult, error) {
	if err := checkRows("", rows, &InvalidError{}); err != nil {
		return ImportResult{}, err
	}
	now := m.now().UTC()
	places := make([]Place, 0, len(rows))
	for _, r := range rows {
		label := r.Label
		if label == "" {
			label = strings.Join(strings.Fields(r.Postcode), " ")
		}
		places = append(places, Place{
			PanelID: panelID, ID: r.ID, Postcode: strings.Join(strings.Fields(r.Postcode), " "), Normalized: Normalize(r.Postcode),
			Label: label, Locality: r.Locality, Region: r.Region, Words: words(label), UpdatedAt: now,
		})
	}
	if len(places) == 0 {
		return ImportResult{}, nil
	}
	created, changed, err := m.store.Upsert(ctx, panelID, places)
	if err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{Rows: len(rows), Created: created, Updated: changed, Unchanged: len(rows) - created - changed}
	if created+changed > 0 { // a repeated import (the demo loader at every start) says nothing
		m.log.Info("postcodes imported", "panel", panelID, "rows", res.Rows, "created", res.Created, "updated", res.Updated)
	}
	return res, nil
}
