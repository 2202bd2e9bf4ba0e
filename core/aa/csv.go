package aa

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// MaxLine is the longest line (and the longest quoted field across lines)
// ReadCSV accepts, in bytes. A longer one is an error, never a huge buffer.
const MaxLine = 1 << 20

// Roles of the three columns ReadCSV needs.
const (
	aaScenario = iota
	aaRun
	aaPassed
)

var aaColumns = [3]string{"scenario", "run", "passed"}

// ReadCSV reads a scenario,run,passed CSV in one streaming pass into its
// sufficient statistics. Memory grows with scenarios and runs, not rows.
//
// The first non-blank line is the header: it must name the columns scenario,
// run and passed (any order, any letter case, blanks around the names
// allowed); other columns are ignored. A UTF-8 byte order mark, CRLF line
// ends, blank lines and RFC 4180 quoting (quoted fields, "" for a quote,
// commas and line breaks inside quotes) are accepted. passed is 0, 1, true or
// false (any case, blanks around it allowed). Scenario and run ids are kept
// verbatim; they must be non-empty UTF-8. Rows repeating a (scenario, run)
// pair are counted (as the reference does) and reported in Duplicates.
//
// Errors in the text are *Error values of Kind core.Invalid with the 1-based line
// and column (in characters) of the offending field. Errors of r are returned
// wrapped, as they are.
func ReadCSV(r io.Reader) (*Side, error) { return readCSV(r, Limits{}) }

func readCSV(r io.Reader, lim Limits) (*Side, error) {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil) // hold on to no reader
		readers.Put(br)
	}()
	p := &aaParser{
		lim:     lim,
		br:      br,
		scens:   newAAScenTable(),
		runIdx:  make(map[string]int),
		lastRun: -1,
		side:    &Side{Scenarios: []Tally{}, Runs: []Tally{}},
	}
	if err := p.start(); err != nil {
		return nil, err
	}
	if err := p.readHeader(); err != nil {
		return nil, err
	}
	for {
		if err := p.fastLines(); err != nil {
			return nil, err
		}
		l, full, ok, err := p.readLine()
		if err != nil {
			return nil, err
		}
		if !ok {
			return p.finish(), nil
		}
		if aaBlank(l) {
			continue
		}
		if bytes.IndexByte(l, '"') < 0 {
			err = p.fastRow(l)
		} else {
			err = p.slowRow(l, full)
		}
		if err != nil {
			return nil, err
		}
	}
}

// readers holds the 64 KB line buffers of readCSV, which a server reading
// many small CSVs would otherwise allocate and clear for each. Nothing read
// keeps a reference into one: ids are copied out as strings.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

type aaParser struct {
	br   *bufio.Reader
	line int    // physical lines read so far: the number of the current one
	long []byte // a line longer than the bufio buffer, assembled

	role []int8 // role of each field index up to the last needed one, or -1
	col  [3]int // field index of each role
	need int    // fields a row must have

	// Fields of a record parsed by the general path: bytes in rec.
	rec    []byte
	fields []aaField

	lim     Limits       // caps on scenarios and runs
	over    bool         // addRow's refusal is a cap, not bad input
	scens   *aaScenTable // the scenarios and their tallies
	runIdx  map[string]int
	runSets aaRunSets // per run: the scenarios it has a row of
	lastRun int       // index of the previous row's run, or -1
	lastID  string    // its id
	lastX   uint64    // its key (aaKey)
	lastY   uint64
	side    *Side
}

type aaField struct {
	start, end int // in rec
	line, col  int // where the field starts
}

// start drops a UTF-8 byte order mark and refuses UTF-16.
func (p *aaParser) start() error {
	b, _ := p.br.Peek(3)
	switch {
	case bytes.HasPrefix(b, []byte("\xef\xbb\xbf")):
		p.br.Discard(3)
	case bytes.HasPrefix(b, []byte("\xff\xfe")), bytes.HasPrefix(b, []byte("\xfe\xff")):
		return core.PosErrorf(core.Invalid, 1, 1, "the CSV is UTF-16 text; save it as UTF-8")
	}
	return nil
}

