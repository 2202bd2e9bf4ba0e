package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/hex"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"math"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/ledger"
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
	// Ledger is what quarantine check and budget -from read beyond
	// history; nil when not known (an entry of a version 1 store, or one
	// recorded without it).
	Ledger *Recorded
}

// Recorded is what a ledger that read an entry's reports says beyond
// Report: per run its arm and its identity for quarantine check, per
// result its retry history.
type Recorded struct {
	Arms     []string         // per run of Report: ledger.ArmBaseline or ledger.ArmPatched
	CheckIDs []string         // per run: its identity for quarantine check (quarantine.RunHash); "" when not known
	Retries  [][]ledger.Retry // per run, per result, in the order of Report's
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
	h := newIdentityHash()
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
func Encode(names *Names, e Entry) []byte { return encode(names, e, e.Report.Seconds(), Version) }

// encode is Encode with the entry's run times (Parsed.Seconds) given, in
// format version (a version 1 store is appended to as version 1).
func encode(names *Names, e Entry, secs []history.Seconds, version int) []byte {
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
	if version >= 2 {
		raw = ledgerColumns(raw, e)
	}
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
	sorts.Func(ts, func(a, b timed) int { return int(int64(a.i) - int64(b.i)) })
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

// RecordedOf is what the ledger l, which read an entry's reports with
// history.ParseRunLedger, says beyond the Parsed: its runs' arms (baseline
// first, as ParseRunLedger orders them), their identities for quarantine
// check (checkID of the arm and the ledger's run) and their results' retry
// histories.
func RecordedOf(l *ledger.Ledger, checkID func(arm, run string) string) *Recorded {
	rec := &Recorded{}
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		runs := l.Runs(arm)
		retries := l.Retries(arm)
		byRun := make([][]ledger.Retry, len(runs))
		for k, c := range l.Cells(arm) {
			byRun[c.Run] = append(byRun[c.Run], retries[k])
		}
		for i, run := range runs {
			rec.Arms = append(rec.Arms, arm)
			rec.CheckIDs = append(rec.CheckIDs, checkID(arm, run))
			rec.Retries = append(rec.Retries, byRun[i])
		}
	}
	return rec
}

// Retry column flags.
const (
	notRecorded = 0 // the entry's Ledger is not known
	recorded    = 1
)

// ledgerColumns writes e.Ledger after the results' columns (version 2):
// a flag, each run's arm, each run's quarantine identity and the retry
// history of every result that is not plain (each execution a trial, none
// recovered), by its place among the entry's results.
func ledgerColumns(b []byte, e Entry) []byte {
	rec := e.Ledger
	if rec == nil {
		return append(b, notRecorded)
	}
	b = append(b, recorded)
	for _, arm := range rec.Arms {
		if arm == ledger.ArmPatched {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	for _, id := range rec.CheckIDs {
		b = appendCheckID(b, id)
	}
	_, runs := e.Report.Runs()
	type odd struct {
		at int
		r  ledger.Retry
	}
	var odds []odd
	at := 0
	for i, rs := range runs {
		for j, r := range rs {
			x := rec.Retries[i][j]
			if x.Executions != r.Trials || x.Fails != r.Trials-r.Passed || x.Recovered {
				odds = append(odds, odd{at, x})
			}
			at++
		}
	}
	b = binary.AppendUvarint(b, uint64(len(odds)))
	prev := -1
	for _, o := range odds {
		b = binary.AppendUvarint(b, uint64(o.at-prev-1))
		prev = o.at
		b = binary.AppendUvarint(b, uint64(o.r.Executions))
		b = binary.AppendUvarint(b, uint64(o.r.Fails))
		if o.r.Recovered {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// appendCheckID writes a run's identity for quarantine check: lowercase
// hex (as quarantine.RunHash gives it) as its bytes, uvarint (bytes << 1)
// and the bytes; any other text as uvarint (length << 1 | 1) and the text.
func appendCheckID(b []byte, id string) []byte {
	if raw, err := hex.DecodeString(id); err == nil && hex.EncodeToString(raw) == id {
		b = binary.AppendUvarint(b, uint64(len(raw))<<1)
		return append(b, raw...)
	}
	b = binary.AppendUvarint(b, uint64(len(id))<<1|1)
	return append(b, id...)
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
