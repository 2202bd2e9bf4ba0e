package store

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/ledger"
)

// Reader reads a store's entries in order. It is not safe for concurrent
// use.
type Reader struct {
	r       *bufio.Reader
	data    []byte // instead of r, the store's bytes (NewBytesReader)
	pos     int    // in data
	file    string
	off     int64 // end of the last intact record
	records int
	runs    int
	names   []string
	version int // the header's
	skim    bool
	ids     bool // Scan's mode: identities and names only, nothing kept
	body    []byte
	raw     []byte
	zr      io.ReadCloser
	done    error
	// reuse: the results and run times of an entry live in all and secs,
	// which the next entry overwrites.
	reuse bool
	all   []history.TestResult
	secs  []history.Seconds
	// Every entry's results and run times are read into these first, the
	// tests named by index in names.
	ires  []history.IndexedResult
	iruns [][]history.IndexedResult
	isecs []history.IndexedSeconds
	// indexed: Next leaves the entry's Report nil; its file, runs and
	// notes are here, its results in iruns and isecs (AddHistory).
	// The ledger columns of the last entry (version 2): nil arms when not
	// recorded.
	arms     []string
	checkIDs []string
	odd      []oddRetry
	indexed  bool
	efile    string
	metas    []history.RunMeta
	notes    []string
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
		return nil, headerCut(file, n)
	}
	if msg := checkHeader(head[:n]); msg != "" {
		return nil, &Damage{File: file, What: msg}
	}
	rd.version = int(head[len(Magic)])
	return rd, nil
}

// NewBytesReader is NewReader of a store held in memory (or mapped from
// its file): records are read where they are, without copying them.
func NewBytesReader(data []byte, file string) (*Reader, error) {
	rd := &Reader{data: data, file: file, off: int64(HeaderSize), pos: HeaderSize}
	n := min(len(data), HeaderSize)
	if n < HeaderSize && strings.HasPrefix(Magic, string(data[:min(n, len(Magic))])) {
		return nil, headerCut(file, n)
	}
	if msg := checkHeader(data[:n]); msg != "" {
		return nil, &Damage{File: file, What: msg}
	}
	rd.version = int(data[len(Magic)])
	return rd, nil
}

// headerCut is the damage of a store whose n < HeaderSize bytes begin as
// a store does: nothing was recorded.
func headerCut(file string, n int) *Damage {
	what := "the header is cut short"
	if n == 0 {
		what = "the file is empty"
	}
	return &Damage{File: file, Torn: true, What: what}
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

// read gives the next n bytes of the store: fewer at its end (then
// io.EOF or io.ErrUnexpectedEOF, as io.ReadFull). buf is where to put them
// when they are copied (from an io.Reader); bytes in memory are given
// where they are.
func (r *Reader) read(n int, buf func(int) []byte) ([]byte, error) {
	if r.data == nil {
		b := buf(n)
		k, err := io.ReadFull(r.r, b)
		return b[:k], err
	}
	b := r.data[r.pos:min(len(r.data), r.pos+n)]
	r.pos += len(b)
	switch {
	case len(b) == n:
		return b, nil
	case len(b) == 0:
		return b, io.EOF
	}
	return b, io.ErrUnexpectedEOF
}

// atEnd reports whether the store has no byte left.
func (r *Reader) atEnd() bool {
	if r.data != nil {
		return r.pos >= len(r.data)
	}
	_, err := r.r.Peek(1)
	return errors.Is(err, io.EOF)
}

func (r *Reader) next() (Entry, error) {
	var lenbuf [4]byte
	lenb, err := r.read(4, func(int) []byte { return lenbuf[:] })
	if len(lenb) == 0 && errors.Is(err, io.EOF) {
		return Entry{}, io.EOF
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return Entry{}, r.damage(true, "the file ends inside the record's length")
		}
		return Entry{}, err
	}
	size := binary.LittleEndian.Uint32(lenb)
	if size > MaxRecord {
		return Entry{}, r.damage(false, "the record's length is past the largest record a store holds")
	}
	rec, err := r.read(int(size)+4, func(n int) []byte {
		if cap(r.body) < n {
			r.body = make([]byte, n)
		}
		return r.body[:n]
	})
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return Entry{}, r.damage(true, "the file ends "+plural(int(size)+4-len(rec), "byte")+" before the record does")
		}
		return Entry{}, err
	}
	body := rec[:size]
	sum := crc32.Update(crc32.Checksum(lenb, castagnoli), castagnoli, body)
	if binary.LittleEndian.Uint32(rec[size:]) != sum {
		// A record cut short by a crash can be followed by nothing but
		// the bytes the file system had not written: a bad checksum on
		// the last record is a torn append too.
		return Entry{}, r.damage(r.atEnd(), "its checksum does not match its bytes")
	}
	e, nruns, err := r.decode(body)
	if err != nil {
		return Entry{}, r.damage(false, err.Error())
	}
	r.off += int64(size) + frame
	r.records++
	r.runs += nruns
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

