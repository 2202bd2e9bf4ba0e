package history_test

import (
	"fmt"

	"github.com/flakegate/flakegate/core/history"
)

// Ten runs of six tests: a fails alone in runs 3 and 7, and in run 5 all
// six fail at once. Run 5 is too many failures for chance at the healthy
// rate, so it is an outage and kept out; a is flaky at 2 of 9 (Wilson's
// 95% interval by hand: centre 0.3053, half-width 0.2421). The naive rule
// flags all six.
func Example() {
	h := history.New()
	for r := 1; r <= 10; r++ {
		var rs []history.TestResult
		for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
			passed := int64(1)
			if (name == "a" && (r == 3 || r == 7)) || r == 5 {
				passed = 0
			}
			rs = append(rs, history.TestResult{Test: name, Passed: passed, Trials: 1})
		}
		h.AddRun(history.RunMeta{Name: fmt.Sprintf("run%d", r)}, rs)
	}
	res, _ := h.Result(history.DefaultOptions)
	for _, inc := range res.Incidents {
		fmt.Printf("%s: %s, %d of %d tests failed\n", inc.Kind, inc.Runs[0].Run, inc.FailedTests, inc.RunTests)
	}
	for _, f := range res.Flakes {
		fmt.Printf("flaky: %s failed %d of %d runs, [%.3f, %.3f]\n", f.Test, f.Failures, f.Runs, f.Lower, f.Upper)
	}
	fmt.Println("naive rule flags:", res.Naive)
	// Output:
	// outage: run5, 6 of 6 tests failed
	// flaky: a failed 2 of 9 runs, [0.063, 0.547]
	// naive rule flags: 6
}
