package quarantine_test

import (
	"fmt"
	"os"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
)

// To prove a failure rate below 1% at 95% confidence takes 299 clean runs
// in a row: 0.99^299 <= 0.05 < 0.99^298.
func ExampleCleanRuns() {
	for _, below := range []float64{0.05, 0.01, 0.001} {
		fmt.Printf("below %v: %v clean runs\n", below, quarantine.CleanRuns(below, 0.95))
	}
	// Output:
	// below 0.05: 59 clean runs
	// below 0.01: 299 clean runs
	// below 0.001: 2995 clean runs
}

// Quarantine a test that passed 57 of 60 runs, then check it against a
// night's report in which it passed all 20 of its executions: one clean
// run. A fresh quarantine at 1% needs 361 clean runs; one is counted.
func ExampleCheck() {
	today := "2026-11-20"
	reg, err := quarantine.Add(&quarantine.Registry{Version: quarantine.Version}, today,
		quarantine.NewEntry("shop/cart.TestCheckout", "@payments", "times out on a loaded runner",
			today, "2026-12-31", core.Count{Passed: 57, Trials: 60}, 0.95, quarantine.DefaultRelease))
	if err != nil {
		panic(err)
	}
	night := &quarantine.Reports{Runs: 1, Tests: map[string][]core.Count{
		"shop/cart.TestCheckout": {{Passed: 20, Trials: 20}},
	}}
	opt := quarantine.DefaultOptions
	opt.Today = "2026-11-21"
	res, next, err := quarantine.Check(reg, night, opt)
	if err != nil {
		panic(err)
	}
	t := res.Tests[0]
	fmt.Printf("%s: %s, %d clean runs to release (of %d), rerun lane %s\n", t.Test, t.State, t.Release.Remaining, t.Release.Needed, t.Budget.Lane)
	quarantine.Write(os.Stdout, next)
	// Output:
	// shop/cart.TestCheckout: still-flaky, 360 clean runs to release (of 361), rerun lane nightly
	// {
	//   "version": 1,
	//   "tests": [
	//     {
	//       "test": "shop/cart.TestCheckout",
	//       "owner": "@payments",
	//       "reason": "times out on a loaded runner",
	//       "opened": "2026-11-20",
	//       "expires": "2026-12-31",
	//       "claim": {
	//         "passed": 57,
	//         "trials": 60,
	//         "rate": 0.95,
	//         "lower": 0.8629948352365147,
	//         "upper": 0.9828504978356043,
	//         "confidence": 0.95,
	//         "date": "2026-11-20"
	//       },
	//       "release": {
	//         "below": 0.01,
	//         "confidence": 0.95,
	//         "runs": 1
	//       },
	//       "since": {
	//         "passed": 20,
	//         "trials": 20,
	//         "runs": 1,
	//         "clean": 1,
	//         "checked": "2026-11-21"
	//       }
	//     }
	//   ]
	// }
}
