package store

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"
	"time"

	"github.com/flakegate/flakegate/core/history"
)

// ID is an entry's identity: two entries with the same ID are the same run
// recorded twice, and a store counts it once.
type ID [16]byte

// Entry is one record's content: what one `flakegate record` read.
type Entry struct {
	// ID is the entry's identity; Encode fills a zero one (see Identity).
	ID ID
	// RunID and Attempt are the CI system's run and attempt, "" and 0 when
	// not known.
	RunID   string
	Attempt int64 // >= 0
	// Recorded is when the entry was recorded (to the second); retention
	// goes by it when no run of the entry has a time. Zero: not known.
	Recorded time.Time
	// Report is the report files read, as package history parsed them.
	Report *history.Parsed
}

// Names is a store's name table: test names by index, in the order the
// records brought them.
type Names struct {
	list  []string
	index map[string]uint32
}

// NewNames returns an empty name table.
func NewNames() *Names { return &Names{index: map[string]uint32{}} }

// Len is the number of names.
func (n *Names) Len() int { return len(n.list) }

func (n *Names) add(name string) uint32 {
	i := uint32(len(n.list))
	n.list = append(n.list, name)
	n.index[name] = i
	return i
}

// Identity is the identity of an entry: a SHA-256 of the CI's run id and
// attempt (empty when not known) and of what the entry says: its runs'
// commits, branches, jobs and times, every result and every run time. The
// same report recorded twice in one CI run, from any path, is the same
// entry; two CI runs are never the same, even when their reports read
// alike; two reports recorded in one job are two entries.
func Identity(e Entry) ID { return identity(e, e.Report.Seconds()) }

// identity is Identity with the entry's run times (Parsed.Seconds, sorted
// by name) given.
func identity(e Entry, secs []history.Seconds) ID {
	// The bytes are hashed as they are written, a few kilobytes at a time.
	h := sha256.New()
	b := make([]byte, 0, 8<<10)
	flush := func() {
		if len(b) >= 4<<10 {
			h.Write(b)
			b = b[:0]
		}
	}
	b = append(b, "flakegate store entry\x00"...)
	b = appendString(b, e.RunID)
	b = binary.AppendUvarint(b, uint64(max(e.Attempt, 0)))
	metas, runs := e.Report.Runs()
	for _, m := range metas {
		b = appendString(b, m.Commit)
		b = appendString(b, m.Branch)
		b = appendString(b, m.Job)
		b = appendTime(b, m.Time)
		flush()
	}
	for _, rs := range runs {
		b = binary.AppendUvarint(b, uint64(len(rs)))
		for _, r := range rs {
			b = appendString(b, r.Test)
			b = binary.AppendUvarint(b, uint64(r.Passed))
			b = binary.AppendUvarint(b, uint64(r.Trials))
			flush()
		}
	}
	for _, s := range secs { // sorted by name
		b = appendString(b, s.Test)
		b = binary.AppendUvarint(b, uint64(s.N))
		b = appendSeconds(b, s.Sum)
		flush()
	}
	h.Write(b)
	var id ID
	copy(id[:], h.Sum(nil))
	return id
}

// Encode returns the record of e, adding the test names it brings to
// names. A zero e.ID is filled with Identity(e).
func Encode(names *Names, e Entry) []byte { return encode(names, e, e.Report.Seconds()) }

