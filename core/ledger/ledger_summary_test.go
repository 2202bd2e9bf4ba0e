package ledger_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/testfile"
)

// A summary that went through JSON (as a share link carries it) gives the
// same result, byte for byte, as the ledger it came from: every golden
// ledger and the JUnit/go test reports' ledgers, with each property.
func TestLedgerSummaryRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/ledger/*.jsonl")
	if len(files) < 4 {
		t.Fatalf("want at least 4 ledgers, found %d", len(files))
	}
	for _, path := range files {
		raw := testfile.Read(t, path)
		l := ledger.New()
		if err := report.ReadLedger(bytes.NewReader(raw), l); err != nil {
			t.Fatal(err)
		}
		// Arms besides the two, and a reader's caveat, travel too.
		l.AddTrial("canary", "c1", "x", true)
		l.Warn("a reader's caveat")
		enc, err := json.Marshal(l.Summary())
		if err != nil {
			t.Fatal(err)
		}
		var s ledger.Summary
		if err := json.Unmarshal(enc, &s); err != nil {
			t.Fatal(err)
		}
		for _, prop := range []string{core.PropertyUnknown, core.PropertyPassed, core.PropertyFailed} {
			opt := ledger.Options{MinTrials: 10, Confidence: 0.9, Property: prop}
			want, err := l.Result(opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Result(opt)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var a, b bytes.Buffer
			core.WriteJSON(&a, want)
			core.WriteJSON(&b, got)
			if a.String() != b.String() {
				t.Errorf("%s, property %s: the summary's result differs from the ledger's", path, prop)
			}
			if !strings.Contains(b.String(), `\"canary\"`) || !strings.Contains(b.String(), "a reader's caveat") {
				t.Errorf("%s: the other arm or the caveat was lost", path)
			}
		}
	}
}

// A summary no ledger could give is refused with an error naming the
// ledger, before any figure is computed.
func TestLedgerSummaryCheck(t *testing.T) {
	ok := func() ledger.Summary {
		return ledger.Summary{Runs: ledger.RunCounts{Baseline: 2, Patched: 2}, Tests: []ledger.TestCounts{
			{NodeID: "a", Baseline: core.Count{Passed: 1, Trials: 2}, Patched: core.Count{Passed: 2, Trials: 2}},
			{NodeID: "b", Baseline: core.Count{Passed: 0, Trials: 2}},
		}}
	}
	good := ok()
	if _, err := good.Result(ledger.DefaultOptions); err != nil {
		t.Fatalf("valid summary refused: %v", err)
	}
	for name, mutate := range map[string]func(*ledger.Summary){
		"negative runs":      func(s *ledger.Summary) { s.Runs.Patched = -1 },
		"negative skipped":   func(s *ledger.Summary) { s.SkippedCalls = -1 },
		"empty nodeid":       func(s *ledger.Summary) { s.Tests[0].NodeID = "" },
		"repeated nodeid":    func(s *ledger.Summary) { s.Tests[1].NodeID = "a" },
		"out of order":       func(s *ledger.Summary) { s.Tests[0].NodeID = "c" },
		"passed over trials": func(s *ledger.Summary) { s.Tests[1].Patched = core.Count{Passed: 3, Trials: 2} },
		"negative trials":    func(s *ledger.Summary) { s.Tests[0].Baseline = core.Count{Passed: 0, Trials: -2} },
		"negative setup":     func(s *ledger.Summary) { s.Tests[1].Sides.Patched.Setup = -1 },
	} {
		s := ok()
		mutate(&s)
		res, err := s.Result(ledger.DefaultOptions)
		var ce *core.Error
		if res != nil || !errors.As(err, &ce) || ce.Field != "ledger" || ce.Kind != core.Invalid {
			t.Errorf("%s: result %v, error %v; want an invalid-ledger error", name, res != nil, err)
		}
	}
	var empty ledger.Summary
	if _, err := empty.Result(ledger.DefaultOptions); err == nil || !strings.Contains(err.Error(), "no trials") {
		t.Errorf("empty summary: %v", err)
	}
}
