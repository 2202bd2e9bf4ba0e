package compare

import (
	"math"

	"github.com/flakegate/flakegate/core/stat"
)

// tTest is a two-sided one-sample t-test of differences against zero and
// the t interval of their mean.
type tTest struct {
	mean, se  float64
	df        int
	low, high float64
	t         *float64
	p         float64
}

// pairedT is SciPy's ttest_rel on the per-question rates: with d the
// differences, n their count, s their sample standard deviation,
//
//	mean = Σd/n, se = s/√n, t = mean/se on n−1 degrees of freedom,
//	p = 2·P(T > |t|), interval mean ± t_{(1+level)/2, n−1}·se.
//
// equal says the differences are all the same exactly: then se is 0 (not
// the rounding residue of the rates), the interval is the point, and p is
// 1 for a zero difference and 0 for any other.
func pairedT(d []float64, level float64, equal bool) tTest {
	n := len(d)
	r := tTest{mean: fmean(d), df: n - 1}
	if !equal {
		r.se = math.Sqrt(stat.SampleVariance(d) / float64(n))
	}
	r.low, r.high, r.t, r.p = tInterval(r.mean, r.se, float64(r.df), level)
	return r
}

// tInterval is the two-sided t interval and test of an estimate with
// standard error se on df degrees of freedom.
func tInterval(mean, se, df, level float64) (low, high float64, t *float64, p float64) {
	if se == 0 {
		p = 1
		if mean != 0 {
			p = 0
		}
		return mean, mean, nil, p
	}
	q := stat.StudentQuantile((1+level)/2, df)
	half := float64(q * se)
	tv := mean / se
	return mean - half, mean + half, &tv, min(1, 2*stat.StudentTail(tv, df))
}
