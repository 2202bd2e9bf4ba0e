package quarantine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/testfile"
)

const reports = "../report/testdata/reports/"

// TestCarriesTime: the real reports of the readers' samples
// (core/report/testdata/reports/README.md) that hold the time they were
// written (go test -json's Time, JUnit's timestamp, Jest's startTime) and
// those that do not (TAP, RSpec's JSON, a JUnit file without timestamp).
func TestCarriesTime(t *testing.T) {
	for file, want := range map[string]bool{
		"gotest/count5.json":            true,
		"junit/gotestsum_count3.xml":    true,
		"junit/pytest.xml":              true,
		"jest/jest.json":                true,
		"tap/node_attempt1.tap":         false,
		"tap/perl_attempt1.tap":         false,
		"rspec/attempt1.json":           false,
		"junit/surefire_empty_name.xml": false,
	} {
		if got := CarriesTime(testfile.Read(t, reports+file)); got != want {
			t.Errorf("%s: carries time %v, want %v", file, got, want)
		}
	}
	for text, want := range map[string]bool{
		`<testsuite timestamp="2026-11-23T02:00:01">`: true,
		"started 2026-11-23 02:00:01 UTC":             true,
		`{"startTime": 1700000000000}`:                true,
		`{"ts" :1700000000.5}`:                        true,
		`{"time": 0.25, "duration": 1700000000000}`:   false,
		"ok 1 - 2026-11-23 is a date without a time":  false,
		"2026-11-23T02:00":                            false,
		`{"start": 170000000}`:                        false,
	} {
		if got := CarriesTime([]byte(text)); got != want {
			t.Errorf("%q: carries time %v, want %v", text, got, want)
		}
	}
}

// TestRunID: a report that carries its time is the same run wherever it
// is read from (its content alone); one that carries none is told apart by
// where it was made: two nights' byte-identical TAP outputs are two runs,
// the same night's TAP given twice is one.
func TestRunID(t *testing.T) {
	gotest := testfile.Read(t, reports+"gotest/count5.json")
	if a, b := RunID(gotest, "github:100.1:r.json"), RunID(gotest, "file:/tmp/copy.json@2026-11-24T02:00:00Z"); a != b {
		t.Errorf("a go test -json report read in two places: %s and %s, want one run", a, b)
	}
	tap := testfile.Read(t, reports+"tap/node_attempt1.tap")
	night1, night2 := RunID(tap, "github:100.1:r.tap"), RunID(tap, "github:101.1:r.tap")
	if night1 == night2 {
		t.Errorf("two nights' identical TAP: one identity %s, want two runs", night1)
	}
	if again := RunID(tap, "github:100.1:r.tap"); again != night1 {
		t.Errorf("the same night's TAP given twice: %s and %s, want one run", night1, again)
	}
	if RunID(tap, "github:100.2:r.tap") == night1 {
		t.Errorf("a second attempt of a CI run reran the tests: it is another run")
	}
	if id := RunID(tap, ""); len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Errorf("identity %q: want 32 lowercase hexadecimal digits", id)
	}
}

// readRuns reads report files into one ledger, each a run named after its
// file (a second run of the same name gets "#2", as the CLI names them),
// and returns the ledger and each run's identity in the given contexts.
func readRuns(t *testing.T, files, contexts []string) (*ledger.Ledger, map[string]string) {
	t.Helper()
	l := ledger.New()
	ids := map[string]string{}
	for i, f := range files {
		name := f
		for n := 2; slices.Contains(l.Runs(ledger.ArmBaseline), name); n++ {
			name = fmt.Sprintf("%s#%d", f, n)
		}
		b := testfile.Read(t, reports+f)
		if err := report.Read(strings.NewReader(string(b)), report.Options{Run: name}, l); err != nil {
			t.Fatal(err)
		}
		ids[name] = RunID(b, contexts[i])
	}
	return l, ids
}

