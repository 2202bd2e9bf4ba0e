package page

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// People paste A/A runs from spreadsheets (tab-separated), save them from
// tools set to a European locale (semicolons), or leave the header out.
// The page reads all of these as the comma-separated CSV with a header
// that aa.ReadCSV reads, by rewriting the text on its way in; a plain CSV
// with a header passes through untouched.

// csvShape is what the first non-blank line of an A/A CSV says about it.
type csvShape struct {
	delim    byte // ',', ';' or '\t'
	noHeader bool // the first line is a row of scenario,run,passed
}

// aaColumnNames are the names a header of an A/A CSV may hold.
var aaColumnNames = map[string]bool{"scenario": true, "run": true, "passed": true, "trials": true}

// sniffCSV reads the shape from the start of the text. The separator is
// the one of comma, semicolon and tab that occurs most often outside
// quotes in the first line (a comma on a tie). The line is a header when
// one of its fields names a column; a line of exactly three fields whose
// third is a pass (0, 1, true or false) is a row of scenario,run,passed
// without one. Anything else is left for the CSV reader to judge.
func sniffCSV(head []byte) csvShape {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	var line []byte
	for len(head) > 0 {
		line, head, _ = bytes.Cut(head, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.Trim(line, " \t")) > 0 {
			break
		}
		line = nil
	}
	sh := csvShape{delim: ','}
	if line == nil {
		return sh
	}
	counts := map[byte]int{}
	quoted := false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ',' || c == ';' || c == '\t'):
			counts[c]++
		}
	}
	for _, d := range []byte{';', '\t'} {
		if counts[d] > counts[sh.delim] {
			sh.delim = d
		}
	}
	fields := splitRecord(line, sh.delim)
	for _, f := range fields {
		if aaColumnNames[strings.ToLower(strings.TrimSpace(f.text))] {
			return sh
		}
	}
	if len(fields) == 3 {
		switch strings.ToLower(strings.TrimSpace(fields[2].text)) {
		case "0", "1", "true", "false":
			sh.noHeader = true
		}
	}
	return sh
}

// plain reports whether the text needs no rewriting.
func (sh csvShape) plain() bool { return sh.delim == ',' && !sh.noHeader }

// csvField is one field of a record: its text without quotes, and whether
// it was quoted.
type csvField struct {
	text   string
	quoted bool
	raw    []byte // as written, quotes included
}

// splitRecord splits a record (possibly spanning lines inside quotes) at
// delim, outside quotes. An unclosed quote runs to the end.
func splitRecord(rec []byte, delim byte) []csvField {
	var out []csvField
	start, quoted := 0, false
	for i := 0; i <= len(rec); i++ {
		if i < len(rec) {
			c := rec[i]
			if c == '"' {
				quoted = !quoted
				continue
			}
			if quoted || c != delim {
				continue
			}
		}
		raw := rec[start:i]
		f := csvField{raw: raw, text: string(raw)}
		if t := bytes.Trim(raw, " \t"); len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
			f.quoted = true
			f.text = strings.ReplaceAll(string(t[1:len(t)-1]), `""`, `"`)
		}
		out = append(out, f)
		start = i + 1
	}
	return out
}

// shapeReader rewrites a CSV of shape sh as aa.ReadCSV reads it: commas
// between fields (a field holding a comma or a quote is quoted), and a
// header first when the text has none. One record in is one record out,
// on as many lines, so line numbers shift only by the added header, which
// fixLine takes back.
type shapeReader struct {
	sh  csvShape
	br  *bufio.Reader
	out []byte
	err error
	rec []byte
}

func newShapeReader(r io.Reader, sh csvShape) *shapeReader {
	s := &shapeReader{sh: sh, br: bufio.NewReaderSize(r, 64<<10)}
	if b, _ := s.br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) && sh.noHeader {
		s.br.Discard(3) // the header goes first; aa.ReadCSV drops a BOM only there
	}
	if sh.noHeader {
		s.out = []byte("scenario,run,passed\n")
	}
	return s
}

func (s *shapeReader) Read(p []byte) (int, error) {
	for len(s.out) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.next()
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

// next rewrites one record (its lines up to the one that closes every
// quote) into out.
func (s *shapeReader) next() {
	s.rec = s.rec[:0]
	quoted := false
	for {
		line, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			err = nil
		}
		s.rec = append(s.rec, line...)
		quoted = quoted != (bytes.Count(line, []byte(`"`))%2 == 1)
		if err != nil {
			s.err = err
			break
		}
		if !quoted && len(line) > 0 && line[len(line)-1] == '\n' {
			break
		}
		if len(s.rec) > 2<<20 { // past aa.MaxLine: pass it on for the reader to refuse
			break
		}
	}
	if len(s.rec) == 0 {
		return
	}
	body, end := s.rec, []byte(nil)
	if bytes.HasSuffix(body, []byte("\r\n")) {
		body, end = body[:len(body)-2], []byte("\r\n")
	} else if bytes.HasSuffix(body, []byte("\n")) {
		body, end = body[:len(body)-1], []byte("\n")
	}
	if s.sh.delim == ',' {
		s.out = append(s.out[:0], s.rec...)
		return
	}
	out := s.out[:0]
	for i, f := range splitRecord(body, s.sh.delim) {
		if i > 0 {
			out = append(out, ',')
		}
		switch {
		case f.quoted:
			out = append(out, f.raw...)
		case bytes.ContainsAny(f.raw, ",\"\r\n"):
			out = append(out, '"')
			out = append(out, bytes.ReplaceAll(f.raw, []byte(`"`), []byte(`""`))...)
			out = append(out, '"')
		default:
			out = append(out, f.raw...)
		}
	}
	s.out = append(out, end...)
}

// fixLine takes back the header line a shapeReader added from the line
// numbers of err.
func (sh csvShape) fixLine(err error) error {
	var e *core.Error
	if !sh.noHeader || !errors.As(err, &e) || e.Line < 2 {
		return err
	}
	c := *e
	c.Line--
	return &c
}
