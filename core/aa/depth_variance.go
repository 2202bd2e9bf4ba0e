package aa

import (
	"github.com/flakegate/flakegate/core/stat"
)

// VarianceRatio compares the measured spread of the run pass rates with the
// spread independent runs would have. Under independence a run's pass rate
// has variance v/n (v the mean unbiased q(1-q), n scenarios), and the sample
// variance of R run rates over v/n is distributed as χ²(R-1)/(R-1).
type VarianceRatio struct {
	MeasuredVariance    float64 `json:"measured_variance"`     // sample variance of the run pass rates, fraction²
	FormulaVariance     float64 `json:"formula_variance"`      // v/n, fraction²
	MeasuredOverFormula float64 `json:"measured_over_formula"` // >= 0; 1 is what independence predicts
	Level               float64 `json:"level"`                 // of the range, in (0,1)
	RangeLower          float64 `json:"range_lower"`           // χ²(R-1) quantile (1-level)/2, over R-1
	RangeUpper          float64 `json:"range_upper"`           // χ²(R-1) quantile (1+level)/2, over R-1
	Inside              bool    `json:"inside"`                // RangeLower <= ratio <= RangeUpper
	// Detrended is the same ratio after removing a least-squares line in run
	// order, with R-2 degrees of freedom; null below 3 runs.
	Detrended *Detrended `json:"detrended"`
}

// Detrended is the variance ratio of the residuals around the run-order line.
type Detrended struct {
	MeasuredVariance    float64 `json:"measured_variance"` // residual sum of squares over R-2, fraction²
	MeasuredOverFormula float64 `json:"measured_over_formula"`
	RangeLower          float64 `json:"range_lower"` // χ²(R-2) based, as VarianceRatio's
	RangeUpper          float64 `json:"range_upper"`
	Inside              bool    `json:"inside"`
}

// varianceRatio needs len(rates) >= 3 and v > 0.
func varianceRatio(rates []float64, v float64, n int, level float64) *VarianceRatio {
	r := len(rates)
	formula := v / float64(n)
	measured := stat.SampleVariance(rates)
	vr := &VarianceRatio{
		MeasuredVariance:    measured,
		FormulaVariance:     formula,
		MeasuredOverFormula: measured / formula,
		Level:               level,
	}
	vr.RangeLower, vr.RangeUpper = stat.VarianceRatioRange(r-1, level)
	vr.Inside = vr.RangeLower <= vr.MeasuredOverFormula && vr.MeasuredOverFormula <= vr.RangeUpper

	res := stat.Detrend(rates)
	var rss stat.Sum
	for _, e := range res {
		rss.Add(float64(e * e))
	}
	dm := rss.Sum() / float64(r-2)
	dt := &Detrended{MeasuredVariance: dm, MeasuredOverFormula: dm / formula}
	dt.RangeLower, dt.RangeUpper = stat.VarianceRatioRange(r-2, level)
	dt.Inside = dt.RangeLower <= dt.MeasuredOverFormula && dt.MeasuredOverFormula <= dt.RangeUpper
	vr.Detrended = dt
	return vr
}
