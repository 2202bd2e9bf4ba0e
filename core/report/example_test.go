package report_test

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// Two runs of each arm, written by a pytest plugin in the ledger format; test_a's
// baseline was rerun within run b1 and the last outcome stands.
func ExampleReadLedger() {
	jsonl := `{"run": "b1", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "failed", "ts": 1}
{"run": "b1", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 2}
{"run": "b2", "arm": "baseline", "nodeid": "t.py::test_a", "when": "call", "outcome": "failed", "ts": 3}
{"run": "p1", "arm": "patched", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 4}
{"run": "p2", "arm": "patched", "nodeid": "t.py::test_a", "when": "call", "outcome": "passed", "ts": 5}
`
	l := ledger.New()
	if err := report.ReadLedger(strings.NewReader(jsonl), l); err != nil {
		panic(err)
	}
	opt := ledger.DefaultOptions
	opt.MinTrials = 2
	res, _ := l.Result(opt)
	for _, t := range res.Tests {
		fmt.Printf("%s: baseline %d/%d, patched %d/%d: %s\n", t.NodeID, t.Baseline.Passed, t.Baseline.Trials, t.Patched.Passed, t.Patched.Trials, t.Verdict)
	}
	// Output: t.py::test_a: baseline 1/2, patched 2/2: no-detectable-change
}

// Two go test -json runs of a baseline, read as they come from CI; each file
// is one run, and a skipped test is no trial.
func ExampleRead() {
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
	l := ledger.New()
	for _, r := range []string{run1, run2} {
		if err := report.Read(strings.NewReader(r), report.Options{Arm: ledger.ArmBaseline}, l); err != nil {
			panic(err)
		}
	}
	fmt.Println(l.Runs(ledger.ArmBaseline))
	for _, h := range l.Flakes() {
		fmt.Printf("%s: %d of %d executions failed\n", h.NodeID, h.Fails, h.Executions)
	}
	// Output:
	// [baseline-1 baseline-2]
	// example.com/p.TestA: 1 of 2 executions failed
}

// A Surefire test that failed, then passed on its rerun: two trials, and a
// flake the retry would have hidden.
func ExampleRead_junit() {
	xml := `<testsuite name="com.example.CartTest">
  <testcase name="checkout" classname="com.example.CartTest">
    <flakyFailure message="expected 200 but was 503" type="java.lang.AssertionError"/>
  </testcase>
</testsuite>`
	l := ledger.New()
	if err := report.Read(strings.NewReader(xml), report.Options{}, l); err != nil {
		panic(err)
	}
	fl := l.Flakes()[0]
	fmt.Println(fl.NodeID, fl.Observed().Passed, "fails in", fl.Observed().Trials, "executions")
	// Output: com.example.CartTest.checkout 1 fails in 2 executions
}
