package gate_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// Ten passes in twenty trials and seventeen in twenty: the intervals overlap,
// so the experiment says nothing (docs/STATISTICS.md, Two-arm decision).
func ExampleDecide() {
	in := gate.DefaultDecideInput
	in.Baseline = core.Count{Passed: 10, Trials: 20}
	in.Patched = core.Count{Passed: 17, Trials: 20}
	res, err := gate.Decide(in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("baseline [%.2f, %.2f], patched [%.2f, %.2f]\n", res.Baseline.Lower, res.Baseline.Upper, res.Patched.Lower, res.Patched.Upper)
	fmt.Println(res.Verdict, res.Gate, res.Blocks)
	// Output:
	// baseline [0.30, 0.70], patched [0.64, 0.95]
	// no-detectable-change no-claim false
}

// Plan reruns against the upper Wilson bound of one failure in 120 runs, at
// 8 seconds a run, with today's cap of 3 reruns.
func ExampleBudget() {
	in := gate.DefaultBudgetInput
	in.CostSeconds = new(float64)
	*in.CostSeconds = 8
	in.Observed = &core.Count{Passed: 1, Trials: 120}
	in.Rates = []float64{0.02}
	res, err := gate.Budget(in)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rows {
		fmt.Printf("p=%.4f reruns=%d seconds=%.0f at-cap=%.1f%% lane=%s\n", r.Rate, *r.Reruns, *r.Seconds, 100*r.PowerAtCap, r.Lane)
	}
	fmt.Println("blocks:", res.Blocks())
	// Output:
	// p=0.0457 reruns=65 seconds=520 at-cap=13.1% lane=refuse-green
	// p=0.0200 reruns=149 seconds=1192 at-cap=5.9% lane=refuse-green
	// blocks: true
}

func ExampleSize() {
	res, _ := gate.Size(gate.SizeInput{Baseline: 0.50, Patched: 0.85, Confidence: 0.95})
	fmt.Println(*res.TrialsPerArm)
	// Output: 28
}

func ExampleFreeze() {
	in := gate.DefaultFreezeInput
	in.Claim, in.Date = core.Count{Passed: 17, Trials: 20}, "2026-11-30"
	in.Newer = &core.Count{Passed: 30, Trials: 60}
	res, _ := gate.Freeze(in)
	fmt.Printf("claim [%.4f, %.4f]; newer rate %.2f: %s\n", res.Claim.Lower, res.Claim.Upper, *res.Newer.Rate, res.Status)
	// Output: claim [0.6396, 0.9476]; newer rate 0.50: stale
}

// A budget written in gotestsum's own setting: --rerun-fails counts
// retries, so 2 of them are a cap of 2 reruns.
func ExampleBudget_runner() {
	in := gate.DefaultBudgetInput
	setting := int64(2)
	in.Runner, in.Setting, in.Rates = "gotestsum", &setting, []float64{0.02}
	res, _ := gate.Budget(in)
	row := res.Rows[0]
	fmt.Printf("%s: cap %d, %.4f at cap; %d reruns, %s\n", res.Runner.Written, res.Cap, row.PowerAtCap, *row.Reruns, row.Runner.Written)
	// Output: --rerun-fails=2: cap 2, 0.0396 at cap; 149 reruns, --rerun-fails=149
}
