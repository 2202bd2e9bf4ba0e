package store

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/history"
)

// Reader reads a store's entries in order. It is not safe for concurrent
// use.
type Reader struct {
	r       *bufio.Reader
	file    string
	off     int64 // end of the last intact record
	records int
	runs    int
	names   []string
	skim    bool
	body    []byte
	raw     []byte
	zr      io.ReadCloser
	done    error
	// reuse: the results and run times of an entry live in all and secs,
	// which the next entry overwrites.
	reuse bool
	all   []history.TestResult
	secs  []history.Seconds
}

// Reuse makes Next give each entry's results and run times in buffers the
// next call overwrites: for a caller that is done with an entry before it
// asks for the next (history.AddParsed copies what it keeps), it saves
// allocating and collecting them per entry.
func (r *Reader) Reuse() { r.reuse = true }

// NewReader checks a store's header and returns a Reader of its entries.
// file names the store in errors. A damaged header is a *Damage.
func NewReader(r io.Reader, file string) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 256<<10), file: file, off: int64(HeaderSize)}
	head := make([]byte, HeaderSize)
	n, err := io.ReadFull(rd.r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if n < HeaderSize && strings.HasPrefix(Magic, string(head[:min(n, len(Magic))])) {
		// Empty, or a header cut short: nothing was recorded.
		what := "the header is cut short"
		if n == 0 {
			what = "the file is empty"
		}
		return nil, &Damage{File: file, Torn: true, What: what}
	}
	if msg := checkHeader(head[:n]); msg != "" {
		return nil, &Damage{File: file, What: msg}
	}
	return rd, nil
}

// Skim makes Next skip the results and run times (Entry.Report then holds
// only the file, notes and run metas): what an append needs, the
// identities and the name table, without inflating every record.
func (r *Reader) Skim() { r.skim = true }

// Offset is the byte offset just past the last intact record read.
func (r *Reader) Offset() int64 { return r.off }

// Entries and Runs count the intact entries and runs read so far.
func (r *Reader) Entries() int { return r.records }
func (r *Reader) Runs() int    { return r.runs }

// Names is the name table of the records read so far (not to be
// modified).
func (r *Reader) Names() []string { return r.names }

// Next returns the next entry; io.EOF after the last one. A torn or
// corrupt record is a *Damage, and Next returns it again after.
func (r *Reader) Next() (Entry, error) {
	if r.done != nil {
		return Entry{}, r.done
	}
	e, err := r.next()
	if err != nil {
		r.done = err
	}
	return e, err
}

func (r *Reader) damage(torn bool, what string) *Damage {
	return &Damage{File: r.file, Offset: r.off, Record: r.records + 1, Entries: r.records, Runs: r.runs, Torn: torn, What: what}
}

func (r *Reader) next() (Entry, error) {
	var lenb [4]byte
	n, err := io.ReadFull(r.r, lenb[:])
	if n == 0 && errors.Is(err, io.EOF) {
		return Entry{}, io.EOF
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Entry{}, r.damage(true, "the file ends inside the record's length")
		}
		return Entry{}, err
	}
	size := binary.LittleEndian.Uint32(lenb[:])
	if size > MaxRecord {
		return Entry{}, r.damage(false, "the record's length is past the largest record a store holds")
	}
	if cap(r.body) < int(size)+4 {
		r.body = make([]byte, int(size)+4)
	}
	rec := r.body[:int(size)+4]
	if n, err := io.ReadFull(r.r, rec); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return Entry{}, r.damage(true, "the file ends "+plural(int(size)+4-n, "byte")+" before the record does")
		}
		return Entry{}, err
	}
	body := rec[:size]
	sum := crc32.Update(crc32.Checksum(lenb[:], castagnoli), castagnoli, body)
	if binary.LittleEndian.Uint32(rec[size:]) != sum {
		// A record cut short by a crash can be followed by nothing but
		// the bytes the file system had not written: a bad checksum on
		// the last record is a torn append too.
		_, perr := r.r.Peek(1)
		return Entry{}, r.damage(errors.Is(perr, io.EOF), "its checksum does not match its bytes")
	}
	e, err := r.decode(body)
	if err != nil {
		return Entry{}, r.damage(false, err.Error())
	}
	r.off += int64(size) + frame
	r.records++
	metas, _ := e.Report.Runs()
	r.runs += len(metas)
	return e, nil
}

