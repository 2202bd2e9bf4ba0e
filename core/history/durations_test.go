package history

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/report"
)

// TestCostFromReportedDurations reads four JUnit runs whose testcases carry
// time attributes. The figures are summed by hand from the attributes:
// pkg.Flaky ran 2.5 + 3.0 + 3.5 + 1.0 = 10.0 s over 4 attempts, a mean of
// 2.5 s, and failed 1 of 4 runs: cost 0.25 × 2.5 = 0.625 s per run.
// pkg.Untimed has no time attribute: it failed 1 of 4 runs, and its cost
// falls back to the runner seconds given (8 s): 0.25 × 8 = 2 s. pkg.Skipped
// is skipped in every run with time="9" and gives no duration; pkg.Stable
// (0.5 s each) never failed and is no flake.
func TestCostFromReportedDurations(t *testing.T) {
	flaky := []string{"2.5", "3.0", "3.5", "1.0"}
	h := New()
	for run := range 4 {
		var b strings.Builder
		b.WriteString(`<testsuite name="pkg" tests="4">`)
		fail := func(which int) string {
			if run == which {
				return `<failure message="boom"/>`
			}
			return ""
		}
		fmt.Fprintf(&b, `<testcase classname="pkg" name="Flaky" time="%s">%s</testcase>`, flaky[run], fail(1))
		fmt.Fprintf(&b, `<testcase classname="pkg" name="Untimed">%s</testcase>`, fail(2))
		b.WriteString(`<testcase classname="pkg" name="Stable" time="0.5"/>`)
		b.WriteString(`<testcase classname="pkg" name="Skipped" time="9"><skipped/></testcase>`)
		b.WriteString(`</testsuite>`)
		name := fmt.Sprintf("run%d.xml", run+1)
		if err := h.ReadRun(RunMeta{Name: name, File: name}, strings.NewReader(b.String()), report.Options{Format: report.FormatJUnit}); err != nil {
			t.Fatal(err)
		}
	}
	o := DefaultOptions
	eight := 8.0
	o.Budget.CostSeconds = &eight
	res, err := h.Result(o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		run   float64 // -1: no run time
		cost  float64
		basis string
	}{
		"pkg.Flaky":   {2.5, 0.625, CostReported},
		"pkg.Untimed": {-1, 2, CostGiven},
	}
	if len(res.Flakes) != len(want) {
		t.Fatalf("%d flakes, want %d: %+v", len(res.Flakes), len(want), res.Flakes)
	}
	for _, f := range res.Flakes {
		w, ok := want[f.Test]
		if !ok {
			t.Errorf("unexpected flake %s", f.Test)
			continue
		}
		switch {
		case w.run < 0 && f.RunSeconds != nil:
			t.Errorf("%s: run time %v, want none", f.Test, *f.RunSeconds)
		case w.run >= 0 && (f.RunSeconds == nil || math.Abs(*f.RunSeconds-w.run) > 1e-12):
			t.Errorf("%s: run time %v, want %v", f.Test, f.RunSeconds, w.run)
		case f.CostSeconds == nil || math.Abs(*f.CostSeconds-w.cost) > 1e-12:
			t.Errorf("%s: cost %v, want %v", f.Test, f.CostSeconds, w.cost)
		case f.CostBasis != w.basis:
			t.Errorf("%s: cost basis %q, want %q", f.Test, f.CostBasis, w.basis)
		}
	}

	// Without runner seconds, the timed test keeps its cost and the other
	// has none.
	res, err = h.Result(DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Flakes {
		if (f.Test == "pkg.Flaky") != (f.CostSeconds != nil) || (f.CostSeconds == nil) != (f.CostBasis == "") {
			t.Errorf("%s without -cost: cost %v, basis %q", f.Test, f.CostSeconds, f.CostBasis)
		}
	}
}
