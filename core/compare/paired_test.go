package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core/stat"
)

// textbookT is the paired t-test as a textbook writes it (and SciPy's
// ttest_rel computes it): the mean and the sum of squared deviations in
// plain two-pass floating point, s = √(Σ(d−d̄)²/(n−1)), t = d̄/(s/√n),
// p = 2·P(T > |t|) on n−1 degrees of freedom, the interval d̄ ± t_q·s/√n
// with the quantile from core/stat.
func textbookT(a, b []float64, level float64) (mean, se, low, high, tv, p float64) {
	n := float64(len(a))
	for i := range a {
		mean += b[i] - a[i]
	}
	mean /= n
	ss := 0.0
	for i := range a {
		dev := b[i] - a[i] - mean
		ss += dev * dev
	}
	se = math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	tv = mean / se
	q := stat.StudentQuantile(1-(1-level)/2, n-1)
	return mean, se, mean - q*se, mean + q*se, tv, 2 * stat.StudentTail(math.Abs(tv), n-1)
}

// TestPairedAgainstTextbook compares Compare's paired interval and test
// with textbookT on 3,000 random pairs of sides (2 to 400 questions, 1 to
// 5 trials each, random levels in [0.5, 0.999]). Tolerance: 1e-9 absolute
// on the difference, SE and bounds, 1e-9 relative on t, and 1e-9 absolute
// on p (textbookT's sums are not exactly rounded, so the last bits differ).
func TestPairedAgainstTextbook(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 2))
	worst := 0.0
	cases := 0
	for range 3000 {
		n := 2 + r.IntN(399)
		a, b := randomSides(r, n, 0)
		opt := DefaultOptions
		opt.Level = 0.5 + r.Float64()*0.499
		res, err := Compare(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		ra, rb := make([]float64, n), make([]float64, n)
		for i := range n {
			ra[i], rb[i] = rate(a.Scenarios[i]), rate(b.Scenarios[i])
		}
		mean, se, low, high, tv, p := textbookT(ra, rb, opt.Level)
		low, high = max(low, -1), min(high, 1) // a difference of accuracies lies in [-1, 1]: Compare cuts the interval there
		if res.SE == 0 {
			continue // every difference equal: Compare's SE is exactly 0, the textbook's a rounding residue
		}
		cases++
		errs := []float64{math.Abs(res.Diff - mean), math.Abs(res.SE - se), math.Abs(res.Low - low),
			math.Abs(res.High - high), math.Abs(*res.T-tv) / math.Max(1, math.Abs(tv)), math.Abs(res.PValue - p)}
		for i, e := range errs {
			worst = max(worst, e)
			if e > 1e-9 {
				t.Fatalf("n=%d level=%v: figure %d off by %.3g: got %+v; textbook %v %v [%v, %v] t=%v p=%v",
					n, opt.Level, i, e, res, mean, se, low, high, tv, p)
			}
		}
		if res.DF != n-1 || res.Questions != n {
			t.Fatalf("df %d, questions %d for n = %d", res.DF, res.Questions, n)
		}
	}
	t.Logf("%d cases, largest error %.3g", cases, worst)
}

// TestPairedPublished checks pairedT on Student's sleep data (Cushny and
// Peebles 1905, as printed in R's datasets::sleep): the extra hours of
// sleep of 10 patients under two drugs. R's t.test(extra ~ group, data =
// sleep, paired = TRUE) prints t = -4.0621, df = 9, p-value = 0.002833,
// 95 percent confidence interval -2.4598858 -0.7001142, mean difference
// -1.58; pairedT takes drug 2 minus drug 1, so the signs flip.
func TestPairedPublished(t *testing.T) {
	g1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	g2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	d := make([]float64, len(g1))
	for i := range d {
		d[i] = g2[i] - g1[i]
	}
	r := pairedT(d, 0.95, false)
	if !near(r.mean, 1.58, 1e-12) || !near(*r.t, 4.0621, 5e-5) || r.df != 9 || !near(r.p, 0.002833, 5e-7) ||
		!near(r.low, 0.7001142, 5e-8) || !near(r.high, 2.4598858, 5e-8) {
		t.Errorf("sleep data: mean %v t %v df %d p %v interval [%v, %v]", r.mean, *r.t, r.df, r.p, r.low, r.high)
	}
}

// TestPairedEqualDiffs: differences that are equal exactly (though not in
// floating point: 2/3 − 1/3 and 1/3 − 0) give a zero SE and a point
// interval, p = 0 for a nonzero difference and 1 for none.
func TestPairedEqualDiffs(t *testing.T) {
	a, b := sides("x:1/3 y:0/3 z:2/3"), sides("x:2/3 y:1/3 z:3/3")
	res, err := Compare(a, b, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.SE != 0 || res.Low != res.High || res.T != nil || res.PValue != 0 {
		t.Errorf("equal differences: se %v interval [%v, %v] t %v p %v", res.SE, res.Low, res.High, res.T, res.PValue)
	}
	res, _ = Compare(a, a, DefaultOptions)
	if res.SE != 0 || res.Diff != 0 || res.PValue != 1 || res.Improved+res.Worsened != 0 || res.Unchanged != 3 {
		t.Errorf("a side against itself: %+v", res)
	}
}
