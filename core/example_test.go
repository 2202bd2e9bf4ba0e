package core_test

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// Ten passes in twenty trials and seventeen in twenty: the intervals overlap,
// so the experiment says nothing (seed 000).
func ExampleDecide() {
	in := core.DefaultDecideInput
	in.Baseline = core.Count{Passed: 10, Trials: 20}
	in.Patched = core.Count{Passed: 17, Trials: 20}
	res, err := core.Decide(in)
	if err != nil {
		panic(err)
	}
	fmt.Printf("baseline [%.2f, %.2f], patched [%.2f, %.2f]\n", res.Baseline.Lower, res.Baseline.Upper, res.Patched.Lower, res.Patched.Upper)
	fmt.Println(res.Verdict, res.Gate, res.Blocks)
	// Output:
	// baseline [0.30, 0.70], patched [0.64, 0.95]
	// no-detectable-change no-claim false
}

func ExampleWilson() {
	lo, hi := core.Wilson(4, 120, core.Z(0.95))
	fmt.Printf("4/120: [%.5f, %.5f]\n", lo, hi)
	// Output: 4/120: [0.01304, 0.08258]
}

// Plan reruns against the upper Wilson bound of one failure in 120 runs, at
// 8 seconds a run, with today's cap of 3 reruns.
func ExampleBudget() {
	in := core.DefaultBudgetInput
	in.CostSeconds = new(float64)
	*in.CostSeconds = 8
	in.Observed = &core.Count{Passed: 1, Trials: 120}
	in.Rates = []float64{0.02}
	res, err := core.Budget(in)
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
	res, _ := core.Size(core.SizeInput{Baseline: 0.50, Patched: 0.85, Confidence: 0.95})
	fmt.Println(*res.TrialsPerArm)
	// Output: 28
}

func ExampleParseCount() {
	c, err := core.ParseCount("baseline", " 17 / 20 ")
	fmt.Println(c.Passed, c.Trials, err)
	_, err = core.ParseCount("baseline", "21/20")
	fmt.Println(err)
	// Output:
	// 17 20 <nil>
	// baseline: 21 is more than the 20 trials
}

func ExampleParseRates() {
	rs, _ := core.ParseRates("rates", "0.05, 0.02,0.01")
	fmt.Println(rs)
	// Output: [0.05 0.02 0.01]
}

// Two runs of each arm, written by the seed's pytest plugin; test_a's
// baseline was rerun within run b1 and the last outcome stands.
func ExampleReadLedger() {
	jsonl := `{"run": "b1", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "failed", "ts": 1}
{"run": "b1", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 2}
{"run": "b2", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "failed", "ts": 3}
{"run": "p1", "arm": "patched", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 4}
{"run": "p2", "arm": "patched", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 5}
`
	l := core.NewLedger()
	if err := core.ReadLedger(strings.NewReader(jsonl), l); err != nil {
		panic(err)
	}
	opt := core.DefaultLedgerOptions
	opt.MinTrials = 2
	res, _ := l.Result(opt)
	for _, t := range res.Tests {
		fmt.Printf("%s: baseline %d/%d, patched %d/%d: %s\n", t.NodeID, t.Baseline.Passed, t.Baseline.Trials, t.Patched.Passed, t.Patched.Trials, t.Verdict)
	}
	// Output: t.py::test_a: baseline 1/2, patched 2/2: no-detectable-change
}

func ExampleFreeze() {
	in := core.DefaultFreezeInput
	in.Claim, in.Date = core.Count{Passed: 17, Trials: 20}, "2026-11-30"
	in.Newer = &core.Count{Passed: 30, Trials: 60}
	res, _ := core.Freeze(in)
	fmt.Printf("claim [%.4f, %.4f]; newer rate %.2f: %s\n", res.Claim.Lower, res.Claim.Upper, *res.Newer.Rate, res.Status)
	// Output: claim [0.6396, 0.9476]; newer rate 0.50: stale
}

// Two go test -json runs of a baseline, read as they come from CI; each file
// is one run, and a skipped test is no trial.
func ExampleReadReport() {
	run1 := `{"Action":"run","Package":"example.com/p","Test":"TestA"}
{"Action":"fail","Package":"example.com/p","Test":"TestA","Elapsed":0.01}
{"Action":"run","Package":"example.com/p","Test":"TestB"}
{"Action":"skip","Package":"example.com/p","Test":"TestB"}
{"Action":"fail","Package":"example.com/p","Elapsed":0.02}
`
	run2 := `{"Action":"run","Package":"example.com/p","Test":"TestA"}
{"Action":"pass","Package":"example.com/p","Test":"TestA","Elapsed":0.01}
{"Action":"pass","Package":"example.com/p","Elapsed":0.02}
`
	l := core.NewLedger()
	for _, r := range []string{run1, run2} {
		if err := core.ReadReport(strings.NewReader(r), core.ReportOptions{Arm: core.ArmBaseline}, l); err != nil {
			panic(err)
		}
	}
	fmt.Println(l.Runs(core.ArmBaseline))
	for _, h := range l.Flakes() {
		fmt.Printf("%s: %d of %d executions failed\n", h.NodeID, h.Fails, h.Executions)
	}
	// Output:
	// [baseline-1 baseline-2]
	// example.com/p.TestA: 1 of 2 executions failed
}

// A Surefire test that failed, then passed on its rerun: two trials, and a
// flake the retry would have hidden.
func ExampleReadReport_junit() {
	xml := `<testsuite name="com.example.CartTest">
  <testcase name="checkout" classname="com.example.CartTest">
    <flakyFailure message="expected 200 but was 503" type="java.lang.AssertionError"/>
  </testcase>
</testsuite>`
	l := core.NewLedger()
	if err := core.ReadReport(strings.NewReader(xml), core.ReportOptions{}, l); err != nil {
		panic(err)
	}
	fl := l.Flakes()[0]
	fmt.Println(fl.NodeID, fl.Observed().Passed, "fails in", fl.Observed().Trials, "executions")
	// Output: com.example.CartTest.checkout 1 fails in 2 executions
}