// TestFromLedgerRuns: a run is counted once. The same night's report given
// twice in one check counts once; a report a writing check counted before
// is not counted again, and the answer says so; two nights' identical TAP
// files count as two runs.
func TestFromLedgerRuns(t *testing.T) {
	reg := registry(entry("example.com/flaky.TestFlaky", 57, 60, 0.01, "2027-01-31"))
	l, ids := readRuns(t, []string{"gotest/count5.json", "gotest/count5.json"}, []string{"a", "b"})
	rep := FromLedgerRuns(l, ids, reg)
	if rep.Runs != 1 || len(rep.IDs) != 1 || !slices.Contains(rep.Warnings, "gotest/count5.json#2 is the same run as gotest/count5.json: counted once") {
		t.Fatalf("the same report twice: %d runs, ids %v, warnings %q", rep.Runs, rep.IDs, rep.Warnings)
	}
	opt := DefaultOptions
	opt.Today = today
	_, next, err := Check(reg, rep, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Counted) != 1 || next.Counted[0] != (CountedRun{Run: rep.IDs[0], Date: today}) {
		t.Fatalf("counted %+v", next.Counted)
	}
	// The next night the same report comes again: nothing new is counted,
	// no test is missing for it, and the warning says why.
	l, ids = readRuns(t, []string{"gotest/count5.json"}, []string{"c"})
	rep = FromLedgerRuns(l, ids, next)
	want := "gotest/count5.json is a run counted already, on " + today + ": not counted again"
	if rep.Runs != 0 || len(rep.IDs) != 0 || !slices.Contains(rep.Warnings, want) {
		t.Fatalf("a counted report again: %d runs, warnings %q", rep.Runs, rep.Warnings)
	}
	res, again, err := Check(next, rep, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tests[0].State == StateMissing || res.Tests[0].Reported != nil || again.Tests[0].Since != next.Tests[0].Since {
		t.Errorf("a counted run changed the evidence: %+v", res.Tests[0])
	}
	// Given to Check directly, a counted identity is refused.
	rep = &Reports{Runs: 1, IDs: []string{next.Counted[0].Run}, Tests: map[string][]core.Count{}}
	if _, _, err := Check(next, rep, opt); err == nil || !strings.Contains(err.Error(), "a run is never counted twice") {
		t.Errorf("a counted identity given to Check: %v", err)
	}
	// Two nights' TAP, byte for byte the same, made by two CI runs.
	l, ids = readRuns(t, []string{"tap/node_attempt1.tap", "tap/node_attempt1.tap"}, []string{"github:100.1:r.tap", "github:101.1:r.tap"})
	if rep = FromLedgerRuns(l, ids, next); rep.Runs != 2 || len(rep.IDs) != 2 {
		t.Errorf("two nights' identical TAP: %d runs, want 2 (%q)", rep.Runs, rep.Warnings)
	}
}

// TestLedgerRunIDs: a ledger's runs are told apart by their rows, and a
// run keeps its identity when later runs are appended to the file.
func TestLedgerRunIDs(t *testing.T) {
	b1 := `{"run": "b1", "arm": "baseline", "nodeid": "t::a", "when": "call", "outcome": "passed", "ts": 1700000000.1}` + "\n"
	b2 := `{"run": "b2", "arm": "baseline", "nodeid": "t::a", "when": "call", "outcome": "passed", "ts": 1700000100.1}` + "\n"
	p1 := `{"run": "b1", "arm": "patched", "nodeid": "t::a", "when": "call", "outcome": "passed", "ts": 1700000000.1}` + "\n"
	one := LedgerRunIDs([]byte(b1))
	all := LedgerRunIDs([]byte(b1 + b2 + p1 + "not a row\n"))
	if len(all) != 3 || all["baseline\x00b1"] != one["baseline\x00b1"] {
		t.Errorf("identities %v; b1 alone %v", all, one)
	}
	if all["baseline\x00b1"] == all["baseline\x00b2"] || all["baseline\x00b1"] == all["patched\x00b1"] {
		t.Errorf("two runs share an identity: %v", all)
	}
	// Read in pieces of 7 bytes, as a reader hands them over: the same.
	text := []byte(b1 + b2 + p1)
	r := NewRunHash(true)
	for i := 0; i < len(text); i += 7 {
		r.Write(text[i:min(i+7, len(text))])
	}
	if got := r.LedgerIDs(); fmt.Sprint(got) != fmt.Sprint(LedgerRunIDs(text)) || r.ID("x") != RunID(text, "x") {
		t.Errorf("read in pieces: %v, want %v", got, LedgerRunIDs(text))
	}
}

// TestCountedBounded: a registry remembers at most MaxCounted runs, the
// newest, in date order.
func TestCountedBounded(t *testing.T) {
	reg := registry()
	for i := range MaxCounted + 2 {
		reg.Counted = append(reg.Counted, CountedRun{Run: fmt.Sprintf("%032x", i), Date: fmt.Sprintf("2026-11-%02d", 10+i%20)})
	}
	c := Canonical(reg).Counted
	if len(c) != MaxCounted || !slices.IsSortedFunc(c, func(a, b CountedRun) int { return strings.Compare(a.Date, b.Date) }) {
		t.Fatalf("%d counted runs kept", len(c))
	}
	if c[len(c)-1].Date != "2026-11-29" || c[0].Date == "2026-11-10" && c[0].Run == fmt.Sprintf("%032x", 0) {
		t.Errorf("kept from %+v to %+v: want the newest", c[0], c[len(c)-1])
	}
}

// FuzzRunHash: a report read in pieces of any size has the identity of the
// whole (the readers hand a RunHash what they read, in their own sizes),
// identities are 32 hexadecimal digits, and nothing panics.
func FuzzRunHash(f *testing.F) {
	f.Add([]byte(`{"run": "b1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed", "ts": 1700000000.1}`+"\n"), 3)
	f.Add(testfile.Read(f, reports+"tap/node_attempt1.tap"), 17)
	f.Add([]byte("{\"run\":\"b1\"}\n\n{\"run\":\"b2\",\"arm\":\"patched\"}"), 1)
	f.Fuzz(func(t *testing.T, data []byte, piece int) {
		if piece < 1 {
			piece = 1
		}
		r := NewRunHash(true)
		for i := 0; i < len(data); i += piece {
			r.Write(data[i:min(i+piece, len(data))])
		}
		whole := LedgerRunIDs(data)
		if got := r.LedgerIDs(); fmt.Sprint(got) != fmt.Sprint(whole) {
			t.Fatalf("in pieces of %d: %v, whole: %v", piece, got, whole)
		}
		if id := r.ID("c"); id != RunID(data, "c") || len(id) != 32 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("identity %q, whole %q", id, RunID(data, "c"))
		}
	})
}

