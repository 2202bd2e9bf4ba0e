package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
)

// writeDepth writes the in-depth A/A analyses as plain lines for a
// terminal: rates as percentages, drops and slopes in points, p-values with
// two significant digits, and the flaky scenarios noisiest first (at most
// maxFlaky of them; 0 lists all). Warnings are left to the caller, which
// merges them with the A/A result's.
func writeDepth(w io.Writer, d *aa.Depth, maxFlaky int) error {
	var b strings.Builder
	runs := d.AllPassBound.Runs
	if vr := d.VarianceRatio; vr != nil {
		fmt.Fprintf(&b, "variance ratio %.2f (%g%% range for %d runs under independence: %.3f to %.3f, %s)",
			vr.MeasuredOverFormula, 100*vr.Level, runs, vr.RangeLower, vr.RangeUpper, insideWord(vr.Inside))
		if dt := vr.Detrended; dt != nil {
			fmt.Fprintf(&b, "; without the run-order line %.2f (%.3f to %.3f, %s)",
				dt.MeasuredOverFormula, dt.RangeLower, dt.RangeUpper, insideWord(dt.Inside))
		}
		b.WriteString("\n")
	}
	if t := d.TrendTest; t != nil {
		how := fmt.Sprintf("%d random run orders", t.Permutations)
		if t.Exact {
			how = fmt.Sprintf("all %d run orders", t.Permutations)
		}
		fmt.Fprintf(&b, "trend: %+.3f points per run, first half %.2f%%, second half %.2f%%, permutation p = %.2g (%s)\n",
			100*t.SlopePerRun, 100*t.FirstHalfMean, 100*t.SecondHalfMean, t.PValue, how)
	}
	if f := d.FixedDrop; f != nil {
		fmt.Fprintf(&b, "a rule flagging drops of %.2f points (%d of the scenarios) or more fired on %d of %d ordered pairs of runs (%.1f%%): "+
			"%d with the earlier run as baseline, %d with the later; independent runs would fire %.1f%% of the time (%s)\n",
			100*f.Drop, f.DropScenarios, f.Fired, f.Pairs, 100*f.Rate, f.FiredEarlierBaseline, f.FiredLaterBaseline,
			100*f.IndependentRate, f.IndependentMethod)
	}
	if len(d.PassK) > 0 {
		b.WriteString("pass^k:")
		for _, p := range d.PassK {
			fmt.Fprintf(&b, " k=%d %.1f%%", p.K, 100*p.Rate)
		}
		b.WriteString("\n")
	}
	a := d.AllPassBound
	fmt.Fprintf(&b, "%d scenario(s) passed every run; %d clean runs still allow a failure rate up to %.1f%% (%g%% one-sided bound)\n",
		a.Scenarios, a.Runs, 100*a.Upper, 100*a.Confidence)
	if len(d.Flaky) > 0 {
		fmt.Fprintf(&b, "%d scenario(s) went both ways, noisiest first:\n", len(d.Flaky))
		for i, f := range d.Flaky {
			if maxFlaky > 0 && i == maxFlaky {
				fmt.Fprintf(&b, "  … and %d more\n", len(d.Flaky)-maxFlaky)
				break
			}
			fmt.Fprintf(&b, "  %s  %d/%d  %.1f%%\n", f.Scenario, f.Passed, f.Runs, 100*f.Rate)
		}
	}
	if p := d.PairedT; p != nil {
		t := "undefined"
		if p.T != nil {
			t = fmt.Sprintf("%.2f", *p.T)
		}
		fmt.Fprintf(&b, "paired t-test over %d scenarios: %+.2f points ± %.2f, t = %s on %d df, one-sided p = %.2g: %s at %g\n",
			p.Scenarios, 100*p.Diff, 100*p.SE, t, p.DF, p.PValue, p.Verdict, p.Alpha)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func insideWord(ok bool) string {
	if ok {
		return "inside"
	}
	return "outside"
}