// encode is Encode with the entry's run times (Parsed.Seconds) given.
func encode(names *Names, e Entry, secs []history.Seconds) []byte {
	if e.ID == (ID{}) {
		e.ID = identity(e, secs)
	}
	var fresh []string
	index := func(s string) uint32 {
		if i, ok := names.index[s]; ok {
			return i
		}
		fresh = append(fresh, s)
		return names.add(s)
	}
	raw := columns(e.Report, secs, index, nil)
	body := []byte{'R'}
	body = append(body, e.ID[:]...)
	body = binary.AppendUvarint(body, uint64(len(fresh)))
	for _, s := range fresh {
		body = appendString(body, s)
	}
	body = appendString(body, e.RunID)
	body = binary.AppendUvarint(body, uint64(max(e.Attempt, 0)))
	body = appendTime(body, e.Recorded.Truncate(time.Second))
	body = appendString(body, e.Report.File())
	notes := e.Report.Notes()
	body = binary.AppendUvarint(body, uint64(len(notes)))
	for _, s := range notes {
		body = appendString(body, s)
	}
	metas, _ := e.Report.Runs()
	body = binary.AppendUvarint(body, uint64(len(metas)))
	for _, m := range metas {
		body = appendString(body, m.Name)
		body = appendString(body, m.File)
		body = appendString(body, m.Commit)
		body = appendString(body, m.Branch)
		body = appendString(body, m.Job)
		body = appendTime(body, m.Time)
	}
	body = binary.AppendUvarint(body, uint64(len(raw)))
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestSpeed) // the level is valid
	zw.Write(raw)
	zw.Close()
	body = append(body, z.Bytes()...)
	return frameRecord(body)
}

// Outcome codes of the outcome column.
const (
	outPass     = 0 // passed once in one attempt
	outFail     = 1 // failed its one attempt
	outExplicit = 2 // passed and trials follow in the counts column
)

// columns writes p's results column by column (docs/STORE.md): each run's
// result count, the test indices (zigzag deltas from the previous index
// plus one), one outcome byte per result, the counts of results that are
// neither one pass nor one failure, and the run times sorted by test index.
// index gives a name's index; secs are p's run times.
func columns(p *history.Parsed, secs []history.Seconds, index func(string) uint32, b []byte) []byte {
	_, runs := p.Runs()
	for _, rs := range runs {
		b = binary.AppendUvarint(b, uint64(len(rs)))
	}
	for _, rs := range runs {
		prev := int64(-1)
		for _, r := range rs {
			i := int64(index(r.Test))
			b = binary.AppendVarint(b, i-prev-1)
			prev = i
		}
	}
	for _, rs := range runs {
		for _, r := range rs {
			switch {
			case r.Trials == 1 && r.Passed == 1:
				b = append(b, outPass)
			case r.Trials == 1 && r.Passed == 0:
				b = append(b, outFail)
			default:
				b = append(b, outExplicit)
			}
		}
	}
	for _, rs := range runs {
		for _, r := range rs {
			if r.Trials != 1 {
				b = binary.AppendUvarint(b, uint64(r.Passed))
				b = binary.AppendUvarint(b, uint64(r.Trials))
			}
		}
	}
	type timed struct {
		i uint32
		s history.Seconds
	}
	ts := make([]timed, 0, len(secs))
	for _, s := range secs {
		ts = append(ts, timed{index(s.Test), s})
	}
	slices.SortFunc(ts, func(a, b timed) int { return int(int64(a.i) - int64(b.i)) })
	b = binary.AppendUvarint(b, uint64(len(ts)))
	prev := int64(-1)
	for _, t := range ts {
		b = binary.AppendVarint(b, int64(t.i)-prev-1)
		prev = int64(t.i)
		b = binary.AppendUvarint(b, uint64(t.s.N))
		b = appendSeconds(b, t.s.Sum)
	}
	return b
}

// appendSeconds writes s as whole microseconds shifted left one (bit 0
// clear) when that gives s back bit for bit, which it does for every time a
// report writes with at most six decimals; else a 1 and the float's eight
// bytes.
func appendSeconds(b []byte, s float64) []byte {
	if m := math.Round(s * 1e6); m >= 0 && m < 1<<52 && m/1e6 == s && !math.Signbit(s) {
		return binary.AppendUvarint(b, uint64(m)<<1)
	}
	b = append(b, 1)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(s))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendTime writes t as a flag (0: no time), then seconds and nanoseconds
// since 1970 and the zone's offset in seconds east of UTC.
func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendVarint(b, t.Unix())
	b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	_, off := t.Zone()
	return binary.AppendVarint(b, int64(off))
}
