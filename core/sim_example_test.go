package core_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// A suite of 40 scenarios over 10 runs: which gate catches a 5-point
// regression with 4 runs per side, and how often each fires when nothing
// changed. stable-break breaks round(0.05·40) = 2 scenarios that never failed
// and stable-half halves 4, so every shape plants the same expected drop.
// The paired t-test misses broken scenarios most: they inflate the spread
// it divides by. The table is the same for the same seed on every platform.
func ExampleSimulate() {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for run := range 10 {
		for s := range 40 {
			passed := 1
			switch {
			case s < 4:
				passed = 0 // always fails
			case s < 16:
				// flaky, passing with chance 0.1 … 0.9
				if rng.Float64() >= float64(s%9+1)/10 {
					passed = 0
				}
			}
			fmt.Fprintf(&b, "s%02d,run%d,%d\n", s, run+1, passed)
		}
	}
	base, err := core.ReadAA(strings.NewReader(b.String()))
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := core.DefaultSimOptions
	opt.Sets = 2000
	opt.Drop = 0.05
	res, err := core.Simulate(base, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	res.WriteTable(os.Stdout)
	// Output:
	// 2000 sets, 4 run(s) per side   threshold  false alarms  flaky-worse  stable-break  stable-half  all-worse
	//   planted drop                                               5.00 pts      5.00 pts     5.00 pts   5.00 pts
	//   fixed-drop                      5.00 pts          2.8%        55.4%         55.2%        54.7%      52.7%
	//   paired-t                      t < -1.685          4.4%        57.0%         18.1%        33.1%      48.6%
	//   formula-threshold               4.54 pts          2.8%        55.4%         55.2%        54.7%      52.7%
	//   measured-threshold              3.89 pts          4.5%        65.3%         64.8%        62.8%      61.4%
}