// TestEditsKeepCounted: adding, renewing, renaming and removing tests keep
// the runs the registry has counted (else a report counted before an edit
// would count again after it); Remember adds the runs a claim was measured
// on, once each.
func TestEditsKeepCounted(t *testing.T) {
	reg := registry(entry("a", 57, 60, 0.01, "2027-01-31"), entry("b", 57, 60, 0.01, "2027-01-31"))
	reg.Counted = []CountedRun{{Run: "0123456789abcdef0123456789abcdef", Date: "2026-11-25"}}
	want := fmt.Sprint(reg.Counted)
	for name, edit := range map[string]func() (*Registry, error){
		"add":    func() (*Registry, error) { return Add(reg, today, entry("c", 1, 2, 0.01, "2027-01-31")) },
		"renew":  func() (*Registry, error) { return Renew(reg, today, "a", "2027-02-28", "", "") },
		"remove": func() (*Registry, error) { return Remove(reg, today, "a") },
		"rename": func() (*Registry, error) { return Rename(reg, today, "a", "z") },
	} {
		out, err := edit()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fmt.Sprint(out.Counted) != want {
			t.Errorf("%s: counted %v, want %v", name, out.Counted, want)
		}
	}
	out, err := Remember(reg, today, "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "fedcba9876543210fedcba9876543210")
	if err != nil || len(out.Counted) != 2 || out.Counted[0].Date != "2026-11-25" || out.Counted[1] != (CountedRun{Run: "fedcba9876543210fedcba9876543210", Date: today}) {
		t.Errorf("remember: %v %v", out.Counted, err)
	}
	if _, err := Remember(reg, today, "not/an/id"); err == nil {
		t.Errorf("a bad identity was remembered")
	}
}

// TestLegacyCleanCount: a registry written before runs were counted holds
// clean executions (since 40/40, clean 40, no runs): with a release at 29
// clean runs it would leave on its first check though it may have been two
// nights. Its clean runs start again, and the check says why.
func TestLegacyCleanCount(t *testing.T) {
	e := entry("t", 57, 60, 0.1, "2027-01-31")
	e.Since = Since{Passed: 40, Trials: 40, Clean: 40, Checked: "2026-11-30"}
	res, next := check(t, registry(e), runs(t, map[string][]string{"t": {"20/20"}}), nil)
	got := res.Tests[0]
	if got.State == StateReleased || got.Release.Clean != 1 || next.Tests[0].Since.Clean != 1 {
		t.Errorf("legacy clean 40: %s with %d clean runs; kept %+v", got.State, got.Release.Clean, next.Tests[0].Since)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "1 test recorded clean executions before runs were counted (t)") {
		t.Errorf("warnings %q", res.Warnings)
	}
	// A replaced claim carries its clean runs with no trials since: not a
	// legacy count.
	e.Since = Since{Clean: 5, Checked: "2026-11-30"}
	res, _ = check(t, registry(e), runs(t, map[string][]string{"t": {"20/20"}}), nil)
	if res.Tests[0].Release.Clean != 6 || len(res.Warnings) != 0 {
		t.Errorf("a carried streak: %d clean runs, warnings %q", res.Tests[0].Release.Clean, res.Warnings)
	}
}
