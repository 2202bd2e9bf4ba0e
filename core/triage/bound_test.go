package triage

import (
	"math"
	"testing"
)

// TestUpperBound checks the Clopper–Pearson bound by its definition: at
// the bound u, P(Binomial(n, u) <= k) summed term by term (a sum of the
// probability mass, independent of the incomplete beta function the bound
// uses) equals a, to 1e-9 relative. k = 0 has the closed form 1 − a^(1/n):
// 3/n is the "rule of three" at a = 5% (Hanley & Lippman-Hand 1983), so
// n = 300 gives about 1%.
func TestUpperBound(t *testing.T) {
	for _, tc := range []struct {
		k, n int64
		a    float64
	}{{0, 300, 0.05}, {1, 600, 0.01}, {3, 100, 0.05}, {12, 600, 0.001}, {50, 60, 0.05}, {0, 1, 0.05}, {7, 8, 0.5}} {
		u := upperBound(tc.k, tc.n, tc.a)
		var sum float64
		for x := int64(0); x <= tc.k; x++ {
			lg, _ := math.Lgamma(float64(tc.n + 1))
			lx, _ := math.Lgamma(float64(x + 1))
			ly, _ := math.Lgamma(float64(tc.n - x + 1))
			sum += math.Exp(lg - lx - ly + float64(x)*math.Log(u) + float64(tc.n-x)*math.Log1p(-u))
		}
		if math.Abs(sum-tc.a) > 1e-9*tc.a {
			t.Errorf("k=%d n=%d a=%v: bound %v gives P(X<=k) = %v, want %v", tc.k, tc.n, tc.a, u, sum, tc.a)
		}
	}
	if u := upperBound(0, 300, 0.05); math.Abs(u-0.00993) > 0.00001 {
		t.Errorf("0 of 300 at 95%%: %v, want about 3/300 (rule of three: 0.00993 exactly)", u)
	}
	if upperBound(5, 5, 0.05) != 1 || upperBound(0, 0, 0.05) != 1 {
		t.Error("no runs or every run failed: want bound 1")
	}
}
