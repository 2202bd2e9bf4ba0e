package aa

import (
	"fmt"
	"io"
	"math"
)

// Costs of the A/A check, in steps. A step is about a nanosecond of one
// core natively (x86-64, measured as CPU time per unit of each loop); in
// WebAssembly each takes two to three times as long. Work adds them up so
// that a server can refuse, before it starts, a check it could not finish
// in time.
const (
	stepsPerPermutedRun = 6   // the trend test: one run of one random order
	stepsPerRatePair    = 1   // the exact independent drop rate: one (scenario, count) pair
	stepsPerRunPair     = 7   // the fixed-drop rule between runs of unequal sizes: one pair
	stepsPerDraw        = 8   // the simulation: one Bernoulli draw
	stepsPerTally       = 200 // the figures of one scenario or run, sorted and summed
	stepsFixed          = 1e5 // the rest: quantiles, thresholds, the result
)

// Work is an upper bound on the steps Check takes on baseline base (with a
// candidate of cand scenarios and runs, 0 without one) under opt, from the
// sizes alone: n scenarios of which m went both ways, and R runs.
//
//	thresholds, trend, run rates:   200·(n + R + candidate's n + R)
//	trend test:                      6·R·P, P = R! when R <= ExactUpTo, else Permutations
//	fixed-drop rule, unequal runs:  7·R² when R <= 3,000
//	independent drop rate:          m²/2 when m <= 20,000 (the exact convolution), else m
//	simulation:                     8·Sets·2k·n
//
// Reading the CSV is not counted: it is linear in the bytes read, which a
// server bounds by its body limit.
func Work(base *Side, candScenarios, candRuns int, opt Options) float64 {
	n, r := float64(len(base.Scenarios)), float64(len(base.Runs))
	var m float64
	for _, t := range base.Scenarios {
		if 0 < t.Passed && t.Passed < t.Total {
			m++
		}
	}
	w := stepsFixed + stepsPerTally*(n+r+float64(candScenarios+candRuns))
	if opt.Depth != (DepthOptions{}) && r >= 3 {
		orders := float64(opt.Depth.Permutations)
		if int(r) <= opt.Depth.ExactUpTo {
			orders = math.Gamma(r + 1)
		}
		w += stepsPerPermutedRun * r * orders
		if !equalRunSizes(base) && int(r) <= unequalPairLimit {
			w += stepsPerRunPair * r * r
		}
		if m <= exactScenarioLimit {
			w += stepsPerRatePair * m * m / 2
		} else {
			w += m
		}
	}
	if s := opt.Simulate; s != nil {
		w += stepsPerDraw * float64(s.Sets) * float64(2*s.RunsPerSide) * n
	}
	return w
}

// WorkText says what the biggest terms of Work are, in words, for a
// refusal: "9,999 permutations × 5,000 runs for the trend test".
func WorkText(base *Side, opt Options) string {
	n, r := len(base.Scenarios), len(base.Runs)
	trend := 0.0
	if opt.Depth != (DepthOptions{}) && r >= 3 && r > opt.Depth.ExactUpTo {
		trend = stepsPerPermutedRun * float64(r) * float64(opt.Depth.Permutations)
	}
	simw := 0.0
	if s := opt.Simulate; s != nil {
		simw = stepsPerDraw * float64(s.Sets) * float64(2*s.RunsPerSide) * float64(n)
	}
	switch {
	case simw >= trend && simw > 0:
		s := opt.Simulate
		return fmt.Sprintf("the simulation draws %d sets × %d runs × %d scenarios", s.Sets, 2*s.RunsPerSide, n)
	case trend > 0:
		return fmt.Sprintf("the trend test permutes %d runs %d times", r, opt.Depth.Permutations)
	}
	return fmt.Sprintf("%d scenarios in %d runs", n, r)
}

// Limits cap what ReadCSVWithin keeps in memory: the distinct scenarios
// and runs of one file. Zero means no cap.
type Limits struct {
	Scenarios int // >= 0
	Runs      int // >= 0
}

// ReadCSVWithin is ReadCSV with the scenarios and runs of the side capped
// by lim: the row that brings either past its cap is a core.TooLarge
// *Error at that row's line, and memory stays within the caps whatever the
// input holds.
func ReadCSVWithin(r io.Reader, lim Limits) (*Side, error) {
	return readCSV(r, lim)
}
