package aa

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// MaxAALine is the longest line (and the longest quoted field across lines)
// ReadAA accepts, in bytes. A longer one is an error, never a huge buffer.
const MaxLine = 1 << 20

// Roles of the three columns ReadAA needs.
const (
	aaScenario = iota
	aaRun
	aaPassed
)

var aaColumns = [3]string{"scenario", "run", "passed"}

// ReadAA reads a scenario,run,passed CSV in one streaming pass into its
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
// Errors in the text are *Error values of Kind Invalid with the 1-based line
// and column (in characters) of the offending field. Errors of r are returned
// wrapped, as they are.
func ReadCSV(r io.Reader) (*Side, error) {
	p := &aaParser{
		br:      bufio.NewReaderSize(r, 64<<10),
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

type aaParser struct {
	br   *bufio.Reader
	line int    // physical lines read so far: the number of the current one
	long []byte // a line longer than the bufio buffer, assembled

	role []int8 // role of each field index up to the last needed one, or -1
	need int    // fields a row must have

	// Fields of a record parsed by the general path: bytes in rec.
	rec    []byte
	fields []aaField

	scens   *aaScenTable      // the scenarios and their tallies
	more    map[int]*aaRunSet // per scenario: its runs from 128 on
	runIdx  map[string]int
	scen    []aaScen // per scenario, in order of first appearance
	ids     []string // the scenarios' ids
	lastRun int      // index of the previous row's run, or -1
	lastID  string   // its id
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
		var ok bool
		var err error
		l, full, ok, err = p.readLine()
		if err != nil {
			return err
		}
		if !ok {
			return core.PosErrorf(core.Invalid, max(p.line, 1), 1, "no header: the CSV must start with a line naming the columns scenario, run and passed")
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

// fastRow handles a line without quotes: its fields are plain slices of it.
func (p *aaParser) fastRow(l []byte) error {
	var f [3][]byte
	var off [3]int
	idx, start := 0, 0
	for idx < p.need {
		j := bytes.IndexByte(l[start:], ',')
		end := len(l)
		if j >= 0 {
			end = start + j
		}
		if r := p.role[idx]; r >= 0 {
			f[r], off[r] = l[start:end], start
		}
		idx++
		if j < 0 {
			break
		}
		start = end + 1
	}
	if idx < p.need {
		return p.shortRow(idx, utf8.RuneCount(l)+1)
	}
	if bad, msg := p.addRow(f[aaScenario], f[aaRun], f[aaPassed]); bad >= 0 {
		return core.PosErrorf(core.Invalid, p.line, utf8.RuneCount(l[:off[bad]])+1, "%s", msg)
	}
	return nil
}

// slowRow handles a line with quotes, which may continue on later lines.
func (p *aaParser) slowRow(l, full []byte) error {
	if err := p.record(l, full); err != nil {
		return err
	}
	if len(p.fields) < p.need {
		return p.shortRow(len(p.fields), 0)
	}
	var f [3][]byte
	var at [3]aaField
	for i, r := range p.role {
		if r >= 0 {
			at[r] = p.fields[i]
			f[r] = p.rec[at[r].start:at[r].end]
		}
	}
	if bad, msg := p.addRow(f[aaScenario], f[aaRun], f[aaPassed]); bad >= 0 {
		return core.PosErrorf(core.Invalid, at[bad].line, at[bad].col, "%s", msg)
	}
	return nil
}

// shortRow is the error for a row with only n fields; col is where the line
// ends (0: after the last field parsed).
func (p *aaParser) shortRow(n, col int) error {
	if col == 0 {
		last := p.fields[len(p.fields)-1]
		col = last.col + utf8.RuneCount(p.rec[last.start:last.end])
	}
	missing := ""
	for i := n; i < p.need; i++ {
		if r := p.role[i]; r >= 0 {
			missing = aaColumns[r]
			break
		}
	}
	return core.PosErrorf(core.Invalid, p.line, col, "the row has %s but the %s column is field %d of the header", aaCount(int64(n), "field"), missing, p.indexOf(missing)+1)
}

func (p *aaParser) indexOf(col string) int {
	for i, r := range p.role {
		if r >= 0 && aaColumns[r] == col {
			return i
		}
	}
	return -1
}

// record parses one RFC 4180 record starting with line l into p.rec and
// p.fields, reading more lines while a quoted field is open.
func (p *aaParser) record(l, full []byte) error {
	p.rec, p.fields = p.rec[:0], p.fields[:0]
	i, col := 0, 1
	for {
		start, fline, fcol := len(p.rec), p.line, col
		if i < len(l) && l[i] == '"' {
			i++
			col++
			for {
				j := bytes.IndexByte(l[i:], '"')
				if j < 0 {
					// The field goes on past this line, line end included.
					p.rec = append(p.rec, full[i:]...)
					if len(p.rec) > MaxLine {
						return core.PosErrorf(core.Invalid, fline, fcol, "a quoted field runs past %d bytes", MaxLine)
					}
					var ok bool
					var err error
					l, full, ok, err = p.readLine()
					if err != nil {
						return err
					}
					if !ok {
						return core.PosErrorf(core.Invalid, fline, fcol, "a quoted field is not closed before the end of the input")
					}
					i, col = 0, 1
					continue
				}
				p.rec = append(p.rec, l[i:i+j]...)
				col += utf8.RuneCount(l[i:i+j]) + 1
				i += j + 1
				if i < len(l) && l[i] == '"' { // "" stands for one quote
					p.rec = append(p.rec, '"')
					i++
					col++
					continue
				}
				break
			}
			if i < len(l) && l[i] != ',' {
				r, _ := utf8.DecodeRune(l[i:])
				return core.PosErrorf(core.Invalid, p.line, col, "unexpected %q after the closing quote of a field (a quote inside a quoted field is written twice)", r)
			}
		} else {
			end := len(l)
			if j := bytes.IndexByte(l[i:], ','); j >= 0 {
				end = i + j
			}
			f := l[i:end]
			if q := bytes.IndexByte(f, '"'); q >= 0 {
				return core.PosErrorf(core.Invalid, p.line, col+utf8.RuneCount(f[:q]), "a quote inside an unquoted field (quote the whole field and write the quote twice)")
			}
			p.rec = append(p.rec, f...)
			col += utf8.RuneCount(f)
			i = end
		}
		p.fields = append(p.fields, aaField{start, len(p.rec), fline, fcol})
		if i >= len(l) {
			return nil
		}
		i++ // the comma
		col++
	}
}

// addRow counts one row. On bad input it returns the role of the offending
// field and the message; otherwise -1.
func (p *aaParser) addRow(sc, rn, ps []byte) (int, string) {
	var pass int64
	switch {
	case len(ps) == 1 && ps[0] == '1':
		pass = 1
	case len(ps) == 1 && ps[0] == '0':
	default:
		v, ok := aaParsePassed(ps)
		if !ok {
			shown := string(ps)
			if len(shown) > 40 {
				shown = shown[:40] + "…"
			}
			return aaPassed, fmt.Sprintf("passed must be 0, 1, true or false, found %q", shown)
		}
		pass = v
	}

	ri := p.lastRun
	if ri < 0 || string(rn) != p.lastID {
		i, ok := p.runIdx[string(rn)]
		if !ok {
			if msg := aaCheckID(rn, "run"); msg != "" {
				return aaRun, msg
			}
			id := string(rn)
			i = len(p.side.Runs)
			p.runIdx[id] = i
			p.side.Runs = append(p.side.Runs, Tally{ID: id})
		}
		ri, p.lastRun, p.lastID = i, i, p.side.Runs[i].ID
	}

	slot, h := p.scens.find(sc)
	if slot < 0 {
		if msg := aaCheckID(sc, "scenario"); msg != "" {
			return aaScenario, msg
		}
		slot = p.scens.add(sc, h)
	}

	st := &p.scens.slots[slot]
	if p.mark(st, ri) {
		p.side.Duplicates++
	}
	st.passed += pass
	st.total++
	rt := &p.side.Runs[ri]
	rt.Passed += pass
	rt.Total++
	p.side.Rows++
	return -1, ""
}

// finish lays the scenario tallies out in the AASide.
func (p *aaParser) finish() *Side {
	t := p.scens
	p.side.Scenarios = make([]Tally, len(t.ids))
	for k := range t.slots {
		if st := &t.slots[k]; st.idx != 0 {
			p.side.Scenarios[st.idx-1] = Tally{ID: t.ids[st.idx-1], Passed: st.passed, Total: st.total}
		}
	}
	return p.side
}

// mark adds run ri to scenario st and reports whether the scenario had a row
// in that run already.
func (p *aaParser) mark(st *aaScen, ri int) bool {
	if ri < 128 {
		w, bit := &st.first[ri>>6], uint64(1)<<(ri&63)
		if *w&bit != 0 {
			return true
		}
		*w |= bit
		return false
	}
	if p.more == nil {
		p.more = make(map[int]*aaRunSet)
	}
	m := p.more[int(st.idx)]
	if m == nil {
		m = &aaRunSet{}
		p.more[int(st.idx)] = m
	}
	return m.mark(ri-128, st.total)
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

// aaScenTable holds the scenarios' state while ReadAA reads. It is an open
// addressing hash table whose slots are the state itself, one 64-byte cache
// line each: a copy of a short id, the tally and the runs seen. A row then
// costs about one cache miss for its scenario, where a map[string]int and a
// separate tally cost three (on the benchmark's shuffled runs this is what
// the reader's speed comes down to).
type aaScenTable struct {
	seed   maphash.Seed
	s1, s2 uint64   // drawn from seed, for the short-id hash
	slots  []aaScen // len a power of two, at most three quarters full
	ids    []string // the scenarios' ids in order of first appearance
}

// aaScen is one slot: a scenario's state, or empty when idx is 0.
type aaScen struct {
	key           [24]byte // the id when it fits
	klen          int32    // the id's length, or -1 when longer than 2^31
	idx           int32    // index in ids + 1; 0 for an empty slot
	passed, total int64
	first         [2]uint64 // runs 0..127
}

func newAAScenTable() *aaScenTable {
	seed := maphash.MakeSeed()
	return &aaScenTable{seed: seed, s1: maphash.String(seed, "1"), s2: maphash.String(seed, "2"), slots: make([]aaScen, 256)}
}

// hash hashes an id with the table's random seed. Ids of up to 16 bytes, the
// common case, take a few inlined multiplications (the wyhash mix Go's own
// fallback hash uses); longer ones go to hash/maphash.
func (t *aaScenTable) hash(b []byte) uint64 {
	n := len(b)
	var x, y uint64
	switch {
	case n > 16:
		return maphash.Bytes(t.seed, b)
	case n >= 8:
		x, y = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		x, y = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		x, y = uint64(b[0])<<16|uint64(b[n>>1])<<8|uint64(b[n-1]), 0
	}
	hi, lo := bits.Mul64(x^t.s1, y^t.s2^uint64(n))
	hi, lo = bits.Mul64(hi^lo^0xa0761d6478bd642f, t.s1^0xe7037ed1a0b428db)
	return hi ^ lo
}

func (t *aaScenTable) equal(s *aaScen, b []byte) bool {
	if int(s.klen) != len(b) {
		return false
	}
	if len(b) <= len(s.key) {
		return string(s.key[:len(b)]) == string(b)
	}
	return t.ids[s.idx-1] == string(b)
}

// find returns the slot of scenario b, or -1 and the hash to add it with.
func (t *aaScenTable) find(b []byte) (int, uint64) {
	h := t.hash(b)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.idx == 0 {
			return -1, h
		}
		if t.equal(s, b) {
			return int(i), h
		}
	}
}

// add adds scenario b, which find did not find, with its hash h, and returns
// its slot.
func (t *aaScenTable) add(b []byte, h uint64) int {
	if 4*(len(t.ids)+1) > 3*len(t.slots) {
		old := t.slots
		t.slots = make([]aaScen, 2*len(old))
		for k := range old {
			if old[k].idx != 0 {
				t.slots[t.free(t.hash([]byte(t.ids[old[k].idx-1])))] = old[k]
			}
		}
	}
	t.ids = append(t.ids, string(b))
	i := t.free(h)
	s := &t.slots[i]
	s.klen, s.idx = int32(min(len(b), math.MaxInt32)), int32(len(t.ids))
	copy(s.key[:], b)
	return i
}

// free returns the first empty slot from h's.
func (t *aaScenTable) free(h uint64) int {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if t.slots[i].idx == 0 {
			return int(i)
		}
	}
}

// aaRunSet is the set of runs a scenario has a row in: a bitset over run
// indices from word base on, or a map when the bitset would be mostly empty
// (a scenario seen in a few runs far apart), so that memory stays within a
// few bytes per row whatever the input.
type aaRunSet struct {
	base  int // index of the first word of w
	w     []uint64
	multi map[int]struct{} // used instead of w once the bits are sparse
}

// mark adds run ri and reports whether it was there already; rows is how
// many rows the scenario had before.
func (s *aaRunSet) mark(ri int, rows int64) bool {
	if s.multi != nil {
		if _, ok := s.multi[ri]; ok {
			return true
		}
		s.multi[ri] = struct{}{}
		return false
	}
	wi := ri >> 6
	if len(s.w) == 0 {
		s.base = wi
		s.w = append(s.w, 0)
	}
	if wi < s.base || wi >= s.base+len(s.w) {
		lo, hi := min(wi, s.base), max(wi+1, s.base+len(s.w))
		if int64(hi-lo) > 4*(rows+1)+8 { // under one bit in 256 would be set
			s.multi = make(map[int]struct{}, rows+1)
			for k, word := range s.w {
				for b := 0; b < 64; b++ {
					if word&(1<<b) != 0 {
						s.multi[(s.base+k)<<6|b] = struct{}{}
					}
				}
			}
			s.w = nil
			s.multi[ri] = struct{}{}
			return false
		}
		if wi < s.base {
			w := make([]uint64, hi-lo, hi-lo+4)
			copy(w[s.base-lo:], s.w)
			s.w, s.base = w, lo
		} else {
			s.w = append(s.w, make([]uint64, hi-s.base-len(s.w))...)
		}
	}
	k, bit := wi-s.base, uint64(1)<<(ri&63)
	if s.w[k]&bit != 0 {
		return true
	}
	s.w[k] |= bit
	return false
}
