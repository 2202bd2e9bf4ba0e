package store_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
)

// planted returns the reports of a small planted history (histsim), each
// parsed as flakegate history parses a report file: runs alternate between
// JUnit and go test -json, so both readers' run times are kept.
func planted(t testing.TB, runs int) []*history.Parsed {
	t.Helper()
	var out []*history.Parsed
	for _, e := range plantedEntries(t, runs) {
		out = append(out, e.Report)
	}
	return out
}

// plantedEntries are planted's reports as entries, with what the ledger
// that read each says beyond it (RecordedOf; each run's identity for
// quarantine check its file and run).
func plantedEntries(t testing.TB, runs int) []store.Entry {
	t.Helper()
	cfg := histsim.Config{Seed: 7, Runs: runs, Stable: 40, Flaky: []float64{0.05, 0.2, 0.3}, Outages: 1,
		OutageShare: [2]float64{0.3, 0.5}, Groups: 1, GroupSize: 3, GroupRuns: 3, Broken: 1, BrokenCommits: 2, Renamed: 1, Added: 2, Removed: 2}
	var out []store.Entry
	_, err := histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		var buf bytes.Buffer
		write := histsim.WriteJUnit
		name := m.Name + ".xml"
		if len(out)%2 == 1 {
			write, name = histsim.WriteGoTest, m.Name+".json"
		}
		// Some tests retried: two attempts, the first failed.
		for i := range rs {
			if i%17 == 3 && rs[i].Passed == 1 {
				rs[i].Trials = 2
			}
		}
		if err := write(&buf, m, rs); err != nil {
			return err
		}
		p, l, err := history.ParseRunLedger(history.RunMeta{Name: name, File: name, Commit: m.Commit, Branch: m.Branch}, &buf, report.Options{}, 0)
		if err != nil {
			return err
		}
		// Identities as quarantine.RunHash gives them (hex), and others.
		id := func(arm, run string) string {
			if len(out)%2 == 0 {
				return name + "/" + arm + "/" + run
			}
			sum := sha256.Sum256([]byte(name + arm + run))
			return hex.EncodeToString(sum[:16])
		}
		out = append(out, store.Entry{Report: p, Ledger: store.RecordedOf(l, id)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// build records every parsed report as one entry of a new store.
func build(t testing.TB, ps []*history.Parsed) []byte {
	t.Helper()
	s := store.NewState()
	var file []byte
	for _, p := range ps {
		b, ok := s.Add(store.Entry{Report: p})
		if !ok {
			t.Fatalf("%s: counted as recorded before", p.File())
		}
		file = append(file, b...)
	}
	return file
}

// resultJSON is history's answer, as JSON bytes, for the parsed files.
func resultJSON(t testing.TB, ps []*history.Parsed) string {
	t.Helper()
	h := history.New()
	for _, p := range ps {
		if err := h.AddParsed(p); err != nil {
			t.Fatal(err)
		}
	}
	return historyJSON(t, h)
}

// historyJSON is h's answer, as JSON bytes.
func historyJSON(t testing.TB, h *history.History) string {
	t.Helper()
	res, err := h.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := core.WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func readAll(t testing.TB, file []byte) ([]*history.Parsed, error) {
	t.Helper()
	var out []*history.Parsed
	err := store.Each(bytes.NewReader(file), "s.store", func(e store.Entry) error {
		// Each reuses the results' buffers: keep copies.
		metas, runs := e.Report.Runs()
		var kept [][]history.TestResult
		for _, rs := range runs {
			kept = append(kept, slices.Clone(rs))
		}
		out = append(out, history.NewParsed(e.Report.File(), metas, kept, e.Report.Notes(), e.Report.Seconds()))
		return nil
	})
	return out, err
}

// The history read back from a store is the history of the reports, byte
// for byte: the reference is history's own reading of the same reports.
func TestRoundTripSameHistory(t *testing.T) {
	ps := planted(t, 60)
	file := build(t, ps)
	back, err := readAll(t, file)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ps) {
		t.Fatalf("read %d entries, recorded %d", len(back), len(ps))
	}
	for i := range ps {
		am, ar := ps[i].Runs()
		bm, br := back[i].Runs()
		if len(am) != len(bm) || am[0] != bm[0] && !am[0].Time.Equal(bm[0].Time) {
			t.Fatalf("entry %d: metas %v, read back %v", i, am, bm)
		}
		for r := range ar {
			if len(ar[r]) != len(br[r]) {
				t.Fatalf("entry %d run %d: %d results, read back %d", i, r, len(ar[r]), len(br[r]))
			}
			for j := range ar[r] {
				if ar[r][j] != br[r][j] {
					t.Fatalf("entry %d result %d: %+v, read back %+v", i, j, ar[r][j], br[r][j])
				}
			}
		}
		as, bs := ps[i].Seconds(), back[i].Seconds()
		if len(as) == 0 || len(as) != len(bs) {
			t.Fatalf("entry %d: %d run times, read back %d", i, len(as), len(bs))
		}
		for k, v := range as {
			if bs[k] != v {
				t.Fatalf("entry %d: run time %+v, read back %+v", i, v, bs[k])
			}
		}
	}
	if a, b := resultJSON(t, ps), resultJSON(t, back); a != b {
		t.Fatalf("history from the store differs from the reports'\nreports: %.400s\nstore:   %.400s", a, b)
	}
}

// A run time that six decimals cannot give back keeps all its bits.
func TestSecondsExact(t *testing.T) {
	secs := []history.Seconds{{Test: "a", Sum: 0.1 + 0.2, N: 2}, {Test: "b", Sum: 1.5, N: 1}, {Test: "c", Sum: 1e-9, N: 1}, {Test: "d", Sum: 12345.678901, N: 3}}
	p := history.NewParsed("f", []history.RunMeta{{Name: "f"}}, [][]history.TestResult{{{Test: "a", Passed: 1, Trials: 2}, {Test: "b", Passed: 0, Trials: 1}}}, []string{"a note"}, secs)
	back, err := readAll(t, build(t, []*history.Parsed{p}))
	if err != nil {
		t.Fatal(err)
	}
	got := back[0].Seconds()
	if len(got) != len(secs) {
		t.Fatalf("%d run times read back, %d recorded", len(got), len(secs))
	}
	for k, v := range secs {
		if got[k] != v {
			t.Errorf("%v, read back %v", v, got[k])
		}
	}
	if n := back[0].Notes(); len(n) != 1 || n[0] != "a note" {
		t.Errorf("notes read back %q", n)
	}
}

// The same report recorded twice counts once: the second Add is refused,
// and a store holding it twice (two stores concatenated by hand) is read
// with it once.
func TestSameRunOnce(t *testing.T) {
	ps := planted(t, 4)
	s := store.NewState()
	first, _ := s.Add(store.Entry{Report: ps[0]})
	if _, ok := s.Add(store.Entry{Report: ps[0]}); ok {
		t.Fatal("the same report was recorded twice")
	}
	// The same report in another CI run, or another attempt, is new
	// evidence.
	a, ok := s.Add(store.Entry{Report: ps[1], RunID: "github:99", Attempt: 1})
	if !ok {
		t.Fatal("run 99 attempt 1 was taken for a run without a CI id")
	}
	if _, ok := s.Add(store.Entry{Report: ps[1], RunID: "github:99", Attempt: 1}); ok {
		t.Fatal("CI run 99 attempt 1 was recorded twice")
	}
	a2, ok := s.Add(store.Entry{Report: ps[1], RunID: "github:99", Attempt: 2})
	if !ok {
		t.Fatal("attempt 2 of run 99 was taken for attempt 1")
	}
	// A second store that holds entry 0 too, merged into the first as
	// record -merge does: entry by entry, each identity once.
	file := append(append(first, a...), a2...)
	other := build(t, []*history.Parsed{ps[0], ps[3]})
	err := store.Each(bytes.NewReader(other), "other", func(e store.Entry) error {
		if b, ok := s.Add(e); ok {
			file = append(file, b...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	back, err := readAll(t, file)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 4 || back[3].File() != ps[3].File() {
		t.Fatalf("read %d entries, want 4 (entry 0 once, run 99 attempts 1 and 2, entry 3)", len(back))
	}
}

// Truncating the store at every byte of its last record leaves every
// earlier entry readable and names the damage: a torn append at the
// record's offset.
func TestTruncatedAtEveryByte(t *testing.T) {
	ps := planted(t, 5)
	file := build(t, ps)
	last := int64(len(build(t, ps[:4])))
	for cut := last + 1; cut < int64(len(file)); cut++ {
		back, err := readAll(t, file[:cut])
		d, ok := store.IsDamage(err)
		if !ok {
			t.Fatalf("cut at %d: error %v, want damage", cut, err)
		}
		if !d.Torn || d.Offset != last || d.Record != 5 || d.Runs != 4 || len(back) != 4 {
			t.Fatalf("cut at %d: %+v, %d entries read", cut, d, len(back))
		}
		if !strings.Contains(err.Error(), "byte "+strconv.FormatInt(last, 10)) {
			t.Fatalf("cut at %d: %q does not name the byte", cut, err)
		}
		s, err := store.Scan(bytes.NewReader(file[:cut]), "s")
		if err != nil || s.End != last || s.Entries != 4 || s.Damage == nil {
			t.Fatalf("cut at %d: scan %+v, %v", cut, s, err)
		}
	}
	// At the record's start the store is whole, with four entries.
	if back, err := readAll(t, file[:last]); err != nil || len(back) != 4 {
		t.Fatalf("cut at the record: %d entries, %v", len(back), err)
	}
}

// A flipped bit anywhere in a record is caught by its checksum (CRC-32C
// detects every single-bit error) and named with the record's offset; the
// records before it are read.
func TestFlippedBit(t *testing.T) {
	ps := planted(t, 3)
	file := build(t, ps)
	start := int64(len(build(t, ps[:1])))
	end := int64(len(build(t, ps[:2])))
	for at := start; at < end; at++ {
		for _, bit := range []int64{at % 8} { // every bit position, over the bytes
			bad := bytes.Clone(file)
			bad[at] ^= 1 << bit
			back, err := readAll(t, bad)
			d, ok := store.IsDamage(err)
			if !ok || d.Offset != start || d.Record != 2 || len(back) != 1 {
				t.Fatalf("bit %d of byte %d: %v, %d entries", bit, at, err, len(back))
			}
			if d.Torn && at >= start+4 {
				t.Fatalf("bit %d of byte %d: a flipped bit in a middle record called torn", bit, at)
			}
		}
	}
}

func TestNotAStore(t *testing.T) {
	for _, in := range []string{"<testsuites/>", "flakegate store\n\x09"} {
		_, err := readAll(t, []byte(in))
		if !errors.As(err, new(*core.Error)) || core.ErrorKind(err) != core.Invalid {
			t.Errorf("%q: %v, want an invalid-input error", in, err)
		}
	}
	if _, err := readAll(t, store.Header()); err != nil {
		t.Errorf("an empty store: %v", err)
	}
}

// FuzzReader: any bytes after a header are read without a crash, an entry
// read is well formed (passed in [0, trials], a name for every result),
// and the error, if any, is damage.
func FuzzReader(f *testing.F) {
	ps := planted(f, 3)
	f.Add(build(f, ps))
	f.Add(buildEntries(f, plantedEntries(f, 4)))
	f.Add(store.Header())
	f.Add([]byte("flakegate store\n\x01\x05\x00\x00\x00R"))
	f.Fuzz(func(t *testing.T, b []byte) {
		rd, err := store.NewReader(bytes.NewReader(b), "f")
		if err != nil {
			if _, ok := store.IsDamage(err); !ok {
				t.Fatalf("header: %v is not damage", err)
			}
			return
		}
		// Counting by index never crashes and fails only as the reader does
		// or as history refuses a run.
		if err := store.AddHistory(history.New(), bytes.NewReader(b), "f", nil); err != nil && !errors.As(err, new(*core.Error)) {
			t.Fatalf("AddHistory: %v", err)
		}
		// An append's scan (in memory, identities only) ends where a
		// skimming reader does, with as many entries and runs.
		defer func() {
			sk, _ := store.NewReader(bytes.NewReader(b), "f")
			sk.Skim()
			for {
				if _, err := sk.Next(); err != nil {
					break
				}
			}
			s, err := store.ScanBytes(b, "f")
			if err != nil || s.End != sk.Offset() || s.Entries != sk.Entries() || s.Runs != sk.Runs() || (s.Damage == nil) != (sk.Offset() == int64(len(b))) {
				t.Fatalf("scan %+v, %v; the reader ends at %d after %d entries, %d runs", s, err, sk.Offset(), sk.Entries(), sk.Runs())
			}
		}()
		for {
			e, err := rd.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				if _, ok := store.IsDamage(err); !ok {
					t.Fatalf("%v is not damage", err)
				}
				return
			}
			_, runs := e.Report.Runs()
			for i, rs := range runs {
				for j, r := range rs {
					if r.Trials < 1 || r.Passed < 0 || r.Passed > r.Trials {
						t.Fatalf("result %+v out of range", r)
					}
					// A retry history read fits its result: a ledger takes it.
					if e.Ledger != nil {
						ledger.New().AddRecorded(e.Ledger.Arms[i], "r", r.Test, r.Passed, r.Trials, e.Ledger.Retries[i][j])
					}
				}
			}
		}
	})
}

// AddHistory, which counts results by their index in the name table, gives
// history's answer on the reports, byte for byte, with an entry recorded
// twice (stores concatenated by hand) counted once.
func TestAddHistorySameHistory(t *testing.T) {
	ps := planted(t, 60)
	file := build(t, ps)
	twice := append(bytes.Clone(file), file[store.HeaderSize:]...)
	h := history.New()
	if err := store.AddHistory(h, bytes.NewReader(twice), "s.store", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := historyJSON(t, h), resultJSON(t, ps); got != want {
		t.Fatalf("history by index differs from history of the reports:\n%s\nwant\n%s", got, want)
	}
}
