package ledger_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/testfile"
)

// closeRel reports whether got is within rel of want, relatively, or within
// 1e-15 absolutely: where a Wilson bound is exactly 0 or 1, the reference
// listings leave rounding residues such as 6.9e-18, and core (since f84bb18)
// returns the exact bound.
func closeRel(got, want, rel float64) bool {
	d := math.Abs(got - want)
	return d <= rel*math.Abs(want) || d <= 1e-15
}

type goldenArm struct {
	Passed, Trials int64
	Lower, Upper   float64
}

type goldenLedger struct {
	Runs  ledger.RunCounts
	Tests []struct {
		NodeID       string `json:"nodeid"`
		Verdict      string
		Baseline     goldenArm
		Patched      goldenArm
		SideFailures ledger.ArmSides `json:"side_failures"`
	}
}

// TestLedgerGolden compares Result with the reference analyzer's load, rates
// and decide, as written by testdata/ledger/gen.py (which sets the
// reference's z to Z(0.95) = 1.959963984540054, so the formula and the
// constant are the same: tolerance 1e-12 relative).
func TestLedgerGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/ledger/*.jsonl")
	if len(files) < 4 {
		t.Fatalf("want at least 4 golden ledgers, found %d", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		t.Run(name, func(t *testing.T) {
			raw := testfile.Read(t, strings.TrimSuffix(path, ".jsonl")+".golden.json")
			var want goldenLedger
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			res := ledgerResult(t, path)
			if res.Runs != want.Runs {
				t.Errorf("runs %+v, want %+v", res.Runs, want.Runs)
			}
			if len(res.Tests) != len(want.Tests) {
				t.Fatalf("%d tests, want %d", len(res.Tests), len(want.Tests))
			}
			for i, w := range want.Tests {
				g := res.Tests[i]
				if g.NodeID != w.NodeID || g.Verdict != w.Verdict || g.SideFailures != w.SideFailures {
					t.Errorf("test %d: %s %s %+v, want %s %s %+v", i, g.NodeID, g.Verdict, g.SideFailures, w.NodeID, w.Verdict, w.SideFailures)
				}
				for _, p := range []struct {
					g gate.Arm
					w goldenArm
				}{{g.Baseline, w.Baseline}, {g.Patched, w.Patched}} {
					if p.g.Passed != p.w.Passed || p.g.Trials != p.w.Trials ||
						!closeRel(p.g.Lower, p.w.Lower, 1e-12) || !closeRel(p.g.Upper, p.w.Upper, 1e-12) {
						t.Errorf("%s: arm %+v, want %+v", g.NodeID, p.g, p.w)
					}
				}
				if g.SetupFailures != w.SideFailures.Baseline.Setup+w.SideFailures.Patched.Setup {
					t.Errorf("%s: setup_failures %d", g.NodeID, g.SetupFailures)
				}
			}
		})
	}
}

func TestLedgerMessyWarnings(t *testing.T) {
	res := ledgerResult(t, "testdata/ledger/messy.jsonl")
	all := strings.Join(res.Warnings, "\n")
	for _, frag := range []string{"setup and", "teardown failures", "seen in one arm only", "tests/test_new.py::test_added",
		"1 call rows with outcome skipped", "fewer than 20 trials"} {
		if !strings.Contains(all, frag) {
			t.Errorf("warnings lack %q:\n%s", frag, all)
		}
	}
	if !res.Blocks {
		t.Error("an underpowered test must block the ledger")
	}
	for _, tc := range res.Tests {
		if tc.Warnings == nil {
			t.Errorf("%s: nil warnings", tc.NodeID)
		}
		if tc.Verdict == core.VerdictImproved && tc.Gate != core.GateOwed {
			t.Errorf("%s: improved with property unknown must owe the check, got %s", tc.NodeID, tc.Gate)
		}
	}
}

// The JSON of a result is the same bytes however often it is computed.
func TestLedgerDeterministic(t *testing.T) {
	raw := testfile.Read(t, "testdata/ledger/random_many.jsonl")
	var first []byte
	for i := range 5 {
		res := resultOf(t, bytes.NewReader(raw))
		var b bytes.Buffer
		if err := core.WriteJSON(&b, res); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("the same ledger gave different JSON")
		}
	}
}

func TestLedgerAddLastStands(t *testing.T) {
	l := ledger.New()
	for i := range 20 {
		run := string(rune('a' + i))
		l.Add(ledger.ArmBaseline, run, "t", false)
		l.Add(ledger.ArmBaseline, run, "t", true) // the rerun replaces the failure
		l.Add(ledger.ArmPatched, run, "t", true)
	}
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	tc := res.Tests[0]
	if tc.Baseline.Passed != 20 || tc.Baseline.Trials != 20 || tc.Patched.Trials != 20 {
		t.Fatalf("last outcome must stand: %+v", tc)
	}
	if res.Runs != (ledger.RunCounts{20, 20}) {
		t.Fatalf("runs %+v", res.Runs)
	}
}

func TestLedgerEmptyAndOptions(t *testing.T) {
	_, err := ledger.New().Result(ledger.DefaultOptions)
	if core.ErrorKind(err) != core.Unusable {
		t.Fatalf("an empty ledger must be unusable, got %v", err)
	}
	l := ledger.New()
	l.Add(ledger.ArmBaseline, "1", "t", true)
	for _, opt := range []ledger.Options{
		{MinTrials: 0, Confidence: 0.95, Property: core.PropertyUnknown},
		{MinTrials: 20, Confidence: 1, Property: core.PropertyUnknown},
		{MinTrials: 20, Confidence: 0.95, Property: "maybe"},
	} {
		if _, err := l.Result(opt); core.ErrorKind(err) != core.Invalid {
			t.Errorf("%+v: want an invalid error, got %v", opt, err)
		}
	}
	l.Add("canary", "1", "t", true)
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), `"canary"`) {
		t.Errorf("an unknown arm must be warned about: %q", res.Warnings)
	}
}

func TestReadLedgerErrors(t *testing.T) {
	good := `{"run": "b1", "arm": "baseline", "nodeid": "t::a", "when": "call", "outcome": "passed", "ts": 1.5}`
	cases := []struct {
		in        string
		line, col int
		frag      string
	}{
		{good + "\n" + `{"run": "b1", "arm": "unset", "nodeid": "t", "when": "call", "outcome": "passed"}`, 2, 22, "FLAKE_ARM"},
		{`{"run": "b1", "arm": "Baseline", "nodeid": "t", "when": "call", "outcome": "passed"}`, 1, 22, "baseline or patched"},
		{`{"run": "b1", "arm": "baseline", "nodeid": "t", "when": "call"}`, 1, 1, `missing field "outcome"`},
		{`  {"arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed"}`, 1, 3, `missing field "run"`},
		{`{"run": 7, "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed"}`, 1, 9, `"run" must be a string`},
		{`{"run": "1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "PASSED"}`, 1, 75, "outcome must be"},
		{`{"run": "1", "arm": "baseline", "nodeid": "t", "when": "body", "outcome": "passed"}`, 1, 56, "when must be"},
		{`{"run": "1", "arm": "baseline", "nodeid": "", "when": "call", "outcome": "passed"}`, 1, 43, "nodeid must not be empty"},
		{`{"run": "1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed", "ts": "x"}`, 1, 91, `"ts" must be a number`},
		{"\n\n" + `{"run": "1", "arm": "baseline",`, 3, 32, "malformed JSON"},
		{`{"run": "1"} {"run": "2"}`, 1, 14, "one object per line"},
		{`["run"]`, 1, 1, "want a JSON object"},
		{`{"run": "1", "run": "2"}`, 1, 14, "appears twice"},
		{"{\"run\": \"\xff\"}", 1, 10, "invalid UTF-8"},
		{good + "\n" + strings.Repeat(" ", report.MaxLineBytes+1), 2, 1, "longer than"},
		{`{"run": "é", "arm": "x"}`, 1, 21, "baseline or patched"},
	}
	for _, c := range cases {
		err := report.ReadLedger(strings.NewReader(c.in), ledger.New())
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%.60q: want *Error, got %v", c.in, err)
			continue
		}
		if e.Kind != core.Invalid || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.frag) {
			t.Errorf("%.60q: got %d:%d %q; want %d:%d %q", c.in, e.Line, e.Column, e.Msg, c.line, c.col, c.frag)
		}
	}
}

func TestReadLedgerTolerates(t *testing.T) {
	// A byte order mark, CRLF line ends, blank and whitespace-only lines,
	// extra fields, and no newline at the end.
	in := "\xef\xbb\xbf" + `{"run": "b1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed", "x": {"y": [1]}}` + "\r\n" +
		"   \r\n\n" + `{"ts": 2, "outcome": "failed", "when": "call", "nodeid": "t", "arm": "patched", "run": "p1"}`
	res := resultOf(t, strings.NewReader(in))
	if tc := res.Tests[0]; tc.Baseline.Passed != 1 || tc.Patched.Trials != 1 || tc.Patched.Passed != 0 {
		t.Fatalf("%+v", tc)
	}
}

func FuzzReadLedger(f *testing.F) {
	for _, p := range []string{"testdata/ledger/messy.jsonl"} {
		raw := testfile.Read(f, p)
		f.Add(string(raw[:min(len(raw), 4000)]))
	}
	f.Add(`{"run": "b1", "arm": "baseline", "nodeid": "t", "when": "call", "outcome": "passed"}`)
	f.Add(`{"run": "b1", "arm": "unset"`)
	f.Add("\xef\xbb\xbf\n\n{}")
	f.Add(`{"run": "1", "run": "2", "a": [{"b": null}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		l := ledger.New()
		err := report.ReadLedger(strings.NewReader(s), l)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 {
				t.Fatalf("error without a position: %#v", err)
			}
			return
		}
		res, err := l.Result(ledger.DefaultOptions)
		if err != nil {
			if core.ErrorKind(err) != core.Unusable {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for _, tc := range res.Tests {
			for _, a := range []gate.Arm{tc.Baseline, tc.Patched} {
				if a.Passed < 0 || a.Passed > a.Trials || !(0 <= a.Lower && a.Lower <= a.Upper && a.Upper <= 1) {
					t.Fatalf("bad arm %+v", a)
				}
			}
		}
	})
}

// ledgerResult reads the JSONL ledger at path and returns its result with
// the default options.
func ledgerResult(t *testing.T, path string) *ledger.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return resultOf(t, f)
}

// resultOf reads a JSONL ledger from r and returns its result with the
// default options.
func resultOf(t *testing.T, r io.Reader) *ledger.Result {
	t.Helper()
	l := ledger.New()
	if err := report.ReadLedger(r, l); err != nil {
		t.Fatal(err)
	}
	res, err := l.Result(ledger.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
