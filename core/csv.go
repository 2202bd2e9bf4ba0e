package core

import (
	"encoding/csv"
	"errors"
	"io"
	"iter"
	"slices"
	"strings"
)

// CSVTable reads a CSV file whose first record is a header naming its
// columns, then its rows one at a time, each field found by its column's
// name. Records may have any number of fields; a field a row lacks reads
// as empty.
type CSVTable struct {
	r      *csv.Reader
	Header []string       // the header's fields, as written
	Cols   map[string]int // a column's index by its ColumnName (the last of a name)
	Rec    []string       // the row Rows read last
	// SkipBlank has Rows pass over the rows that are one blank field (a
	// line of spaces).
	SkipBlank bool
}

// NewCSVTable reads from r; with reuse, a row's fields are valid until the
// next row only (csv.Reader's ReuseRecord).
func NewCSVTable(r io.Reader, reuse bool) *CSVTable {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = reuse
	return &CSVTable{r: cr}
}

// ColumnName is a header field as columns are found by: without a UTF-8
// byte order mark and blanks around it, in lower case.
func ColumnName(h string) string {
	return strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
}

// CSVKind is a kind of CSV file known by its header: Name when the header
// names every one of Columns (in any order, among others).
type CSVKind struct {
	Name    string
	Columns []string // column names as ColumnName gives them
}

// KindOf is the Name of the first of kinds whose columns are all among
// names (a header's fields, each as the caller finds its columns by), or ""
// for none.
func KindOf(names []string, kinds ...CSVKind) string {
	for _, k := range kinds {
		if !slices.ContainsFunc(k.Columns, func(c string) bool { return !slices.Contains(names, c) }) {
			return k.Name
		}
	}
	return ""
}

// ReadHeader reads the header and indexes its columns. Its error is
// encoding/csv's (io.EOF for an empty file), for the caller to word.
func (t *CSVTable) ReadHeader() error {
	header, err := t.r.Read()
	if err != nil {
		return err
	}
	t.Header = slices.Clone(header) // kept past a reused record
	t.Cols = make(map[string]int, len(header))
	for i, h := range header {
		t.Cols[ColumnName(h)] = i
	}
	return nil
}

// Rows reads the rows in turn, each into Rec, yielding its line; an error
// (encoding/csv's, for the caller to word) is yielded last, with line 0.
func (t *CSVTable) Rows() iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for {
			rec, err := t.r.Read()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				yield(0, err)
				return
			}
			t.Rec = rec
			if t.SkipBlank && t.Blank() {
				continue
			}
			line, _ := t.r.FieldPos(0)
			if !yield(line, nil) {
				return
			}
		}
	}
}

// Blank reports whether the row is one blank field (a line of spaces).
func (t *CSVTable) Blank() bool {
	return len(t.Rec) == 1 && strings.TrimSpace(t.Rec[0]) == ""
}

// Field is the row's field in the column named name, without blanks around
// it, and its 1-based column in the line; "" and 0 when the header or the
// row has no such column.
func (t *CSVTable) Field(name string) (string, int) {
	i, ok := t.Cols[name]
	if !ok || i >= len(t.Rec) {
		return "", 0
	}
	return strings.TrimSpace(t.Rec[i]), t.Column(i)
}

// Column is the 1-based column in its line where the row's field i starts.
func (t *CSVTable) Column(i int) int {
	_, c := t.r.FieldPos(i)
	return c
}

// CSVError words an error of a CSVTable's reading with its place:
// encoding/csv's syntax errors as malformed ("malformed CSV"), with what is
// wrong when detail is set; an empty file (io.EOF) as empty when that is
// not ""; an *Error as it is; anything else as malformed at line 1.
func CSVError(err error, malformed, empty string, detail bool) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := malformed
		switch {
		case !detail:
		case errors.Is(pe.Err, csv.ErrBareQuote):
			msg += ": a quote inside an unquoted field"
		case errors.Is(pe.Err, csv.ErrQuote):
			msg += ": a quoted field that does not end"
		}
		return PosErrorf(Invalid, max(pe.Line, 1), max(pe.Column, 1), "%s", msg)
	}
	if errors.Is(err, io.EOF) && empty != "" {
		return PosErrorf(Invalid, 1, 1, "%s", empty)
	}
	var ce *Error
	if errors.As(err, &ce) {
		return err
	}
	return PosErrorf(Invalid, 1, 1, "%s", malformed)
}
