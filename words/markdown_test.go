package words

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
)

// TestBudgetMarkdownColumns: every row carries the power at its k and the
// gate's action, not only the lane.
func TestBudgetMarkdownColumns(t *testing.T) {
	b, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05}})
	if err != nil {
		t.Fatal(err)
	}
	row := b.Rows[0]
	md := BudgetMarkdown(b, "")
	want := "| 0.05 | 59 | " + Percent(*row.Power) + " | " + Percent(*row.PowerOneShort) + " | " + Percent(row.PowerAtCap) + " | — | " + row.Lane + " | " + row.Action + " |"
	if !strings.Contains(md, want) {
		t.Errorf("budget markdown lacks the row %q:\n%s", want, md)
	}
}

// TestDecideMarkdownSizingWarnings: the sizing's caveats travel with the
// summary, marked as the sizing's.
func TestDecideMarkdownSizingWarnings(t *testing.T) {
	d, err := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	if err != nil {
		t.Fatal(err)
	}
	md := DecideMarkdown(d, &gate.SizeResult{Warnings: []string{"rates this close need many trials"}}, "")
	if !strings.Contains(md, "> sizing: rates this close need many trials") {
		t.Errorf("decide markdown lacks the sizing warning:\n%s", md)
	}
}

// TestAAMarkdownMinus: negative differences are written with the minus
// sign (U+2212) that the threshold's "−" uses, never a hyphen.
func TestAAMarkdownMinus(t *testing.T) {
	read := func(path string) *aa.Side {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, err := aa.ReadCSV(f)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	r, err := aa.Check(read("../examples/baseline.csv"), read("../examples/candidate.csv"), aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if r.Candidate == nil || r.Candidate.Diff >= 0 {
		t.Fatalf("the example candidate should score below its baseline: %+v", r.Candidate)
	}
	md := AAMarkdown(r, "")
	if !strings.Contains(md, "difference −") {
		t.Errorf("the candidate's difference lacks its minus sign:\n%s", md)
	}
	if m := regexp.MustCompile(`-\d+\.\d\d pts`).FindString(md); m != "" {
		t.Errorf("a hyphen as a minus sign (%q) in:\n%s", m, md)
	}
}

func TestMarkdown(t *testing.T) {
	b, _ := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05}})
	md := BudgetMarkdown(b, "https://example.test/#rates=0.05")
	for _, want := range []string{"| 0.05 | 59 |", "[Open in flakegate](https://example.test/#rates=0.05)"} {
		if !strings.Contains(md, want) {
			t.Errorf("budget markdown lacks %q:\n%s", want, md)
		}
	}
	d, _ := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	n := int64(28)
	md = DecideMarkdown(d, &gate.SizeResult{TrialsPerArm: &n}, "")
	if !strings.Contains(md, "no-detectable-change") || !strings.Contains(md, "separate: 28") {
		t.Errorf("decide markdown:\n%s", md)
	}
}
