package store_test

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/store"
)

// buildEntries records entries into a new store.
func buildEntries(t testing.TB, es []store.Entry) []byte {
	t.Helper()
	s := store.NewState()
	var file []byte
	for _, e := range es {
		b, _ := s.Add(e)
		file = append(file, b...)
	}
	return file
}

// A store gives back each run's arm, its identity for quarantine check and
// every result's retry history as the ledger that read the report had
// them (the reference: ledger.Retries of that ledger), and a ledger fed
// with them (AddRecorded) gives the reports' Flakes.
func TestRecordedRoundTrip(t *testing.T) {
	es := plantedEntries(t, 40)
	odd := 0
	for _, e := range es {
		_, runs := e.Report.Runs()
		for i, rs := range runs {
			for j, r := range rs {
				if x := e.Ledger.Retries[i][j]; x.Executions != r.Trials || x.Recovered {
					odd++
				}
			}
		}
	}
	if odd == 0 {
		t.Fatal("the planted reports have no retried test: the test would not test retries")
	}
	file := buildEntries(t, es)
	var back []*store.Recorded
	want, got := ledger.New(), ledger.New()
	err := store.Each(bytes.NewReader(file), "s", func(e store.Entry) error {
		back = append(back, e.Ledger)
		feed(got, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if !reflect.DeepEqual(back[i], e.Ledger) {
			t.Fatalf("entry %d: read back %+v, recorded %+v", i, back[i], e.Ledger)
		}
		feed(want, e)
	}
	if w, g := want.Flakes(), got.Flakes(); !reflect.DeepEqual(w, g) || len(w) == 0 {
		t.Fatalf("flakes from the store %+v, from the reports %+v", g, w)
	}
}

// feed adds an entry's runs to l as a reader of its reports would.
func feed(l *ledger.Ledger, e store.Entry) {
	metas, runs := e.Report.Runs()
	for i, m := range metas {
		for j, r := range runs[i] {
			l.AddRecorded(e.Ledger.Arms[i], m.Name, r.Test, r.Passed, r.Trials, e.Ledger.Retries[i][j])
		}
	}
}

// A store of format version 1 (testdata/v1.fgs: planted(t, 6) recorded
// by the version 1 writer) is read as before: the same history as its
// reports, no retry history; and appended to as version 1.
func TestReadsVersion1(t *testing.T) {
	v1, err := os.ReadFile("testdata/v1.fgs")
	if err != nil {
		t.Fatal(err)
	}
	if v1[len(store.Magic)] != 1 {
		t.Fatal("the fixture is not a version 1 store")
	}
	// The fixture's six runs, and one more run appended.
	next := plantedEntries(t, 7)[6]
	ps := append(planted(t, 6), next.Report)
	s, err := store.ScanBytes(v1, "v1.fgs")
	if err != nil || s.Damage != nil || s.Entries != 6 {
		t.Fatalf("scan: %+v, %v", s, err)
	}
	more, ok := s.Add(next)
	if !ok {
		t.Fatal("the seventh run counted as recorded")
	}
	file := append(bytes.Clone(v1), more...)
	back, err := readAll(t, file)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resultJSON(t, back), resultJSON(t, ps); got != want {
		t.Fatalf("history of the version 1 store differs from its reports'")
	}
	err = store.Each(bytes.NewReader(file), "v1.fgs", func(e store.Entry) error {
		if e.Ledger != nil {
			t.Errorf("%s: a version 1 record has retry history", e.Report.File())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h := history.New()
	if err := store.AddHistory(h, bytes.NewReader(file), "v1.fgs", nil); err != nil || historyJSON(t, h) != resultJSON(t, ps) {
		t.Fatalf("history by index of the version 1 store differs from its reports' (%v)", err)
	}
}
