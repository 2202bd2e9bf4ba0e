package aa_test

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
)

// Six A/A runs of a five-scenario suite, in the order they ran, and one
// candidate run: the analyses beyond the thresholds. Every figure here can be
// checked by hand: the run rates are 0.8, 0.8, 0.6, 0.6, 0.6, 0.4; with 5
// scenarios a 2-point drop is one scenario; pass^6 counts only "book".
func ExampleInDepth() {
	outcomes := map[string]string{ // scenario: outcome in runs 1..6
		"book": "111111", "cancel": "111011", "lookup": "110100", "refund": "111110", "search": "000000",
	}
	base, _ := aa.ReadCSV(strings.NewReader(runsCSV(outcomes)))
	cand, _ := aa.ReadCSV(strings.NewReader("scenario,run,passed\nbook,c1,1\ncancel,c1,0\nlookup,c1,0\nrefund,c1,0\nsearch,c1,0\n"))

	d, err := aa.InDepth(base, cand, aa.DefaultDepthOptions)
	if err != nil {
		fmt.Println(err)
		return
	}
	vr := d.VarianceRatio
	fmt.Printf("variance ratio %.2f, 95%% range [%.3f, %.3f], inside: %v\n", vr.MeasuredOverFormula, vr.RangeLower, vr.RangeUpper, vr.Inside)
	tt := d.TrendTest
	fmt.Printf("slope %+.3f per run, halves %.3f then %.3f, p = %.3f over all %d orders\n",
		tt.SlopePerRun, tt.FirstHalfMean, tt.SecondHalfMean, tt.PValue, tt.Permutations)
	f := d.FixedDrop
	fmt.Printf("a %g drop fired on %d of %d ordered pairs (%d earlier baseline, %d later); independent runs: %.3f\n",
		f.Drop, f.Fired, f.Pairs, f.FiredEarlierBaseline, f.FiredLaterBaseline, f.IndependentRate)
	for _, pk := range d.PassK {
		if pk.K == 1 || pk.K == 6 {
			fmt.Printf("pass^%d = %.3f\n", pk.K, pk.Rate)
		}
	}
	fmt.Printf("%d scenarios passed all %d runs; failure rates up to %.3f remain possible\n",
		d.AllPassBound.Scenarios, d.AllPassBound.Runs, d.AllPassBound.Upper)
	for _, s := range d.Flaky {
		fmt.Printf("flaky: %s %d/%d\n", s.Scenario, s.Passed, s.Runs)
	}
	p := d.PairedT
	fmt.Printf("paired t: %+.3f ± %.3f, t = %.2f on %d df, p = %.3f: %s\n", p.Diff, p.SE, *p.T, p.DF, p.PValue, p.Verdict)
	// Output:
	// variance ratio 0.89, 95% range [0.166, 2.567], inside: true
	// slope -0.074 per run, halves 0.733 then 0.533, p = 0.033 over all 720 orders
	// a 0.02 drop fired on 11 of 30 ordered pairs (11 earlier baseline, 0 later); independent runs: 0.310
	// pass^1 = 0.633
	// pass^6 = 0.200
	// 1 scenarios passed all 6 runs; failure rates up to 0.393 remain possible
	// flaky: lookup 3/6
	// flaky: cancel 5/6
	// flaky: refund 5/6
	// paired t: -0.433 ± 0.187, t = -2.32 on 4 df, p = 0.041: regression
}
