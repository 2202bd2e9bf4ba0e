package report

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// TestPythonNonFinite reads eval logs written by Python's json module
// (testdata/nonfinite, made with json.dumps, whose default allow_nan=True
// writes float("nan") as NaN and the infinities as Infinity and
// -Infinity): each such score is missing, left out and counted in a
// warning; the counts are the files' own rows, by hand.
func TestPythonNonFinite(t *testing.T) {
	for _, c := range []struct {
		path  string
		eval  EvalOptions
		want  core.Count
		notes []string
	}{
		// acc: 1, NaN, 0, 1, NaN, -Infinity: 3 scored, 2 of them passed.
		{"samples_quiz_2026-12-01T10-00-00.000001.jsonl", EvalOptions{}, core.Count{Passed: 2, Trials: 3},
			[]string{`2 scores of the metric "acc" were NaN (Python's not-a-number): counted as missing`,
				`1 score of the metric "acc" was Infinity or -Infinity (Python's infinite floats): counted as missing`}},
		// mae 12.5, NaN, 3.25, Infinity, 40 with a pass at 10 or more: 2 of 3.
		{"samples_regress_2026-12-01T10-00-00.000001.jsonl", EvalOptions{Score: "mae", Threshold: 10}, core.Count{Passed: 2, Trials: 3},
			[]string{`1 score of the metric "mae" was NaN`, `1 score of the metric "mae" was Infinity or -Infinity`}},
		// inspect: 1.0, NaN, 0.0.
		{"inspect-nan.json", EvalOptions{}, core.Count{Passed: 1, Trials: 2},
			[]string{"1 score of the eval log was NaN (Python's not-a-number): counted as missing"}},
		// samples: 1, NaN, -Infinity.
		{"samples-nan.jsonl", EvalOptions{}, core.Count{Passed: 1, Trials: 1},
			[]string{"1 score of the samples file was NaN", "1 score of the samples file was Infinity or -Infinity"}},
	} {
		l := ledger.New()
		format := ""
		if strings.HasPrefix(c.path, "samples-") {
			format = FormatSamples
		}
		if err := readFile(t, l, "testdata/nonfinite/"+c.path, Options{Format: format, Eval: c.eval}); err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if got := total(l); got != c.want {
			t.Errorf("%s: %v, want %v", c.path, got, c.want)
		}
		notes := strings.Join(l.Notes(), "\n")
		for _, frag := range c.notes {
			if !strings.Contains(notes, frag) {
				t.Errorf("%s: no warning %q in %q", c.path, frag, notes)
			}
		}
	}
}

// TestPythonNonFiniteMetric: an lm-evaluation-harness file whose only
// metric is continuous and has NaN and Infinity in it is refused for the
// real reason — no metric says pass or fail — not for the NaN.
func TestPythonNonFiniteMetric(t *testing.T) {
	err := readFile(t, ledger.New(), "testdata/nonfinite/samples_regress_2026-12-01T10-00-00.000001.jsonl", Options{})
	if err == nil || !strings.Contains(err.Error(), "no metric of the samples file is 0 or 1 in every row") || strings.Contains(err.Error(), "NaN") {
		t.Errorf("got %v, want the error about the metric", err)
	}
}

// TestStrictElsewhere: the other JSON readers keep the strict grammar.
func TestStrictElsewhere(t *testing.T) {
	in := `{"numFailedTests":0,"numTotalTests":1,"testResults":[{"name":"a.test.js","assertionResults":[{"fullName":"x","status":"passed","duration":NaN}]}]}`
	err := Read(strings.NewReader(in), Options{}, ledger.New())
	if err == nil || !strings.Contains(err.Error(), "NaN and Infinity are not JSON numbers") {
		t.Errorf("Jest JSON with NaN: %v, want the strict error", err)
	}
	in = `{"run":"r1","arm":"baseline","test":"t","outcome":"passed","duration_s":NaN}` + "\n"
	err = Read(strings.NewReader(in), Options{Format: FormatLedger}, ledger.New())
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("JSONL ledger with NaN: %v, want an error", err)
	}
}