// uvarint is binary.Uvarint with the one-byte case first.
func uvarint(b []byte) (uint64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return uint64(b[0]), 1
	}
	return binary.Uvarint(b)
}

func (d *dec) uvarint() uint64 {
	v, n := uvarint(d.b)
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

// checkID reads what appendCheckID writes.
func (d *dec) checkID() string {
	v := d.uvarint()
	if v>>1 > uint64(len(d.b)) {
		d.fail("a run's identity is longer than the record")
		return ""
	}
	b := d.bytes(int(v >> 1))
	if v&1 == 1 {
		return string(b)
	}
	return hex.EncodeToString(b)
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

// skipString passes over a string, checking it fits the record.
func (d *dec) skipString() { d.bytes(d.count(1)) }

// decode reads a record's body: the entry and its number of runs. In ids
// mode the entry holds only its identity (the record is checked as in skim
// mode, without allocating what it says).
func (r *Reader) decode(body []byte) (Entry, int, error) {
	d := &dec{b: body}
	if k := d.bytes(1); k == nil || k[0] != 'R' {
		return Entry{}, 0, errBad("not a record this version writes (its kind is unknown)")
	}
	var e Entry
	copy(e.ID[:], d.bytes(len(e.ID)))
	fresh := d.count(1)
	if len(r.names)+fresh > MaxNames {
		return Entry{}, 0, errBad("more test names than a store holds")
	}
	for range fresh {
		r.names = append(r.names, d.string())
	}
	if r.ids {
		n := r.skipHead(d)
		if d.err == nil && n == 0 {
			d.fail("the record has no runs")
		}
		if d.err != nil {
			r.names = r.names[:len(r.names)-fresh]
		}
		return e, n, d.err
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
		return Entry{}, 0, d.err
	}
	if len(metas) == 0 {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, 0, errBad("the record has no runs")
	}
	if r.skim {
		e.Report = history.NewParsed(file, metas, make([][]history.TestResult, len(metas)), notes, nil)
		return e, len(metas), nil
	}
	if rawLen > MaxRaw {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, 0, errBad("the results are larger than a store holds")
	}
	if err := r.results(d.b, int(rawLen), len(metas)); err != nil {
		r.names = r.names[:len(r.names)-fresh]
		return Entry{}, 0, err
	}
	if r.indexed {
		r.efile, r.metas, r.notes = file, metas, notes
		return e, len(metas), nil
	}
	runs, secs := r.named()
	e.Report = history.NewParsed(file, metas, runs, notes, secs)
	e.Ledger = r.recordedOf(runs)
	return e, len(metas), nil
}

// skipHead passes over a record's fields after its names, as decode
// reads them, keeping nothing, and returns its number of runs.
func (r *Reader) skipHead(d *dec) int {
	d.skipString() // run id
	if d.uvarint() > math.MaxInt32 {
		d.fail("the attempt is out of range")
	}
	d.time()
	d.skipString() // file
	for range d.count(1) {
		d.skipString()
	}
	n := d.count(3)
	for range n {
		for range 5 { // name, file, commit, branch, job
			d.skipString()
		}
		d.time()
	}
	d.uvarint() // the results' length: only reading them checks it
	return n
}

// results inflates and reads the results columns (columns writes them)
// into r.iruns and r.isecs, tests named by index in r.names.
func (r *Reader) results(z []byte, rawLen, nruns int) error {
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
		return errBad("its compressed results do not inflate to their stated length")
	}
	var one [1]byte
	if n, _ := r.zr.Read(one[:]); n != 0 {
		return errBad("its compressed results are longer than their stated length")
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
		return d.err
	}
	all := slices.Grow(r.ires[:0], total)[:total]
	r.ires = all
	r.iruns = r.iruns[:0]
	nnames := int64(len(r.names))
	k := 0
	for _, c := range counts {
		run := all[k : k+c : k+c]
		prev := int64(-1)
		b := d.b
		for j := range run {
			// Most deltas are one byte (the next test in the table).
			var delta int64
			if len(b) > 0 && b[0] < 0x80 {
				u := int64(b[0])
				delta = u>>1 ^ -(u & 1)
				b = b[1:]
			} else {
				d.b = b
				delta = d.varint()
				if d.err != nil {
					return d.err
				}
				b = d.b
			}
			idx := prev + 1 + delta
			if idx < 0 || idx >= nnames {
				return errBad("a test index is past the name table")
			}
			run[j] = history.IndexedResult{Test: uint32(idx), Passed: 1, Trials: 1}
			prev = idx
		}
		d.b = b
		r.iruns = append(r.iruns, run)
		k += c
	}
	outs := d.bytes(total)
	if d.err != nil {
		return d.err
	}
	explicit := 0
	for j, o := range outs {
		switch o {
		case outPass:
		case outFail:
			all[j].Passed = 0
		case outExplicit:
			explicit++
		default:
			return errBad("an outcome code is unknown")
		}
	}
	for j := 0; explicit > 0; j++ {
		if outs[j] == outExplicit {
			explicit--
			p, t := d.uvarint(), d.uvarint()
			if d.err == nil && (t < 1 || p > t || t > math.MaxInt32) {
				d.fail("a result's passed is not in [0, trials]")
			}
			all[j].Passed, all[j].Trials = int64(p), int64(t)
		}
	}
	nt := d.count(3)
	secs := slices.Grow(r.isecs[:0], nt)
	prev := int64(-1)
	for range nt {
		// The usual time is three one-byte numbers and a short one.
		var idx, n int64
		var s float64
		if b := d.b; len(b) >= 4 && b[0]|b[1] < 0x80 && b[2]&1 == 0 {
			u := int64(b[0])
			idx = prev + 1 + (u>>1 ^ -(u & 1))
			n = int64(b[1])
			v, k := uvarint(b[2:])
			if k <= 0 {
				return errBad("a number is cut short or too large")
			}
			s = float64(v>>1) / 1e6
			d.b = b[2+k:]
		} else {
			idx = prev + 1 + d.varint()
			n = int64(d.uvarint())
			s = d.seconds()
			if d.err != nil {
				return d.err
			}
		}
		if idx < 0 || idx >= nnames || n < 1 || n > math.MaxInt32 {
			return errBad("a run time names no test or no attempt")
		}
		if idx <= prev {
			return errBad("the run times are not in the order of their tests")
		}
		secs = append(secs, history.IndexedSeconds{Test: uint32(idx), Sum: s, N: n})
		prev = idx
	}
	r.isecs = secs
	if d.err != nil {
		return d.err
	}
	if r.version >= 2 {
		if err := r.ledgerColumns(d, nruns, total); err != nil {
			return err
		}
	}
	if len(d.b) != 0 {
		return errBad("its results have bytes past their end")
	}
	return nil
}

// ledgerColumns reads what ledgerColumns writes into r.arms, r.checkIDs
// and r.odd (nil r.arms: not recorded).
func (r *Reader) ledgerColumns(d *dec, nruns, total int) error {
	r.arms, r.checkIDs, r.odd = r.arms[:0], r.checkIDs[:0], r.odd[:0]
	flag := d.bytes(1)
	if flag == nil || flag[0] == notRecorded {
		r.arms = nil
		return d.err
	}
	if flag[0] != recorded {
		return errBad("the retry columns' flag is not 0 or 1")
	}
	for _, a := range d.bytes(nruns) {
		switch a {
		case 0:
			r.arms = append(r.arms, ledger.ArmBaseline)
		case 1:
			r.arms = append(r.arms, ledger.ArmPatched)
		default:
			return errBad("a run's arm is neither baseline nor patched")
		}
	}
	for range nruns {
		r.checkIDs = append(r.checkIDs, d.checkID())
	}
	n := d.count(4)
	prev := -1
	for range n {
		at := int64(prev) + 1 + int64(d.uvarint())
		x, f := d.uvarint(), d.uvarint()
		rec := d.bytes(1)
		if d.err != nil {
			return d.err
		}
		if at >= int64(total) {
			return errBad("a retry history names no result")
		}
		res := r.ires[at]
		if x > math.MaxInt32 || int64(x) < res.Trials || f > x || int64(f) < res.Trials-res.Passed || rec[0] > 1 || rec[0] == 1 && (f == 0 || f == x) {
			return errBad("a retry history does not fit its result (executions below trials, or fails outside [failed trials, executions])")
		}
		r.odd = append(r.odd, oddRetry{int(at), ledger.Retry{Executions: int64(x), Fails: int64(f), Recovered: rec[0] == 1}})
		prev = int(at)
	}
	return d.err
}

// oddRetry is the retry history of the result at place at among an
// entry's results, one that is not plain.
type oddRetry struct {
	at int
	r  ledger.Retry
}

// recordedOf gives the ledger columns read last as a Recorded whose
// results are those of runs (nil when not recorded).
func (r *Reader) recordedOf(runs [][]history.TestResult) *Recorded {
	if r.arms == nil {
		return nil
	}
	rec := &Recorded{Arms: slices.Clone(r.arms), CheckIDs: slices.Clone(r.checkIDs), Retries: make([][]ledger.Retry, len(runs))}
	at, k := 0, 0
	for i, rs := range runs {
		rec.Retries[i] = make([]ledger.Retry, len(rs))
		for j, x := range rs {
			if k < len(r.odd) && r.odd[k].at == at {
				rec.Retries[i][j] = r.odd[k].r
				k++
			} else {
				rec.Retries[i][j] = ledger.Retry{Executions: x.Trials, Fails: x.Trials - x.Passed}
			}
			at++
		}
	}
	return rec
}

// named gives the results and run times read last with their tests'
// names: in buffers the next entry overwrites (Reuse), else new ones.
func (r *Reader) named() ([][]history.TestResult, []history.Seconds) {
	var all []history.TestResult
	if r.reuse {
		all = slices.Grow(r.all[:0], len(r.ires))[:len(r.ires)]
		r.all = all
	} else {
		all = make([]history.TestResult, len(r.ires))
	}
	for j, x := range r.ires {
		all[j] = history.TestResult{Test: r.names[x.Test], Passed: x.Passed, Trials: x.Trials}
	}
	runs := make([][]history.TestResult, len(r.iruns))
	k := 0
	for i, run := range r.iruns {
		runs[i] = all[k : k+len(run) : k+len(run)]
		k += len(run)
	}
	var secs []history.Seconds
	switch {
	case r.reuse:
		secs = r.secs[:0]
		defer func() { r.secs = secs[:0] }()
	case len(r.isecs) > 0:
		secs = make([]history.Seconds, 0, len(r.isecs))
	}
	for _, x := range r.isecs {
		secs = append(secs, history.Seconds{Test: r.names[x.Test], Sum: x.Sum, N: x.N})
	}
	return runs, secs
}
