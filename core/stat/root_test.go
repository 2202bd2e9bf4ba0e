package stat

import (
	"math"
	"testing"
)

// solveIncreasing on functions whose roots are known exactly.
func TestSolveIncreasing(t *testing.T) {
	double := func(x float64) float64 { return 2 * x }
	// x² - 2 from far below and far above: √2 to within 1e-15, relative (the
	// solver stops once a step moves x by less than 4e-16 of itself, and the
	// product may be fused into a multiply-add on arm64).
	for _, x0 := range []float64{1e-3, 1, 1e6} {
		got := solveIncreasing(x0, func(x float64) float64 { return x*x - 2 }, double, double)
		if math.Abs(got-math.Sqrt2) > 1e-15*math.Sqrt2 {
			t.Errorf("from %v: %v, want √2 = %v", x0, got, math.Sqrt2)
		}
	}
	// A root far above the start is reached by grow, then bisection: the
	// derivative given is useless (0).
	got := solveIncreasing(1, func(x float64) float64 { return x - 1e10 }, func(float64) float64 { return 0 }, double)
	if math.Abs(got-1e10) > 1e10*1e-15 {
		t.Errorf("grow and bisect: %v, want 1e10", got)
	}
	// An exact zero is returned as it is.
	if got := solveIncreasing(3, func(x float64) float64 { return x - 3 }, func(float64) float64 { return 1 }, double); got != 3 {
		t.Errorf("exact zero: %v", got)
	}
	// NaN from f is NaN, never an approximation.
	if got := solveIncreasing(1, func(float64) float64 { return math.NaN() }, double, double); !math.IsNaN(got) {
		t.Errorf("NaN f: %v", got)
	}
}
