package aa

import (
	"github.com/flakegate/flakegate/core/aa/sim"
)

// Constants of the A/A check: one-sided 5% false alarms and 80% detection
// (docs/STATISTICS.md, A/A check).
const (
	ZAlarm = 1.645
	ZPower = 0.842
)

// Options chooses which figures an A/A result lists.
type Options struct {
	Ks    []int     // runs per side to list alarm thresholds for, each >= 1
	Drops []float64 // drops to size runs per side for, each in (0,1]
	// Depth sets the in-depth analyses (variance ratio, trend test,
	// fixed-drop rule, pass^k, flaky scenarios, paired t-test); the zero
	// value leaves them out of the result.
	Depth DepthOptions
	// Simulate, when not nil, runs the gate simulator on the baseline.
	Simulate *sim.Options
	// Pause, when not nil, is called between slices of the in-depth
	// analyses' long loops (the trend test's random permutations, every
	// 2^16 values permuted or so), so that a caller sharing one thread with
	// a user interface, as a browser page does, can let it paint and take
	// input. It must not touch the sides; the result does not depend on it.
	Pause func()
	// Interrupt, when not nil, is called where Pause is and between slices
	// of the simulation; when it returns an error, Check stops and returns
	// that error. A server passes its request's context here
	// (func() error { return ctx.Err() }), so that work stops when the
	// client has gone or the platform's deadline has passed.
	Interrupt func() error
}

// DefaultOptions lists thresholds at 1, 2, 4 and 8 runs per side, the
// runs needed to catch drops of 2, 3 and 5 points, and the in-depth
// analyses at their defaults; it runs no simulation.
var DefaultOptions = Options{Ks: []int{1, 2, 4, 8}, Drops: []float64{0.02, 0.03, 0.05}, Depth: DefaultDepthOptions}

// Noise is the spread of a one-run against one-run comparison.
type Noise struct {
	Formula  float64  `json:"formula"`  // sqrt(2v/n)
	Measured *float64 `json:"measured"` // sqrt(2)·stdev(run rates); null below 3 runs
	S        float64  `json:"s"`        // the larger of the two
}

// Threshold is the drop a comparison at RunsPerSide runs per side must exceed.
type Threshold struct {
	RunsPerSide int     `json:"runs_per_side"`
	Drop        float64 `json:"drop"` // 1.645·s/sqrt(k), a fraction
}

// RunsNeeded is the runs per side that catch a drop 80% of the time.
type RunsNeeded struct {
	Drop        float64 `json:"drop"`
	RunsPerSide int64   `json:"runs_per_side"` // ceil(((1.645+0.842)·s/drop)²)
}

// Trend counts the ordered pairs of runs on which the one-run threshold fires.
type Trend struct {
	Pairs                int `json:"pairs"`                  // R(R-1)/2
	FiredEarlierBaseline int `json:"fired_earlier_baseline"` // the later run dropped
	FiredLaterBaseline   int `json:"fired_later_baseline"`   // the earlier run dropped
}

// RunRate is one run's pass rate.
type RunRate struct {
	Run  string  `json:"run"`
	Rate float64 `json:"rate"`
}

// Drop is one scenario's candidate-minus-baseline pass-rate difference.
type Drop struct {
	Scenario string  `json:"scenario"`
	Diff     float64 `json:"diff"`
}

// Candidate compares a candidate's runs against the baseline's.
type Candidate struct {
	Runs         int     `json:"runs"`
	Scenarios    int     `json:"scenarios"` // scenarios both sides have
	Diff         float64 `json:"diff"`      // mean per-scenario candidate minus baseline
	Threshold    float64 `json:"threshold"` // 1.645·s/√2·sqrt(1/R_base+1/R_cand)
	Verdict      string  `json:"verdict"`
	Blocks       bool    `json:"blocks"`
	LargestDrops []Drop  `json:"largest_drops"` // up to 8, most negative first, ties by scenario
}

// Result is the A/A check of a baseline, with an optional candidate.
type Result struct {
	Scenarios  int          `json:"scenarios"`
	Runs       int          `json:"runs"`
	Rows       int64        `json:"rows"`
	Mixed      int          `json:"mixed"` // scenarios with both passes and failures
	V          float64      `json:"v"`     // mean unbiased q(1-q) over scenarios
	Noise      Noise        `json:"noise"`
	Thresholds []Threshold  `json:"thresholds"`
	RunsNeeded []RunsNeeded `json:"runs_needed"`
	Trend      *Trend       `json:"trend"` // null below 3 runs or when s = 0
	RunRates   []RunRate    `json:"run_rates"`
	Candidate  *Candidate   `json:"candidate"`
	// The in-depth analyses, whose fields sit at the top level of the JSON
	// (variance_ratio, trend_test, fixed_drop, pass_k, all_pass_bound, flaky,
	// paired_t); absent when Options.Depth is the zero value.
	*Depth
	Simulation *sim.Result `json:"simulation"` // null unless Options.Simulate is set
	Warnings   []string    `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result, set by the surfaces that know where the calculator is (the
	// API, on its own origin; the CLI, given -site); absent otherwise.
	Link string `json:"link,omitempty"`
	// LinkNote says in words what the link leaves out, or why there is
	// none (a state past the 8 KiB a link holds); absent when nothing.
	LinkNote string `json:"link_note,omitempty"`
}