// errBad is a record that passed its checksum but is not one this version
// writes.
type errBad string

func (e errBad) Error() string { return string(e) }

// dec reads a record's fields in order; the first problem sticks.
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(msg string) {
	if d.err == nil {
		d.err = errBad(msg)
	}
	d.b = nil
}

// took advances past a number of n bytes (binary.Uvarint's n); false when
// there was none.
func (d *dec) took(n int) bool {
	if n <= 0 {
		d.fail("a number is cut short or too large")
		return false
	}
	d.b = d.b[n:]
	return true
}

func (d *dec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if !d.took(n) {
		return 0
	}
	return v
}

func (d *dec) varint() int64 {
	v, n := binary.Varint(d.b)
	if !d.took(n) {
		return 0
	}
	return v
}

// count reads a count of items of at least min bytes each: never more
// than the bytes left could hold.
func (d *dec) count(minBytes int) int {
	v := d.uvarint()
	if v > uint64(len(d.b)/max(minBytes, 1)) {
		d.fail("a count is larger than the record")
		return 0
	}
	return int(v)
}

func (d *dec) bytes(n int) []byte {
	if n > len(d.b) {
		d.fail("the record is cut short")
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) string() string {
	return string(d.bytes(d.count(1)))
}

func (d *dec) time() time.Time {
	switch flag := d.bytes(1); {
	case flag == nil || flag[0] == 0:
		return time.Time{}
	case flag[0] != 1:
		d.fail("a time's flag is not 0 or 1")
		return time.Time{}
	}
	sec, nsec, off := d.varint(), d.uvarint(), d.varint()
	if nsec >= 1e9 || off < -24*3600 || off > 24*3600 {
		d.fail("a time is out of range")
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec)).UTC()
	if off != 0 {
		t = t.In(time.FixedZone("", int(off)))
	}
	return t
}

