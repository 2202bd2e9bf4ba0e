package aa_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
)

// A suite of 40 scenarios over 10 runs: which gate catches a 5-point
// regression with 4 runs per side, and how often each fires when nothing
// changed. stable-break breaks round(0.05·40) = 2 scenarios that never failed
// and stable-half halves 4, so every shape plants the same expected drop.
// The paired t-test misses broken scenarios most: they inflate the spread
// it divides by. The rates are the same for the same seed on every platform.
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
	base, err := aa.ReadCSV(strings.NewReader(b.String()))
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := sim.DefaultOptions
	opt.Sets = 2000
	opt.Drop = 0.05
	res, err := aa.Simulate(base, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	pct := func(x *float64) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100**x)
	}
	for _, g := range res.Gates {
		fmt.Printf("%s: false alarms %s; caught", g.Gate, pct(g.FalseAlarm))
		for i, d := range g.Detection {
			fmt.Printf(" %s %s", res.Shapes[i].Shape, pct(d))
		}
		fmt.Println()
	}
	// Output:
	// fixed-drop: false alarms 2.8%; caught flaky-worse 55.4% stable-break 55.2% stable-half 54.7% all-worse 52.7%
	// paired-t: false alarms 4.4%; caught flaky-worse 57.0% stable-break 18.1% stable-half 33.1% all-worse 48.6%
	// formula-threshold: false alarms 2.8%; caught flaky-worse 55.4% stable-break 55.2% stable-half 54.7% all-worse 52.7%
	// measured-threshold: false alarms 4.5%; caught flaky-worse 65.3% stable-break 64.8% stable-half 62.8% all-worse 61.4%
}
