package aa

import (
	"github.com/flakegate/flakegate/core/stat"
)

// TrendTest asks whether the run pass rates drift in run order (the order in
// which run ids first appear). The statistic is the least-squares slope; its
// p-value is two-sided and comes from permuting the run order: every one of
// the R! orders when R is small (Exact), otherwise Permutations random orders
// drawn with a fixed seed, counting the observed order as one of them.
type TrendTest struct {
	SlopePerRun    float64 `json:"slope_per_run"`    // change of the pass rate per run, a fraction per run
	Intercept      float64 `json:"intercept"`        // the fitted pass rate at the first run, a fraction
	FirstHalfMean  float64 `json:"first_half_mean"`  // mean pass rate of the first ⌊R/2⌋ runs
	SecondHalfMean float64 `json:"second_half_mean"` // mean pass rate of the last ⌊R/2⌋ runs
	PValue         float64 `json:"p_value"`          // two-sided, in (0,1]
	Permutations   int64   `json:"permutations"`     // run orders compared, R! when Exact
	Exact          bool    `json:"exact"`            // every run order was enumerated
}

// trendTest needs at least 3 runs; poll, when not nil, is called between
// slices of the random permutations, and its error stops the test.
func trendTest(s *Side, opt DepthOptions, poll func() error) (*TrendTest, error) {
	rates := runRates(s)
	r := len(rates)
	mean, slope := stat.LineFit(rates)
	half := r / 2
	t := &TrendTest{
		SlopePerRun:    slope,
		Intercept:      mean - float64(slope*float64(r-1)/2),
		FirstHalfMean:  stat.Fmean(rates[:half]),
		SecondHalfMean: stat.Fmean(rates[r-half:]),
	}
	var p stat.SlopeTest
	if equalRunSizes(s) {
		// Equal runs: the slope is proportional to Σ c_i·passed_i with
		// integer c_i, so ties between run orders are exact.
		ys := make([]int64, r)
		for i, t := range s.Runs {
			ys[i] = t.Passed
		}
		p = stat.NewIntSlopeTest(ys)
	} else {
		p = stat.NewFloatSlopeTest(rates)
	}
	if r <= opt.ExactUpTo {
		t.PValue, t.Permutations = p.Exact()
		t.Exact = true
	} else {
		var err error
		if t.PValue, t.Permutations, err = p.Sampled(opt.Permutations, opt.Seed, poll); err != nil {
			return nil, err
		}
	}
	return t, nil
}
