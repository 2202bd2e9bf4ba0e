package gate

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// Anytime is the verdict two arms' counts give when they may have been
// looked at after every trial, as a sequential experiment looks: each
// arm's confidence sequence (the Jeffreys beta-binomial mixture at half
// the error rate, stat.BetaMixture) holds at every number of trials at
// once, so intervals apart are a verdict that is wrong at most 1 −
// confidence of the time however often the counts were looked at. It sits
// beside the fixed-sample Wilson verdict, which holds for one look at a
// number of trials fixed in advance; the anytime intervals are wider.
type Anytime struct {
	Baseline Bounds `json:"baseline"` // the baseline's confidence-sequence interval
	Patched  Bounds `json:"patched"`  // the patched arm's
	// Verdict is improved or regressed when the intervals are apart, else
	// no-detectable-change; it needs no minimum of trials.
	Verdict string `json:"verdict"`
}

// Bounds is an interval of pass rates.
type Bounds struct {
	Lower float64 `json:"lower"` // in [0,1]
	Upper float64 `json:"upper"` // in [Lower,1]
}

// anytimeMixture is the mixing distribution of the anytime verdict:
// Jeffreys', no rate favoured.
var anytimeMixture = stat.BetaMixture{A: 0.5, B: 0.5}

// AnytimeOf is the anytime verdict of two arms' counts at confidence.
func AnytimeOf(baseline, patched core.Count, confidence float64) Anytime {
	alpha := (1 - confidence) / 2
	var a Anytime
	a.Baseline.Lower, a.Baseline.Upper = anytimeMixture.Interval(baseline.Passed, baseline.Trials, alpha)
	a.Patched.Lower, a.Patched.Upper = anytimeMixture.Interval(patched.Passed, patched.Trials, alpha)
	switch {
	case a.Baseline.Upper < a.Patched.Lower:
		a.Verdict = core.VerdictImproved
	case a.Patched.Upper < a.Baseline.Lower:
		a.Verdict = core.VerdictRegressed
	default:
		a.Verdict = core.VerdictNoChange
	}
	return a
}
