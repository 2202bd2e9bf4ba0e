package report

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

func total(l *ledger.Ledger) core.Count {
	var c core.Count
	for _, x := range armCounts(l, ledger.ArmBaseline) {
		c.Passed += x.Passed
		c.Trials += x.Trials
	}
	return c
}

// The options of the eval readers: which score decides, and where a
// number passes. Expected counts are gen.py's tables (testdata/reports/
// sources/inspect and lm-eval), checked with jq there.
func TestEvalOptions(t *testing.T) {
	cases := []struct {
		path string
		eval EvalOptions
		want core.Count
	}{
		// The "graded" scorer: 7 of 10 samples score 0.5 or more, 5 score 1.
		{"inspect/arith-run1.json", EvalOptions{Score: "graded", Threshold: 0.5}, core.Count{Passed: 7, Trials: 10}},
		{"inspect/arith-run1.eval", EvalOptions{Score: "graded"}, core.Count{Passed: 5, Trials: 10}},
		{"inspect/arith-run2.eval", EvalOptions{Score: "graded", Threshold: 0.5}, core.Count{Passed: 7, Trials: 10}},
		// lm-eval: the flexible-extract filter passes 5 of 6 docs in run 1, 4 in run 2.
		{"lmeval/samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", EvalOptions{Filter: "flexible-extract"}, core.Count{Passed: 5, Trials: 6}},
		{"lmeval/samples_arith_gen_2026-12-02T10-00-00.000001.jsonl", EvalOptions{Filter: "flexible-extract", Score: "exact_match"}, core.Count{Passed: 4, Trials: 6}},
	}
	for _, c := range cases {
		l := ledger.New()
		if err := readFile(t, l, "testdata/reports/"+c.path, Options{Eval: c.eval}); err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if got := total(l); got != c.want {
			t.Errorf("%s %+v: %v, want %v", c.path, c.eval, got, c.want)
		}
	}
	// The default scorer is the first; the log has another: a warning.
	l := readSample(t, "inspect/arith-run2.json")
	notes := strings.Join(l.Notes(), "\n")
	for _, frag := range []string{`judged by the scorer "match"`, `also has graded`, "1 sample of the eval log failed with an error"} {
		if !strings.Contains(notes, frag) {
			t.Errorf("no warning %q in %q", frag, notes)
		}
	}
	// Epochs are trials of their sample: 5 samples, 2 epochs each.
	if n := len(armCounts(l, ledger.ArmBaseline)); n != 5 {
		t.Errorf("%d scenarios, want 5 samples", n)
	}
	// promptfoo --repeat 3: 3 tests × 2 providers, 3 trials each.
	counts := armCounts(readSample(t, "promptfoo/promptfoo-repeat3.json"), ledger.ArmBaseline)
	if len(counts) != 6 {
		t.Errorf("promptfoo: %d scenarios, want 6: %v", len(counts), counts)
	}
	for name, c := range counts {
		if c.Trials != 3 {
			t.Errorf("promptfoo %q: %v, want 3 trials", name, c)
		}
	}
}

// A samples file names its fields; with a run field one file holds runs.
func TestSamplesFiles(t *testing.T) {
	csvText := "case,attempt,verdict\nq1,r1,C\nq2,r1,I\nq1,r2,1\nq2,r2,0.5\n"
	l := ledger.New()
	if err := Read(strings.NewReader(csvText), Options{Eval: EvalOptions{ID: "case", Run: "attempt", Score: "verdict"}}, l); err != nil {
		t.Fatal(err)
	}
	if got := total(l); got != (core.Count{Passed: 2, Trials: 4}) || len(l.Runs(ledger.ArmBaseline)) != 2 {
		t.Errorf("csv: %v, runs %v", got, l.Runs(ledger.ArmBaseline))
	}
	jsonl := `{"id": 1, "score": true}` + "\n" + `{"id": 2, "score": 0.25}` + "\n"
	l = ledger.New()
	if err := Read(strings.NewReader(jsonl), Options{Format: FormatSamples, Eval: EvalOptions{Threshold: 0.2}}, l); err != nil {
		t.Fatal(err)
	}
	if got := total(l); got != (core.Count{Passed: 2, Trials: 2}) {
		t.Errorf("jsonl: %v", got)
	}
	for _, c := range []struct{ in, frag string }{
		{"id,score\nq1,maybe\n", "2:1: the score \"maybe\" is not a number"},
		{"id,points\nq1,1\n", `no column "score"`},
		{`{"id": "a", "score": [1]}`, "1:22: score: want a score, got an array"},
	} {
		err := Read(strings.NewReader(c.in), Options{Format: FormatSamples}, ledger.New())
		if err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.frag)
		}
	}
}