func (d *dec) seconds() float64 {
	v := d.uvarint()
	if v&1 == 0 {
		return float64(v>>1) / 1e6
	}
	if v != 1 {
		d.fail("a run time's tag is not 1")
		return 0
	}
	b := d.bytes(8)
	if b == nil {
		return 0
	}
	// Whatever the report gave, as it gave it: the figures are the same.
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

func (r *Reader) decode(body []byte) (Entry, error) {
	d := &dec{b: body}
	if k := d.bytes(1); k == nil || k[0] != 'R' {
		return Entry{}, errBad("not a record this version writes (its kind is unknown)")
	}
	var e Entry
	copy(e.ID[:], d.bytes(len(e.ID)))
	fresh := d.count(1)
	if len(r.names)+fresh > MaxNames {
		return Entry{}, errBad("more test names than a store holds")
	}
	for range fresh {
		r.names = append(r.names, d.string())
	}
	e.RunID = d.string()
	att := d.uvarint()
	if att > math.MaxInt32 {
		d.fail("the attempt is out of range")
	}
	e.Attempt = int64(att)
	e.Recorded = d.time()
	file := d.string()
	notes := make([]string, d.count(1))
	for i := range notes {
		notes[i] = d.string()
	}
	metas := make([]history.RunMeta, d.count(3))
	for i := range metas {
		metas[i] = history.RunMeta{Name: d.string(), File: d.string(), Commit: d.string(), Branch: d.string(), Job: d.string(), Time: d.time()}
	}
	rawLen := d.uvarint()
	if d.err != nil {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, d.err
	}
	if len(metas) == 0 {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, errBad("the record has no runs")
	}
	if r.skim {
		e.Report = history.NewParsed(file, metas, make([][]history.TestResult, len(metas)), notes, nil)
		return e, nil
	}
	if rawLen > MaxRaw {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, errBad("the results are larger than a store holds")
	}
	runs, secs, err := r.results(d.b, int(rawLen), len(metas))
	if err != nil {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, err
	}
	e.Report = history.NewParsed(file, metas, runs, notes, secs)
	return e, nil
}

// results inflates and reads the results columns (columns writes them).
func (r *Reader) results(z []byte, rawLen, nruns int) ([][]history.TestResult, []history.Seconds, error) {
	if cap(r.raw) < rawLen {
		r.raw = make([]byte, rawLen)
	}
	raw := r.raw[:rawLen]
	src := bytes.NewReader(z)
	if r.zr == nil {
		r.zr = flate.NewReader(src)
	} else {
		r.zr.(flate.Resetter).Reset(src, nil)
	}
	if _, err := io.ReadFull(r.zr, raw); err != nil {
		return nil, nil, errBad("its compressed results do not inflate to their stated length")
	}
	var one [1]byte
	if n, _ := r.zr.Read(one[:]); n != 0 {
		return nil, nil, errBad("its compressed results are longer than their stated length")
	}
	d := &dec{b: raw}
	counts := make([]int, nruns)
	total := 0
	for i := range counts {
		counts[i] = d.count(2)
		total += counts[i]
	}
	if total > len(raw) {
		d.fail("a count is larger than the record")
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	var all []history.TestResult
	if r.reuse && cap(r.all) >= total {
		all = r.all[:total]
		clear(all)
	} else {
		all = make([]history.TestResult, total)
		if r.reuse {
			r.all = all
		}
	}
	runs := make([][]history.TestResult, nruns)
	k := 0
	for i, c := range counts {
		runs[i] = all[k : k+c : k+c]
		prev := int64(-1)
		for j := range runs[i] {
			idx := prev + 1 + d.varint()
			if idx < 0 || idx >= int64(len(r.names)) {
				d.fail("a test index is past the name table")
				return nil, nil, d.err
			}
			runs[i][j].Test = r.names[idx]
			prev = idx
		}
		k += c
	}
	outs := d.bytes(total)
	if d.err != nil {
		return nil, nil, d.err
	}
	for j, o := range outs {
		switch o {
		case outPass:
			all[j].Passed, all[j].Trials = 1, 1
		case outFail:
			all[j].Passed, all[j].Trials = 0, 1
		case outExplicit:
		default:
			return nil, nil, errBad("an outcome code is unknown")
		}
	}
	for j, o := range outs {
		if o == outExplicit {
			p, t := d.uvarint(), d.uvarint()
			if d.err == nil && (t < 1 || p > t || t > math.MaxInt32) {
				d.fail("a result's passed is not in [0, trials]")
			}
			all[j].Passed, all[j].Trials = int64(p), int64(t)
		}
	}
	nt := d.count(3)
	var secs []history.Seconds
	switch {
	case r.reuse:
		secs = r.secs[:0]
		defer func() { r.secs = secs[:0] }()
	case nt > 0:
		secs = make([]history.Seconds, 0, nt)
	}
	prev := int64(-1)
	for range nt {
		idx := prev + 1 + d.varint()
		n := d.uvarint()
		s := d.seconds()
		if d.err != nil {
			return nil, nil, d.err
		}
		if idx < 0 || idx >= int64(len(r.names)) || n < 1 || n > math.MaxInt32 {
			return nil, nil, errBad("a run time names no test or no attempt")
		}
		if idx <= prev {
			return nil, nil, errBad("the run times are not in the order of their tests")
		}
		secs = append(secs, history.Seconds{Test: r.names[idx], Sum: s, N: int64(n)})
		prev = idx
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	if len(d.b) != 0 {
		return nil, nil, errBad("its results have bytes past their end")
	}
	return runs, secs, nil
}
