package stat

import (
	"math"
	"testing"
)

// Z(0.95) is the exact normal quantile at 0.975, as docs/STATISTICS.md,
// Wilson intervals, states; R's qnorm(0.975) prints 1.959963984540054.
func TestZ(t *testing.T) {
	if got := Z(0.95); got != 1.959963984540054 {
		t.Fatalf("Z(0.95) = %.17g, want 1.959963984540054", got)
	}
	// qnorm(0.95) = 1.6448536269514722, qnorm(0.995) = 2.5758293035489004,
	// qnorm(0.75) = 0.6744897501960817 (R 4.x, printed with 17 digits);
	// tolerance 1e-14 relative.
	for _, c := range []struct{ conf, want float64 }{
		{0.90, 1.6448536269514722}, {0.99, 2.5758293035489004}, {0.5, 0.6744897501960817},
	} {
		if got := Z(c.conf); relErr(got, c.want) > 1e-14 {
			t.Errorf("Z(%v) = %.17g, want %.17g", c.conf, got, c.want)
		}
	}
	for _, bad := range []float64{0, 1, -0.5, 1.5, math.NaN()} {
		if !math.IsNaN(Z(bad)) {
			t.Errorf("Z(%v) must be NaN", bad)
		}
	}
}

// The Wilson intervals of docs/STATISTICS.md, Wilson intervals (as
// R's prop.test(correct=FALSE) and statsmodels' proportion_confint(method=
// "wilson") compute them), and of a printed sizing table and history. They are
// printed to 4 or 5 decimals, so the tolerance is half a unit of the last
// printed digit.
func TestWilsonVerified(t *testing.T) {
	z := Z(0.95)
	cases := []struct {
		k, n         float64
		lower, upper float64
		tol          float64
	}{
		{10, 20, 0.2993, 0.7007, 5e-5},
		{17, 20, 0.6396, 0.9476, 5e-5},
		// A printed table gives [0.3773, 0.6227] for 30/60, one unit off in the
		// last digit each: the ends are 0.37735024 and 0.62264976 (at z =
		// 1.959963985 as at Z(0.95)), which round to 0.3774 and 0.6226.
		{30, 60, 0.3774, 0.6226, 5e-5},
		{51, 60, 0.7389, 0.9190, 5e-5},
		{18, 20, 0.6990, 0.9721, 5e-5},
		{19, 20, 0.7639, 0.9911, 5e-5},
		{1, 120, 0.00147, 0.04570, 5e-6},
		{4, 120, 0.01304, 0.08258, 5e-6},
		// A printed sizing table rounds to two decimals.
		{30, 60, 0.38, 0.62, 5e-3},
		{51, 60, 0.74, 0.92, 5e-3},
		{10, 20, 0.30, 0.70, 5e-3},
		{17, 20, 0.64, 0.95, 5e-3},
		{18, 20, 0.70, 0.97, 5e-3},
		{19, 20, 0.76, 0.99, 5e-3},
		// A printed history: "roughly 1.3% to 8.3%" for 4 failures in 120 runs.
		{4, 120, 0.013, 0.083, 5e-4},
		// Wilson's two-sided upper for 0 failures in 10 runs is
		// 0.278 (the exact one-sided bound, 0.259, is aa_depth_test.go's).
		{0, 10, 0, 0.278, 5e-4},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n, z)
		if math.Abs(lo-c.lower) > c.tol || math.Abs(hi-c.upper) > c.tol {
			t.Errorf("Wilson(%v/%v) = [%.6f, %.6f], want [%v, %v] ±%v", c.k, c.n, lo, hi, c.lower, c.upper, c.tol)
		}
	}
	if lo, hi := Wilson(0, 0, z); lo != 0 || hi != 1 {
		t.Errorf("n = 0 must give [0,1], got [%v, %v]", lo, hi)
	}
}

// Property: 0 <= lower <= p̂ <= upper <= 1 for every count up to n = 300 at
// several confidences, and a wider confidence never gives a narrower
// interval.
//
// This failed with wilson.go as of commit 69bce92 at the bounds (residues
// such as 3.5e-18 for k = 0 and 0.9999999999999999 for k = n, in 915 of the
// 272,700 triples here); f84bb18 clamps the interval to hold p.
func TestWilsonProperties(t *testing.T) {
	confs := []float64{0.5, 0.8, 0.9, 0.95, 0.99, 0.999999}
	for n := 1; n <= 300; n++ {
		for k := 0; k <= n; k++ {
			p := float64(k) / float64(n)
			prevLo, prevHi := 2.0, -1.0
			for _, c := range confs {
				lo, hi := Wilson(float64(k), float64(n), Z(c))
				if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
					t.Fatalf("%d/%d at %v: [%v, %v] does not hold %v", k, n, c, lo, hi, p)
				}
				if lo > prevLo || hi < prevHi {
					t.Fatalf("%d/%d: interval at %v narrower than at a lower confidence", k, n, c)
				}
				prevLo, prevHi = lo, hi
			}
		}
	}
}
