package quarantine

import (
	"github.com/flakegate/flakegate/core/gate"
)

// MaxCleanRuns is the most clean runs a release may ask for, 2^53: a target
// rate that needs more (below about 1e-15 at 95%) is refused as a setting
// no test suite can meet.
const MaxCleanRuns = 1 << 53

// CleanRuns is the number of clean runs in a row that prove a failure rate
// below `below` at `confidence`: the smallest m with
//
//	(1 - below)^m <= 1 - confidence.
//
// If the rate were below or higher, m clean runs in a row would happen with
// probability at most 1-confidence. It is seed 003's rerun budget read the
// other way (gate.RerunsFor): the reruns that catch a flake of rate below
// with power confidence. Below 1% at 95% takes 299 runs; below 0.1%, 2,995.
// The answer is exact for below and confidence as float64 holds them. It
// is +Inf when below is 0. Both arguments must be in (0,1); the registry
// reader checks that.
func CleanRuns(below, confidence float64) float64 { return gate.RerunsFor(below, confidence) }
