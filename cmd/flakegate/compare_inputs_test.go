package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompareAACSV: the A/A example CSVs (scenario,run,passed rows, 200
// questions in 20 baseline and 4 candidate runs) compare as aa reads them:
// each question's passes over its runs.
func TestCompareAACSV(t *testing.T) {
	code, out, errs := cli(t, "", "compare", "-json", "../../examples/baseline.csv", "../../examples/candidate.csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Questions int
		A, B      struct{ Trials int64 }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// The files' own rows: 200 scenarios, 20 × 200 and 4 × 200 rows
	// (wc -l less the header).
	if res.Questions != 200 || res.A.Trials != 4000 || res.B.Trials != 800 {
		t.Errorf("questions %d, trials %d and %d; want 200, 4000 and 800", res.Questions, res.A.Trials, res.B.Trials)
	}
	code, _, errs = cli(t, "", "compare", "-a", "../../examples/baseline.csv", "-a", "../../examples/baseline.csv", "-b", "../../examples/candidate.csv")
	if code != exitUsage || !strings.Contains(errs, "give a side's A/A CSV alone") {
		t.Errorf("two CSVs a side: exit %d, %q", code, errs)
	}
}

// TestCompareSequentialCLI: -sequential on the A/A examples (the same
// suite, a candidate 1.7 points lower over 200 questions) has no answer
// yet, and says to go on; with a cap of 100 questions it stops there.
func TestCompareSequentialCLI(t *testing.T) {
	code, out, errs := cli(t, "", "compare", "-sequential", "../../examples/baseline.csv", "../../examples/candidate.csv")
	if code != exitOK || !strings.HasPrefix(out, "Go on: after 200 questions of the 200 both sides answered") {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = cli(t, "", "compare", "-sequential", "-json", "-max-questions", "100", "../../examples/baseline.csv", "../../examples/candidate.csv")
	var res struct {
		Verdict string
		Used    int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitOK || res.Verdict != "stopped-at-cap" || res.Used != 100 {
		t.Errorf("exit %d, %+v, %v", code, res, err)
	}
}

// TestCompareLMEvalNaN: an lm-evaluation-harness samples file as lm-eval
// writes it (Python's json, with Infinity and NaN for its metric) is
// refused for the real reason: no metric says pass or fail.
func TestCompareLMEvalNaN(t *testing.T) {
	f := "../../core/report/testdata/nonfinite/samples_regress_2026-12-01T10-00-00.000001.jsonl"
	code, _, errs := cli(t, "", "compare", f, f)
	if code != exitUsage || !strings.Contains(errs, "no metric of the samples file is 0 or 1 in every row") || strings.Contains(errs, "not JSON numbers") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
