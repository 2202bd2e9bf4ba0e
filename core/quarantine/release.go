package quarantine

import (
	"strings"

	"github.com/flakegate/flakegate/core"
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
// probability at most 1-confidence. It is the rerun budget read the other way
// (docs/STATISTICS.md, Quarantine's release count) (gate.RerunsFor): the reruns that catch a flake of rate below
// with power confidence. Below 1% at 95% takes 299 runs; below 0.1%, 2,995.
// The answer is exact for below and confidence as float64 holds them. It
// is +Inf when below is 0. Both arguments must be in (0,1); the registry
// reader checks that.
func CleanRuns(below, confidence float64) float64 { return gate.RerunsFor(below, confidence) }

// CleanRunsResult answers how many clean runs in a row prove a failure
// rate below a target: the page's calculator, the API's and the CLI's.
type CleanRunsResult struct {
	Below      float64 `json:"below"`      // the failure rate to prove a test below, in (0,1)
	Confidence float64 `json:"confidence"` // in (0,1)
	// CleanRuns is the smallest m with (1-Below)^m <= 1-Confidence, at most
	// MaxCleanRuns: what m clean runs prove at one look from one fixed
	// start.
	CleanRuns int64 `json:"clean_runs"`
	// CleanRunsChecked is the clean runs from the start of a quarantine
	// that release a test by the registry's rule, which holds however
	// often it is checked (CleanRunsChecked), at most MaxCleanRuns.
	CleanRunsChecked int64    `json:"clean_runs_checked"`
	Warnings         []string `json:"warnings"`
	// Link is the calculator view that reproduces this answer, as
	// Result.Link; absent when the calculator's address is unknown.
	Link string `json:"link,omitempty"`
}

// CleanRunsFor checks a release rule and answers it: how many clean runs
// release a test below `below` at `confidence` by the registry's rule,
// checked after every run, and how many in a row prove it at one look. A rate or a
// confidence outside (0,1), or a rule that needs more than MaxCleanRuns,
// is a *core.Error of Kind Invalid naming the field.
func CleanRunsFor(below, confidence float64) (*CleanRunsResult, error) {
	if err := checkRelease("release", Release{Below: below, Confidence: confidence}); err != nil {
		pe := err.(*pathError)
		return nil, core.FieldErrorf(strings.TrimPrefix(pe.path, "release."), "%s", pe.msg)
	}
	return &CleanRunsResult{Below: below, Confidence: confidence, CleanRuns: int64(CleanRuns(below, confidence)),
		CleanRunsChecked: CleanRunsChecked(below, confidence), Warnings: []string{}}, nil
}