// readLine returns the next physical line without its line end (l) and with
// it (full); ok is false at the end of the input. The slices are valid until
// the next call.
func (p *aaParser) readLine() (l, full []byte, ok bool, err error) {
	b, err := p.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.long = append(p.long[:0], b...)
		for err == bufio.ErrBufferFull && len(p.long) <= MaxLine {
			b, err = p.br.ReadSlice('\n')
			p.long = append(p.long, b...)
		}
		b = p.long
	}
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, false, fmt.Errorf("reading the CSV after line %d: %w", p.line, err)
	}
	if len(b) == 0 {
		return nil, nil, false, nil
	}
	p.line++
	full = b
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	if len(b) > MaxLine {
		return nil, nil, false, core.PosErrorf(core.Invalid, p.line, 1, "line is longer than %d bytes", MaxLine)
	}
	return b, full, true, nil
}

// lineOr is readLine for a line that must come: at the end of the input
// it returns the error end gives.
func (p *aaParser) lineOr(end func() error) (l, full []byte, err error) {
	l, full, ok, err := p.readLine()
	if err == nil && !ok {
		err = end()
	}
	return l, full, err
}

// aaBlank reports whether a line holds only spaces and tabs.
func aaBlank(l []byte) bool {
	for _, c := range l {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func (p *aaParser) readHeader() error {
	var l, full []byte
	for {
		var err error
		l, full, err = p.lineOr(func() error {
			return core.PosErrorf(core.Invalid, max(p.line, 1), 1, "no header: the CSV must start with a line naming the columns scenario, run and passed")
		})
		if err != nil {
			return err
		}
		if !aaBlank(l) {
			break
		}
	}
	headerLine := p.line
	if err := p.record(l, full); err != nil {
		return err
	}
	cols := [3]int{-1, -1, -1}
	names := make([]string, len(p.fields))
	for i, f := range p.fields {
		raw := p.rec[f.start:f.end]
		if bytes.IndexByte(raw, '\r') >= 0 {
			return core.PosErrorf(core.Invalid, f.line, f.col+utf8.RuneCount(raw[:bytes.IndexByte(raw, '\r')]),
				"a bare carriage return in the header: lines must end with LF or CRLF")
		}
		name := strings.Trim(string(raw), " \t")
		names[i] = name
		for role, want := range aaColumns {
			if strings.EqualFold(name, want) {
				if cols[role] >= 0 {
					return core.PosErrorf(core.Invalid, f.line, f.col, "the header names the %s column twice", want)
				}
				cols[role] = i
			}
		}
	}
	for role, want := range aaColumns {
		if cols[role] < 0 {
			return core.PosErrorf(core.Invalid, headerLine, 1, "the header has no %q column; it needs scenario, run and passed (found %s)", want, aaNames(names))
		}
	}
	p.need = max(cols[0], cols[1], cols[2]) + 1
	p.col = cols
	p.role = make([]int8, p.need)
	for i := range p.role {
		p.role[i] = -1
	}
	for role, i := range cols {
		p.role[i] = int8(role)
	}
	return nil
}

func aaNames(names []string) string {
	const most = 8
	q := make([]string, 0, most+1)
	for i, n := range names {
		if i == most {
			q = append(q, fmt.Sprintf("and %d more", len(names)-most))
			break
		}
		if len(n) > 40 {
			n = n[:40] + "…"
		}
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}

// finish lays the scenario tallies out in the Side.
func (p *aaParser) finish() *Side {
	p.side.Scenarios = p.scens.tallies()
	return p.side
}

func aaParsePassed(b []byte) (int64, bool) {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	switch {
	case len(b) == 1 && b[0] == '1':
		return 1, true
	case len(b) == 1 && b[0] == '0':
		return 0, true
	case len(b) == 4 && bytes.EqualFold(b, []byte("true")):
		return 1, true
	case len(b) == 5 && bytes.EqualFold(b, []byte("false")):
		return 0, true
	}
	return 0, false
}

func aaCheckID(b []byte, what string) string {
	if len(b) == 0 {
		return "the " + what + " id is empty"
	}
	if !utf8.Valid(b) {
		return "the " + what + " id is not valid UTF-8"
	}
	return ""
}
